"""nn_legacy.OneHot: 0-based class indices to one-hot rows."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_or_skip
from numpy_checks import from_torch7


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float64])
def test_matches_numpy_eye(dtype):
    m = nn.OneHot(5)
    classes = np.array([[0, 4, 2], [1, 1, 3]], dtype=dtype)
    out = m.forward(classes)
    np.testing.assert_array_equal(out, np.eye(5)[classes.astype(int)])
    assert out.dtype == np.float64 and out.shape == (2, 3, 5)
    gin = m.backward(classes, np.ones(out.shape))
    assert gin.shape == classes.shape and gin.dtype == classes.dtype and not gin.any()


def test_matches_torch_one_hot():
    torch = torch_or_skip()
    classes = np.array([3, 0, 2, 2])
    expected = torch.nn.functional.one_hot(torch.from_numpy(classes), 4).numpy()
    np.testing.assert_array_equal(nn.OneHot(4).forward(classes), expected)


def test_a_single_class():
    m = nn.OneHot(3)
    np.testing.assert_array_equal(m.forward(1), [0, 1, 0])
    assert m.backward(1, np.zeros(3)) == 0


def test_float_makes_float32_output():
    m = nn.OneHot(3).float()
    assert m.forward(np.array([2])).dtype == np.float32
    assert m.type() is None


def test_bad_input():
    m = nn.OneHot(3)
    with raises_exactly(ValueError, "OneHot: class 3 at [1] is out of range [0, 3) of input 1D of size [2]"):
        m.forward(np.array([0, 3]))
    with raises_exactly(ValueError, "OneHot: class -1 at [0, 0] is out of range [0, 3) of input 2D of size [1, 1]"):
        m.forward(np.array([[-1]]))
    with raises_exactly(ValueError, "OneHot: input must hold whole class indices, got 1.5 at [1]"):
        m.forward(np.array([1.0, 1.5]))
    with raises_exactly(ValueError, "OneHot: input must hold whole class indices, got nan at [0]"):
        m.forward(np.array([np.nan]))
    with raises_exactly(TypeError, "OneHot: input must hold class indices, got bool"):
        m.forward(np.array([True]))
    with raises_exactly(TypeError, "OneHot: input must be a numpy array, got list"):
        m.forward([1, 2])
    with raises_exactly(ValueError, "OneHot: outputSize must be at least 1, got 0"):
        nn.OneHot(0)
    with raises_exactly(ValueError, "OneHot: gradOutput must be of size [2, 3] like the output, got 1D of size "
                                    "[3]"):
        m.backward(np.array([0, 1]), np.ones(3))


def test_from_torch7():
    m = from_torch7("nn.OneHot", outputSize=4.0)
    assert m.outputSize == 4 and m.outputType == np.float64
    np.testing.assert_array_equal(m.forward(np.array([3])), [[0, 0, 0, 1]])
