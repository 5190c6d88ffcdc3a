"""Modules of other Torch7 backends (cudnn.torch, cunn, fbcunn / fbnn) and
GPU wrappers load as the nn_legacy module of the same meaning.

Each object is written as its package saved it (after ``:cuda()``: CUDA
tensor classes, the package's own fields), at the package commit named in
the case id; the expected module is built here by hand from what the
package computed (its source, read), so that the translation in
nn_legacy/serialization/t7_translations.py is checked, not repeated.
"""
import dataclasses
from typing import Callable

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization.t7 import T7Error, T7Warning
from t7_writer import Function, Storage, T7Object, Tensor, t7_bytes

CUDA = "torch.CudaTensor"


def C(array):
    """A torch.CudaTensor (float32 in the file)."""
    return Tensor(np.asarray(array, dtype=np.float32), CUDA)


def E():
    return Tensor(np.zeros(0), CUDA)


def longs(*values):
    return Storage(np.array(values, dtype=np.int64), "torch.LongStorage")


def cuda_module(cls, fields, version=1):
    base = {"output": E(), "gradInput": E(), "train": True, "_type": CUDA}
    base.update(fields)
    return T7Object(cls, base, version)


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def _u(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float32).astype(np.float64)


def _conv_fields(rng, nin, nout, kW, kH, weight_shape=None, **more):
    w = _u(rng, nout, nin, kH, kW)
    fields = {"nInputPlane": nin, "nOutputPlane": nout, "kW": kW, "kH": kH, "dW": 1, "dH": 1, "padW": 0,
              "padH": 0, "weight": C(w.reshape(weight_shape or w.shape)), "bias": C(_u(rng, nout)),
              "gradWeight": C(np.zeros(weight_shape or w.shape)), "gradBias": C(np.zeros(nout)),
              "iSize": longs(0, 0, 0, 0), "groups": 1}
    fields.update(more)
    return fields, w


def _conv(nin, nout, kW, kH, w, b, *args):
    m = nn.SpatialConvolution(nin, nout, kW, kH, *args)
    m.weight[...], m.bias[...] = w, b
    return m


def _values(t):
    return t.storage.values.astype(np.float64).reshape(t.sizes) if t.sizes else np.zeros(0)


@dataclasses.dataclass
class Case:
    id: str
    build: Callable       # rng -> (the object as saved, the expected nn_legacy module or a function of the input)
    input: Callable       # rng -> input
    warns: bool = False


def _cudnn_conv_2015_01(rng):
    fields, w = _conv_fields(rng, 3, 4, 3, 2, padW=1, padH=0, dW=2)
    fields["weightDesc"] = None
    return (cuda_module("cudnn.SpatialConvolution", fields),
            _conv(3, 4, 3, 2, w, _values(fields["bias"]), 2, 1, 1, 0))


def _cudnn_conv_2015_08_swapped(rng):
    # soumith/cudnn.torch d5b750e: weight declared [nOut, nIn/groups, kW, kH], used as [.., kH, kW];
    # the class's reset function stored in the instance
    fields, w = _conv_fields(rng, 2, 3, 3, 2, weight_shape=(3, 2, 3, 2))
    fields["reset"] = Function(upvalues={"parent": {}})
    return cuda_module("cudnn.SpatialConvolution", fields), _conv(2, 3, 3, 2, w, _values(fields["bias"]))


