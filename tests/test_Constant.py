"""nn_legacy.Constant: the output is a fixed value whatever the input."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7

VALUE = np.array([[1.0, 2.0], [3.0, 4.0]])


def test_a_number_is_an_array_of_size_1():
    m = nn.Constant(2.5)
    np.testing.assert_array_equal(m.forward(uniform((3, 4))), [2.5])
    gin = m.backward(uniform((3, 4)), np.ones(1))
    assert gin.shape == (3, 4) and not gin.any()


@pytest.mark.parametrize("shape,batch", [((5,), None), ((3, 5), 3), ((2, 3, 5), 2)])
def test_batches_repeat_the_value(shape, batch):
    m = nn.Constant(VALUE, nInputDim=1)
    out = m.forward(uniform(shape, 1))
    expected = VALUE if batch is None else np.broadcast_to(VALUE, (batch,) + VALUE.shape)
    np.testing.assert_array_equal(out, expected)
    assert not np.shares_memory(out, m.value)


def test_float_converts_the_value():
    m = nn.Constant(VALUE).float()
    assert m.value.dtype == np.float32 and m.forward(uniform((2,))).dtype == np.float32


def test_integer_values_become_float64():
    assert nn.Constant(np.array([1, 2])).value.dtype == np.float64


def test_bad_input():
    with raises_exactly(TypeError, "Constant: value must be a number or a numeric array, got 'x'"):
        nn.Constant("x")
    m = nn.Constant(VALUE)
    with raises_exactly(TypeError, "Constant: input must be a numpy array, got list"):
        m.forward([1.0])
    with raises_exactly(ValueError, "Constant: gradOutput must be of size [2, 2] like the output, "
                                    "got 1D of size [4]"):
        m.backward(uniform((3,)), np.ones(4))


def test_from_torch7():
    m = from_torch7("nn.Constant", value=VALUE, nInputDim=2.0)
    assert m.nInputDim == 2 and m.value is VALUE
    assert m.forward(uniform((4, 2, 2))).shape == (4, 2, 2)


def test_repr():
    assert repr(nn.Constant(VALUE)) == "nn.Constant(size [2, 2])"
