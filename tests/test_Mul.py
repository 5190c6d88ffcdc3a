"""nn_legacy.Mul: y = w x for one learned scalar w, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_noncontiguous,
                          check_pickle, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, check_float64_module_refuses_float32

SHAPES = [(7,), (4, 5), (2, 3, 4)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy(shape):
    m = nn.Mul()
    x, g = uniform(shape, 1), uniform(shape, 2)
    w = m.weight[0]
    np.testing.assert_array_equal(m.forward(x), w * x)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 0.5), w * g)
    np.testing.assert_allclose(m.gradWeight, [0.5 * np.sum(g * x)], rtol=1e-14)


def test_matches_torch():
    torch = torch_or_skip()
    m = nn.Mul()
    x, g = uniform((4, 5), 1), uniform((4, 5), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: t * w, x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14)


@pytest.mark.parametrize("shape", [(5,), (3, 4)], ids=str)
def test_jacobians(shape):
    m = nn.Mul()
    x = uniform(shape, 3)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_accUpdateGradParameters():
    check_acc_update(nn.Mul(), uniform((3, 4), 1), uniform((3, 4), 2), lr=0.3)


def test_reset_draws_from_minus_one_to_one():
    ws = []
    for _ in range(50):
        ws.append(nn.Mul().weight[0])
    assert max(np.abs(ws)) <= 1 and np.std(ws) > 0.25
    assert abs(nn.Mul().reset(0.01).weight[0]) <= 0.01


def test_float32_matches_float64():
    check_float32(nn.Mul(), uniform((6, 5), 1), uniform((6, 5), 2))
    check_float64_module_refuses_float32(nn.Mul(), uniform((3, 4)))


@pytest.mark.parametrize("shape", [(7,), (4, 5)], ids=str)
def test_noncontiguous_input_and_gradOutput(shape):
    check_noncontiguous(nn.Mul(), uniform(shape, 1), uniform(shape, 2))


def test_batch_equals_samples():
    check_batch_equals_samples(nn.Mul(), uniform((5, 3), 1), uniform((5, 3), 2))


def test_buffer_reuse_across_batch_sizes():
    check_buffer_reuse(nn.Mul(), uniform((8, 5), 1), uniform((8, 5), 2), uniform((4, 5), 3), uniform((4, 5), 4))


def test_pickle_round_trip():
    check_pickle(nn.Mul(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Mul(), uniform((4, 5), 1), uniform((4, 5), 2))


def test_repr():
    assert repr(nn.Mul()) == "nn.Mul"