def _cudnn_conv_groups(rng):
    nin, nout, groups = 4, 6, 2
    w = _u(rng, nout, nin // groups, 3, 3)
    b = _u(rng, nout)
    fields = {"nInputPlane": nin, "nOutputPlane": nout, "kW": 3, "kH": 3, "dW": 1, "dH": 1, "padW": 1, "padH": 1,
              "groups": groups, "weight": C(w), "bias": C(b), "gradWeight": C(w * 0), "gradBias": C(b * 0)}

    def expected(x):
        parts = []
        for g in range(groups):
            conv = _conv(2, 3, 3, 3, w[3 * g:3 * g + 3], b[3 * g:3 * g + 3], 1, 1, 1, 1)
            parts.append(conv.forward(np.ascontiguousarray(x[:, 2 * g:2 * g + 2])))
        return np.concatenate(parts, axis=1)
    return cuda_module("cudnn.SpatialConvolution", fields), expected


def _cudnn_full_conv(rng):
    w, b = _u(rng, 3, 2, 3, 3), _u(rng, 2)
    fields = {"nInputPlane": 3, "nOutputPlane": 2, "kW": 3, "kH": 3, "dW": 2, "dH": 2, "padW": 1, "padH": 1,
              "adjW": 1, "adjH": 0, "weight": C(w), "bias": C(b), "gradWeight": C(w * 0), "gradBias": C(b * 0)}
    m = nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 1, 1, 1, 0)
    m.weight[...], m.bias[...] = w, b
    return cuda_module("cudnn.SpatialFullConvolution", fields), m


def _cudnn_temporal(rng):
    # soumith/cudnn.torch 1bc7ad3: a spatial convolution of one plane, kernel kH frames x inputFrameSize
    nin, nout, k, pad = 4, 3, 3, 1
    w, b = _u(rng, nout, k * nin), _u(rng, nout)
    fields = {"inputFrameSize": nin, "outputFrameSize": nout, "nInputPlane": 1, "nOutputPlane": nout,
              "kW": nin, "kH": k, "dW": 1, "dH": 1, "padW": 0, "padH": pad, "weight": C(w), "bias": C(b),
              "gradWeight": C(w * 0), "gradBias": C(b * 0)}
    conv = nn.TemporalConvolution(nin, nout, k, 1)
    conv.weight[...], conv.bias[...] = w, b

    def expected(x):
        padded = np.concatenate([np.zeros((x.shape[0], pad, nin)), x, np.zeros((x.shape[0], pad, nin))], axis=1)
        return conv.forward(padded)
    return cuda_module("cudnn.TemporalConvolution", fields), expected


def _softmax_instance(log):
    def build(rng):
        fields = {"mode": "CUDNN_SOFTMAX_MODE_INSTANCE", "algorithm": "CUDNN_SOFTMAX_ACCURATE",
                  "iSize": longs(2, 3, 2, 4)}
        if log:
            fields["algorithm"] = "CUDNN_SOFTMAX_LOG"

        def expected(x):   # over the whole of each sample
            flat = x.reshape(x.shape[0], -1)
            e = np.exp(flat - flat.max(1, keepdims=True))
            p = e / e.sum(1, keepdims=True)
            return (np.log(p) if log else p).reshape(x.shape)
        return cuda_module("cudnn.LogSoftMax" if log else "cudnn.SoftMax", fields), expected
    return build


def _bn(cls, nn_cls, version, shape):
    def build(rng):
        n = shape[1]
        mean, var = _u(rng, n), rng.uniform(0.5, 2, n).astype(np.float32).astype(np.float64)
        w, b = _u(rng, n), _u(rng, n)
        fields = {"eps": 1e-5, "momentum": 0.1, "affine": True, "train": False, "running_mean": C(mean),
                  "weight": C(w), "bias": C(b), "save_mean": E(), "save_std": E(), "mode": "CUDNN_BATCHNORM_SPATIAL"}
        if version < 2:
            fields["running_std"] = C(1 / np.sqrt(var + 1e-5))
        else:
            fields["running_var"] = C(var)
        m = nn_cls(n)
        m.weight[...], m.bias[...], m.running_mean[...] = w, b, mean
        # version 1's 1/std, stored as float32, made a variance again (and kept in float32)
        m.running_var[...] = f32(f32(1 / np.sqrt(var + 1e-5)) ** -2 - 1e-5) if version < 2 else var
        m.evaluate()
        return cuda_module(cls, fields, version), m
    return build


def _pool(cls, fields, expected):
    return lambda rng: (cuda_module(cls, fields), expected())


