"""nn_legacy.InstanceNormalization: per-sample, per-plane statistics, then a
per-plane affine map (fast-neural-style's and CycleGAN's layer)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy
from t7_writer import T7Object, t7_bytes


def make(n=3, seed=4, **kwargs):
    m = nn.InstanceNormalization(n, **kwargs)
    if m.weight is not None:
        m.weight[...], m.bias[...] = uniform((n,), seed), uniform((n,), seed + 1)
    return m


def reference(x, w, b, eps):
    """The definition, plane by plane."""
    out = np.empty_like(x)
    for n, c in np.ndindex(*x.shape[:2]):
        p = x[n, c]
        out[n, c] = (p - p.mean()) / np.sqrt(p.var() + eps) * (1 if w is None else w[c]) + (0 if b is None else b[c])
    return out


@pytest.mark.parametrize("affine", [True, False])
def test_matches_the_definition(affine):
    m = make(affine=affine, eps=1e-3)
    x = uniform((2, 3, 4, 5), 1)
    np.testing.assert_allclose(m.forward(x), reference(x, m.weight, m.bias, 1e-3), rtol=1e-12, atol=1e-13)
    m.evaluate()   # the statistics are the sample's own in evaluation too
    np.testing.assert_allclose(m.forward(x), reference(x, m.weight, m.bias, 1e-3), rtol=1e-12, atol=1e-13)


def test_matches_torch_instance_norm():
    torch = torch_or_skip()
    m = make()
    x, g = uniform((2, 3, 4, 5), 1), uniform((2, 3, 4, 5), 2)
    tx = torch.from_numpy(x).requires_grad_(True)
    tw, tb = (torch.from_numpy(a.copy()).requires_grad_(True) for a in (m.weight, m.bias))
    ty = torch.nn.functional.instance_norm(tx, weight=tw, bias=tb, eps=1e-5)
    ty.backward(torch.from_numpy(g))
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), ty.detach().numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.backward(x, g), tx.grad.numpy(), rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(m.gradWeight, tw.grad.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(m.gradBias, tb.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_reset_draws_weight_from_zero_to_one():
    m = nn.InstanceNormalization(500)
    assert 0 <= m.weight.min() and m.weight.max() <= 1 and m.weight.std() > 0.2
    assert np.all(m.bias == 0)


def test_bad_input():
    with raises_exactly(ValueError, "InstanceNormalization: nOutput must be a positive integer, got 0"):
        nn.InstanceNormalization(0)
    with raises_exactly(ValueError, "InstanceNormalization: eps must be a number >= 0, got -1"):
        nn.InstanceNormalization(2, -1)
    m = make()
    with raises_exactly(ValueError, "InstanceNormalization: input must have nOutput = 3 planes (dim 1), got 4D of "
                                    "size [2, 4, 3, 3]"):
        m.forward(uniform((2, 4, 3, 3)))
    with raises_exactly(ValueError, "InstanceNormalization: input must be 3D [planes, height, width] or 4D [batch, "
                                    "planes, height, width], got 2D of size [3, 3]"):
        m.forward(uniform((3, 3)))
    check_bad_arrays_numpy(make(), uniform((2, 3, 3, 3), 1), uniform((2, 3, 3, 3), 2))


def _fields(nOutput, w, b, **more):
    bn = T7Object("nn.SpatialBatchNormalization", {"eps": 1e-5, "momentum": 0.1, "affine": True, "train": True,
                                                   "running_mean": np.zeros(2 * nOutput),
                                                   "running_var": np.ones(2 * nOutput)}, version=2)
    return dict({"nOutput": nOutput, "eps": 1e-5, "weight": w, "bias": b, "gradWeight": np.zeros(nOutput),
                 "gradBias": np.zeros(nOutput), "bn": bn, "output": np.zeros(0), "gradInput": np.zeros(0),
                 "train": True}, **more)


def test_loads_the_files_of_both_lua_layers(tmp_path):
    w, b = uniform((3,), 1), uniform((3,), 2)
    x = uniform((2, 3, 4, 4), 3)
    f = tmp_path / "in.t7"
    # jcjohnson/fast-neural-style fast_neural_style/InstanceNormalization.lua
    f.write_bytes(t7_bytes(T7Object("nn.InstanceNormalization", _fields(3, w, b, prev_N=2))))
    m = nn.load_lua(str(f))
    assert m.affine and m.nOutput == 3 and "bn" not in vars(m)
    np.testing.assert_allclose(m.forward(x), reference(x, w, b, 1e-5), rtol=1e-12, atol=1e-13)
    # junyanz/CycleGAN util/InstanceNormalization.lua: running statistics kept, affine optional
    fields = _fields(3, w, b, prev_batch_size=2, momentum=0.0, affine=True, running_mean=np.zeros(3),
                     running_var=np.ones(3))
    f.write_bytes(t7_bytes(T7Object("nn.InstanceNormalization", fields)))
    np.testing.assert_allclose(nn.load_lua(str(f)).forward(x), reference(x, w, b, 1e-5), rtol=1e-12, atol=1e-13)
    fields = _fields(3, None, None, affine=False, momentum=0.0)
    del fields["weight"], fields["bias"], fields["gradWeight"], fields["gradBias"]
    f.write_bytes(t7_bytes(T7Object("nn.InstanceNormalization", fields)))
    m = nn.load_lua(str(f))
    assert not m.affine and m.parameters() == ([], [])
    np.testing.assert_allclose(m.forward(x), reference(x, None, None, 1e-5), rtol=1e-12, atol=1e-13)


def test_repr():
    assert repr(nn.InstanceNormalization(3)) == "nn.InstanceNormalization(3, eps=1e-05)"
    assert repr(nn.InstanceNormalization(3, affine=False)) == "nn.InstanceNormalization(3, eps=1e-05, affine=False)"
