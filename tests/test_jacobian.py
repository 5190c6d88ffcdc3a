"""nn_legacy.jacobian itself: the checks fail on wrong gradients, point at the
wrong element, and the kinks option skips exactly the points near a kink."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import JACOBIAN_TOL, STEP, uniform
from nn_legacy import jacobian


class DoubledTanh(nn.Tanh):
    """Tanh whose backward returns twice the true gradient."""

    def updateGradInput(self, input, gradOutput):
        return super().updateGradInput(input, gradOutput) * 2


class TanhWrongAtOneElement(nn.Tanh):
    """Tanh whose gradient is off at flat element 5 only."""

    def updateGradInput(self, input, gradOutput):
        grad = super().updateGradInput(input, gradOutput).copy()
        grad.reshape(-1)[5] += 0.1 * gradOutput.reshape(-1)[5]
        return grad


class LinearHalfWeightGradient(nn.Linear):
    """Linear whose weight gradient is half what it should be (bias right)."""

    def accGradParameters(self, input, gradOutput, scale=1):
        bias_grad = self.gradBias.copy()
        super().accGradParameters(input, gradOutput, scale)
        extra = self.gradBias - bias_grad
        super().accGradParameters(input, gradOutput, -scale / 2)
        self.gradBias[...] = bias_grad + extra


class LinearNoBiasGradient(nn.Linear):
    """Linear that forgets to accumulate the bias gradient."""

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernels(input).Linear_accGradParameters(input, gradOutput, self.weight, None, self.gradWeight,
                                                      None, scale)


class HalfGradientMSE(nn.MSECriterion):
    def updateGradInput(self, input, target):
        return super().updateGradInput(input, target) / 2


class ReLUWrongForPositives(nn.ReLU):
    """ReLU whose gradient for positive inputs is 1.5 instead of 1."""

    def updateGradInput(self, input, gradOutput):
        return super().updateGradInput(input, gradOutput) * 1.5


def test_correct_module_passes():
    report = jacobian.testJacobian(nn.Tanh(), uniform((3, 4), 1), perturbation=STEP)
    assert report < JACOBIAN_TOL
    assert float(report) == report.max_error < 1e-8  # central differences are this good on tanh


def test_doubled_gradient_fails_by_the_size_of_the_gradient():
    x = uniform((3, 4), 1)
    report = jacobian.testJacobian(DoubledTanh(), x, perturbation=STEP)
    assert report > 1e-2 and not report < JACOBIAN_TOL
    # the worst point is on the diagonal (elementwise layer) where the error is the derivative itself
    out_idx, in_idx = report.where
    assert tuple(out_idx) == tuple(in_idx)
    np.testing.assert_allclose(report.analytic, 2 * report.numeric, rtol=1e-6)
    np.testing.assert_allclose(report.max_error, np.max(1 - np.tanh(x) ** 2), rtol=1e-6)
    assert "max error" in repr(report)


def test_report_points_at_the_wrong_element():
    x = uniform((3, 4), 2)
    report = jacobian.testJacobian(TanhWrongAtOneElement(), x, perturbation=STEP)
    assert report > 1e-2
    assert tuple(int(i) for i in report.where[1]) == np.unravel_index(5, x.shape)


def test_wrong_weight_gradient_fails_both_parameter_checks():
    m, x = LinearHalfWeightGradient(5, 3), uniform((4, 5), 1)
    assert jacobian.testJacobianParameters(m, x, m.weight, m.gradWeight, perturbation=STEP) > 0.1
    assert jacobian.testJacobianUpdateParameters(m, x, m.weight, perturbation=STEP) > 0.1
    assert jacobian.testJacobianParameters(m, x, m.bias, m.gradBias, perturbation=STEP) < JACOBIAN_TOL
    assert jacobian.testAllParameters(m, x, perturbation=STEP) > 0.1
    assert jacobian.testJacobian(m, x, perturbation=STEP) < JACOBIAN_TOL  # input gradient is still right


def test_testEachParameter_gives_the_reports_of_the_checks_one_by_one():
    m, x = LinearHalfWeightGradient(5, 3), uniform((4, 5), 1)
    pairs = jacobian.testEachParameter(m, x, perturbation=STEP)
    alone = [(jacobian.testJacobianParameters(m, x, p, g, perturbation=STEP),
              jacobian.testJacobianUpdateParameters(m, x, p, perturbation=STEP)) for p, g in zip(*m.parameters())]
    assert len(pairs) == len(alone) == 2
    for pair, one_by_one in zip(pairs, alone):
        for together, single in zip(pair, one_by_one):
            fields = ("what", "name", "max_error", "where", "analytic", "numeric")
            assert [getattr(together, f) for f in fields] == [getattr(single, f) for f in fields]
    (weight_grad, weight_update), (bias_grad, bias_update) = pairs
    assert weight_grad > 0.1 and weight_update > 0.1 and bias_grad < JACOBIAN_TOL and bias_update < JACOBIAN_TOL


def test_parameter_checks_refuse_a_parameter_they_could_not_perturb():
    m, x = nn.Linear(4, 3), uniform((2, 4), 1)
    m.weight = np.asfortranarray(m.weight)   # perturbing a reshaped copy would leave the module unchanged
    for check in (lambda: jacobian.testJacobianParameters(m, x, m.weight, m.gradWeight),
                  lambda: jacobian.testJacobianUpdateParameters(m, x, m.weight),
                  lambda: jacobian.testEachParameter(m, x)):
        with pytest.raises(ValueError, match="the parameter must be contiguous"):
            check()


def test_missing_bias_gradient_fails():
    m, x = LinearNoBiasGradient(5, 3), uniform((4, 5), 1)
    report = jacobian.testJacobianParameters(m, x, m.bias, m.gradBias, perturbation=STEP)
    assert report > 0.5  # d y / d b is 1, the analytic value 0
    assert jacobian.testAllParameters(m, x, perturbation=STEP) > 0.5


def test_wrong_criterion_gradient_fails():
    x, t = uniform((3, 4), 1), uniform((3, 4), 2)
    assert jacobian.testCriterion(nn.MSECriterion(), x, t, perturbation=STEP) < JACOBIAN_TOL
    assert jacobian.testCriterion(HalfGradientMSE(), x, t, perturbation=STEP) > 1e-2


def relu_input():
    x = uniform((3, 4), 1)
    x.reshape(-1)[[0, 5, 7]] = 0.0       # on the kink
    x.reshape(-1)[1] = 5e-7              # closer than the step: its difference straddles the kink
    x.reshape(-1)[2] = -2e-3             # outside the default radius (1e-3)
    return x


def test_kink_without_kinks_option_fails():
    report = jacobian.testJacobian(nn.ReLU(), relu_input(), perturbation=STEP)
    assert report > 0.4  # at 0 the central difference gives 1/2, the gradient 0
    assert report.skipped == 0


def test_kinks_skip_exactly_the_points_near_a_kink():
    x = relu_input()
    report = jacobian.testJacobian(nn.ReLU(), x, perturbation=STEP, kinks=(0,))
    assert report < JACOBIAN_TOL
    assert report.skipped == 4 == np.count_nonzero(np.abs(x) < 1e-3)
    assert "4 kink points skipped" in repr(report)


def test_kink_radius_option():
    x = relu_input()
    assert jacobian.testJacobian(nn.ReLU(), x, perturbation=STEP, kinks=(0,), kink_radius=1e-2).skipped == 5
    narrow = jacobian.testJacobian(nn.ReLU(), x, perturbation=STEP, kinks=(0,), kink_radius=1e-9)
    assert narrow.skipped == 3
    # 5e-7 is kept: (f(1.5e-6) - f(-5e-7)) / 2e-6 = 0.75 against the gradient 1
    assert narrow.max_error == pytest.approx(0.25) and tuple(narrow.where[1]) == (0, 1)


def test_kinks_elsewhere_do_not_hide_a_kink():
    report = jacobian.testJacobian(nn.ReLU(), relu_input(), perturbation=STEP, kinks=(1.0,))
    assert report > 0.4


def test_kinks_do_not_hide_a_wrong_gradient_away_from_the_kink():
    report = jacobian.testJacobian(ReLUWrongForPositives(), relu_input(), perturbation=STEP, kinks=(0,))
    assert report > 0.4
    assert report.analytic == pytest.approx(1.5) and report.numeric == pytest.approx(1.0)
