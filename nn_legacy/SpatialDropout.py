from ._bases.plane_dropout import PlaneDropout
from ._helpers.planes import SPATIAL


class SpatialDropout(PlaneDropout):
    """Dropout of whole planes: while training each plane of the input
    ``[planes, H, W]`` or ``[batch, planes, H, W]`` is zeroed with
    probability ``p`` (one draw per plane and sample, from the module
    generator) and otherwise scaled by ``1 / (1 - p)``, so the expected
    output is the input (inverted dropout, as Dropout and PyTorch's
    ``dropout2d``).  Neighbouring pixels of a plane are strongly correlated,
    so dropping pixels one by one would regularise little (Tompson et al.
    2015).  ``noise`` ``[..., planes, 1, 1]`` holds the factors;
    ``dL/dx = dL/dy * noise`` with the same factors.

    Evaluation (``evaluate()``): the identity.  ``p = 0`` is the identity,
    ``p = 1`` zeroes everything while training.  ``v1=True`` is Torch7's
    scheme: kept planes are not scaled while training, and evaluation
    multiplies by ``1 - p`` (output and gradient); modules loaded from
    Torch7 files get it, so they compute what they computed there.
    ``stochasticInference=True`` drops planes while evaluating too.
    ``setp(p)`` changes p.  The positional arguments are Torch7's,
    ``SpatialDropout(p, stochasticInference)``; v1 is given by keyword.
    """

    _space = SPATIAL