CASES = [
    Case("cudnn.SpatialConvolution-2015-01-e2595a3", _cudnn_conv_2015_01, lambda r: _u(r, 2, 3, 5, 7)),
    Case("cudnn.SpatialConvolution-2015-08-d5b750e-kWkH-swapped-reset-stored", _cudnn_conv_2015_08_swapped,
         lambda r: _u(r, 2, 2, 5, 7), warns=True),
    Case("cudnn.SpatialConvolution-groups-2", _cudnn_conv_groups, lambda r: _u(r, 2, 4, 5, 5)),
    Case("cudnn.SpatialFullConvolution-2016-08-db6e634-adj", _cudnn_full_conv, lambda r: _u(r, 2, 3, 3, 4)),
    Case("cudnn.TemporalConvolution-2016-01-1bc7ad3-padH", _cudnn_temporal, lambda r: _u(r, 2, 7, 4)),
    Case("cudnn.VolumetricConvolution-2016-01-5c89a67",   # the layout of cudnn.torch's test/modelTemp.t7
         lambda r: _volumetric_conv(r), lambda r: _u(r, 1, 3, 4, 5, 5)),
    Case("cudnn.ReLU-2014-11-b0e6e3f-inplace",
         lambda r: (cuda_module("cudnn.ReLU", {"inplace": True, "mode": "CUDNN_ACTIVATION_RELU"}), nn.ReLU()),
         lambda r: _u(r, 3, 4)),
    Case("cudnn.ReLU-2014-09-a8bf53f-no-inplace",
         lambda r: (cuda_module("cudnn.ReLU", {"iSize": longs(0, 0, 0, 0)}), nn.ReLU()), lambda r: _u(r, 3, 4)),
    Case("cudnn.Tanh", lambda r: (cuda_module("cudnn.Tanh", {"inplace": False}), nn.Tanh()), lambda r: _u(r, 3, 4)),
    Case("cudnn.Sigmoid", lambda r: (cuda_module("cudnn.Sigmoid", {"inplace": False}), nn.Sigmoid()),
         lambda r: _u(r, 3, 4)),
    Case("cudnn.ClippedReLU-2016-06-ae1c144",
         lambda r: (cuda_module("cudnn.ClippedReLU", {"ceiling": 0.5, "inplace": False}), nn.HardTanh(0, 0.5)),
         lambda r: _u(r, 3, 4)),
    Case("cudnn.SoftMax-2D", lambda r: (cuda_module("cudnn.SoftMax", {"mode": "CUDNN_SOFTMAX_MODE_INSTANCE"}),
                                        nn.SoftMax()), lambda r: _u(r, 3, 4)),
    Case("cudnn.SoftMax-4D-instance-mode", _softmax_instance(False), lambda r: _u(r, 2, 3, 2, 4)),
    Case("cudnn.LogSoftMax-4D-instance-mode", _softmax_instance(True), lambda r: _u(r, 2, 3, 2, 4)),
    Case("cudnn.SpatialSoftMax-4D",
         lambda r: (cuda_module("cudnn.SpatialSoftMax", {"mode": "CUDNN_SOFTMAX_MODE_CHANNEL"}), nn.SoftMax()),
         lambda r: _u(r, 2, 3, 2, 4)),
    Case("cudnn.SpatialLogSoftMax-2D",
         lambda r: (cuda_module("cudnn.SpatialLogSoftMax", {"mode": "CUDNN_SOFTMAX_MODE_CHANNEL"}),
                    nn.LogSoftMax()), lambda r: _u(r, 3, 4)),
    Case("cudnn.SpatialMaxPooling-2014-12-ad958c0-ceil",
         _pool("cudnn.SpatialMaxPooling", {"kW": 3, "kH": 3, "dW": 2, "dH": 2, "padW": 1, "padH": 1,
                                           "ceil_mode": True, "mode": "CUDNN_POOLING_MAX"},
               lambda: nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1).ceil()), lambda r: _u(r, 2, 2, 6, 7)),
    Case("cudnn.SpatialMaxPooling-2014-09-a8bf53f",
         _pool("cudnn.SpatialMaxPooling", {"kW": 2, "kH": 2, "dW": 2, "dH": 2},
               lambda: nn.SpatialMaxPooling(2, 2, 2, 2)), lambda r: _u(r, 2, 2, 6, 7)),
    Case("cudnn.SpatialAveragePooling-2014-09-2ae0f1a-mode-average",
         _pool("cudnn.SpatialAveragePooling", {"kW": 2, "kH": 2, "dW": 2, "dH": 2, "mode": "CUDNN_POOLING_AVERAGE"},
               lambda: nn.SpatialAveragePooling(2, 2, 2, 2)), lambda r: _u(r, 2, 2, 6, 7)),
    Case("cudnn.SpatialAveragePooling-2016-01-0f2d96a-padding",
         _pool("cudnn.SpatialAveragePooling", {
             "kW": 3, "kH": 3, "dW": 2, "dH": 2, "padW": 1, "padH": 1, "ceil_mode": False,
             "count_include_pad": True, "mode": "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING"},
             lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1)), lambda r: _u(r, 2, 2, 6, 7)),
    Case("cudnn.SpatialAveragePooling-2016-01-exclude-padding-before-forward",
         _pool("cudnn.SpatialAveragePooling", {"kW": 3, "kH": 3, "dW": 2, "dH": 2, "padW": 1, "padH": 1,
                                               "ceil_mode": False, "count_include_pad": False},
               lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).setCountExcludePad()), lambda r: _u(r, 2, 2, 6, 7)),
    Case("cudnn.VolumetricMaxPooling-2015-08-9fe2e3a",
         _pool("cudnn.VolumetricMaxPooling", {"kT": 2, "kW": 2, "kH": 2, "dT": 2, "dW": 2, "dH": 2, "padT": 0,
                                              "padW": 0, "padH": 0, "ceil_mode": False, "mode": "CUDNN_POOLING_MAX"},
               lambda: nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 2)), lambda r: _u(r, 1, 2, 4, 4, 4)),
    Case("cudnn.VolumetricAveragePooling-2015-08-9fe2e3a",
         _pool("cudnn.VolumetricAveragePooling", {
             "kT": 2, "kW": 2, "kH": 2, "dT": 2, "dW": 2, "dH": 2, "padT": 0, "padW": 0, "padH": 0,
             "ceil_mode": False, "mode": "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING"},
               lambda: nn.VolumetricAveragePooling(2, 2, 2, 2, 2, 2)), lambda r: _u(r, 1, 2, 4, 4, 4)),
    Case("cudnn.SpatialCrossMapLRN-2015-08-7968df7-K",
         _pool("cudnn.SpatialCrossMapLRN", {"size": 5, "alpha": 1e-3, "beta": 0.75, "K": 2},
               lambda: nn.SpatialCrossMapLRN(5, 1e-3, 0.75, 2)), lambda r: _u(r, 2, 6, 3, 3)),
    Case("cudnn.SpatialCrossMapLRN-2016-01-0f2d96a-k",
         _pool("cudnn.SpatialCrossMapLRN", {"size": 3, "alpha": 1e-4, "beta": 0.5, "k": 1},
               lambda: nn.SpatialCrossMapLRN(3, 1e-4, 0.5, 1)), lambda r: _u(r, 2, 6, 3, 3)),
    Case("cudnn.SpatialBatchNormalization-2015-10-v1",
         _bn("cudnn.SpatialBatchNormalization", nn.SpatialBatchNormalization, 1, (2, 3, 2, 2)),
         lambda r: _u(r, 2, 3, 2, 2)),
    Case("cudnn.SpatialBatchNormalization-2016-04-89929ef-v2",
         _bn("cudnn.SpatialBatchNormalization", nn.SpatialBatchNormalization, 2, (2, 3, 2, 2)),
         lambda r: _u(r, 2, 3, 2, 2)),
    Case("cudnn.BatchNormalization-2016-04-v2", _bn("cudnn.BatchNormalization", nn.BatchNormalization, 2, (4, 3)),
         lambda r: _u(r, 4, 3)),
    Case("cudnn.VolumetricBatchNormalization-2016-04-v2",
         _bn("cudnn.VolumetricBatchNormalization", nn.VolumetricBatchNormalization, 2, (1, 3, 2, 2, 2)),
         lambda r: _u(r, 1, 3, 2, 2, 2)),
    Case("fbnn.BatchNormalization-fbcunn", _bn("fbnn.BatchNormalization", nn.BatchNormalization, 1, (4, 3)),
         lambda r: _u(r, 4, 3)),
    Case("fbnn.SpatialBatchNormalization-fbcunn",
         _bn("fbnn.SpatialBatchNormalization", nn.SpatialBatchNormalization, 1, (2, 3, 2, 2)),
         lambda r: _u(r, 2, 3, 2, 2)),
    Case("fbnn.SpatialConvolution-fbcunn", lambda r: _fbnn_conv(r), lambda r: _u(r, 2, 3, 5, 6)),
    Case("nn.SpatialConvolutionCuFFT-fbcunn", lambda r: _fft_conv(r), lambda r: _u(r, 2, 3, 5, 6)),
    Case("nn.TemporalConvolutionFB-fbcunn", lambda r: _temporal_fb(r), lambda r: _u(r, 2, 7, 4)),
    Case("nn.LookupTableGPU-fbcunn", lambda r: _lookup_gpu(r), lambda r: r.integers(0, 5, (2, 3)).astype(float)),
    Case("nn.TransferGPU-cunn", lambda r: (cuda_module("nn.TransferGPU", {"outdevice": 2}), nn.Identity()),
         lambda r: _u(r, 3, 4)),
    Case("nn.DataParallel-fbcunn", lambda r: _data_parallel(r), lambda r: _u(r, 2, 3)),
]


