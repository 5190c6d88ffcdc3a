from ._bases.pointwise_criterion import PointwiseCriterion


class MSECriterion(PointwiseCriterion):
    """Mean squared error: ``loss = sum_i (x_i - t_i)^2``, divided by the
    number of elements when ``sizeAverage`` (the default).  input and target
    need the same number of elements (as in Torch7).

    Gradient: ``dL/dx_i = 2 (x_i - t_i)``, divided likewise.
    """

    _kernel = "MSECriterion"
