"""The shared checks of layer_checks.py can fail: each one is run on a module
broken in exactly the way it is meant to catch."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (check_acc_update, check_batch_equals_samples, check_buffer_reuse, check_float32,
                          check_nan_propagates, check_noncontiguous, check_pickle, noncontiguous_views,
                          uniform)


class MemoryOrderSigmoid(nn.Sigmoid):
    """Reads its input in memory order, as a kernel ignoring strides would."""

    def updateOutput(self, input):
        return super().updateOutput(input.ravel(order="K").reshape(input.shape))


class AlwaysNewSigmoid(nn.Sigmoid):
    """Returns a new array on every call."""

    def updateOutput(self, input):
        return super().updateOutput(input).copy()


class SharedBufferSigmoid(nn.Sigmoid):
    """Hands out views of one big buffer whatever the shape."""

    def updateOutput(self, input):
        if getattr(self, "_buffer", None) is None:
            self._buffer = np.empty(1000)
        out = self._buffer[:input.size].reshape(input.shape)
        out[...] = 1 / (1 + np.exp(-input))
        self.output = out
        return out


class HalfPrecisionTanh(nn.Tanh):
    """Loses precision in float32 (goes through float16)."""

    def updateOutput(self, input):
        out = super().updateOutput(input)
        if out.dtype == np.float32:
            out[...] = out.astype(np.float16)
        return out


class BatchCenteredTanh(nn.Tanh):
    """Mixes the samples of a batch."""

    def updateOutput(self, input):
        return super().updateOutput(input - input.mean(axis=0) if input.ndim > 1 else input)


class GradientTouchingLinear(nn.Linear):
    """accUpdateGradParameters that also writes the stored gradient."""

    def accUpdateGradParameters(self, input, gradOutput, lr):
        super().accUpdateGradParameters(input, gradOutput, lr)
        self.gradWeight += 1


class ForgetfulLinear(nn.Linear):
    """Loses its bias when pickled."""

    def __getstate__(self):
        state = dict(vars(self))
        state["bias"] = np.zeros_like(self.bias)
        return state


class NaNSwallowingTanh(nn.Tanh):
    def updateOutput(self, input):
        return super().updateOutput(np.nan_to_num(input))


X, G = uniform((4, 5), 1), uniform((4, 5), 2)


def test_views_really_are_strided_and_equal():
    for name, view in noncontiguous_views(X):
        assert not view.flags.c_contiguous, name
        np.testing.assert_array_equal(view, X)
    assert [name for name, _ in noncontiguous_views(X[0])] == ["column", "strided", "negative strides"]


def test_noncontiguous_check_catches_ignored_strides():
    check_noncontiguous(nn.Sigmoid(), X, G)
    with pytest.raises(AssertionError, match="output, input transposed"):
        check_noncontiguous(MemoryOrderSigmoid(), X, G)


def test_buffer_check_catches_missing_reuse():
    check_buffer_reuse(nn.Sigmoid(), X, G, X[:2], G[:2])
    with pytest.raises(AssertionError, match="did not reuse the output array"):
        check_buffer_reuse(AlwaysNewSigmoid(), X, G, X[:2], G[:2])


def test_buffer_check_catches_overwritten_earlier_output():
    with pytest.raises(AssertionError, match="the first output changed"):
        check_buffer_reuse(SharedBufferSigmoid(), X, G, X[:2] + 1, G[:2])


def test_float32_check_catches_lost_precision():
    check_float32(nn.Tanh(), X, G)
    with pytest.raises(AssertionError, match="output: float32 differs from float64"):
        check_float32(HalfPrecisionTanh(), X, G)


def test_batch_check_catches_mixed_samples():
    check_batch_equals_samples(nn.Tanh(), X, G)
    with pytest.raises(AssertionError):
        check_batch_equals_samples(BatchCenteredTanh(), X, G)


def test_acc_update_check_catches_touched_gradients():
    check_acc_update(nn.Linear(5, 3), X, uniform((4, 3), 2))
    with pytest.raises(AssertionError, match="changed gradient 0"):
        check_acc_update(GradientTouchingLinear(5, 3), X, uniform((4, 3), 2))


def test_pickle_check_catches_lost_state():
    check_pickle(nn.Linear(5, 3), X, uniform((4, 3), 2))
    with pytest.raises(AssertionError):
        check_pickle(ForgetfulLinear(5, 3), X, uniform((4, 3), 2))


def test_nan_check_catches_swallowed_nan():
    mask = np.zeros(X.shape, dtype=bool)
    mask[1, 1] = True
    check_nan_propagates(nn.Tanh(), X, (1, 1), mask, G)
    with pytest.raises(AssertionError, match="where the output is NaN"):
        check_nan_propagates(NaNSwallowingTanh(), X, (1, 1), mask, G)
