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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reverse_sequence_usual_case_keeps_its_output_without_reuse(monkeypatch, dtype):
    """ReverseSequence on host arrays: its kept output, when of the input's
    shape and dtype, writable and apart from the input, is written again
    without a reuse() call; anything else (the output fed back, a new
    shape, a read-only output) gets a new array, the input reversed."""
    import importlib
    module = importlib.import_module("nn_legacy.ReverseSequence")
    m = nn.ReverseSequence()
    x = uniform((4, 2, 3), 1).astype(dtype)
    kept, grad = m.forward(x), m.backward(x, x[::-1])
    real = module.reuse
    monkeypatch.setattr(module, "reuse", lambda *a: pytest.fail("reuse called"))
    assert m.forward(x) is kept and m.backward(x, x[::-1]) is grad
    np.testing.assert_array_equal(kept, x[::-1])
    np.testing.assert_array_equal(grad, x)
    monkeypatch.setattr(module, "reuse", real)
    fed_back = m.forward(kept)
    assert fed_back is not kept
    np.testing.assert_array_equal(fed_back, x)
    m.output.flags.writeable = False
    y = m.forward(x)
    assert y is not fed_back and y.flags.writeable
    np.testing.assert_array_equal(y, x[::-1])
    np.testing.assert_array_equal(m.forward(x[:2]), x[1::-1])
