from ._bases.plane_dropout import PlaneDropout
from ._helpers.planes import VOLUMETRIC


class VolumetricDropout(PlaneDropout):
    """SpatialDropout (see there for the math) for volumes: input
    ``[planes, T, H, W]`` or ``[batch, planes, T, H, W]``; each whole
    ``T x H x W`` plane is dropped or kept, as PyTorch's ``dropout3d``.
    ``noise`` is ``[..., planes, 1, 1, 1]``."""

    _space = VOLUMETRIC
