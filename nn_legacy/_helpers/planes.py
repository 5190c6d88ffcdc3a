"""What the spatial and volumetric modules written in numpy share (not a
layer itself): the check that an input is a stack of planes, with or
without a batch dim, and the view of it as a batch."""
from .arrays import describe, name_of

SPATIAL = ("height", "width")
VOLUMETRIC = ("time", "height", "width")


def check_planes(module, input, space=SPATIAL, name="input"):
    """input must be ``[planes, *space]`` or ``[batch, planes, *space]``;
    returns True for the batched form.  (The array type is checked by the
    caller: float-only modules with ``_kernels``, element-moving ones with
    ``_dims.check_array``.)"""
    n = len(space) + 1
    if input.ndim not in (n, n + 1):
        one = ", ".join(("planes",) + space)
        raise ValueError(f"{name_of(module)}: {name} must be {n}D [{one}] or {n + 1}D [batch, {one}], "
                         f"got {describe(input)}")
    return input.ndim == n + 1


def as_batch(array, batched):
    """array with a batch dim of 1 put in front unless it has one."""
    return array if batched else array[None]
