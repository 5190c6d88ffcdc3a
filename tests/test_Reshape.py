"""nn_legacy.Reshape: the input reshaped to size, or [batch] + size."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7
from table_module_checks import (check_table_noncontiguous)

# (constructor arguments, input shape, output shape)
CASES = {
    "one sample": (((3, 4), {}), (12,), (3, 4)),
    "sizes as a tuple": ((((3, 4),), {}), (2, 6), (3, 4)),
    "a batch": (((3, 4), {}), (5, 12), (5, 3, 4)),
    "first dim 1 is a batch": (((3, 4), {}), (1, 12), (1, 3, 4)),
    "batchMode False": (((3, 4), dict(batchMode=False)), (1, 12), (3, 4)),
    "batchMode True": (((2, 6), dict(batchMode=True)), (1, 12), (1, 2, 6)),
    "trailing bool is batchMode": (((6, 2, True), {}), (2, 12), (2, 6, 2)),
}


@pytest.mark.parametrize("args,in_shape,out_shape", CASES.values(), ids=CASES.keys())
def test_shapes(args, in_shape, out_shape):
    sizes, options = args
    m = nn.Reshape(*sizes, **options)
    x = uniform(in_shape, 1)
    out = m.forward(x)
    assert out.shape == out_shape
    np.testing.assert_array_equal(out.ravel(), x.ravel())
    g = uniform(out_shape, 2)
    gin = m.backward(x, g)
    assert gin.shape == in_shape
    np.testing.assert_array_equal(gin.ravel(), g.ravel())


def test_output_is_a_view_of_contiguous_input():
    x, g = uniform((2, 6), 1), uniform((2, 3, 2), 2)
    m = nn.Reshape(3, 2)
    assert np.shares_memory(m.forward(x), x)
    assert np.shares_memory(m.backward(x, g), g)


def test_strided_input_is_copied():
    x = uniform((6, 2), 1).T
    out = nn.Reshape(3, 2).forward(x)
    np.testing.assert_array_equal(out, np.ascontiguousarray(x).reshape(2, 3, 2))
    check_table_noncontiguous(nn.Reshape(3, 2), uniform((2, 6), 1), uniform((2, 3, 2), 2))


def test_bad_arguments():
    with raises_exactly(ValueError, "Reshape: size must be one or more positive integers, got (3, 0)"):
        nn.Reshape(3, 0)
    with raises_exactly(ValueError, "Reshape: size must be one or more positive integers, got ()"):
        nn.Reshape()
    with raises_exactly(TypeError, "Reshape: batchMode given twice"):
        nn.Reshape(3, True, batchMode=False)
    with raises_exactly(ValueError, "Reshape: input 2D of size [4, 5] has 20 elements, which cannot be reshaped "
                                    "to [4, 3, 4] (a batch of 4)"):
        nn.Reshape(3, 4).forward(uniform((4, 5)))
    with raises_exactly(ValueError, "Reshape: input 2D of size [4, 5] has 20 elements, which cannot be reshaped "
                                    "to [3, 4]"):
        nn.Reshape(3, 4, batchMode=False).forward(uniform((4, 5)))
    with raises_exactly(ValueError, "Reshape: input 1D of size [12] has 12 elements, which cannot be reshaped "
                                    "to [12, 12] (a batch of 12)"):
        nn.Reshape(12, batchMode=True).forward(uniform((12,)))
    with raises_exactly(ValueError, "Reshape: gradOutput must be of size [3, 4] like the output, got 1D of size "
                                    "[12]"):
        nn.Reshape(3, 4).backward(uniform((12,)), uniform((12,)))


def test_from_torch7():
    m = from_torch7("nn.Reshape", size=np.array([3, 4]), nelement=12.0, batchsize=np.array([1, 3, 4]))
    assert m.size == (3, 4) and m.nelement == 12 and m.batchMode is None and not hasattr(m, "batchsize")
    assert m.forward(uniform((2, 12))).shape == (2, 3, 4)


def test_repr():
    assert repr(nn.Reshape(3, 4)) == "nn.Reshape(3x4)"
