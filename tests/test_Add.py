"""nn_legacy.Add: y = x + b, b of inputSize elements or one scalar, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_noncontiguous,
                          check_pickle, raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7

N = 5


@pytest.mark.parametrize("shape", [(N,), (4, N)], ids=["1D", "2D"])
def test_matches_numpy(shape):
    m = nn.Add(N)
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), x + m.bias)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.backward(x, g, 2.0), g)
    np.testing.assert_allclose(m.gradBias, 2.0 * g.reshape(-1, N).sum(axis=0), rtol=1e-14, atol=1e-15)


def test_a_batch_of_samples_of_any_shape():
    m = nn.Add(6)
    x = uniform((4, 2, 3), 1)
    np.testing.assert_array_equal(m.forward(x), x + m.bias.reshape(2, 3))


@pytest.mark.parametrize("shape", [(N,), (4, 3, 2)], ids=["1D", "3D"])
def test_scalar_matches_numpy(shape):
    m = nn.Add(N, scalar=True)
    assert m.bias.shape == (1,)
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_array_equal(m.forward(x), x + m.bias[0])
    m.zeroGradParameters()
    m.backward(x, g)
    np.testing.assert_allclose(m.gradBias, [g.sum()], rtol=1e-14)


@pytest.mark.parametrize("scalar", [False, True], ids=["vector", "scalar"])
def test_matches_torch(scalar):
    torch = torch_or_skip()
    m = nn.Add(N, scalar)
    x, g = uniform((4, N), 1), uniform((4, N), 2)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    out, gin = torch_forward_backward(lambda t: t + b, x, g)
    m.zeroGradParameters()
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), gin)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-14)


@pytest.mark.parametrize("scalar", [False, True], ids=["vector", "scalar"])
@pytest.mark.parametrize("shape", [(N,), (3, N)], ids=["1D", "2D"])
def test_jacobians(shape, scalar):
    m = nn.Add(N, scalar)
    x = uniform(shape, 3)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


@pytest.mark.parametrize("scalar", [False, True], ids=["vector", "scalar"])
def test_accUpdateGradParameters(scalar):
    check_acc_update(nn.Add(N, scalar), uniform((3, N), 1), uniform((3, N), 2), lr=0.3)


def test_reset_draws_from_the_torch7_range():
    m = nn.Add(16)
    assert np.all(np.abs(m.bias) <= 1 / 4) and m.bias.std() > 1 / 16
    assert np.abs(nn.Add(16, scalar=True).bias[0]) <= 1


def test_float32_matches_float64():
    check_float32(nn.Add(N), uniform((6, N), 1), uniform((6, N), 2))
    check_float32(nn.Add(N, True), uniform((6, N), 1), uniform((6, N), 2))


def test_noncontiguous_input_and_gradOutput():
    check_noncontiguous(nn.Add(N), uniform((4, N), 1), uniform((4, N), 2))
    check_noncontiguous(nn.Add(N, True), uniform((4, N), 1), uniform((4, N), 2))


def test_batch_equals_samples():
    check_batch_equals_samples(nn.Add(N), uniform((4, N), 1), uniform((4, N), 2))


def test_buffer_reuse_across_batch_sizes():
    check_buffer_reuse(nn.Add(N), uniform((8, N), 1), uniform((8, N), 2), uniform((3, N), 3), uniform((3, N), 4))


def test_pickle_round_trip():
    check_pickle(nn.Add(N, True), uniform((4, N), 1), uniform((4, N), 2))


def test_bad_arrays():
    check_bad_arrays_numpy(nn.Add(N), uniform((4, N), 1), uniform((4, N), 2))


def test_wrong_input_size():
    with raises_exactly(ValueError, "Add: input must have 5 elements, or 5 per sample of a batch, or a shape "
                                    "that bias [5] expands to; got 2D of size [3, 4]"):
        nn.Add(N).forward(uniform((3, 4)))
    for bad in (0, (3, 0), (), "3"):
        with raises_exactly(ValueError, f"Add: inputSize must be a positive integer or a shape (a tuple of positive "
                                        f"integers), got {bad!r}"):
            nn.Add(bad)


@pytest.mark.parametrize("size", [(3, 4), [3, 4], np.array([3, 4], dtype=np.int64)], ids=["tuple", "list", "storage"])
def test_a_shape_gives_a_multidimensional_bias(size):
    m = nn.Add(size)   # a LongStorage read from a Torch7 file is a 1D int64 array
    assert m.bias.shape == (3, 4) and m.gradBias.shape == (3, 4)
    x, g = uniform((2, 3, 4), 1), uniform((2, 3, 4), 2)
    np.testing.assert_array_equal(m.forward(x), x + m.bias)
    np.testing.assert_array_equal(m.forward(x[0]), x[0] + m.bias)
    m.zeroGradParameters()
    m.backward(x, g)
    np.testing.assert_allclose(m.gradBias, g.sum(axis=0), rtol=1e-14)
    assert repr(m) == "nn.Add((3, 4))"


def test_multidimensional_jacobians():
    m = nn.Add((2, 3))
    x = uniform((3, 2, 3), 4)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)


def test_reset_of_a_multidimensional_bias_uses_its_first_size():
    nn.manualSeed(0)
    m = nn.Add((4, 50))   # Torch7: stdv = 1 / sqrt(bias:size(1))
    assert np.all(np.abs(m.bias) <= 1 / 2) and m.bias.max() > 0.45


def test_repr():
    assert repr(nn.Add(5)) == "nn.Add(5)"
    assert repr(nn.Add(5, scalar=True)) == "nn.Add(scalar)"


def test_loads_a_multidimensional_bias_from_torch7_fields():
    bias = uniform((2, 3), 5)
    m = from_torch7("nn.Add", bias=bias, gradBias=np.zeros((2, 3)), _ones=np.ones(1))
    x = uniform((4, 2, 3), 1)
    np.testing.assert_array_equal(m.forward(x), x + bias)


def test_loads_from_torch7_fields():
    bias = uniform((N,), 5)
    m = from_torch7("nn.Add", bias=bias, gradBias=np.full(N, np.nan))  # a false `scalar` is not stored
    x = uniform((3, N), 1)
    np.testing.assert_array_equal(m.forward(x), x + bias)
    assert not m.scalar and np.all(m.gradBias == 0)
