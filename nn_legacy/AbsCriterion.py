from ._bases.pointwise_criterion import PointwiseCriterion


class AbsCriterion(PointwiseCriterion):
    """Mean absolute error: ``loss = sum_i |x_i - t_i|``, divided by the number
    of elements when ``sizeAverage`` (the default).  input and target need the
    same number of elements.

    Gradient: ``dL/dx_i = sign(x_i - t_i)`` (divided likewise), taken as +1
    where ``x_i == t_i``, as in Torch7 (PyTorch's ``l1_loss`` uses 0 there).
    """

    _kernel = "AbsCriterion"
