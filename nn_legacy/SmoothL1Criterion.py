from ._bases.pointwise_criterion import PointwiseCriterion


class SmoothL1Criterion(PointwiseCriterion):
    """Huber loss with threshold 1: with ``d_i = x_i - t_i``,
    ``loss = sum_i (0.5 d_i^2 if |d_i| < 1 else |d_i| - 0.5)``, divided by the
    number of elements when ``sizeAverage`` (the default).  input and target
    need the same number of elements.

    Gradient: ``dL/dx_i = d_i`` clipped to ``[-1, 1]`` (divided likewise).
    """

    _kernel = "SmoothL1Criterion"
