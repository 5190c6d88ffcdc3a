"""Valid arguments for every kernel of THNN.h, for the binding, lifetime and
memory tests (tests/test_binding.py, test_lifetime.py, test_memory.py).

A Case builds one valid call of one kernel: ``case.kwargs(dtype, n, seed)``
gives the arguments by their header names (n scales the batch, so the same
case makes calls of many shapes), ``case.args(...)`` the same in header
order.  Every function of THNN.h needs at least one case here:
test_binding.test_every_kernel_has_a_case fails naming any kernel added to
the header without one.

The tags of the header say what a kernel may write; ``written(case, kw)``
and ``read_only(case, kw)`` split the tensor arguments of a call that way.
"""
import ctypes
import dataclasses
import os

import numpy as np

import thnn

HEADER = {f.name: f for f in thnn.FUNCTIONS}
PRODUCED = frozenset({"OUT", "BUFFER"})


def _u(rng, shape, dtype, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


# ---- one builder per layer: (dtype, rng, n, verb) -> {argument name: value} ----

def _linear(dtype, rng, n, verb):
    n_in, n_out = 3 + n % 4, 2 + n % 3
    kw = {"input": _u(rng, (n, n_in), dtype), "weight": _u(rng, (n_out, n_in), dtype)}
    if verb == "updateOutput":
        kw.update(output=None, bias=_u(rng, (n_out,), dtype))
    elif verb == "updateGradInput":
        kw.update(gradOutput=_u(rng, (n, n_out), dtype), gradInput=None)
    else:
        kw.update(gradOutput=_u(rng, (n, n_out), dtype), bias=_u(rng, (n_out,), dtype),
                  gradWeight=_u(rng, (n_out, n_in), dtype), gradBias=_u(rng, (n_out,), dtype), scale=0.5)
    return kw


def _pointwise(low, high):
    """Sigmoid and Tanh: the backward pass reads the forward output."""
    def build(dtype, rng, n, verb):
        if verb == "updateOutput":
            return {"input": _u(rng, (n, 4), dtype), "output": None}
        return {"gradOutput": _u(rng, (n, 4), dtype), "gradInput": None,
                "output": _u(rng, (n, 4), dtype, low, high)}
    return build


def _threshold(inplace):
    def build(dtype, rng, n, verb):
        kw = {"input": _u(rng, (n, 5), dtype), "threshold": 0.1, "val": -0.5, "inplace": inplace}
        if verb == "updateOutput":
            kw["output"] = None
        else:
            kw.update(gradOutput=_u(rng, (n, 5), dtype), gradInput=None)
        return kw
    return build


def _softmax(dtype, rng, n, verb):
    kw = {"input": _u(rng, (n, 5), dtype), "output": None}
    if verb == "updateGradInput":
        kw.update(gradOutput=_u(rng, (n, 5), dtype), gradInput=None, output=_u(rng, (n, 5), dtype, 0, 1))
    return kw


def _mse(dtype, rng, n, verb):
    kw = {"input": _u(rng, (n, 3), dtype), "target": _u(rng, (n, 3), dtype), "sizeAverage": True}
    kw["output" if verb == "updateOutput" else "gradInput"] = None
    return kw


def _class_nll(dtype, rng, n, verb):
    kw = {"input": np.log(_u(rng, (n, 4), dtype, 0.05, 1.0)),
          "target": rng.integers(0, 4, size=n).astype(np.int64),
          "sizeAverage": True, "weights": _u(rng, (4,), dtype, 0.5, 2.0), "ignore_index": -100}
    if verb == "updateOutput":
        kw.update(output=None, total_weight=None)
    else:
        kw.update(gradInput=None, total_weight=np.array([float(n)], dtype=dtype))
    return kw


# ---- padding, resampling and batch normalization ----

def _padding(spatial, pads):
    """The padding layers: a spatial (2) or volumetric (3) input of n samples."""
    def build(dtype, rng, n, verb):
        in_sizes = (4, 5) if spatial == 2 else (3, 4, 5)
        out_sizes = tuple(s + pads[2 * k] + pads[2 * k + 1] for k, s in enumerate(reversed(in_sizes)))[::-1]
        kw = {"input": _u(rng, (n, 2) + in_sizes, dtype)}
        kw.update(zip(("pad_l", "pad_r", "pad_t", "pad_b") if spatial == 2 else
                      ("pleft", "pright", "ptop", "pbottom", "pfront", "pback"), pads))
        if verb == "updateOutput":
            kw["output"] = None
        else:
            kw.update(gradOutput=_u(rng, (n, 2) + out_sizes, dtype), gradInput=None)
        return kw
    return build


def _upsampling(spatial, nearest):
    """Nearest (scale 2) or linear (to a fixed size) up-sampling."""
    def build(dtype, rng, n, verb):
        in_sizes = (3, 4) if spatial == 2 else (2, 3, 4)
        out_sizes = tuple(2 * s for s in in_sizes) if nearest else ((5, 7) if spatial == 2 else (3, 5, 7))
        kw = {"input": _u(rng, (n, 2) + in_sizes, dtype)}
        if nearest:
            kw["scale_factor"] = 2
        else:
            kw.update(zip(("outputDepth", "outputHeight", "outputWidth")[3 - spatial:], out_sizes))
        if verb == "updateOutput":
            kw["output"] = None
        else:
            kw.update(gradOutput=_u(rng, (n, 2) + out_sizes, dtype), gradInput=None)
        return kw
    return build


def _grid_sampler(dtype, rng, n, verb):
    kw = {"input": _u(rng, (n, 2, 3, 4), dtype), "grid": _u(rng, (n, 5, 6, 2), dtype, -1.2, 1.2),
          "padding_mode": 0}
    if verb == "updateOutput":
        kw["output"] = None
    else:
        kw.update(gradInput=None, gradGrid=None, gradOutput=_u(rng, (n, 2, 5, 6), dtype))
    return kw


def _batch_norm(dtype, rng, n, verb):
    """Training, on [n, c, 2, 2] (4n values per channel; the number of
    channels c changes with n, so save_mean and save_std do too)."""
    c = 2 + n % 7
    x = _u(rng, (n, c, 2, 2), dtype)
    kw = {"input": x, "weight": _u(rng, (c,), dtype, 0.5, 1.5), "running_mean": _u(rng, (c,), dtype),
          "running_var": _u(rng, (c,), dtype, 0.5, 2.0), "train": True, "eps": 1e-5}
    if verb == "updateOutput":
        kw.update(output=None, bias=_u(rng, (c,), dtype), save_mean=None, save_std=None, momentum=0.1)
    else:
        mean = x.mean(axis=(0, 2, 3), dtype=np.float64) if n else np.zeros(c)
        invstd = 1 / np.sqrt(x.var(axis=(0, 2, 3), dtype=np.float64) + 1e-5) if n else np.zeros(c)
        kw.update(gradOutput=_u(rng, x.shape, dtype), gradInput=np.zeros_like(x),
                  gradWeight=np.zeros(c, dtype), gradBias=np.zeros(c, dtype), save_mean=mean.astype(dtype),
                  save_std=invstd.astype(dtype), scale=0.5)
    return kw


# ---- volumetric convolutions, SpatialConvolutionLocal and the connection-table maps ----
def _volumetric(transposed, dilated, buffered):
    """The volumetric convolutions, 5D input [n, 2, 3, 4, 5]; the full
    (transposed) ones with adj.  Kernel 2x1x3 (T x H x W), steps (1, 1, 2),
    pads (1, 1, 0): no two sizes alike."""
    def build(dtype, rng, n, verb):
        n_in, n_out, size = 2, 3, (3, 4, 5)                    # T, H, W
        k, d, pad, dil, adj = (2, 1, 3), (1, 1, 2), (1, 1, 0), (2, 3, 1) if dilated else (1, 1, 1), (0, 0, 1)
        kw = dict(kT=k[0], kH=k[1], kW=k[2], dT=d[0], dH=d[1], dW=d[2], padT=pad[0], padH=pad[1], padW=pad[2])
        if dilated:
            kw.update(dilationT=dil[0], dilationH=dil[1], dilationW=dil[2])
        if transposed:
            kw.update(adjT=adj[0], adjH=adj[1], adjW=adj[2])
            out = tuple((i - 1) * s - 2 * p + (q - 1) * e + 1 + a
                        for i, s, p, q, e, a in zip(size, d, pad, k, dil, adj))
        else:
            out = tuple((i + 2 * p - (q - 1) * e - 1) // s + 1 for i, s, p, q, e in zip(size, d, pad, k, dil))
        w = _u(rng, ((n_in, n_out) if transposed else (n_out, n_in)) + k, dtype)
        kw["input"] = _u(rng, (n, n_in) + size, dtype)
        if verb == "updateOutput":
            kw.update(output=None, weight=w, bias=_u(rng, (n_out,), dtype))
        elif verb == "updateGradInput":
            kw.update(gradOutput=_u(rng, (n, n_out) + out, dtype), gradInput=None, weight=w)
        else:
            kw.update(gradOutput=_u(rng, (n, n_out) + out, dtype), gradWeight=_u(rng, w.shape, dtype),
                      gradBias=_u(rng, (n_out,), dtype), scale=0.5)
        if buffered:
            kw.update(finput=None, fgradInput=None)
        return kw
    return build


def _spatial_local(dtype, rng, n, verb):
    n_in, n_out, iH, iW, kH, kW, oH, oW = 2, 3, 4, 5, 2, 3, 5, 2
    kw = dict(input=_u(rng, (n, n_in, iH, iW), dtype), kW=kW, kH=kH, dW=2, dH=1, padW=0, padH=1,
              inputWidth=iW, inputHeight=iH, outputWidth=oW, outputHeight=oH)
    w = _u(rng, (oH, oW, n_out, n_in, kH, kW), dtype)
    if verb == "updateOutput":
        kw.update(output=None, weight=w, bias=_u(rng, (n_out, oH, oW), dtype))
    elif verb == "updateGradInput":
        kw.update(gradOutput=_u(rng, (n, n_out, oH, oW), dtype), gradInput=None, weight=w)
    else:
        kw.update(gradOutput=_u(rng, (n, n_out, oH, oW), dtype), gradWeight=_u(rng, w.shape, dtype),
                  gradBias=_u(rng, (n_out, oH, oW), dtype), scale=0.5)
    return kw


def _connection_map(transposed):
    """SpatialConvolutionMap, and SpatialFullConvolutionMap (transposed)."""
    def build(dtype, rng, n, verb):
        table = np.array([[0, 0], [2, 0], [1, 1], [2, 1], [0, 2]], dtype=np.int64)
        kH, kW, dH, dW = 2, 3, 1, 2
        out_hw = ((4 - 1) * dH + kH, (5 - 1) * dW + kW) if transposed else ((4 - kH) // dH + 1, (5 - kW) // dW + 1)
        kw = dict(input=_u(rng, (n, 3, 4, 5), dtype), connTable=table, nInputPlane=3, nOutputPlane=3,
                  kW=kW, kH=kH, dW=dW, dH=dH)
        w = _u(rng, (len(table), kH, kW), dtype)
        if verb == "updateOutput":
            kw.update(output=None, weight=w, bias=_u(rng, (3,), dtype))
        elif verb == "updateGradInput":
            kw.update(gradOutput=_u(rng, (n, 3) + out_hw, dtype), gradInput=None, weight=w)
        else:
            kw.update(gradOutput=_u(rng, (n, 3) + out_hw, dtype), gradWeight=_u(rng, w.shape, dtype),
                      gradBias=_u(rng, (3,), dtype), scale=0.5)
        return kw
    return build


@dataclasses.dataclass(frozen=True)
class Case:
    id: str            # the kernel's name, with '-inplace' for its in-place mode
    function: str      # the kernel's name in THNN.h
    builder: object

    @property
    def header(self):
        return HEADER[self.function]

    @property
    def params(self):
        """The header's arguments without the state."""
        return self.header.args[1:]

    def kwargs(self, dtype, n=3, seed=0):
        kw = self.builder(np.dtype(dtype), np.random.default_rng(seed), n, self.header.verb)
        missing = [a.name for a in self.params if a.name not in kw]
        assert not missing, f"case {self.id} gives no value for {missing}"
        return {a.name: kw[a.name] for a in self.params}

    def args(self, dtype, n=3, seed=0):
        return list(self.kwargs(dtype, n, seed).values())

    def call(self, dtype, kw):
        """Run the kernel on these arguments (in header order)."""
        return getattr(thnn.backend(dtype), self.function)(*[kw[a.name] for a in self.params])

    def results(self, out):
        """The kernel's return value as {[OUT]/[BUFFER] argument name: array}."""
        names = [a.name for a in self.params if a.tags & PRODUCED]
        if len(names) == 1:
            return {names[0]: out}
        return dict(zip(names, out if out is not None else [None] * len(names)))

    def inplace(self, kw):
        return bool(kw.get("inplace", False))


def written(case, kw):
    """Names of the arrays the kernel may write into: [INOUT] ones, and
    [INPLACE] ones when the call is in place ([OUT] arrays handed in for
    reuse are written too, but they are not inputs)."""
    return [a.name for a in case.params if a.is_tensor and
            ("INOUT" in a.tags or ("INPLACE" in a.tags and case.inplace(kw)))]


def read_only(case, kw):
    """Names of the array arguments the kernel must only read."""
    w = set(written(case, kw))
    return [a.name for a in case.params if a.is_tensor and not a.tags & PRODUCED
            and a.name not in w and isinstance(kw[a.name], np.ndarray)]


def produced(case):
    return [a.name for a in case.params if a.tags & PRODUCED]


CASES = [
    Case("Linear_updateOutput", "Linear_updateOutput", _linear),
    Case("Linear_updateGradInput", "Linear_updateGradInput", _linear),
    Case("Linear_accGradParameters", "Linear_accGradParameters", _linear),
    Case("Sigmoid_updateOutput", "Sigmoid_updateOutput", _pointwise(0.0, 1.0)),
    Case("Sigmoid_updateGradInput", "Sigmoid_updateGradInput", _pointwise(0.0, 1.0)),
    Case("Tanh_updateOutput", "Tanh_updateOutput", _pointwise(-1.0, 1.0)),
    Case("Tanh_updateGradInput", "Tanh_updateGradInput", _pointwise(-1.0, 1.0)),
    Case("Threshold_updateOutput", "Threshold_updateOutput", _threshold(False)),
    Case("Threshold_updateOutput-inplace", "Threshold_updateOutput", _threshold(True)),
    Case("Threshold_updateGradInput", "Threshold_updateGradInput", _threshold(False)),
    Case("Threshold_updateGradInput-inplace", "Threshold_updateGradInput", _threshold(True)),
    Case("SoftMax_updateOutput", "SoftMax_updateOutput", _softmax),
    Case("SoftMax_updateGradInput", "SoftMax_updateGradInput", _softmax),
    Case("LogSoftMax_updateOutput", "LogSoftMax_updateOutput", _softmax),
    Case("LogSoftMax_updateGradInput", "LogSoftMax_updateGradInput", _softmax),
    Case("MSECriterion_updateOutput", "MSECriterion_updateOutput", _mse),
    Case("MSECriterion_updateGradInput", "MSECriterion_updateGradInput", _mse),
    Case("ClassNLLCriterion_updateOutput", "ClassNLLCriterion_updateOutput", _class_nll),
    Case("ClassNLLCriterion_updateGradInput", "ClassNLLCriterion_updateGradInput", _class_nll),
]
CASES += [
    Case(f"{layer}_{verb}", f"{layer}_{verb}", builder)
    for layer, builder in [
        ("SpatialReflectionPadding", _padding(2, (2, 1, -1, 3))),
        ("SpatialReplicationPadding", _padding(2, (3, -2, 1, 0))),
        ("VolumetricReplicationPadding", _padding(3, (2, 0, -1, 1, 1, 2))),
        ("SpatialUpSamplingNearest", _upsampling(2, True)),
        ("VolumetricUpSamplingNearest", _upsampling(3, True)),
        ("SpatialUpSamplingBilinear", _upsampling(2, False)),
        ("VolumetricUpSamplingTrilinear", _upsampling(3, False)),
        ("SpatialGridSamplerBilinear", _grid_sampler)]
    for verb in ("updateOutput", "updateGradInput")
] + [
    Case("BatchNormalization_updateOutput", "BatchNormalization_updateOutput", _batch_norm),
    Case("BatchNormalization_backward", "BatchNormalization_backward", _batch_norm),
    Case("VolumetricConvolution_updateOutput", "VolumetricConvolution_updateOutput", _volumetric(False, False, False)),
    Case("VolumetricConvolution_updateGradInput", "VolumetricConvolution_updateGradInput",
         _volumetric(False, False, False)),
    Case("VolumetricConvolution_accGradParameters", "VolumetricConvolution_accGradParameters",
         _volumetric(False, False, False)),
    Case("VolumetricConvolutionMM_updateOutput", "VolumetricConvolutionMM_updateOutput",
         _volumetric(False, False, True)),
    Case("VolumetricConvolutionMM_updateGradInput", "VolumetricConvolutionMM_updateGradInput",
         _volumetric(False, False, True)),
    Case("VolumetricConvolutionMM_accGradParameters", "VolumetricConvolutionMM_accGradParameters",
         _volumetric(False, False, True)),
    Case("VolumetricDilatedConvolution_updateOutput", "VolumetricDilatedConvolution_updateOutput",
         _volumetric(False, True, True)),
    Case("VolumetricDilatedConvolution_updateGradInput", "VolumetricDilatedConvolution_updateGradInput",
         _volumetric(False, True, True)),
    Case("VolumetricDilatedConvolution_accGradParameters", "VolumetricDilatedConvolution_accGradParameters",
         _volumetric(False, True, True)),
    Case("VolumetricFullConvolution_updateOutput", "VolumetricFullConvolution_updateOutput",
         _volumetric(True, False, True)),
    Case("VolumetricFullConvolution_updateGradInput", "VolumetricFullConvolution_updateGradInput",
         _volumetric(True, False, True)),
    Case("VolumetricFullConvolution_accGradParameters", "VolumetricFullConvolution_accGradParameters",
         _volumetric(True, False, True)),
    Case("VolumetricFullDilatedConvolution_updateOutput", "VolumetricFullDilatedConvolution_updateOutput",
         _volumetric(True, True, True)),
    Case("VolumetricFullDilatedConvolution_updateGradInput", "VolumetricFullDilatedConvolution_updateGradInput",
         _volumetric(True, True, True)),
    Case("VolumetricFullDilatedConvolution_accGradParameters", "VolumetricFullDilatedConvolution_accGradParameters",
         _volumetric(True, True, True)),
    Case("SpatialConvolutionLocal_updateOutput", "SpatialConvolutionLocal_updateOutput", _spatial_local),
    Case("SpatialConvolutionLocal_updateGradInput", "SpatialConvolutionLocal_updateGradInput", _spatial_local),
    Case("SpatialConvolutionLocal_accGradParameters", "SpatialConvolutionLocal_accGradParameters", _spatial_local),
    Case("SpatialConvolutionMap_updateOutput", "SpatialConvolutionMap_updateOutput", _connection_map(False)),
    Case("SpatialConvolutionMap_updateGradInput", "SpatialConvolutionMap_updateGradInput", _connection_map(False)),
    Case("SpatialConvolutionMap_accGradParameters", "SpatialConvolutionMap_accGradParameters", _connection_map(False)),
    Case("SpatialFullConvolutionMap_updateOutput", "SpatialFullConvolutionMap_updateOutput", _connection_map(True)),
    Case("SpatialFullConvolutionMap_updateGradInput", "SpatialFullConvolutionMap_updateGradInput",
         _connection_map(True)),
    Case("SpatialFullConvolutionMap_accGradParameters", "SpatialFullConvolutionMap_accGradParameters",
         _connection_map(True)),
]
CASES = [c for c in CASES if c.function in HEADER]  # a kernel renamed away is reported by the coverage test
BY_ID = {c.id: c for c in CASES}
DTYPES = (np.float32, np.float64)


# ---- calls that fail (tests/test_binding.py checks each once, also under
# ASan; tests/test_memory.py repeats them 10,000 times) ----

def _odd_strides(a):
    """a's values in a view whose strides are not whole elements (a field of
    a packed record array): the binding must copy it before the kernel."""
    rec = np.zeros(a.shape, dtype=[("v", a.dtype), ("pad", np.uint8)])
    rec["v"] = a
    return rec["v"]


def _misaligned(a):
    raw = np.zeros(a.nbytes + 1, np.uint8)
    v = np.frombuffer(raw.data, dtype=a.dtype, count=a.size, offset=1).reshape(a.shape)
    v[...] = a
    return v


def failing_calls():
    """(label, call, exception): each call fails, in a different place."""
    F, D = thnn.Float, thnn.Double
    x = np.ones((4, 5), np.float32)
    w, b = np.ones((3, 5), np.float32), np.ones(3, np.float32)
    out = np.zeros((4, 3), np.float32)
    lp = np.log(np.full((4, 3), 1 / 3))
    gw_ro = np.zeros((3, 5), np.float32)
    gw_ro.setflags(write=False)
    # the kernel copies gradOutput (not contiguous) and then fails to
    # allocate the contiguous copy of a stride-0 weight of 2**60 elements
    huge_w = np.broadcast_to(np.ones(1, np.float32), (2, 2 ** 59))
    huge_x = np.broadcast_to(np.ones(1, np.float32), (1, 2 ** 59))
    strided_go = np.zeros((1, 4), np.float32)[:, ::2]
    return [
        ("C shape error, [OUT] given", lambda: F.Linear_updateOutput(np.ones((4, 6), np.float32), out, w, b),
         thnn.THNNError),
        ("C shape error on gradOutput", lambda: F.Linear_updateGradInput(x, np.ones((4, 2), np.float32), None, w),
         thnn.THNNError),
        ("C shape error on an [INOUT]", lambda: F.Linear_accGradParameters(
            x, np.ones((4, 3), np.float32), w, b, np.zeros((3, 4), np.float32), np.zeros(3, np.float32), 1.0),
         thnn.THNNError),
        ("target out of range", lambda: D.ClassNLLCriterion_updateOutput(
            lp, np.array([0, 1, 3, 0]), None, True, None, None, -100), thnn.THNNError),
        ("int32 targets copied, then out of range", lambda: D.ClassNLLCriterion_updateGradInput(
            lp, np.array([0, -1, 2, 0], np.int32), None, True, None, np.ones(1), -100), thnn.THNNError),
        ("dtype", lambda: F.Sigmoid_updateOutput(np.ones((4, 5)), None), TypeError),
        ("mixed dtypes", lambda: F.Linear_updateOutput(x, None, np.ones((3, 5)), b), TypeError),
        ("integer array", lambda: D.Tanh_updateOutput(np.ones((4, 5), np.int64), None), TypeError),
        ("odd strides copied, then shape error", lambda: F.Linear_updateOutput(
            _odd_strides(np.ones((4, 6), np.float32)), None, w, b), thnn.THNNError),
        ("misaligned copied, then shape error", lambda: F.SoftMax_updateGradInput(
            _misaligned(x), _misaligned(np.ones((4, 4), np.float32)), None, x), thnn.THNNError),
        ("not contiguous, then shape error", lambda: D.LogSoftMax_updateGradInput(
            np.ones((6, 8))[::2, ::2], np.ones((3, 3)), None, np.ones((3, 4))), thnn.THNNError),
        ("copy made, then out of memory", lambda: F.Linear_updateGradInput(huge_x, strided_go, None, huge_w),
         thnn.THNNError),
        ("9 dims", lambda: D.Sigmoid_updateOutput(np.ones((1,) * 9), None), thnn.THNNError),
        ("5 dims for softmax", lambda: D.SoftMax_updateOutput(np.ones((1, 2, 1, 2, 1)), None), thnn.THNNError),
        ("in place with val > threshold", lambda: D.Threshold_updateOutput(np.ones(5), None, 0.0, 1.0, True),
         thnn.THNNError),
        ("read-only [INOUT]", lambda: F.Linear_accGradParameters(
            x, np.ones((4, 3), np.float32), w, None, gw_ro, None, 1.0), thnn.THNNError),
        ("bad scalar", lambda: D.MSECriterion_updateOutput(np.ones(3), np.ones(3), None, "yes"), TypeError),
        ("element counts differ", lambda: D.MSECriterion_updateGradInput(np.ones(3), np.ones(4), None, True),
         thnn.THNNError),
        ("None for a required tensor", lambda: D.Sigmoid_updateGradInput(None, None, np.ones(3)), TypeError),
        ("too few arguments", lambda: D.Tanh_updateGradInput(np.ones(3), None), TypeError),
    ]


def snapshot(arrays):
    """Bytes, shape and strides of each array, to compare after a call."""
    return {k: (a.tobytes(), a.shape, a.strides) for k, a in arrays.items() if isinstance(a, np.ndarray)}


def guarded(a, guard=7):
    """A contiguous copy of a inside a larger buffer filled with a sentinel:
    (the view, the whole buffer).  A write past either end shows up as a
    changed sentinel."""
    buf = np.full(a.size + 2 * guard, -12345, dtype=a.dtype)
    view = buf[guard:guard + a.size].reshape(a.shape)
    view[...] = a
    return view, buf


def reversed_view(a):
    """Same values as a, every stride negative."""
    return np.flip(np.flip(a).copy())


def gapped_view(a):
    """Same values as a, every dim strided with a gap (step 2), and the
    whole underlying buffer (filled with NaN outside the view)."""
    buf = np.full(tuple(2 * s for s in a.shape), np.nan if a.dtype.kind == "f" else -7, dtype=a.dtype)
    view = buf[tuple(slice(None, None, 2) for _ in a.shape)]
    view[...] = a
    return view, buf


def rss_bytes():
    """Resident set size of this process, from /proc/self/statm."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
        "keepcost")]


def heap_bytes():
    """Bytes the C heap (glibc malloc) has handed out and not got back:
    in-use chunks plus mmapped blocks.  Unlike the RSS it does not move with
    fragmentation, so it shows a leak of a few bytes a call."""
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "mallinfo2"):
        raise RuntimeError("heap_bytes needs glibc >= 2.33 (mallinfo2)")
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd
