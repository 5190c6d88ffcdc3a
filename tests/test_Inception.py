"""nn_legacy.Inception: dpnn's inception block (OpenFace's networks)."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly,
                          torch_or_skip, uniform)
from t7_writer import T7Object, t7_bytes


def make(batchNorm=False, **kwargs):
    m = nn.Inception(3, [4, 2], [2, 3, 2, 1], batchNorm=batchNorm, kernelSize=[3, 1], **kwargs)
    rng = np.random.default_rng(5)
    for p in m.parameters()[0]:
        p[...] = rng.uniform(-0.5, 0.5, p.shape)
    return m


def torch_block(torch, m, x):
    """The block by torch's functions, from the module's own weights: the
    columns as dpnn built them, joined in depth with smaller maps centred."""
    F = torch.nn.functional
    t = torch.from_numpy(x)
    convs = [c for c in _modules(m) if isinstance(c, nn.SpatialConvolution)]

    def conv(v, c):
        return F.conv2d(v, torch.from_numpy(c.weight), torch.from_numpy(c.bias), (c.dH, c.dW), (c.padH, c.padW))
    columns = [F.relu(conv(F.relu(conv(t, convs[0])), convs[1])), F.relu(conv(F.relu(conv(t, convs[2])), convs[3])),
               F.relu(conv(F.max_pool2d(t, 3, 1), convs[4])), F.relu(conv(t, convs[5]))]
    h = max(c.shape[2] for c in columns)
    w = max(c.shape[3] for c in columns)
    out = torch.zeros(x.shape[0], sum(c.shape[1] for c in columns), h, w, dtype=torch.float64)
    start = 0
    for c in columns:
        top, left = (h - c.shape[2]) // 2, (w - c.shape[3]) // 2
        out[:, start:start + c.shape[1], top:top + c.shape[2], left:left + c.shape[3]] = c
        start += c.shape[1]
    return out.numpy()


def _modules(m):
    found = []
    m.apply(found.append)
    return found


def test_matches_the_block_built_from_torch_functions():
    torch = torch_or_skip()
    m = make()
    x = uniform((2, 3, 5, 6), 1)
    out = m.forward(x)
    assert out.shape == (2, 4 + 2 + 2 + 1, 5, 6)
    np.testing.assert_allclose(out, torch_block(torch, m, x), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(m.forward(x[0]), out[0], rtol=1e-13)   # one sample as a batch of one


def test_options_build_what_dpnn_built():
    m = nn.Inception(4, [6], [2, 3], batchNorm=True, padding=False, kernelSize=[3], kernelStride=[1],
                     transfer=nn.Tanh(), pool=nn.SpatialAveragePooling(3, 3, 1, 1))
    column, pooled = m.modules[0].modules
    assert [type(c).__name__ for c in column.modules] == ["SpatialConvolution", "SpatialBatchNormalization", "Tanh",
                                                          "SpatialConvolution", "SpatialBatchNormalization", "Tanh"]
    assert column.modules[3].padW == 0
    assert [type(c).__name__ for c in pooled.modules] == ["SpatialAveragePooling", "SpatialConvolution",
                                                          "SpatialBatchNormalization", "Tanh"]
    plain = nn.Inception(4, [6], [2], kernelSize=[3], kernelStride=[1])
    assert plain.modules[0].size() == 2   # no reduction after pooling, no 1x1 column


def test_bad_arguments():
    with raises_exactly(ValueError, "Inception: reduceSize [2] needs an entry for each kernel size [5, 3] (and one "
                                    "each for the pooling and 1x1 columns to have them)"):
        nn.Inception(3, [4, 2], [2])
    with raises_exactly(ValueError, "Inception: outputSize [4] and kernelStride [1, 1] need an entry for each kernel "
                                    "size [5, 3]"):
        nn.Inception(3, [4], [2, 2])
    with raises_exactly(ValueError, "Inception: input must be 3D [planes, height, width] or 4D [batch, planes, "
                                    "height, width], got 2D of size [3, 4]"):
        make().forward(uniform((3, 4)))


def _raw(m):
    """The module as dpnn (2017) saved it: its config fields, the block in modules."""
    def conv(c):
        return T7Object("nn.SpatialConvolution", {
            "nInputPlane": c.nInputPlane, "nOutputPlane": c.nOutputPlane, "kW": c.kW, "kH": c.kH, "dW": c.dW,
            "dH": c.dH, "padW": c.padW, "padH": c.padH, "weight": c.weight, "bias": c.bias,
            "gradWeight": np.zeros_like(c.weight), "gradBias": np.zeros_like(c.bias)})

    def raw(x):
        if isinstance(x, nn.SpatialConvolution):
            return conv(x)
        if isinstance(x, nn.ReLU):
            return T7Object("nn.ReLU", {"threshold": 0, "val": 0, "inplace": False})
        if isinstance(x, nn.SpatialMaxPooling):
            return pool
        if isinstance(x, nn.Sequential):
            return T7Object("nn.Sequential", {"modules": {i + 1: raw(c) for i, c in enumerate(x.modules)}})
        return T7Object("nn.DepthConcat", {"dimension": 2, "modules": {i + 1: raw(c) for i, c in enumerate(x.modules)}})
    pool = T7Object("nn.SpatialMaxPooling", {"kW": 3, "kH": 3, "dW": 1, "dH": 1, "padW": 0, "padH": 0,
                                             "ceil_mode": False, "indices": np.zeros(0)})
    block = raw(m.modules[0])
    return {"inputSize": 3, "outputSize": {1: 4, 2: 2}, "reduceSize": {1: 2, 2: 3, 3: 2, 4: 1}, "reduceStride": {},
            "transfer": T7Object("nn.ReLU", {"threshold": 0, "val": 0, "inplace": False}), "padding": True,
            "kernelSize": {1: 3, 2: 1}, "kernelStride": {1: 1, 2: 1}, "poolSize": 3, "poolStride": 1, "pool": pool,
            "modules": {1: block}, "train": True}, block


@pytest.mark.parametrize("era", ["2017 modules", "2015-2017 module field", "2015-04 depthConcat field"])
def test_loads_dpnn_files(tmp_path, era):
    m = make()
    fields, block = _raw(m)
    if era == "2015-2017 module field":
        fields["module"] = block
    elif era == "2015-04 depthConcat field":
        fields["depthConcat"] = block
    f = tmp_path / "inception.t7"
    f.write_bytes(t7_bytes(T7Object("nn.Inception", fields)))
    loaded = nn.load_lua(str(f))
    assert isinstance(loaded, nn.Inception) and loaded.kernelSize == [3, 1] and loaded.reduceSize == [2, 3, 2, 1]
    assert "module" not in vars(loaded) and "depthConcat" not in vars(loaded)
    x = uniform((2, 3, 5, 6), 3)
    np.testing.assert_allclose(loaded.forward(x), m.forward(x), rtol=1e-13, atol=1e-14)
