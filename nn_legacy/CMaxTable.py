from ._bases.tables import ElementwiseExtremum


class CMaxTable(ElementwiseExtremum):
    """``output = max(input[0], input[1], ...)`` elementwise over a table of
    float arrays of one shape.  Each element's gradient goes to the entry
    that gave the maximum (the first one on ties; a NaN counts as the
    maximum, so it propagates): ``gradInput[i] = gradOutput`` where input[i]
    won, 0 elsewhere."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors

    _pick = "argmax"

    def _onnx(self, g, x, y):
        """Max"""
        return g.op("Max", x)
