"""nn_legacy.LayerNormalization: each sample centred and scaled to unit deviation, then gain and bias."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (assert_input_jacobian, assert_parameter_jacobians, check_acc_update,
                          check_batch_equals_samples, check_buffer_reuse, check_float32, check_noncontiguous,
                          check_pickle, raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy
from t7_writer import T7Object, t7_bytes

N = 6


def make(affine=True, bias=0.0, eps=1e-10):
    m = nn.LayerNormalization(N, bias, eps, affine)
    if affine:
        m.weight[...] = uniform((N,), 7, 0.5, 1.5)
        m.bias[...] = uniform((N,), 8)
    return m


def reference(m, x):
    c = x - x.mean(axis=-1, keepdims=True)
    z = np.sqrt(N) * c / np.sqrt((c * c).sum(axis=-1, keepdims=True) + m.eps)
    return z * m.weight + m.bias if m.weight is not None else z


@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
@pytest.mark.parametrize("shape", [(N,), (4, N)], ids=["1D", "2D"])
def test_matches_numpy(shape, affine):
    m = make(affine)
    x = uniform(shape, 1)
    y = m.forward(x)
    np.testing.assert_allclose(y, reference(m, x), rtol=1e-13, atol=1e-14)
    if not affine:
        np.testing.assert_allclose(y.mean(axis=-1), 0, atol=1e-14)
        np.testing.assert_allclose(y.std(axis=-1), 1, rtol=1e-9)   # eps = 1e-10 shifts it by ~1e-11


def test_matches_torch():
    torch = torch_or_skip()
    m = make(eps=1e-5)
    x, g = uniform((4, N), 1), uniform((4, N), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias.copy()).requires_grad_(True)
    # torch divides by sqrt(mean(c^2) + eps'): the same with eps' = eps / N
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.layer_norm(t, (N,), w, b, 1e-5 / N), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(m.gradBias, b.grad.numpy(), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("shape", [(N,), (3, N)], ids=["1D", "2D"])
def test_jacobians(shape):
    x = uniform(shape, 3)
    assert_input_jacobian(make(), x)
    assert_parameter_jacobians(make(), x)
    assert_input_jacobian(make(False), x)


def test_defaults_as_torch7():
    m = nn.LayerNormalization(N)
    assert np.all(m.weight == 1) and np.all(m.bias == 0) and m.eps == 1e-10
    assert np.all(nn.LayerNormalization(N, 0.5).bias == 0.5)
    assert nn.LayerNormalization(N, affine=False).parameters() == ([], [])


def test_common_checks():
    x, g = uniform((5, N), 1), uniform((5, N), 2)
    check_acc_update(make(), x, g, 0.3)
    check_float32(make(), x, g)
    check_noncontiguous(make(), x, g)
    check_batch_equals_samples(make(), x, g)
    check_buffer_reuse(make(), x, g, uniform((2, N), 3), uniform((2, N), 4))
    check_pickle(make(), x, g)
    check_bad_arrays_numpy(make(), x, g)


def test_bad_arguments():
    with raises_exactly(ValueError, "LayerNormalization: nOutput must be a positive integer, got 0"):
        nn.LayerNormalization(0)
    with raises_exactly(ValueError, "LayerNormalization: input must be 1D [6] or 2D [batch, 6], got 2D of size [2, 5]"):
        make().forward(uniform((2, 5)))


def test_loads_the_modules_torch7_built_it_from(tmp_path):
    """Torch7's LayerNormalization is a Sequential of its parts: gain, bias and eps come from them."""
    gain, bias = uniform((N,), 1), uniform((N,), 2)
    empty = {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True}

    def obj(name, **fields):
        return T7Object(f"nn.{name}", dict(empty, **fields))
    mean = obj("Sequential", modules={1: obj("Mean", dimension=1, nInputDims=1, sizeAverage=True),
                                      2: obj("Replicate", nfeatures=N, dim=1, ndim=1)})
    parts = {1: obj("ConcatTable", modules={1: obj("Identity"), 2: mean}), 2: obj("CSubTable", gradInput={}),
             3: obj("Normalize", p=2, eps=1e-5), 4: obj("MulConstant", constant_scalar=np.sqrt(N)),
             5: obj("CMul", weight=gain, gradWeight=gain * 0, size=np.array([N])),
             6: obj("Add", bias=bias, gradBias=bias * 0, scalar=False)}
    path = tmp_path / "ln.t7"
    path.write_bytes(t7_bytes(obj("LayerNormalization", modules=parts)))
    m = nn.load_lua(str(path))
    assert type(m) is nn.LayerNormalization and m.nOutput == N and m.eps == 1e-5 and "modules" not in vars(m)
    np.testing.assert_array_equal(m.weight, gain)
    x = uniform((N,), 3)
    np.testing.assert_allclose(m.forward(x), reference(m, x), rtol=1e-13)
    del parts[5], parts[6]   # affine = false
    path.write_bytes(t7_bytes(obj("LayerNormalization", modules=parts)))
    assert nn.load_lua(str(path)).weight is None
