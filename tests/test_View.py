"""nn_legacy.View: the input seen with other sizes, -1 inferred, Torch7's batch rule."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7

# (sizes, numInputDims, input shape, output shape)
CASES = {
    "one sample": ((3, 4), None, (12,), (3, 4)),
    "tuple": (((3, 4),), None, (2, 6), (3, 4)),
    "extra elements make a batch": ((4,), None, (3, 4), (3, 4)),
    "-1 takes everything": ((-1,), None, (3, 4), (12,)),
    "-1 with numInputDims": ((-1,), 2, (5, 3, 4), (5, 12)),
    "-1 with numInputDims and a batch of 1": ((-1,), 2, (1, 3, 4), (1, 12)),
    "-1 without the batch dim": ((-1,), 2, (3, 4), (12,)),
    "2 and -1": ((2, -1), 1, (3, 4), (3, 2, 2)),
    "leading dims multiply the batch": ((4,), 1, (2, 3, 4), (6, 4)),
    "batch from the sample dims": ((2,), 2, (3, 4), (6, 2)),
}


@pytest.mark.parametrize("sizes,n,in_shape,out_shape", CASES.values(), ids=CASES.keys())
def test_shapes(sizes, n, in_shape, out_shape):
    m = nn.View(*sizes)
    if n is not None:
        assert m.setNumInputDims(n) is m
    x = uniform(in_shape, 1)
    out = m.forward(x)
    assert out.shape == out_shape
    np.testing.assert_array_equal(out.ravel(), x.ravel())
    assert np.shares_memory(out, x)
    g = uniform(out_shape, 2)
    gin = m.backward(x, g)
    assert gin.shape == in_shape and np.shares_memory(gin, g)
    np.testing.assert_array_equal(gin.ravel(), g.ravel())


def test_bad_arguments():
    with raises_exactly(ValueError, "View: sizes must be one or more positive integers, with at most one -1, "
                                    "got (-1, -1)"):
        nn.View(-1, -1)
    with raises_exactly(ValueError, "View: sizes must be one or more positive integers, with at most one -1, "
                                    "got (3, -2)"):
        nn.View(3, -2)
    with raises_exactly(ValueError, "View: input 2D of size [3, 4] does not fit the view [5]"):
        nn.View(5).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "View: input must have at least numInputDims (3) dimensions, got 2D of size "
                                    "[3, 4]"):
        nn.View(-1).setNumInputDims(3).forward(uniform((3, 4)))
    with raises_exactly(ValueError, "View: numInputDims must be at least 0, got -1"):
        nn.View(4).setNumInputDims(-1)
    with raises_exactly(ValueError, "View: gradOutput must be of size [3, 4] like the output, got 1D of size "
                                    "[12]"):
        nn.View(4).backward(uniform((3, 4)), uniform((12,)))


def test_from_torch7():
    m = from_torch7("nn.View", size=np.array([-1.0, 4.0]), numElements=4.0, numInputDims=2.0)
    assert m.size == (-1, 4) and m.numElements == 4 and m.numInputDims == 2
    assert m.forward(uniform((5, 2, 4))).shape == (5, 2, 4)


def test_repr():
    assert repr(nn.View(-1, 4)) == "nn.View(-1, 4)"
