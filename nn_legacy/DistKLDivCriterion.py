from ._bases.pointwise_criterion import PointwiseCriterion


class DistKLDivCriterion(PointwiseCriterion):
    """Kullback-Leibler divergence of the input distribution from the target,
    for an input of log-probabilities (the output of LogSoftMax) and a target
    of probabilities: ``loss = sum_{i: t_i > 0} t_i (log t_i - x_i)``, divided
    by the number of elements when ``sizeAverage`` (the default).  Elements
    with ``t_i <= 0`` count for nothing (``0 log 0 = 0``; Torch7 skipped
    negative targets the same way).  input and target need the same number
    of elements.

    Gradient: ``dL/dx_i = -t_i`` where ``t_i > 0``, else 0 (divided likewise).
    """

    _kernel = "DistKLDivCriterion"
