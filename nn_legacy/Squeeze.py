from ._bases.dims import ViewOf, batch_dim, check_int, from_lua, lua_int


class Squeeze(ViewOf):
    """The input without its dims of size 1 (all of them, or only ``dim``,
    0-based, when given; a dim of another size is left).  As in Torch7 at
    least one dim stays: squeezing ``[1, 1]`` gives ``[1]``.

    With ``numInputDims`` and an input of ``numInputDims + 1`` dims, the
    first dim is the batch: ``dim`` counts after it, and a batch of one
    keeps its dim.  Output and gradInput are views when the memory allows
    (see ``ViewOf``).
    """

    def __init__(self, dim=None, numInputDims=None):
        super().__init__()
        self.dim = check_int(self, dim, "dim", optional=True)
        self.numInputDims = check_int(self, numInputDims, "numInputDims", 0, optional=True)

    _t7_one_based = ('dim',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dim = from_lua(getattr(self, "dim", None))
        self.numInputDims = lua_int(getattr(self, "numInputDims", None))

    def _shape(self, input):
        shape = input.shape
        if self.dim is not None:
            d = batch_dim(self, self.dim, input, self.numInputDims, name="dim")
            return shape[:d] + shape[d + 1:] if shape[d] == 1 and input.ndim > 1 else shape
        batch = self.numInputDims is not None and input.ndim == self.numInputDims + 1
        lead, rest = (shape[:1], shape[1:]) if batch else ((), shape)
        kept = tuple(s for s in rest if s != 1)
        return lead + (kept if kept or not rest else (1,))

    def __repr__(self):
        return "nn.Squeeze" + ("" if self.dim is None else f"({self.dim})")
