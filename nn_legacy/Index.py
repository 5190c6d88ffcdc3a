import numpy as np

from ._helpers.arrays import describe, name_of, reuse
from ._helpers.checks import check_table
from ._bases.dims import batch_dim, check_array, check_grad, check_int, from_lua
from ._helpers.namespace import array_namespace
from ._bases.tables import same_layout
from .Module import Module


class Index(Module):
    """Entries of a tensor picked along ``dimension`` by an index array:
    the input is a table ``[tensor, indices]`` with 1D integer indices
    (0-based; any repeated), and ``output = np.take(tensor, indices,
    axis=dimension)``.  gradInput is ``[dL/dtensor, zeros like indices]``,
    where dL/dtensor adds up the gradOutput slices of each index (a
    repeated index collects them all)."""

    def __init__(self, dimension):
        super().__init__()
        self.dimension = check_int(self, dimension, "dimension")

    _t7_one_based = ('dimension',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dimension = from_lua(self.dimension)

    def _split(self, input):
        xp = array_namespace(input)
        tensor, indices = check_table(name_of(self), "input", input, ["tensor", "indices"])
        check_array(self, tensor, "input[0]")
        check_array(self, indices, "input[1]")
        if indices.dtype.kind not in "iu" or indices.ndim != 1:
            raise TypeError(f"{name_of(self)}: input[1] must be a 1D integer array of indices, got "
                            f"{describe(indices)} of {indices.dtype}")
        d = batch_dim(self, self.dimension, tensor, what="input[0]")
        bad = (indices < 0) | (indices >= tensor.shape[d])
        if bad.any():
            k = int(xp.argmax(bad))
            raise ValueError(f"{name_of(self)}: input[1][{k}] = {int(indices[k])} is out of range for size "
                             f"{tensor.shape[d]} of dimension {d} of input[0] {describe(tensor)}")
        return tensor, indices, d

    def updateOutput(self, input):
        xp = array_namespace(input)
        tensor, indices, d = self._split(input)
        shape = tensor.shape[:d] + indices.shape + tensor.shape[d + 1:]
        self.output = reuse(self.output, shape, tensor.dtype, tensor)
        xp.take(tensor, indices, axis=d, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        tensor, indices, d = self._split(input)
        check_grad(self, gradOutput, tensor.shape[:d] + indices.shape + tensor.shape[d + 1:])
        like = [xp.empty(tensor.shape, gradOutput.dtype), indices]
        if not same_layout(self.gradInput, like):
            self.gradInput = [xp.empty(tensor.shape, gradOutput.dtype), xp.empty_like(indices)]
        grad, zeros = self.gradInput
        grad.fill(0)
        zeros.fill(0)
        # add slice by slice in index order, so repeated indices sum the same way every time
        moved_grad, moved_out = xp.moveaxis(grad, d, 0), xp.moveaxis(gradOutput, d, 0)
        xp.add.at(moved_grad, indices, moved_out)
        return self.gradInput

    def __repr__(self):
        return f"nn.Index({self.dimension})"

    def _onnx(self, g, x, y):
        """Gather"""
        tensor, indices, d = self._split([v.value for v in x])
        if d == 0 and x[0].batched:
            g.fix_batch("it picks entries along the batch dimension")
        index = x[1] if x[1].dtype == np.int64 else g.op("Cast", [x[1]], to=7)
        return g.op("Gather", [x[0], index], axis=d)
