"""The rounding and padding switches the poolings share (Torch7's
``ceil()``/``floor()`` and ``setCountIncludePad()``/``setCountExcludePad()``,
each returning the module); mixins for the pooling classes, not layers."""


class RoundingMode:
    """``ceil()``: the output size rounds up (a last window may start in the
    padding's or the input's last part); ``floor()``: down, the default."""

    def ceil(self):
        self.ceil_mode = True
        return self

    def floor(self):
        self.ceil_mode = False
        return self


class AveragingModes(RoundingMode):
    """Average poolings also choose whether the padding counts in a
    window's divisor (``setCountIncludePad()``, the default) or not."""

    def setCountIncludePad(self):
        self.count_include_pad = True
        return self

    def setCountExcludePad(self):
        self.count_include_pad = False
        return self