def _volumetric_conv(rng):
    w, b = _u(rng, 2, 3, 2, 3, 3), _u(rng, 2)
    fields = {"nInputPlane": 3, "nOutputPlane": 2, "kT": 2, "kW": 3, "kH": 3, "dT": 1, "dW": 1, "dH": 2,
              "padT": 0, "padW": 0, "padH": 0, "weight": C(w), "bias": C(b), "gradWeight": C(w * 0),
              "gradBias": C(b * 0), "finput": E(), "fgradInput": E(), "iSize": longs(0, 0, 0, 0, 0),
              "extraBufferSizeInBytes": 26848}
    m = nn.VolumetricConvolution(3, 2, 2, 3, 3, 1, 1, 2)
    m.weight[...], m.bias[...] = w, b
    return cuda_module("cudnn.VolumetricConvolution", fields), m


def _fbnn_conv(rng):
    w, b = _u(rng, 4, 3, 3, 3), _u(rng, 4)
    fields = {"inputPlanes": 3, "outputPlanes": 4, "kW": 3, "kH": 3, "dW": 1, "dH": 1, "padLeft": 1, "padUp": 1,
              "weight": C(w), "bias": C(b), "gradWeight": C(w * 0), "gradBias": C(b * 0), "reportLevel": 0}
    return cuda_module("fbnn.SpatialConvolution", fields), _conv(3, 4, 3, 3, w, b, 1, 1, 1, 1)


