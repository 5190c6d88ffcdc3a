"""The checks of table_module_checks.py can fail: each one is run on a
module broken in exactly the way it is meant to catch (and passes the
right one)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform
from table_module_checks import (assert_table_jacobian, assert_table_parameter_jacobians,
                                 check_table_batch_equals_samples, check_table_buffer_reuse, check_table_float32,
                                 check_table_noncontiguous, check_table_pickle, flat, unflat)


def pair(shape=(3, 4)):
    return [uniform(shape, 1), uniform(shape, 2)]


class WrongSecondGradient(nn.CMulTable):
    """The gradient of input[1] off by a factor."""

    def updateGradInput(self, input, gradOutput):
        grads = super().updateGradInput(input, gradOutput)
        grads[1] *= 1.01
        return grads


class MemoryOrderCAdd(nn.CAddTable):
    """Reads its entries in memory order, as code ignoring strides would."""

    def updateOutput(self, input):
        return super().updateOutput([x.ravel(order="K").reshape(x.shape) for x in input])


class WritesIntoInput(nn.CAddTable):
    def updateGradInput(self, input, gradOutput):
        grads = super().updateGradInput(input, gradOutput)
        input[1][...] = 0
        return grads


class AlwaysNewGradients(nn.CSubTable):
    def updateGradInput(self, input, gradOutput):
        self.gradInput = [g.copy() for g in super().updateGradInput(input, gradOutput)]
        return self.gradInput


class OneBufferForAll(nn.JoinTable):
    """Hands out views of one buffer whatever the shape, so an earlier output changes."""

    def updateOutput(self, input):
        if getattr(self, "_buffer", None) is None:
            self._buffer = np.empty(1000)
        n = sum(x.size for x in input)
        self.output = self._buffer[:n].reshape((-1,) + input[0].shape[1:])
        np.concatenate(input, axis=0, out=self.output)
        return self.output


class HalfPrecisionDot(nn.DotProduct):
    def updateOutput(self, input):
        out = super().updateOutput(input)
        if out.dtype == np.float32:
            out[...] = out.astype(np.float16)
        return out


class MixesSamples(nn.CAddTable):
    def updateOutput(self, input):
        return super().updateOutput([x - x.mean(axis=0) if x.ndim > 1 else x for x in input])


class HalfBiasGradient(nn.Linear):
    """Accumulates half the bias gradient (accGradParameters only)."""

    def accGradParameters(self, input, gradOutput, scale=1):
        super().accGradParameters(input, gradOutput, scale)
        self.gradBias *= 0.5


class ForgetsDimension(nn.SplitTable):
    def __getstate__(self):
        state = dict(self.__dict__)
        state["dimension"] = 0
        return state


def test_flat_and_unflat_round_trip():
    like = [uniform((2,), 1), [uniform((1, 3), 2), 4.0]]
    back = unflat(flat(like), like)
    np.testing.assert_array_equal(back[1][0], like[1][0])
    assert back[1][1] == 4.0 and flat(like).shape == (6,)


def test_jacobian_check_names_the_wrong_entry():
    assert_table_jacobian(nn.CMulTable(), pair())
    with pytest.raises(AssertionError, match=r"^input\[1\] element \(\d, \d\): <Jacobian"):
        assert_table_jacobian(WrongSecondGradient(), pair())


def test_jacobian_check_holds_fixed_entries_fixed():
    # the gradient w.r.t. a target is 0 by design: held fixed it is not compared
    m = nn.CriterionTable(nn.MSECriterion())
    assert_table_jacobian(m, pair(), fixed={"[1]"})
    with pytest.raises(AssertionError, match=r"^input\[1\] element"):
        assert_table_jacobian(m, pair())


def test_parameter_jacobian_check_catches_a_wrong_parameter_gradient():
    assert_table_parameter_jacobians(nn.ParallelTable(nn.Linear(4, 2), nn.Linear(4, 3)), pair())
    with pytest.raises(AssertionError, match=r"^parameter 3 of shape \(3,\): <Jacobian w.r.t. parameter:"):
        assert_table_parameter_jacobians(nn.ParallelTable(nn.Linear(4, 2), HalfBiasGradient(4, 3)), pair())


def test_noncontiguous_check_catches_ignored_strides_and_writes():
    check_table_noncontiguous(nn.CAddTable(), pair(), uniform((3, 4), 3))
    with pytest.raises(AssertionError, match="output, layout 0"):
        check_table_noncontiguous(MemoryOrderCAdd(), pair(), uniform((3, 4), 3))
    with pytest.raises(AssertionError, match="the input was written to"):
        check_table_noncontiguous(WritesIntoInput(), pair(), uniform((3, 4), 3))


def test_buffer_check_catches_missing_reuse_and_overwriting():
    big, small = pair((5, 4)), pair((3, 4))
    check_table_buffer_reuse(nn.CSubTable(), big, uniform((5, 4), 3), small, uniform((3, 4), 4))
    with pytest.raises(AssertionError, match=r"did not reuse gradInput\[0\]"):
        check_table_buffer_reuse(AlwaysNewGradients(), big, uniform((5, 4), 3), small, uniform((3, 4), 4))
    with pytest.raises(AssertionError, match="the first output changed"):
        check_table_buffer_reuse(OneBufferForAll(0), big, uniform((10, 4), 3), small, uniform((6, 4), 4))


def test_float32_check_catches_lost_precision():
    check_table_float32(nn.DotProduct(), pair(), uniform((3,), 3))
    with pytest.raises(AssertionError, match="output: float32 differs"):
        check_table_float32(HalfPrecisionDot(), pair(), uniform((3,), 3))


def test_batch_check_catches_mixed_samples():
    check_table_batch_equals_samples(nn.CAddTable(), pair(), uniform((3, 4), 3))
    with pytest.raises(AssertionError, match="output, sample 0"):
        check_table_batch_equals_samples(MixesSamples(), pair(), uniform((3, 4), 3))


def test_pickle_check_catches_lost_state():
    x, g = uniform((3, 4), 1), [uniform((3,), i) for i in range(4)]
    check_table_pickle(nn.SplitTable(1), x, g)
    with pytest.raises((AssertionError, ValueError)):
        check_table_pickle(ForgetsDimension(1), x, g)
