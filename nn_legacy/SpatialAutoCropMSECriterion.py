from ._bases.numpy_criterion import described
from .MSECriterion import MSECriterion


class SpatialAutoCropMSECriterion(MSECriterion):
    """MSECriterion (see there for the math) against the centre of a target
    whose planes may be larger than the input's: input and target are both
    ``[planes, H, W]`` or both ``[batch, planes, H, W]``, the target's
    ``Ht >= H`` and ``Wt >= W``, and the target is cropped to ``H x W``
    starting at row ``(Ht - H) // 2`` and column ``(Wt - W) // 2``.  The
    other dims must agree.

    backward crops the target the same way.  (Torch7's backward compared
    the whole target with the input's size, so it only worked when no crop
    was needed.)
    """

    def _cropped(self, input, target):
        name = type(self).__name__
        shape_in, shape_t = getattr(input, "shape", None), getattr(target, "shape", None)
        if shape_in is None or shape_t is None:
            self._kernels(input)
            raise TypeError(f"{name}: target must be a numpy array, got {type(target).__name__}")
        if len(shape_in) not in (3, 4) or len(shape_t) != len(shape_in):
            raise ValueError(f"{name}: input and target must both be 3D [planes, H, W] or 4D [batch, planes, H, W], "
                             f"got {described(shape_in)} and {described(shape_t)}")
        (h, w), (ht, wt) = shape_in[-2:], shape_t[-2:]
        if h > ht or w > wt:
            raise ValueError(f"{name}: the input's planes ({h}x{w}) must be no larger than the target's ({ht}x{wt})")
        top, left = (ht - h) // 2, (wt - w) // 2
        return target[..., top:top + h, left:left + w]

    def updateOutput(self, input, target):
        return super().updateOutput(input, self._cropped(input, target))

    def updateGradInput(self, input, target):
        return super().updateGradInput(input, self._cropped(input, target))
