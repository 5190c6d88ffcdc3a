"""The table-input checks of layer_checks.py can fail: each one is run on a
criterion broken in exactly the way it is meant to catch."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_table_criterion_gradient, check_float32_table_criterion,
                          check_noncontiguous_table_criterion, check_table_criterion_buffer_reuse,
                          check_table_criterion_pickle, map_table, table_leaves, uniform)

X = [uniform((5,), 1), uniform((5,), 2)]
Y = np.array([1.0, -1.0, 1.0, 1.0, -1.0])


class HalvedSecondGradient(nn.MarginRankingCriterion):
    """Wrong gradient for input[1] only."""

    def updateGradInput(self, input, target):
        g = super().updateGradInput(input, target)
        g[1] *= 0.5
        return g


class StrideBlindRanking(nn.MarginRankingCriterion):
    """Reads input[1] as if it were contiguous, as code ignoring strides would."""

    def updateOutput(self, input, target):
        x2 = input[1]
        blind = np.lib.stride_tricks.as_strided(x2, shape=x2.shape, strides=(x2.itemsize,))
        return super().updateOutput([input[0], blind.copy()], target)


class FreshTableRanking(nn.MarginRankingCriterion):
    """Returns a new gradInput table on every call."""

    def updateGradInput(self, input, target):
        return [g.copy() for g in super().updateGradInput(input, target)]


class ResizingRanking(nn.MarginRankingCriterion):
    """Writes the new batch's gradient into the arrays handed out before."""

    def updateGradInput(self, input, target):
        n = len(input[0])
        if getattr(self, "_store", None) is None:
            self._store = [np.empty(100), np.empty(100)]
        g = super().updateGradInput(input, target)
        for s, gi in zip(self._store, g):
            s[:n] = gi
        self.gradInput = [s[:n] for s in self._store]
        return self.gradInput


class ImpreciseFloat32Ranking(nn.MarginRankingCriterion):
    """A float32 gradient for input[0] 1e-3 off."""

    def updateGradInput(self, input, target):
        g = super().updateGradInput(input, target)
        if g[0].dtype == np.float32:
            g[0] *= 1.001
        return g


class ForgetfulRanking(nn.MarginRankingCriterion):
    """Loses its margin when pickled."""

    def __getstate__(self):
        return dict(vars(self), margin=0.0)


def test_table_helpers():
    table = [np.zeros(2), [np.ones(3), np.zeros((1, 2))]]
    assert [a.shape for a in table_leaves(table)] == [(2,), (3,), (1, 2)]
    doubled = map_table(lambda a: a + 1, table)
    assert isinstance(doubled[1], list) and doubled[1][0].tolist() == [2.0] * 3


def test_gradient_check_passes_a_right_criterion_and_names_the_wrong_entry():
    assert_table_criterion_gradient(nn.MarginRankingCriterion(), X, Y) < 1e-5
    with pytest.raises(AssertionError, match=r"^\[1\] element \(\d+,\): <criterion gradient w.r.t. input: max error"):
        assert_table_criterion_gradient(HalvedSecondGradient(), X, Y)


def test_noncontiguous_check_catches_ignored_strides():
    check_noncontiguous_table_criterion(nn.MarginRankingCriterion(), X, Y)
    with pytest.raises(AssertionError, match="loss, layout"):
        check_noncontiguous_table_criterion(StrideBlindRanking(), X, Y)


def test_buffer_check_catches_missing_reuse_and_resizing():
    small = [X[0][:3], X[1][:3]]
    check_table_criterion_buffer_reuse(nn.MarginRankingCriterion(), X, Y, small, Y[:3])
    with pytest.raises(AssertionError, match="did not reuse the gradInput table"):
        check_table_criterion_buffer_reuse(FreshTableRanking(), X, Y, small, Y[:3])
    with pytest.raises(AssertionError, match="the first gradInput"):
        check_table_criterion_buffer_reuse(ResizingRanking(), X, Y, small, Y[:3])


def test_float32_check_catches_lost_precision():
    check_float32_table_criterion(nn.MarginRankingCriterion(), X, Y)
    with pytest.raises(AssertionError, match=r"gradInput\[0\]: float32 differs from float64"):
        check_float32_table_criterion(ImpreciseFloat32Ranking(), X, Y)


def test_pickle_check_catches_lost_state():
    check_table_criterion_pickle(nn.MarginRankingCriterion(), X, Y)
    with pytest.raises(AssertionError):
        check_table_criterion_pickle(ForgetfulRanking(), X, Y)
