import numpy as np

from .LookupTable import LookupTable


class LookupTableMaskZero(LookupTable):
    """A LookupTable whose index -1 is padding: it gives a row of zeros (the
    rnn package's LookupTableMaskZero, whose padding was the Lua index 0).

    ``LookupTableMaskZero(nIndex, nOutput)``: indices ``0 .. nIndex-1`` select
    the embeddings, -1 the padding row; ``weight`` is ``[nIndex + 1,
    nOutput]``, row 0 the padding (set to zero at every forward), row k + 1
    the embedding of index k, as in the Lua module's file.  So a sequence
    padded with -1 gets all-zero steps there, which ``MaskZero``,
    ``maskZero()`` and ``MaskZeroCriterion`` then mask.  Gradient: as
    LookupTable's, with nothing ever added to the padding row (the rnn
    package accumulated into it, a gradient no forward could use).  Runs on
    CUDA (``cuda()``): LookupTable's kernels, on indices shifted by one.
    """

    def __init__(self, nIndex, nOutput):
        if nIndex < 0:
            raise ValueError(f"LookupTableMaskZero: nIndex must be non-negative, got {nIndex}")
        super().__init__(nIndex + 1, nOutput)
        self.paddingValue = 0          # row 0, the padding: it gets no gradient
        self._shifted = None

    _buffer_names = ("_shifted",)

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        for name in ("__input", "_LookupTableMaskZero__input"):
            vars(self).pop(name, None)
        self._shifted = None
        self.paddingValue = 0          # the padding row (the file's paddingValue is LookupTable's, unused)

    def _t7_unfixup(self, fields):
        """save_lua: Lua's LookupTableMaskZero kept LookupTable's default
        paddingValue (0, no padding) and zeroed its row 1 itself."""
        fields["paddingValue"] = 0

    def _shift(self, input):
        """The row of each index: index + 1 (padding -1 -> row 0), checked."""
        index = self._indices(input)
        n = self.weight.shape[0] - 1
        if index.size and (bool((index < -1).any()) or bool((index >= n).any())):
            bad = int(index.min()) if bool((index < -1).any()) else int(index.max())
            raise ValueError(f"LookupTableMaskZero: indices must be -1 (padding) or in [0, {n}), got {bad}")
        self._shifted = index + 1
        return self._shifted

    def updateOutput(self, input):
        self.weight[0] = 0
        self.paddingValue = 0          # the padding row gets no gradient
        return super().updateOutput(self._shift(input))

    def accGradParameters(self, input, gradOutput, scale=1):
        self.paddingValue = 0
        super().accGradParameters(self._shift(input), gradOutput, scale)

    def __repr__(self):
        return f"nn.LookupTableMaskZero({self.weight.shape[0] - 1} x {self.weight.shape[1]}, padding -1)"

    def _onnx(self, g, x, y):
        """Add 1 to the indices, Gather (row 0, the padding, zeros)"""
        weight = self.weight.copy()
        weight[0] = 0
        index = x if x.dtype == np.int64 else g.op("Cast", [x], to=7)
        index = g.op("Add", [index, g.const(np.ones((), np.int64), "one", exact_type=True)])
        return g.op("Gather", [g.param(weight, "weight"), index], axis=0)
