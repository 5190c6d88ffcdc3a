"""nn_legacy.CriterionTable: a criterion as a module over [input, target]."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import classes, raises_exactly, uniform
from table_module_checks import assert_table_jacobian


def test_forward_is_the_loss_and_backward_its_gradient_times_gradOutput():
    crit = nn.MSECriterion()
    m = nn.CriterionTable(crit)
    x, t = uniform((3, 4), 1), uniform((3, 4), 2)
    loss = m.forward([x, t])
    assert isinstance(loss, float) and loss == nn.MSECriterion().forward(x, t)
    unscaled = nn.MSECriterion().backward(x, t)
    gin = m.backward([x, t], 2.5)
    np.testing.assert_array_equal(gin[0], unscaled * 2.5)
    assert gin[1].shape == t.shape and not gin[1].any()
    assert gin[0] is not crit.gradInput   # the criterion's own buffer is left as it gave it
    np.testing.assert_array_equal(crit.gradInput, unscaled)
    np.testing.assert_array_equal(m.backward([x, t], np.array([1.0])), [unscaled, 0 * t])


def test_integer_and_number_targets():
    m = nn.CriterionTable(nn.ClassNLLCriterion())
    x, y = uniform((4, 3), 1), classes(4, 3)
    gin = m.backward([x, y], 1.0)
    np.testing.assert_array_equal(gin[0], nn.ClassNLLCriterion().backward(x, y))
    assert gin[1].dtype == y.dtype and not gin[1].any()
    single = nn.CriterionTable(nn.ClassNLLCriterion())
    assert single.backward([uniform((3,), 1), 2], 1.0)[1] == 0.0


def test_table_inputs_of_the_criterion():
    m = nn.CriterionTable(nn.CosineEmbeddingCriterion(0.1))
    x, y = [uniform((4, 3), 1), uniform((4, 3), 2)], np.array([1.0, -1.0, 1.0, -1.0])
    gin = m.backward([x, y], 2.0)
    expected = nn.CosineEmbeddingCriterion(0.1).backward(x, y)
    for a, b in zip(gin[0], expected):
        np.testing.assert_allclose(a, 2 * b, rtol=1e-15)


@pytest.mark.parametrize("criterion", [nn.MSECriterion(), nn.AbsCriterion(), nn.BCECriterion()],
                         ids=["MSE", "Abs", "BCE"])
def test_jacobian_wrt_the_input(criterion):
    x, t = uniform((3, 4), 1, 0.1, 0.9), uniform((3, 4), 2, 0.1, 0.9)
    assert np.min(np.abs(x - t)) > 1e-3   # away from AbsCriterion's kink
    assert_table_jacobian(nn.CriterionTable(criterion), [x, t], fixed={"[1]"})


def test_clearState_reaches_the_criterion():
    crit = nn.MSECriterion()
    m = nn.CriterionTable(crit)
    m.backward([uniform((3,)), uniform((3,))], 1.0)
    m.clearState()
    assert crit.gradInput is None and m.gradInput is None


def test_bad_input():
    with raises_exactly(TypeError, "CriterionTable: criterion must be a Criterion, got Linear"):
        nn.CriterionTable(nn.Linear(2, 2))
    m = nn.CriterionTable(nn.MSECriterion())
    with raises_exactly(TypeError, "CriterionTable: input must be a list [input, target], got ndarray"):
        m.forward(uniform((3,)))
    with raises_exactly(TypeError, "CriterionTable: gradOutput must be a number (the gradient w.r.t. the loss), "
                                   "got ndarray of size [2]"):
        m.backward([uniform((3,)), uniform((3,))], np.ones(2))


def test_repr():
    assert repr(nn.CriterionTable(nn.MSECriterion())) == "nn.CriterionTable(nn.MSECriterion)"
