"""What the tests of Sum, Mean, Max and Min share: the dims they reduce
(0-based, negative, shifted by nInputDims) and the checks every reduction
passes, each test file giving its module and numpy reference."""
import numpy as np

from layer_checks import (check_batch_equals_samples, check_buffer_reuse, check_float32, check_noncontiguous,
                          check_pickle, raises_exactly, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7

# (dimension, nInputDims, input shape) -> the numpy axis reduced
DIMS = {
    "dim 0": ((0, None, (3, 4)), 0),
    "dim 1": ((1, None, (3, 4)), 1),
    "negative": ((-1, None, (2, 3, 4)), 2),
    "after the batch": ((0, 1, (3, 4)), 1),
    "no batch": ((0, 1, (4,)), 0),
    "nInputDims not matching": ((0, 2, (2, 3, 4, 5)), 0),
}


def out_shape(shape, axis):
    return shape[:axis] + shape[axis + 1:] if len(shape) > 1 else (1,)


def check_extreme_matches_numpy(m, x, axis, extreme, arg_extreme):
    """Max or Min m along the numpy axis: the values extreme(x), their 0-based
    positions arg_extreme(x) in m.indices, and gradOutput put back at exactly
    those positions."""
    shape = out_shape(x.shape, axis)
    np.testing.assert_array_equal(m.forward(x), extreme(x, axis=axis).reshape(shape))
    np.testing.assert_array_equal(m.indices, arg_extreme(x, axis=axis).reshape(shape))
    g = uniform(shape, 2)
    expected = np.zeros_like(x)
    np.put_along_axis(expected, np.expand_dims(arg_extreme(x, axis=axis), axis),
                      np.expand_dims(g.reshape(extreme(x, axis=axis).shape), axis), axis)
    np.testing.assert_array_equal(m.backward(x, g), expected)


def check_extreme_matches_torch(m, torch_fn, dim, x, g):
    """Max or Min m against torch.max / torch.min along dim: values, indices
    and gradInput, to the last bit."""
    torch = torch_or_skip()
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    values, indices = torch_fn(tx, dim)
    values.backward(torch.from_numpy(g))
    np.testing.assert_array_equal(m.forward(x), values.detach().numpy())
    np.testing.assert_array_equal(m.indices, indices.numpy())
    np.testing.assert_array_equal(m.backward(x, g), tx.grad.numpy())


def check_reduction(make, name):
    """The checks of every reduction: float32, strides, batches, buffers,
    pickling, bad arrays and dims, the fields of a Torch7 file, repr."""
    m = make(1, None)
    x, g = uniform((3, 5), 1), uniform((3,), 2)
    check_float32(m, x, g)
    check_noncontiguous(m, x, g)
    check_buffer_reuse(m, uniform((6, 5), 3), uniform((6,), 4), x, g)
    check_pickle(m, x, g)
    check_batch_equals_samples(make(0, 2), uniform((3, 4, 5), 1), uniform((3, 5), 2))
    check_bad_arrays_numpy(make(1, None), x, g, "the output")
    with raises_exactly(ValueError, f"{name}: dimension 2 is out of range for input 2D of size [3, 5]"):
        make(2, None).forward(x)
    with raises_exactly(ValueError, f"{name}: dimension 1 (nInputDims 1) is out of range for input 2D of size "
                                    "[3, 5]"):
        make(1, 1).forward(x)
    with raises_exactly(ValueError, f"{name}: input must have at least one dimension, got a 0D array"):
        make(0, None).forward(np.array(1.0))
    with raises_exactly(TypeError, f"{name}: dimension must be an integer, got 0.5"):
        make(0.5, None)
    loaded = from_torch7(f"nn.{name}", dimension=2.0, nInputDims=1.0)
    assert (loaded.dimension, loaded.nInputDims) == (1, 1)
    assert repr(make(1, None)) == f"nn.{name}(1)"
