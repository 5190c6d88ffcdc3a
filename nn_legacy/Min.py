from ._bases.dims import Extremum


class Min(Extremum):
    """``output = min of the input along dimension``: as Max, with the
    minimum (the first on ties; a NaN counts as the minimum)."""

    _arg = "argmin"

    def _onnx(self, g, x, y):
        """ReduceMin"""
        return self._onnx_reduce(g, x, "ReduceMin")
