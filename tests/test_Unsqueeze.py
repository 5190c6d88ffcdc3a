"""nn_legacy.Unsqueeze: a new dim of size 1 at pos."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import check_matches_torch, raises_exactly, uniform
from numpy_checks import from_torch7

# (pos, numInputDims, input shape, output shape)
CASES = {
    "front": (0, None, (2, 3), (1, 2, 3)),
    "middle": (1, None, (2, 3), (2, 1, 3)),
    "end": (2, None, (2, 3), (2, 3, 1)),
    "negative": (-1, None, (2, 3), (2, 3, 1)),
    "after the batch": (0, 1, (2, 3), (2, 1, 3)),
    "one sample": (0, 1, (3,), (1, 3)),
}


@pytest.mark.parametrize("pos,n,in_shape,out_shape", CASES.values(), ids=CASES.keys())
def test_shapes(pos, n, in_shape, out_shape):
    m = nn.Unsqueeze(pos, n)
    x = uniform(in_shape, 1)
    out = m.forward(x)
    assert out.shape == out_shape and np.shares_memory(out, x)
    np.testing.assert_array_equal(out.ravel(), x.ravel())
    g = uniform(out_shape, 2)
    np.testing.assert_array_equal(m.backward(x, g), g.reshape(in_shape))


def test_matches_torch_unsqueeze():
    check_matches_torch(nn.Unsqueeze(1), lambda t: t.unsqueeze(1), uniform((2, 3), 1), uniform((2, 1, 3), 2))


def test_the_batch_rule_is_not_remembered():
    # Torch7 fixed numInputDims to the first input's dims; here each input decides
    m = nn.Unsqueeze(1)
    assert m.forward(uniform((2, 3))).shape == (2, 1, 3)
    assert m.forward(uniform((2, 3, 4))).shape == (2, 1, 3, 4)


def test_bad_arguments():
    with raises_exactly(ValueError, "Unsqueeze: pos 3 is out of range for input 2D of size [2, 3]"):
        nn.Unsqueeze(3).forward(uniform((2, 3)))
    with raises_exactly(ValueError, "Unsqueeze: pos 2 (nInputDims 1) is out of range for input 2D of size [2, 3]"):
        nn.Unsqueeze(2, 1).forward(uniform((2, 3)))
    with raises_exactly(ValueError, "Unsqueeze: gradOutput must be of size [2, 1, 3] like the output, "
                                    "got 2D of size [2, 3]"):
        nn.Unsqueeze(1).backward(uniform((2, 3)), uniform((2, 3)))


def test_from_torch7():
    m = from_torch7("nn.Unsqueeze", pos=2.0, numInputDims=1.0)
    assert (m.pos, m.numInputDims) == (1, 1)
    assert m.forward(uniform((4, 3))).shape == (4, 3, 1)


def test_repr():
    assert repr(nn.Unsqueeze(1)) == "nn.Unsqueeze(1)"
