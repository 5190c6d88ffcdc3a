import numpy as np

from ._helpers.arrays import describe, name_of, reuse
from ._helpers.checks import check_table
from ._bases.dims import check_array, check_grad
from ._helpers.namespace import array_namespace
from ._bases.tables import same_layout
from .Module import Module


class MaskedSelect(Module):
    """The entries of a tensor where a mask is set: the input is a table
    ``[tensor, mask]`` with a mask of the tensor's shape (bool, or integers
    0 and 1 as Torch7's ByteTensor), and the output is the 1D array
    ``tensor[mask]`` (in C order).  gradInput is ``[gradOutput put back at
    the masked places and zero elsewhere, zeros like the mask]``."""

    def _split(self, input):
        xp = array_namespace(input)
        tensor, mask = check_table(name_of(self), "input", input, ["tensor", "mask"])
        check_array(self, tensor, "input[0]")
        check_array(self, mask, "input[1]")
        if mask.shape != tensor.shape:
            raise ValueError(f"{name_of(self)}: input[1] (the mask) must be of size "
                             f"[{', '.join(map(str, tensor.shape))}] like input[0], got {describe(mask)}")
        if mask.dtype.kind not in "biu":
            raise TypeError(f"{name_of(self)}: input[1] (the mask) must be bool or integer, got {mask.dtype}")
        if mask.dtype.kind == "b":
            return tensor, mask, mask
        bad = (mask != 0) & (mask != 1)
        if bad.any():
            where = [int(i) for i in xp.argwhere(bad)[0]]
            raise ValueError(f"{name_of(self)}: input[1] (the mask) must hold only 0 and 1, got "
                             f"{mask[tuple(where)]} at {where}")
        return tensor, mask, mask != 0

    def updateOutput(self, input):
        tensor, _, where = self._split(input)
        picked = tensor[where]
        self.output = reuse(self.output, picked.shape, tensor.dtype, tensor)
        self.output[...] = picked
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        tensor, mask, where = self._split(input)
        check_grad(self, gradOutput, (int(xp.count_nonzero(where)),))
        like = [xp.empty(tensor.shape, gradOutput.dtype), mask]
        if not same_layout(self.gradInput, like):
            self.gradInput = [xp.empty(tensor.shape, gradOutput.dtype), xp.empty_like(mask)]
        self.gradInput[0].fill(0)
        self.gradInput[0][where] = gradOutput
        self.gradInput[1].fill(0)
        return self.gradInput

    def _onnx(self, g, x, y):
        """Compress of the flattened tensor by the flattened mask"""
        flat = [g.op("Reshape", [v, g.ints([-1])]) for v in x]
        mask = flat[1] if x[1].dtype == np.bool_ else g.op("Cast", [flat[1]], to=9)
        return g.op("Compress", [flat[0], mask], axis=0)
