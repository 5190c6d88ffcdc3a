"""Containers saved by Torch7 (torch.save) load with load_lua: 1-based dims
become 0-based, Torch7's aliases and work arrays are dropped, clones share
their module's parameters again."""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from t7_writer import T7Object, t7_bytes


def linear(n_in, n_out, seed):
    w, b = uniform((n_out, n_in), seed), uniform((n_out,), seed + 1)
    return T7Object("nn.Linear", {"weight": w, "bias": b, "gradWeight": np.full_like(w, np.nan),
                                  "gradBias": np.full_like(b, np.nan), "train": True, "output": np.zeros(0),
                                  "gradInput": np.zeros(0), "_type": "torch.DoubleTensor"})


def table(*items):
    return {i + 1: item for i, item in enumerate(items)}


def load(tmp_path, obj):
    path = tmp_path / "net.t7"
    path.write_bytes(t7_bytes(obj))
    return nn.load_lua(str(path))


def test_concat_and_depth_concat(tmp_path):
    for name in ("nn.Concat", "nn.DepthConcat"):
        m = load(tmp_path, T7Object(name, {"dimension": 2, "size": np.array([3.0, 5.0]), "train": True,
                                           "modules": table(linear(4, 3, 1), linear(4, 2, 3)),
                                           "output": np.zeros(0), "gradInput": np.zeros(0)}))
        assert type(m).__name__ == name[3:] and m.dimension == 1 and m.size() == 2   # size() not hidden
        x = uniform((5, 4), 5)
        l0, l1 = m.get(0), m.get(1)
        np.testing.assert_allclose(m.forward(x), np.concatenate([x @ l0.weight.T + l0.bias, x @ l1.weight.T + l1.bias],
                                                                axis=1), rtol=1e-14)


def test_table_containers(tmp_path):
    m = load(tmp_path, T7Object("nn.Sequential", {"modules": table(
        T7Object("nn.ConcatTable", {"modules": table(linear(4, 3, 1), linear(4, 2, 3)), "output": {},
                                    "gradInput": np.zeros(0), "train": True}),
        T7Object("nn.ParallelTable", {"modules": table(linear(3, 2, 5), T7Object("nn.Decorator", {
            "modules": table(linear(2, 2, 7)), "train": True})), "output": {}, "gradInput": {}, "train": True})),
        "train": True}))
    x = uniform((2, 4), 9)
    out = m.forward(x)
    a, b = m.get(0).get(0), m.get(0).get(1)
    c, d = m.get(1).get(0), m.get(1).get(1).get(0)
    np.testing.assert_allclose(out[0], (x @ a.weight.T + a.bias) @ c.weight.T + c.bias, rtol=1e-13)
    np.testing.assert_allclose(out[1], (x @ b.weight.T + b.bias) @ d.weight.T + d.bias, rtol=1e-13)
    gin = m.backward(x, [np.ones((2, 2)), np.ones((2, 2))])
    assert gin.shape == (2, 4)


def test_map_table_clones_share_again(tmp_path):
    # Torch7's clones share storages with the module; the file holds them as separate tensors
    module = linear(3, 2, 1)
    clone = linear(3, 2, 1)
    m = load(tmp_path, T7Object("nn.MapTable", {"modules": table(module, clone), "shared": True,
                                                "sharedparams": table("weight", "bias", "gradWeight", "gradBias"),
                                                "output": {}, "gradInput": {}, "train": True}))
    assert m.module is m.modules[0]
    assert m.modules[1].weight is m.module.weight and m.modules[1].gradBias is m.module.gradBias
    assert len(m.parameters()[0]) == 2
    x = [uniform((2, 3), 3), uniform((2, 3), 4), uniform((2, 3), 5)]
    out = m.forward(x)
    for o, xi in zip(out, x):
        np.testing.assert_allclose(o, xi @ m.module.weight.T + m.module.bias, rtol=1e-14)


def test_weight_norm(tmp_path):
    inner = linear(4, 3, 1)
    v, g = uniform((3, 4), 3), uniform((3,), 4)
    fields = {"modules": table(inner), "outputDim": 1, "v": v, "g": g, "gradV": np.full_like(v, np.nan),
              "gradG": np.full_like(g, np.nan), "_norm": np.zeros(3), "_scale": np.zeros(3),
              "weight": inner.fields["weight"], "bias": inner.fields["bias"], "viewIn": np.array([3.0, 4.0]),
              "viewOut": np.array([3.0, 4.0]), "otherDims": 4, "train": True}
    m = load(tmp_path, T7Object("nn.WeightNorm", fields))
    assert m.outputDim == 0 and not {"weight", "bias", "_norm", "viewIn", "otherDims"} & set(vars(m))
    assert "lua_shadowed" not in vars(m)   # _norm, named as a method, was the fixup's to drop
    np.testing.assert_array_equal(m.gradV, 0)
    np.testing.assert_array_equal(m.gradG, 0)
    x = uniform((2, 4), 5)
    w = g[:, None] * v / np.sqrt((v ** 2).sum(axis=1, keepdims=True) + 1e-4)
    np.testing.assert_allclose(m.forward(x), x @ w.T + m.get(0).bias, rtol=1e-13)


def test_weight_norm_saved_without_the_weight(tmp_path):
    """Later Torch7 left the module's weight out of the file and kept its size."""
    inner = linear(4, 3, 1)
    del inner.fields["weight"], inner.fields["gradWeight"]
    v, g = uniform((3, 4), 3), uniform((3,), 4)
    m = load(tmp_path, T7Object("nn.WeightNorm", {"modules": table(inner), "outputDim": 1, "v": v, "g": g,
                                                  "gradV": v, "gradG": g, "weightSize": np.array([3.0, 4.0]),
                                                  "train": True}))
    x = uniform((2, 4), 5)
    w = g[:, None] * v / np.sqrt((v ** 2).sum(axis=1, keepdims=True) + 1e-4)
    np.testing.assert_allclose(m.forward(x), x @ w.T + m.get(0).bias, rtol=1e-13)


def test_bottle(tmp_path):
    m = load(tmp_path, T7Object("nn.Bottle", {"modules": table(linear(4, 3, 1)), "nInputDim": 2, "nOutputDim": 2,
                                              "dimDelta": 0, "inShape": np.zeros(2), "outShape": np.zeros(2),
                                              "train": True}))
    assert (m.nInputDim, m.nOutputDim) == (2, 2) and "inShape" not in vars(m)
    x = uniform((2, 5, 4), 2)
    np.testing.assert_allclose(m.forward(x), x @ m.get(0).weight.T + m.get(0).bias, rtol=1e-14)