def _fft_conv(rng):
    w, b = _u(rng, 4, 3, 3, 2), _u(rng, 4)
    fields = {"nInputPlane": 3, "nOutputPlane": 4, "kW": 2, "kH": 3, "dW": 1, "dH": 1, "padLeft": 1, "padUp": 0,
              "padRight": 1, "padDown": 0, "weight": C(w), "bias": C(b), "gradWeight": C(w * 0),
              "gradBias": C(b * 0), "printDebugLevel": -1, "numCudaStreams": 16}
    return cuda_module("nn.SpatialConvolutionCuFFT", fields), _conv(3, 4, 2, 3, w, b, 1, 1, 1, 0)


def _temporal_fb(rng):
    w, b = _u(rng, 3, 2, 4), _u(rng, 3)   # [out, kW, in]
    fields = {"inputFrameSize": 4, "outputFrameSize": 3, "kW": 2, "dW": 1, "weight": C(w), "bias": C(b),
              "gradWeight": C(w * 0), "gradBias": C(b * 0)}
    m = nn.TemporalConvolution(4, 3, 2, 1)
    m.weight[...], m.bias[...] = w.reshape(3, 8), b
    return cuda_module("nn.TemporalConvolutionFB", fields), m


def _lookup_gpu(rng):
    w = _u(rng, 5, 3)
    m = nn.LookupTable(5, 3)
    m.weight[...] = w
    return cuda_module("nn.LookupTableGPU", {"nInput": 5, "nOutput": 3, "featuresInDim2": False, "weight": C(w),
                                             "gradWeight": C(w * 0)}), m


