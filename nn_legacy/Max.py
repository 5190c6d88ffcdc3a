from ._bases.dims import Extremum


class Max(Extremum):
    """``output = max of the input along dimension``; the dim is removed,
    but a 1D input gives an output of size [1].  ``indices`` keeps the
    0-based position of each maximum (the first on ties; a NaN counts as
    the maximum).  ``dimension`` is 0-based, negative from the end; with
    ``nInputDims`` and an input of ``nInputDims + 1`` dims it counts after
    the batch dim.  gradInput: gradOutput at the position of each maximum,
    0 elsewhere."""

    _arg = "argmax"

    def _onnx(self, g, x, y):
        """ReduceMax"""
        return self._onnx_reduce(g, x, "ReduceMax")
