"""nn_legacy.Maxout: Linear(inputSize, outputSize * maxoutNumber), then the max over each group."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from nn_legacy import jacobian
from layer_checks import (JACOBIAN_TOL, STEP, assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_pickle, raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

N_IN, N_OUT, PIECES = 4, 3, 2


def maxout(m, x):
    """(output, the Linear output viewed as [batch, pieces, out]) by numpy."""
    lin = m.modules[0]
    z = (np.atleast_2d(x) @ lin.weight.T + lin.bias).reshape(-1, PIECES, N_OUT)
    return z.max(axis=1).reshape(x.shape[:-1] + (N_OUT,)), z


@pytest.mark.parametrize("shape", [(N_IN,), (5, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = nn.Maxout(N_IN, N_OUT, PIECES)
    x, g = uniform(shape, 1), uniform(shape[:-1] + (N_OUT,), 2)
    y, z = maxout(m, x)
    np.testing.assert_allclose(m.forward(x), y, rtol=1e-14, atol=1e-15)
    # the gradient reaches the Linear output at each group's maximum only
    winners = z.argmax(axis=1)
    gz = np.zeros_like(z)
    for b, j in np.ndindex(winners.shape):
        gz[b, winners[b, j], j] = np.atleast_2d(g)[b, j]
    gz = gz.reshape(-1, PIECES * N_OUT)
    m.zeroGradParameters()
    lin = m.modules[0]
    np.testing.assert_allclose(m.backward(x, g), (gz @ lin.weight).reshape(x.shape), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(lin.gradWeight, gz.T @ np.atleast_2d(x), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(lin.gradBias, gz.sum(axis=0), rtol=1e-14, atol=1e-15)


def test_matches_torch():
    torch = torch_or_skip()
    m = nn.Maxout(N_IN, N_OUT, PIECES)
    lin = m.modules[0]
    x, g = uniform((5, N_IN), 1), uniform((5, N_OUT), 2)
    w = torch.from_numpy(lin.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(lin.bias.copy()).requires_grad_(True)
    fn = lambda t: torch.nn.functional.linear(t, w, b).view(-1, PIECES, N_OUT).max(dim=1).values  # noqa: E731
    out, gin = torch_forward_backward(fn, x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(lin.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(lin.gradBias, b.grad.numpy(), rtol=1e-14, atol=1e-15)


def test_ties_send_the_gradient_to_the_first_maximum():
    m = nn.Maxout(1, 1, 3)
    m.modules[0].weight[...] = [[1.0], [2.0], [2.0]]
    m.modules[0].bias[...] = 0
    m.forward(np.array([1.0]))
    m.zeroGradParameters()
    m.backward(np.array([1.0]), np.array([1.0]))
    np.testing.assert_array_equal(m.modules[0].gradBias, [0, 1, 0])


def test_preprocess_is_applied_before_the_maximum():
    m = nn.Maxout(N_IN, N_OUT, PIECES, nn.MulConstant(-1))
    x = uniform((5, N_IN), 1)
    z = maxout(m, x)[1]
    np.testing.assert_allclose(m.forward(x), (-z).max(axis=1), rtol=1e-14, atol=1e-15)


def test_jacobians_with_a_preprocess_that_has_parameters():
    m = nn.Maxout(N_IN, N_OUT, PIECES, nn.CMul(PIECES, N_OUT))
    assert len(m.parameters()[0]) == 3
    x = uniform((3, N_IN), 3)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_jacobian_with_dropout_as_preprocess():
    m = nn.Maxout(N_IN, N_OUT, PIECES, nn.Dropout(0.3))
    report = jacobian.testJacobian(m, uniform((3, N_IN), 3), perturbation=STEP, seed=5)
    assert report < JACOBIAN_TOL, report
    m.modules[1].inplace = True  # writes into the Linear output and into the gradient buffer
    report = jacobian.testAllParameters(m, uniform((3, N_IN), 3), perturbation=STEP, seed=5)
    assert report < JACOBIAN_TOL, report


def test_accUpdateGradParameters():
    check_acc_update(nn.Maxout(N_IN, N_OUT, PIECES), uniform((3, N_IN), 1), uniform((3, N_OUT), 2), lr=0.3)
    check_acc_update(nn.Maxout(N_IN, N_OUT, PIECES, nn.CMul(PIECES, N_OUT)), uniform((3, N_IN), 1),
                     uniform((3, N_OUT), 2), lr=0.3)


def test_pickle_round_trip():
    check_pickle(nn.Maxout(N_IN, N_OUT, PIECES, nn.Tanh()), uniform((3, N_IN), 1), uniform((3, N_OUT), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Maxout(N_IN, N_OUT, PIECES), uniform((3, N_IN), 1), uniform((3, N_OUT), 2),
                           "the output")


def test_bad_arguments():
    m = nn.Maxout(N_IN, N_OUT, PIECES)
    with raises_exactly(thnn.THNNError, "Maxout (0) -> Linear_updateOutput: input must be 1D or 2D with 4 "
                                        "features, got 2D of size [2, 5]"):
        m.forward(uniform((2, 5)))
    with raises_exactly(ValueError, "Maxout: backward needs a forward pass first"):
        nn.Maxout(N_IN, N_OUT, PIECES).backward(uniform((2, N_IN)), uniform((2, N_OUT)))
    with raises_exactly(TypeError, "Maxout: preprocess must be a Module, got ufunc"):
        nn.Maxout(N_IN, N_OUT, PIECES, np.tanh)
    with raises_exactly(ValueError, "Maxout: preprocess must keep the shape 2D of size [2, 3], "
                                    "got 2D of size [2, 6]"):
        nn.Maxout(N_IN, N_OUT, PIECES, nn.CReLU(1)).forward(uniform((N_IN,)))


def test_repr():
    assert repr(nn.Maxout(4, 3, 2)) == "nn.Maxout(4 -> 3, 2 pieces)"
    assert repr(nn.Maxout(4, 3, 2, nn.Tanh())) == "nn.Maxout(4 -> 3, 2 pieces, preprocess nn.Tanh)"
