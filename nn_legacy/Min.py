from ._dims import Extremum


class Min(Extremum):
    """``output = min of the input along dimension``: as Max, with the
    minimum (the first on ties; a NaN counts as the minimum)."""

    _arg = "argmin"
