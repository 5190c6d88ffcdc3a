"""nn_legacy.Collapse: a sample's dims flattened into one."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7


@pytest.mark.parametrize("in_shape,out_shape", [((3, 4), (12,)), ((2, 3, 4), (2, 12)), ((0, 3, 4), (0, 12))],
                         ids=["one sample", "batch", "empty batch"])
def test_shapes(in_shape, out_shape):
    m = nn.Collapse(2)
    x = uniform(in_shape, 1)
    out = m.forward(x)
    assert out.shape == out_shape and np.shares_memory(out, x) == bool(x.size)
    np.testing.assert_array_equal(out.ravel(), x.ravel())
    g = uniform(out_shape, 2)
    np.testing.assert_array_equal(m.backward(x, g), g.reshape(in_shape))


def test_bad_arguments():
    with raises_exactly(ValueError, "Collapse: nInputDim must be at least 0, got -1"):
        nn.Collapse(-1)
    with raises_exactly(ValueError, "Collapse: gradOutput must be of size [2, 6] like the output, "
                                    "got 1D of size [12]"):
        nn.Collapse(2).backward(uniform((2, 3, 2)), uniform((12,)))


def test_from_torch7():
    assert from_torch7("nn.Collapse", nInputDim=3.0).nInputDim == 3
