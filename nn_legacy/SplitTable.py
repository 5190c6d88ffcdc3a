import numpy as np

from ._helpers.arrays import name_of, reuse
from ._bases.dims import batch_dim, check_array, check_int, from_lua, lua_int
from ._helpers.namespace import array_namespace
from ._bases.tables import check_nested_like
from .Module import Module


class SplitTable(Module):
    """An array cut into the table of its slices along ``dimension``, which
    is removed: ``output[i] = input[..., i, ...]``, views of the input as in
    Torch7 (0D arrays for a 1D input, where Torch7 gave numbers).  ``dimension`` is 0-based, negative from the end; with
    ``nInputDims`` and an input of ``nInputDims + 1`` dims it counts after
    the batch dim.  gradInput stacks the table gradOutput back into one
    array."""

    _cache_names = ("_plan",)   # the checked order of the axes (see updateOutput)

    def __init__(self, dimension, nInputDims=None):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")
        self.nInputDims = check_int(self, nInputDims, "nInputDims", 0, optional=True)

    _t7_one_based = ('dimension',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dimension = from_lua(self.dimension)
        self.nInputDims = lua_int(getattr(self, "nInputDims", None))

    def _dim(self, input):
        check_array(self, input)
        return batch_dim(self, self.dimension, input, self.nInputDims)

    def _order(self, input):
        """The axes of input with the split dim first (() when it is first already), after the checks."""
        d = self._dim(input)
        return (d,) + tuple(range(d)) + tuple(range(d + 1, input.ndim)) if d else ()

    def updateOutput(self, input):
        if type(input) is np.ndarray and input.ndim > 1:   # (moveaxis costs more than the rest)
            # the dim moved first by a transpose, whose iteration gives the slices (views); the checked order
            # of the axes kept for the input's ndim and dtype and the module's dims (see _order)
            key = self.__dict__.get("_plan")
            if key is None or key[0] != input.ndim or key[1] is not input.dtype or key[2] is not self.dimension \
                    or key[3] is not self.nInputDims:
                key = self._plan = (input.ndim, input.dtype, self.dimension, self.nInputDims, self._order(input))
            self.output = list(input.transpose(key[4]) if key[4] else input)
            return self.output
        d = self._dim(input)
        if type(input) is np.ndarray:
            self.output = [input[i, ...] for i in range(input.shape[0])]   # 0D arrays (iteration gives numbers)
            return self.output
        moved = array_namespace(input).moveaxis(input, d, 0)
        self.output = [moved[i, ...] for i in range(moved.shape[0])]
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        d = self._dim(input)
        moved = xp.moveaxis(input, d, 0)
        check_nested_like(self, gradOutput, [moved[i, ...] for i in range(moved.shape[0])])
        dtype = np.result_type(*gradOutput) if gradOutput else input.dtype
        self.gradInput = reuse(self.gradInput, input.shape, dtype, input, *gradOutput)
        target = xp.moveaxis(self.gradInput, d, 0)
        for i, g in enumerate(gradOutput):
            target[i] = g
        return self.gradInput

    def __repr__(self):
        return f"nn.{name_of(self)}({self.dimension})"

    def _onnx(self, g, x, y):
        """Gather of each index along the dim"""
        d = self._dim(x.value)
        return [g.op("Gather", [x, np.array(i, dtype=np.int64)], axis=d) for i in range(x.shape[d])]