def _data_parallel(rng):
    w, b = _u(rng, 2, 3), _u(rng, 2)
    replica = cuda_module("nn.Linear", {"weight": C(w), "bias": C(b), "gradWeight": C(w * 0), "gradBias": C(b * 0)})
    m = nn.Linear(3, 2)
    m.weight[...], m.bias[...] = w, b
    return (cuda_module("nn.DataParallel", {"modules": {1: replica, 2: replica}, "gpu_assignments": {1: 1, 2: 2},
                                            "dimension": 1, "size": longs()}), m)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_another_backends_module_computes_what_it_did(tmp_path, case):
    import warnings
    rng = np.random.default_rng(len(case.id))
    saved, expected = case.build(rng)
    path = tmp_path / "m.t7"
    path.write_bytes(t7_bytes(saved))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = nn.load_lua(str(path))
    assert [issubclass(w.category, T7Warning) for w in caught] == ([True] if case.warns else [])
    assert got.type() in (None, np.float32)   # CUDA tensors: float32 on the host
    got.double()
    if not saved.fields.get("train", True):
        got.evaluate()
    x = case.input(rng)
    want = expected(x) if callable(expected) and not isinstance(expected, (nn.Module, nn.Criterion)) \
        else expected.double().forward(x)
    np.testing.assert_allclose(got.forward(x), want, rtol=1e-10, atol=1e-12)


def test_translations_refuse_what_they_cannot_mean(tmp_path):
    path = tmp_path / "m.t7"
    path.write_bytes(t7_bytes(cuda_module("nn.LookupTableGPU", {"featuresInDim2": True, "weight": C(np.ones((2, 2)))})))
    with pytest.raises(T7Error, match="featuresInDim2"):
        nn.load_lua(str(path))
    fields, _ = _conv_fields(np.random.default_rng(0), 4, 6, 3, 3)
    fields["groups"] = 4   # does not divide 6 output planes
    path.write_bytes(t7_bytes(cuda_module("cudnn.SpatialConvolution", fields)))
    with pytest.raises(T7Error, match="4 groups do not divide 4 -> 6 planes"):
        nn.load_lua(str(path))
    path.write_bytes(t7_bytes(cuda_module("cudnn.LSTM", {"hiddenSize": 4})))
    with pytest.raises(T7Error, match="cudnn.LSTM"):
        nn.load_lua(str(path))


def test_a_registered_class_wins_over_a_translation(tmp_path):
    from nn_legacy.serialization.registry import _REGISTERED

    class MyReLU(nn.ReLU):
        pass
    path = tmp_path / "m.t7"
    path.write_bytes(t7_bytes(cuda_module("cudnn.ReLU", {"inplace": False, "threshold": 0, "val": 0})))
    assert type(nn.load_lua(str(path), classes={"cudnn.ReLU": MyReLU})) is MyReLU
    assert "cudnn.ReLU" not in _REGISTERED and type(nn.load_lua(str(path))) is nn.ReLU
