from ._bases.tables import ElementwiseExtremum


class CMinTable(ElementwiseExtremum):
    """``output = min(input[0], input[1], ...)`` elementwise: as CMaxTable,
    with the minimum (the first one on ties; a NaN counts as the
    minimum)."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    _pick = "argmin"

    def _onnx(self, g, x, y):
        """Min"""
        return g.op("Min", x)
