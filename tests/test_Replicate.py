"""nn_legacy.Replicate: nFeature copies of the input along a new dim."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, torch_forward_backward, uniform
from numpy_checks import from_torch7
from table_module_checks import (check_table_batch_equals_samples)


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_matches_numpy(dim):
    m = nn.Replicate(3, dim)
    x = uniform((2, 4), 1)
    axis = dim if dim >= 0 else 3 + dim
    out = m.forward(x)
    np.testing.assert_array_equal(out, np.repeat(np.expand_dims(x, axis), 3, axis=axis))
    g = uniform(out.shape, 2)
    np.testing.assert_allclose(m.backward(x, g), g.sum(axis=axis), rtol=1e-15)


def test_matches_torch_expand():
    x, g = uniform((2, 4), 1), uniform((2, 5, 4), 2)
    out, gin = torch_forward_backward(lambda t: t.unsqueeze(1).expand(2, 5, 4), x, g)
    m = nn.Replicate(5, 1)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-15)


def test_ndim_counts_dim_after_the_batch():
    m = nn.Replicate(3, 0, ndim=1)
    assert m.forward(uniform((4,), 1)).shape == (3, 4)
    assert m.forward(uniform((2, 4), 1)).shape == (2, 3, 4)
    check_table_batch_equals_samples(m, uniform((2, 4), 1), uniform((2, 3, 4), 2))


def test_output_is_a_writeable_copy():
    x = uniform((2,), 1)
    out = nn.Replicate(2).forward(x)
    assert out.flags.writeable and not np.shares_memory(out, x)


def test_bad_arguments():
    with raises_exactly(ValueError, "Replicate: nFeature must be at least 1, got 0"):
        nn.Replicate(0)
    with raises_exactly(ValueError, "Replicate: dim 3 is out of range for input 2D of size [2, 4]"):
        nn.Replicate(2, 3).forward(uniform((2, 4)))
    with raises_exactly(ValueError, "Replicate: gradOutput must be of size [2, 3, 4] like the output, "
                                    "got 2D of size [2, 4]"):
        nn.Replicate(3, 1).backward(uniform((2, 4)), uniform((2, 4)))


def test_from_torch7_counts_from_zero():
    m = from_torch7("nn.Replicate", nfeatures=3.0, dim=2.0, ndim=1.0)
    assert (m.nfeatures, m.dim, m.ndim) == (3, 1, 1)
    assert m.forward(uniform((2, 4))).shape == (2, 4, 3)
    m = from_torch7("nn.Replicate", nfeatures=2.0)   # files from before dim existed
    assert (m.dim, m.ndim) == (0, None)


def test_repr():
    assert repr(nn.Replicate(3, 1)) == "nn.Replicate(3, 1)"
