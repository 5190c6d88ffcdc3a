import math

from ._bases.dims import ViewOf, check_int, lua_int


class Collapse(ViewOf):
    """The dims of a sample flattened into one: an input of ``nInputDim``
    dims becomes 1D, a batch of more dims ``[batch, rest]``.  Output and
    gradInput are views when the memory allows (see ``ViewOf``)."""

    def __init__(self, nInputDim):
        super().__init__()
        self.nInputDim = check_int(self, nInputDim, "nInputDim", 0)

    def _t7_fixup(self, version):
        self.nInputDim = lua_int(self.nInputDim)

    def _shape(self, input):
        if input.ndim > self.nInputDim:
            return (input.shape[0], int(math.prod(input.shape[1:])))
        return (input.size,)

    def __repr__(self):
        return f"nn.Collapse({self.nInputDim})"
