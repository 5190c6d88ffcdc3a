"""The checks SpatialSoftMax and SpatialLogSoftMax share: a (log-)softmax
over the planes at every pixel, through the SoftMax/LogSoftMax kernels."""
import numpy as np

from layer_checks import (assert_input_jacobian, check_bad_arrays, check_batch_equals_samples, check_buffer_reuse,
                          check_float32, check_noncontiguous, check_pickle, raises_exactly, torch_forward_backward,
                          torch_or_skip, uniform)

# non-square planes, batched and not
SHAPES = [(5, 3, 2), (2, 4, 3, 5)]
SHAPE_IDS = ["3D", "4D"]


def plane_dim(x):
    return x.ndim - 3


def check_per_pixel(cls, reference, shape):
    """At every pixel the output is reference() of the values the planes
    hold there (reference works along the last axis)."""
    x = uniform(shape, 1)
    out = cls().forward(x)
    lead = (slice(None),) * (x.ndim - 2)
    for index in np.ndindex(*shape[-2:]):
        np.testing.assert_allclose(out[lead + index], reference(x[lead + index]), rtol=1e-14, atol=1e-15)


def check_matches_torch(cls, torch_fn_name, shape):
    torch = torch_or_skip()
    x, g = uniform(shape, 1), uniform(shape, 2)
    out, gin = torch_forward_backward(lambda t: getattr(torch, torch_fn_name)(t, dim=plane_dim(x)), x, g)
    m = cls()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-12, atol=1e-15)


def check_same_as_base(cls, base, shape):
    """Bit for bit the result of the base module (SoftMax, LogSoftMax) on the same planes."""
    x, g = uniform(shape, 1), uniform(shape, 2)
    m, b = cls(), base()
    np.testing.assert_array_equal(m.forward(x), b.forward(x))
    np.testing.assert_array_equal(m.backward(x, g), b.backward(x, g))


def check_layer_properties(cls, kernel):
    """Jacobian, float32, strides, batch vs samples, buffers, pickle, bad arrays."""
    for shape in SHAPES:
        assert_input_jacobian(cls(), uniform(shape, 3))
        x, g = uniform(shape, 1), uniform(shape, 2)
        check_float32(cls(), x, g)
        check_noncontiguous(cls(), x, g)
        check_pickle(cls(), x, g)
    x, g = uniform((3, 4, 2, 3), 1), uniform((3, 4, 2, 3), 2)
    check_batch_equals_samples(cls(), x, g)
    check_buffer_reuse(cls(), x, g, uniform((2, 4, 2, 3), 3), uniform((2, 4, 2, 3), 4))
    check_bad_arrays(cls(), uniform((4, 2, 3), 1), uniform((4, 2, 3), 2), kernel)
    assert cls().parameters() == ([], [])


def check_refuses_non_spatial_input(cls):
    name = cls.__name__
    for shape, described in [((4, 5), "2D of size [4, 5]"), ((6,), "1D of size [6]"),
                             ((1, 2, 3, 4, 5), "5D of size [1, 2, 3, 4, 5]")]:
        with raises_exactly(ValueError, f"{name}: input must be 3D [planes, height, width] or "
                                        f"4D [batch, planes, height, width], got {described}"):
            cls().forward(uniform(shape))
        with raises_exactly(ValueError, f"{name}: input must be 3D [planes, height, width] or "
                                        f"4D [batch, planes, height, width], got {described}"):
            cls().updateGradInput(uniform(shape), uniform(shape))
