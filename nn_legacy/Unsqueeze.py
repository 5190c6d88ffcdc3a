from ._bases.dims import ViewOf, batch_dim, check_int, from_lua, lua_int


class Unsqueeze(ViewOf):
    """The input with a new dim of size 1 at position ``pos`` (0-based;
    ``pos == input.ndim`` appends it, a negative pos counts from the end of
    the output's dims).  With ``numInputDims`` and an input of
    ``numInputDims + 1`` dims, pos counts after the batch dim.  Output and
    gradInput are views when the memory allows (see ``ViewOf``)."""

    def __init__(self, pos, numInputDims=None):
        super().__init__()
        self.pos = check_int(self, pos, "pos")
        self.numInputDims = check_int(self, numInputDims, "numInputDims", 0, optional=True)

    def setNumInputDims(self, numInputDims):
        self.numInputDims = check_int(self, numInputDims, "numInputDims", 0, optional=True)
        return self

    _t7_one_based = ('pos',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.pos = from_lua(self.pos)
        self.numInputDims = lua_int(getattr(self, "numInputDims", None))

    def _shape(self, input):
        p = batch_dim(self, self.pos, input, self.numInputDims, name="pos", new=True)
        return input.shape[:p] + (1,) + input.shape[p:]

    def __repr__(self):
        return f"nn.Unsqueeze({self.pos})"
