"""nn_legacy.Min: the minimum along a dim, its 0-based position in indices.
Its values against numpy and torch, its jacobian and the checks of every
reduction run with Max's, over the family table in test_Max.py."""
import numpy as np

import nn_legacy as nn


def test_ties_go_to_the_first_and_nan_wins():
    m = nn.Min(0)
    out = m.forward(np.array([2.0, -1.0, -1.0]))
    assert out.tolist() == [-1.0] and m.indices.tolist() == [1]
    assert np.isnan(m.forward(np.array([0.0, np.nan, -5.0]))[0]) and m.indices.tolist() == [1]


def test_is_not_a_Max():
    assert not isinstance(nn.Min(), nn.Max)
