from ._bases.pointwise_criterion import PointwiseCriterion


class SoftMarginCriterion(PointwiseCriterion):
    """Two-class logistic loss for targets of 1 or -1:
    ``loss = sum_i log(1 + exp(-t_i x_i))``, divided by the number of elements
    when ``sizeAverage`` (the default).  input and target need the same number
    of elements.  Computed without overflow for large ``|x|`` (Torch7 returned
    inf there).

    Gradient: ``dL/dx_i = -t_i / (1 + exp(t_i x_i))`` (divided likewise).
    """

    _kernel = "SoftMarginCriterion"
