"""nn_legacy.SeqReverseSequence: an array reversed along one of its first dims."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_buffer_reuse, check_float32, check_noncontiguous, uniform


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_reverses(dim):
    m = nn.SeqReverseSequence(dim)
    x, g = uniform((3, 4, 5), 1), uniform((3, 4, 5), 2)
    np.testing.assert_array_equal(m.forward(x), np.flip(x, dim))
    np.testing.assert_array_equal(m.backward(x, g), np.flip(g, dim))
    assert m.output.flags.c_contiguous
    assert_input_jacobian(m, x)
    check_float32(m, x, g)
    check_noncontiguous(m, x, g)
    check_buffer_reuse(m, x, g, x[:2].copy(), g[:2].copy())


def test_errors():
    with pytest.raises(ValueError, match="dim must be 0, 1 or 2, got 3"):
        nn.SeqReverseSequence(3)
    with pytest.raises(ValueError, match="must have more than 2 dims to reverse dim 2, got 2D"):
        nn.SeqReverseSequence(2).forward(np.zeros((2, 2)))
    assert repr(nn.SeqReverseSequence(1)) == "nn.SeqReverseSequence(1)"
