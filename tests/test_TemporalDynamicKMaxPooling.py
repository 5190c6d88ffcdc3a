"""nn_legacy.TemporalDynamicKMaxPooling: the k largest values of each feature, in time order."""
import math

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, check_batch_equals_samples, check_buffer_reuse, check_float32,
                          check_noncontiguous, check_pickle, raises_exactly, uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7


def reference(x, k):
    """Column by column: the positions of the k largest, sorted by time."""
    seq = x if x.ndim == 2 else None
    if seq is None:
        return np.stack([reference(s, k) for s in x])
    out = np.empty((k, x.shape[1]))
    for f in range(x.shape[1]):
        keep = sorted(sorted(range(len(x)), key=lambda t: (-x[t, f], t))[:k])
        out[:, f] = x[keep, f]
    return out


@pytest.mark.parametrize("minK, factor, length", [(3, 0, 7), (2, 0.5, 7), (4, 0.25, 7), (7, 0, 7)])
@pytest.mark.parametrize("batch", [None, 3], ids=["2D", "3D"])
def test_matches_the_definition(minK, factor, length, batch):
    m = nn.TemporalDynamicKMaxPooling(minK, factor)
    x = uniform(((batch,) if batch else ()) + (length, 4), 1)
    k = max(minK, math.ceil(factor * length))
    np.testing.assert_array_equal(m.forward(x), reference(x, k))
    assert_input_jacobian(m, x)


def test_ties_keep_the_earlier_step():
    x = np.array([[1.0], [2.0], [1.0], [0.0], [1.0]])
    np.testing.assert_array_equal(nn.TemporalDynamicKMaxPooling(3).forward(x), [[1.0], [2.0], [1.0]])
    m = nn.TemporalDynamicKMaxPooling(2)
    m.forward(x)
    np.testing.assert_array_equal(m.backward(x, np.array([[5.0], [7.0]])), [[5], [7], [0], [0], [0]])


def test_common_checks():
    m = nn.TemporalDynamicKMaxPooling(3, 0.5)
    x, g = uniform((3, 8, 4), 1), uniform((3, 4, 4), 2)
    check_float32(m, x, g)
    check_noncontiguous(m, x, g)
    check_batch_equals_samples(m, x, g)
    check_buffer_reuse(m, x, g, uniform((2, 8, 4), 3), uniform((2, 4, 4), 4))
    check_pickle(m, x, g)
    check_bad_arrays_numpy(m, x, g, "the output")


def test_bad_inputs():
    with raises_exactly(ValueError, "TemporalDynamicKMaxPooling: the sequence (2 steps, input 2D of size [2, 3]) is "
                                    "shorter than k = 3"):
        nn.TemporalDynamicKMaxPooling(3).forward(uniform((2, 3)))
    with raises_exactly(ValueError, "TemporalDynamicKMaxPooling: input must be 2D [seq, features] or 3D [batch, "
                                    "seq, features], got 1D of size [5]"):
        nn.TemporalDynamicKMaxPooling(3).forward(uniform((5,)))
    with raises_exactly(ValueError, "TemporalDynamicKMaxPooling: minK must be at least 1, got 0"):
        nn.TemporalDynamicKMaxPooling(0)


def test_loads_from_torch7_fields():
    m = from_torch7("nn.TemporalDynamicKMaxPooling", minK=2.0, factor=0.5, indices=np.ones((2, 3)))
    x = uniform((6, 3), 1)
    assert m.indices is None
    np.testing.assert_array_equal(m.forward(x), reference(x, 3))
