"""Valid arguments for every kernel of THNN.h, for the binding, lifetime and
memory tests (tests/test_binding.py, test_lifetime.py, test_memory.py).

A Case builds one valid call of one kernel: ``case.kwargs(dtype, n, seed)``
gives the arguments by their header names (n scales the batch, so the same
case makes calls of many shapes), ``case.args(...)`` the same in header
order; [OUT]/[BUFFER] arguments are None (a new array) unless the builder
hands an array in.  Every function of THNN.h needs at least one case here,
and one per mode where it has several (in place, evaluation, featFirst):
test_binding.test_every_kernel_has_a_case fails naming any kernel added to
the header without one.  A plain elementwise layer (its verbs take only
input, gradOutput, output and gradInput: Sigmoid, Square, ...) that has no
case written here gets the default activation case (PLAIN_ELEMENTWISE), so a
new activation of that form needs nothing here.

The tags of the header say what a kernel may write; ``written(case, kw)``
and ``read_only(case, kw)`` split the tensor arguments of a call that way.
"""
import ctypes
import dataclasses
import os

import numpy as np

import thnn
from pooling_cases import BUILDERS as _POOLING

HEADER = {f.name: f for f in thnn.FUNCTIONS}
PRODUCED = frozenset({"OUT", "BUFFER"})


# ---- builders: (dtype, rng, n, fn) -> {argument name: value} ----
#
# fn is the kernel's header entry (fn.layer, fn.verb).  A builder may give
# more names than the kernel takes (one builder serves every verb of a layer,
# and similar layers); Case.kwargs keeps the kernel's own.  n is the batch
# size, and every [OUT]/[BUFFER] array changes shape with it.  A backward
# verb gets what a real forward pass left (its output, buffers, indices):
# see _results.

def _u(rng, shape, dtype, low=-2.0, high=2.0):
    return rng.uniform(low, high, size=shape).astype(dtype)


def _results(function, dtype, kw):
    """Run another kernel (a layer's forward pass, say) out of place on the
    arguments in kw: {its [OUT]/[BUFFER] names: arrays}.  It writes its
    [INOUT] arrays as it would in the layer (RReLU's noise ends as the
    slopes it used)."""
    f = HEADER[function]
    args = [None if a.tags & PRODUCED else False if a.name == "inplace" else kw[a.name] for a in f.args[1:]]
    out = getattr(thnn.backend(dtype), function)(*args)
    names = [a.name for a in f.args[1:] if a.tags & PRODUCED]
    return dict(zip(names, out if len(names) > 1 else [out]))


def _backward_of_forward(fn, dtype, rng, kw):
    """kw plus what fn's layer's forward pass leaves, and a gradOutput shaped as its output."""
    kw.update(_results(f"{fn.layer}_updateOutput", dtype, kw))
    kw["gradOutput"] = _u(rng, kw["output"].shape, dtype)
    return kw


def _linear(dtype, rng, n, fn):
    n_in, n_out = 3 + n % 4, 2 + n % 3
    kw = {"input": _u(rng, (n, n_in), dtype), "weight": _u(rng, (n_out, n_in), dtype)}
    if fn.verb == "updateOutput":
        kw["bias"] = _u(rng, (n_out,), dtype)
    elif fn.verb == "updateGradInput":
        kw["gradOutput"] = _u(rng, (n, n_out), dtype)
    else:
        kw.update(gradOutput=_u(rng, (n, n_out), dtype), bias=_u(rng, (n_out,), dtype),
                  gradWeight=_u(rng, (n_out, n_in), dtype), gradBias=_u(rng, (n_out,), dtype), scale=0.5)
    return kw


def _elementwise(low=-2.0, high=2.0, shape=(4, 3), inplace=False, extra=None, **scalars):
    """The activations: input [n, *shape] drawn from U(low, high), the
    layer's scalars, and extra(dtype, rng, input shape) for its other
    arguments (weights, noise).  In place, a backward verb's input is the
    forward output, as the header says."""
    def build(dtype, rng, n, fn):
        kw = {"input": _u(rng, (n, *shape), dtype, low, high),
              **scalars, **(extra(dtype, rng, (n, *shape)) if extra else {})}
        if fn.verb == "addUpdateOutput":   # (Threshold's: the other summand)
            kw["other"] = _u(rng, kw["input"].shape, dtype, low, high)
        elif fn.verb != "updateOutput":
            _backward_of_forward(fn, dtype, rng, kw)
            if inplace:
                kw["input"] = kw["output"].copy()
        kw["inplace"] = inplace
        return kw
    return build


def _prelu_weights(dtype, rng, shape):
    # one slope per channel, dim 1 of a 4D [batch, nOutputPlane, h, w] input
    return {"weight": _u(rng, shape[1:2], dtype, 0.0, 0.5), "gradWeight": _u(rng, shape[1:2], dtype),
            "nOutputPlane": shape[1], "scale": 0.5}


def _rrelu(train, inplace=False):
    lower, upper = 0.125, 1 / 3

    def noise(dtype, rng, shape):
        return {"noise": _u(rng, shape, dtype, lower, upper) if train else None}
    return _elementwise(lower=lower, upper=upper, train=train, inplace=inplace, extra=noise)


def _criterion(input_range=(-2.0, 2.0), target=lambda rng, shape: rng.uniform(-2, 2, shape), weighted=False,
               **scalars):
    """The elementwise criterions: input and target [n, 3] (plus per-element
    weights for BCE); L1Cost takes the input alone."""
    def build(dtype, rng, n, fn):
        shape = (n, 3)
        kw = {"input": _u(rng, shape, dtype, *input_range), "target": target(rng, shape).astype(dtype),
              "sizeAverage": True, **scalars}
        kw["weights"] = _u(rng, shape, dtype, 0.5, 2.0) if weighted else None
        return kw
    return build


def _signs(rng, shape):
    return rng.choice([-1.0, 1.0], size=shape)


def _probabilities(rng, shape):
    """In [0, 1), a fifth of them 0 (terms KL divergence leaves out)."""
    return np.where(rng.random(shape) < 0.2, 0.0, rng.random(shape))


def _log_probabilities(dtype, rng, shape):
    return np.log(_u(rng, shape, dtype, 0.05, 1.0))


def _class_nll(spatial, ignore_index):
    """ClassNLLCriterion on [n, 4] and SpatialClassNLLCriterion on [n, 4, 2, 3];
    the backward verb gets the total weight of the forward pass."""
    def build(dtype, rng, n, fn):
        n_classes = 4
        pixels = (2, 3) if spatial else ()
        kw = {"input": _log_probabilities(dtype, rng, (n, n_classes, *pixels)),
              "target": rng.integers(0, n_classes, size=(n, *pixels)), "sizeAverage": True,
              "weights": _u(rng, (n_classes,), dtype, 0.5, 2.0), "ignore_index": ignore_index}
        if fn.verb == "updateGradInput":
            kw["total_weight"] = _results(f"{fn.layer}_updateOutput", dtype, kw)["total_weight"]
        return kw
    return build


def _multi_margin(dtype, rng, n, fn):
    return {"input": _u(rng, (n, 4), dtype), "target": rng.integers(0, 4, size=n), "sizeAverage": True,
            "p": 2, "weights": _u(rng, (4,), dtype, 0.5, 2.0), "margin": 1.0}


def _multi_label_margin(dtype, rng, n, fn):
    # each row: 0 to 4 distinct classes, then -1 padding
    dim = 4
    target = np.full((n, dim), -1, np.int64)
    for row in target:
        k = rng.integers(0, dim + 1)
        row[:k] = rng.permutation(dim)[:k]
    return {"input": _u(rng, (n, dim), dtype), "target": target, "sizeAverage": True}


def _lookup_table(dtype, rng, n, fn):
    n_index, n_output = 6, 4
    idx = rng.integers(0, n_index, size=(n, 3))
    return {"input": idx, "idx": idx, "weight": _u(rng, (n_index, n_output), dtype),
            "gradOutput": _u(rng, (n, 3, n_output), dtype), "gradWeight": _u(rng, (n_index, n_output), dtype),
            "scaleGradByFreq": True, "paddingValue": 2, "scale": 0.5, "maxNorm": 1.0, "normType": 2.0}


def _sparse_linear(dtype, rng, n, fn):
    """n samples of 2 (feature, value) pairs each, some values 0 (skipped):
    COO rows (sample, feature, value) in random order, or the legacy
    [n, 2, 2] of (feature, value)."""
    n_in, n_out, per = 5, 3, 2
    features = rng.integers(0, n_in, size=(n, per))
    values = np.where(rng.random((n, per)) < 0.2, 0.0, rng.uniform(-2, 2, (n, per)))
    if fn.verb.startswith("legacy"):
        inp = np.stack([features, values], axis=-1).astype(dtype)
    else:
        samples = np.repeat(np.arange(n), per)
        inp = np.stack([samples, features.ravel(), values.ravel()], axis=-1)[rng.permutation(n * per)]
        inp = inp.astype(dtype)
    return {"input": inp, "lastInput": inp, "batchSize": n, "weight": _u(rng, (n_out, n_in), dtype),
            "bias": _u(rng, (n_out,), dtype),
            "gradOutput": _u(rng, (n, n_out), dtype), "gradWeight": _u(rng, (n_out, n_in), dtype),
            "gradBias": _u(rng, (n_out,), dtype), "weightDecay": 0.01, "scale": 0.5, "learningRate": 0.1}


def _index_linear(normalized):
    """Sample j has 1 + j % 3 keys; keysOffset 1.  A normalized weight is
    [nIn, 4 + nOut]: per feature max |v| > 0, its inverse, update scale 1,
    feature bias, then the weights.  accGradParameters gets the values of a
    training forward pass, updateParameters the gradient of
    accGradParameters."""
    def build(dtype, rng, n, fn):
        n_in, n_out, offset = 7, 3, 1
        sizes = np.arange(n) % 3 + 1
        nnz = int(sizes.sum())
        weight = _u(rng, (n_in, n_out), dtype)
        if normalized:
            max_abs = _u(rng, (n_in, 1), dtype, 0.5, 2.0)
            stats = [max_abs, 1 / max_abs, np.ones_like(max_abs), _u(rng, (n_in, 1), dtype, -0.1, 0.1)]
            weight = np.concatenate(stats + [weight], axis=1).astype(dtype)
        keys = rng.integers(0, n_in - offset, size=nnz)
        kw = {"keys": keys, "runningKeys": keys, "keysOffset": offset, "values": _u(rng, (nnz,), dtype),
              "sizes": sizes, "weight": weight, "bias": _u(rng, (n_out,), dtype), "train": True,
              "gradOutput": _u(rng, (n, n_out), dtype), "gradBias": _u(rng, (n_out,), dtype), "scale": 0.5,
              "weightDecay": 0.01, "learningRate": 0.1}
        if fn.verb != "updateOutput" and normalized:
            kw["values"] = _results("IndexLinear_updateOutput", dtype, kw)["normalizedValues"]
        if fn.verb == "updateParameters":
            kw.update(_results("IndexLinear_accGradParameters", dtype, kw))
        return kw
    return build


def _temporal(featFirst=False):
    """The temporal layers on [n, 8 frames, 4 features] ([n, 4, 8] with
    featFirst): windows of kW = 3 frames moving by dW = 2, so 3 output
    frames, and the last input frame unused."""
    kW, dW, n_frames, n_in, n_out = 3, 2, 8, 4, 5
    parameters = {"TemporalConvolution": ((n_out, kW * n_in), (n_out,)),   # (weight, bias) shapes
                  "TemporalSubSampling": ((n_in,), (n_in,)),
                  "TemporalRowConvolution": ((n_in, 1, kW), (n_in,))}

    def build(dtype, rng, n, fn):
        kw = {"input": _u(rng, (n, n_in, n_frames) if featFirst else (n, n_frames, n_in), dtype), "kW": kW,
              "dW": dW, "inputFrameSize": n_in, "outputFrameSize": n_out, "featFirst": featFirst, "scale": 0.5}
        if fn.layer in parameters:
            w_shape, b_shape = parameters[fn.layer]
            kw.update(weight=_u(rng, w_shape, dtype), bias=_u(rng, b_shape, dtype),
                      gradWeight=_u(rng, w_shape, dtype), gradBias=_u(rng, b_shape, dtype))
        if fn.verb != "updateOutput":
            _backward_of_forward(fn, dtype, rng, kw)
        return kw
    return build


def _fused_cell(gates):
    """GRUFused (3 gates) and LSTMFused (4) with hiddenSize 3: gate
    pre-activations [n, gates * 3], state [n, 3]; the backward verb gets the
    forward pass's storage (and cy)."""
    def build(dtype, rng, n, fn):
        h = 3
        kw = {"input": _u(rng, (n, gates * h), dtype), "hidden": _u(rng, (n, gates * h), dtype),
              "bias1": _u(rng, (gates * h,), dtype), "bias2": _u(rng, (gates * h,), dtype),
              "hx": _u(rng, (n, h), dtype), "cx": _u(rng, (n, h), dtype)}
        if fn.verb == "updateGradInput":
            kw.update(_results(f"{fn.layer}_updateOutput", dtype, kw))
            kw.update(gradOutput=_u(rng, (n, h), dtype), gradOutputCell=_u(rng, (n, h), dtype))
        return kw
    return build


def _seq_rnn(gates):
    """SeqGRU (3 gates) and SeqLSTM (4): 3 steps of n samples, hiddenSize 3,
    the input side of the gates given, about a third of the steps masked."""
    def build(dtype, rng, n, fn):
        steps, h = 3, 3
        return {"gates": _u(rng, (steps, n, gates * h), dtype), "weight": _u(rng, (h, gates * h), dtype),
                "h0": _u(rng, (n, h), dtype), "c0": _u(rng, (n, h), dtype),
                "mask": (rng.uniform(size=(steps, n)) < 0.3).astype(np.int64)}
    return build


# ---- padding, resampling and batch normalization ----

def _padding(spatial, pads):
    """The padding layers: a spatial (2) or volumetric (3) input of n samples."""
    def build(dtype, rng, n, fn):
        in_sizes = (4, 5) if spatial == 2 else (3, 4, 5)
        out_sizes = tuple(s + pads[2 * k] + pads[2 * k + 1] for k, s in enumerate(reversed(in_sizes)))[::-1]
        kw = {"input": _u(rng, (n, 2) + in_sizes, dtype)}
        kw.update(zip(("pad_l", "pad_r", "pad_t", "pad_b") if spatial == 2 else
                      ("pleft", "pright", "ptop", "pbottom", "pfront", "pback"), pads))
        if fn.verb == "updateOutput":
            kw["output"] = None
        else:
            kw.update(gradOutput=_u(rng, (n, 2) + out_sizes, dtype), gradInput=None)
        return kw
    return build


def _upsampling(spatial, nearest):
    """Nearest (scale 2) or linear (to a fixed size) up-sampling."""
    def build(dtype, rng, n, fn):
        in_sizes = (3, 4) if spatial == 2 else (2, 3, 4)
        out_sizes = tuple(2 * s for s in in_sizes) if nearest else ((5, 7) if spatial == 2 else (3, 5, 7))
        kw = {"input": _u(rng, (n, 2) + in_sizes, dtype)}
        if nearest:
            kw["scale_factor"] = 2
        else:
            kw.update(zip(("outputDepth", "outputHeight", "outputWidth")[3 - spatial:], out_sizes))
        if fn.verb == "updateOutput":
            kw["output"] = None
        else:
            kw.update(gradOutput=_u(rng, (n, 2) + out_sizes, dtype), gradInput=None)
        return kw
    return build


def _grid_sampler(dtype, rng, n, fn):
    kw = {"input": _u(rng, (n, 2, 3, 4), dtype), "grid": _u(rng, (n, 5, 6, 2), dtype, -1.2, 1.2),
          "padding_mode": 0}
    if fn.verb == "updateOutput":
        kw["output"] = None
    else:
        kw.update(gradInput=None, gradGrid=None, gradOutput=_u(rng, (n, 2, 5, 6), dtype))
    return kw


def _batch_norm(dtype, rng, n, fn):
    """Training, on [n, c, 2, 2] (4n values per channel; the number of
    channels c changes with n, so save_mean and save_std do too);
    evaluateThreshold evaluates."""
    c = 2 + n % 7
    x = _u(rng, (n, c, 2, 2), dtype)
    kw = {"input": x, "weight": _u(rng, (c,), dtype, 0.5, 1.5), "running_mean": _u(rng, (c,), dtype),
          "running_var": _u(rng, (c,), dtype, 0.5, 2.0), "eps": 1e-5}
    if fn.verb == "evaluateThreshold":
        kw.update(output=None, bias=_u(rng, (c,), dtype), threshold=0.1, val=-0.5)
        return kw
    kw["train"] = True
    if fn.verb == "updateOutput":
        kw.update(output=None, bias=_u(rng, (c,), dtype), save_mean=None, save_std=None, momentum=0.1)
    else:
        mean = x.mean(axis=(0, 2, 3), dtype=np.float64) if n else np.zeros(c)
        invstd = 1 / np.sqrt(x.var(axis=(0, 2, 3), dtype=np.float64) + 1e-5) if n else np.zeros(c)
        kw.update(gradOutput=_u(rng, x.shape, dtype), gradInput=np.zeros_like(x),
                  gradWeight=np.zeros(c, dtype), gradBias=np.zeros(c, dtype), save_mean=mean.astype(dtype),
                  save_std=invstd.astype(dtype), scale=0.5)
    return kw


# ---- spatial convolutions ----

def _spatial_conv(make):
    """The spatial convolutions on input [n, 2, 5, 7]: the module make(nn)
    builds gives the shapes (weight, bias, and the output from a forward
    pass) and the scalar fields by their header names; the values come from
    rng, so a case repeats."""
    def build(dtype, rng, n, fn):
        import nn_legacy
        m = make(nn_legacy)
        m = m.float() if dtype == np.float32 else m.double()
        x = _u(rng, (n, 2, 5, 7), dtype)
        out = m.forward(x).shape
        kw = {a.name: getattr(m, a.name) for a in fn.args[1:] if not a.is_tensor and hasattr(m, a.name)}
        kw.update(input=x, weight=_u(rng, m.weight.shape, dtype), bias=_u(rng, m.bias.shape, dtype),
                  finput=None, fgradInput=None, scale=0.5, gradOutput=_u(rng, out, dtype))
        if fn.verb == "accGradParameters":
            kw.update(gradWeight=_u(rng, m.weight.shape, dtype), gradBias=_u(rng, m.bias.shape, dtype))
        if fn.verb == "updateOutputPacked":   # (the packed weight of these very weight and bias)
            kw.update(_results("SpatialDilatedConvolution_packWeight", dtype, kw))
        return kw
    return build


# ---- volumetric convolutions, SpatialConvolutionLocal and the connection-table maps ----
def _volumetric(transposed, dilated, buffered):
    """The volumetric convolutions, 5D input [n, 2, 3, 4, 5]; the full
    (transposed) ones with adj.  Kernel 2x1x3 (T x H x W), steps (1, 1, 2),
    pads (1, 1, 0): no two sizes alike."""
    def build(dtype, rng, n, fn):
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
        if fn.verb == "updateOutput":
            kw.update(output=None, weight=w, bias=_u(rng, (n_out,), dtype))
        elif fn.verb == "updateGradInput":
            kw.update(gradOutput=_u(rng, (n, n_out) + out, dtype), gradInput=None, weight=w)
        else:
            kw.update(gradOutput=_u(rng, (n, n_out) + out, dtype), gradWeight=_u(rng, w.shape, dtype),
                      gradBias=_u(rng, (n_out,), dtype), scale=0.5)
        if buffered:
            kw.update(finput=None, fgradInput=None)
        return kw
    return build


def _spatial_local(dtype, rng, n, fn):
    n_in, n_out, iH, iW, kH, kW, oH, oW = 2, 3, 4, 5, 2, 3, 5, 2
    kw = dict(input=_u(rng, (n, n_in, iH, iW), dtype), kW=kW, kH=kH, dW=2, dH=1, padW=0, padH=1,
              inputWidth=iW, inputHeight=iH, outputWidth=oW, outputHeight=oH)
    w = _u(rng, (oH, oW, n_out, n_in, kH, kW), dtype)
    if fn.verb == "updateOutput":
        kw.update(output=None, weight=w, bias=_u(rng, (n_out, oH, oW), dtype))
    elif fn.verb == "updateGradInput":
        kw.update(gradOutput=_u(rng, (n, n_out, oH, oW), dtype), gradInput=None, weight=w)
    else:
        kw.update(gradOutput=_u(rng, (n, n_out, oH, oW), dtype), gradWeight=_u(rng, w.shape, dtype),
                  gradBias=_u(rng, (n_out, oH, oW), dtype), scale=0.5)
    return kw


def _connection_map(transposed):
    """SpatialConvolutionMap, and SpatialFullConvolutionMap (transposed)."""
    def build(dtype, rng, n, fn):
        table = np.array([[0, 0], [2, 0], [1, 1], [2, 1], [0, 2]], dtype=np.int64)
        kH, kW, dH, dW = 2, 3, 1, 2
        out_hw = ((4 - 1) * dH + kH, (5 - 1) * dW + kW) if transposed else ((4 - kH) // dH + 1, (5 - kW) // dW + 1)
        kw = dict(input=_u(rng, (n, 3, 4, 5), dtype), connTable=table, nInputPlane=3, nOutputPlane=3,
                  kW=kW, kH=kH, dW=dW, dH=dH)
        w = _u(rng, (len(table), kH, kW), dtype)
        if fn.verb == "updateOutput":
            kw.update(output=None, weight=w, bias=_u(rng, (3,), dtype))
        elif fn.verb == "updateGradInput":
            kw.update(gradOutput=_u(rng, (n, 3) + out_hw, dtype), gradInput=None, weight=w)
        else:
            kw.update(gradOutput=_u(rng, (n, 3) + out_hw, dtype), gradWeight=_u(rng, w.shape, dtype),
                      gradBias=_u(rng, (3,), dtype), scale=0.5)
        return kw
    return build


@dataclasses.dataclass(frozen=True)
class Case:
    id: str            # the kernel's name, with '-inplace' (say) for another mode of it
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
        kw = self.builder(np.dtype(dtype), np.random.default_rng(seed), n, self.header)
        for name in produced(self):  # a new array unless the builder hands one in
            kw.setdefault(name, None)
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
    """Names of the arrays the kernel may write into: [INOUT] ones (when
    given: RReLU's noise is None in evaluation), and [INPLACE] ones when the
    call is in place ([OUT] arrays handed in for reuse are written too, but
    they are not inputs)."""
    return [a.name for a in case.params if a.is_tensor and isinstance(kw[a.name], np.ndarray) and
            ("INOUT" in a.tags or ("INPLACE" in a.tags and case.inplace(kw)))]


def read_only(case, kw):
    """Names of the array arguments the kernel must only read."""
    w = set(written(case, kw))
    return [a.name for a in case.params if a.is_tensor and not a.tags & PRODUCED
            and a.name not in w and isinstance(kw[a.name], np.ndarray)]


def produced(case):
    return [a.name for a in case.params if a.tags & PRODUCED]


def result_dtype(case, name, dtype):
    """The dtype of a kernel's [OUT]/[BUFFER] result: int64 for an index
    tensor (TemporalMaxPooling's indices), else the backend's."""
    return np.dtype(np.int64) if next(a for a in case.params if a.name == name).is_index else np.dtype(dtype)


def _cases(layer, builder, mode=""):
    """A case for every verb of layer in THNN.h ("-" + mode after the id of
    each, for a second mode of the same kernels)."""
    return [Case(f.name + (f"-{mode}" if mode else ""), f.name, builder) for f in HEADER.values()
            if f.layer == layer]


_LAMBDA = {"lambda": 0.5}  # (a Python keyword: no lambda=0.5)
CASES = [
    *_cases("Linear", _linear),
    # activations
    *_cases("Threshold", _elementwise(threshold=0.1, val=-0.5)),
    *_cases("Threshold", _elementwise(threshold=0.1, val=-0.5, inplace=True), "inplace"),
    *_cases("SoftMax", _elementwise(shape=(5, 2, 2))),
    *_cases("LogSoftMax", _elementwise(shape=(5, 2, 2))),
    *_cases("ELU", _elementwise(alpha=1.0)),
    *_cases("ELU", _elementwise(alpha=1.0, inplace=True), "inplace"),
    *_cases("GatedLinear", _elementwise(dim=1)),
    *_cases("HardShrink", _elementwise(**_LAMBDA)),
    *_cases("HardTanh", _elementwise(min_val=-1.0, max_val=1.0)),
    *_cases("HardTanh", _elementwise(min_val=-1.0, max_val=1.0, inplace=True), "inplace"),
    *_cases("LeakyReLU", _elementwise(negval=0.1)),
    *_cases("LeakyReLU", _elementwise(negval=0.1, inplace=True), "inplace"),
    *_cases("LogSigmoid", _elementwise()),
    *_cases("PReLU", _elementwise(shape=(3, 2, 2), extra=_prelu_weights)),
    *_cases("RReLU", _rrelu(train=True)),
    *_cases("RReLU", _rrelu(train=True, inplace=True), "inplace"),
    *_cases("RReLU", _rrelu(train=False), "eval"),
    *_cases("SoftPlus", _elementwise(beta=2.0, threshold=3.0)),
    *_cases("SoftShrink", _elementwise(**_LAMBDA)),
    *_cases("Sqrt", _elementwise(low=0.0, high=2.0, eps=0.01)),
    # criterions
    *_cases("MSECriterion", _criterion()),
    *_cases("AbsCriterion", _criterion()),
    *_cases("BCECriterion", _criterion((0.02, 0.98), _probabilities, weighted=True)),
    *_cases("DistKLDivCriterion", _criterion((-3.0, 0.0), _probabilities)),
    *_cases("L1Cost", _criterion()),
    *_cases("MarginCriterion", _criterion(target=_signs, margin=1.0)),
    *_cases("SmoothL1Criterion", _criterion()),
    *_cases("SoftMarginCriterion", _criterion(target=_signs)),
    *_cases("ClassNLLCriterion", _class_nll(spatial=False, ignore_index=-100)),
    *_cases("SpatialClassNLLCriterion", _class_nll(spatial=True, ignore_index=1)),
    *_cases("MultiMarginCriterion", _multi_margin),
    *_cases("MultiLabelMarginCriterion", _multi_label_margin),
    # linear, sparse and embedding layers
    *_cases("LookupTable", _lookup_table),
    *_cases("SparseLinear", _sparse_linear),
    *_cases("IndexLinear", _index_linear(normalized=True)),
    # (updateOutput leaves normalizedValues alone with a plain weight, so it has no [BUFFER] result to check)
    *[c for c in _cases("IndexLinear", _index_linear(normalized=False), "plain")
      if c.function != "IndexLinear_updateOutput"],
    # temporal layers and recurrent cells
    *_cases("TemporalConvolution", _temporal()),
    *_cases("TemporalSubSampling", _temporal()),
    *_cases("TemporalRowConvolution", _temporal()),
    *_cases("TemporalRowConvolution", _temporal(featFirst=True), "featFirst"),
    *_cases("TemporalMaxPooling", _temporal()),
    *_cases("GRUFused", _fused_cell(3)),
    *_cases("LSTMFused", _fused_cell(4)),
    *_cases("SeqGRU", _seq_rnn(3)),
    *_cases("SeqLSTM", _seq_rnn(4)),
    # pooling (builders in tests/pooling_cases.py)
    *[case for layer, builder in _POOLING.items() for case in _cases(layer, builder)],
    # padding, resampling and batch normalization
    *_cases("SpatialReflectionPadding", _padding(2, (2, 1, -1, 3))),
    *_cases("SpatialReplicationPadding", _padding(2, (3, -2, 1, 0))),
    *_cases("VolumetricReplicationPadding", _padding(3, (2, 0, -1, 1, 1, 2))),
    *_cases("SpatialUpSamplingNearest", _upsampling(2, True)),
    *_cases("VolumetricUpSamplingNearest", _upsampling(3, True)),
    *_cases("SpatialUpSamplingBilinear", _upsampling(2, False)),
    *_cases("VolumetricUpSamplingTrilinear", _upsampling(3, False)),
    *_cases("SpatialGridSamplerBilinear", _grid_sampler),
    *_cases("BatchNormalization", _batch_norm),
    # spatial convolutions
    *_cases("SpatialConvolutionMM", _spatial_conv(lambda nn: nn.SpatialConvolutionMM(2, 3, 3, 2, 2, 1, 1, 0))),
    *_cases("SpatialDilatedConvolution",
            _spatial_conv(lambda nn: nn.SpatialDilatedConvolution(2, 3, 2, 3, 1, 2, 1, 0, 2, 1))),
    *_cases("SpatialFullConvolution",
            _spatial_conv(lambda nn: nn.SpatialFullConvolution(2, 3, 3, 2, 2, 1, 1, 0, 1, 0))),
    *_cases("SpatialFullDilatedConvolution",
            _spatial_conv(lambda nn: nn.SpatialFullDilatedConvolution(2, 3, 3, 2, 2, 1, 1, 0, 2, 1, 1, 0))),
    *_cases("SpatialDepthWiseConvolution",
            _spatial_conv(lambda nn: nn.SpatialDepthWiseConvolution(2, 2, 3, 2, 2, 1, 1, 0))),
    *_cases("SpatialSubSampling", _spatial_conv(lambda nn: nn.SpatialSubSampling(2, 3, 2, 2, 1))),
    # volumetric convolutions, SpatialConvolutionLocal and the connection-table maps
    *_cases("VolumetricConvolution", _volumetric(False, False, False)),
    *_cases("VolumetricConvolutionMM", _volumetric(False, False, True)),
    *_cases("VolumetricDilatedConvolution", _volumetric(False, True, True)),
    *_cases("VolumetricFullConvolution", _volumetric(True, False, True)),
    *_cases("VolumetricFullDilatedConvolution", _volumetric(True, True, True)),
    *_cases("SpatialConvolutionLocal", _spatial_local),
    *_cases("SpatialConvolutionMap", _connection_map(False)),
    *_cases("SpatialFullConvolutionMap", _connection_map(True)),
]


def _plain_elementwise(layer):
    return all({a.name for a in f.args} <= {"state", "input", "gradOutput", "output", "gradInput"}
               for f in HEADER.values() if f.layer == layer)


# the plain elementwise layers without a case above: input drawn from U(-2, 2), no scalars
PLAIN_ELEMENTWISE = sorted({f.layer for f in HEADER.values() if _plain_elementwise(f.layer)}
                           - {HEADER[c.function].layer for c in CASES})
CASES += [c for layer in PLAIN_ELEMENTWISE for c in _cases(layer, _elementwise())]
BY_ID = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES), "two cases with one id"
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
    """(label, call, exception, a part of its message): each call fails, in
    a different place."""
    return _binding_failures() + _layer_failures()


def _binding_failures():
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
         thnn.THNNError, "input must be 1D or 2D with 5 features"),
        ("C shape error on gradOutput", lambda: F.Linear_updateGradInput(x, np.ones((4, 2), np.float32), None, w),
         thnn.THNNError, "gradOutput must be 2D of size [4, 3]"),
        ("C shape error on an [INOUT]", lambda: F.Linear_accGradParameters(
            x, np.ones((4, 3), np.float32), w, b, np.zeros((3, 4), np.float32), np.zeros(3, np.float32), 1.0),
         thnn.THNNError, "gradWeight must be shaped as weight"),
        ("target out of range", lambda: D.ClassNLLCriterion_updateOutput(
            lp, np.array([0, 1, 3, 0]), None, True, None, None, -100), thnn.THNNError, "target 3 at index 2"),
        ("int32 targets copied, then out of range", lambda: D.ClassNLLCriterion_updateGradInput(
            lp, np.array([0, -1, 2, 0], np.int32), None, True, None, np.ones(1), -100), thnn.THNNError,
         "target -1 at index 1"),
        ("dtype", lambda: F.Sigmoid_updateOutput(np.ones((4, 5)), None), TypeError, "input must be float32"),
        ("mixed dtypes", lambda: F.Linear_updateOutput(x, None, np.ones((3, 5)), b), TypeError,
         "weight must be float32"),
        ("integer array", lambda: D.Tanh_updateOutput(np.ones((4, 5), np.int64), None), TypeError,
         "got int64"),
        ("odd strides copied, then shape error", lambda: F.Linear_updateOutput(
            _odd_strides(np.ones((4, 6), np.float32)), None, w, b), thnn.THNNError, "got 2D of size [4, 6]"),
        ("misaligned copied, then shape error", lambda: F.SoftMax_updateGradInput(
            _misaligned(x), _misaligned(np.ones((4, 4), np.float32)), None, x), thnn.THNNError,
         "gradOutput must be shaped as input"),
        ("not contiguous, then shape error", lambda: D.LogSoftMax_updateGradInput(
            np.ones((6, 8))[::2, ::2], np.ones((3, 3)), None, np.ones((3, 4))), thnn.THNNError,
         "gradOutput must be shaped as input"),
        ("copy made, then out of memory", lambda: F.Linear_updateGradInput(huge_x, strided_go, None, huge_w),
         thnn.THNNError, "out of memory"),
        ("9 dims", lambda: D.Sigmoid_updateOutput(np.ones((1,) * 9), None), thnn.THNNError, "got 9"),
        ("5 dims for softmax", lambda: D.SoftMax_updateOutput(np.ones((1, 2, 1, 2, 1)), None), thnn.THNNError,
         "got 5D"),
        ("in place with val > threshold", lambda: D.Threshold_updateOutput(np.ones(5), None, 0.0, 1.0, True),
         thnn.THNNError, "in-place mode needs val <= threshold"),
        ("read-only [INOUT]", lambda: F.Linear_accGradParameters(
            x, np.ones((4, 3), np.float32), w, None, gw_ro, None, 1.0), thnn.THNNError, "read-only"),
        ("bad scalar", lambda: D.MSECriterion_updateOutput(np.ones(3), np.ones(3), None, "yes"), TypeError,
         "sizeAverage must be a bool"),
        ("element counts differ", lambda: D.MSECriterion_updateGradInput(np.ones(3), np.ones(4), None, True),
         thnn.THNNError, "same number of elements"),
        ("None for a required tensor", lambda: D.Sigmoid_updateGradInput(None, None, np.ones(3)), TypeError,
         "gradOutput is required"),
        ("too few arguments", lambda: D.Tanh_updateGradInput(np.ones(3), None), TypeError, "got 2"),
    ]


def _layer_failures():
    """Out-of-range indices, bad windows and gate sizes, refused by the
    kernels of the later layers, some after the binding or the kernel made
    a copy (which must be freed on the way out)."""
    F, D = thnn.Float, thnn.Double
    table = np.ones((6, 3))
    coo = np.array([[0, 1, 1.0], [1, 4, 2.0]])                      # (sample, feature, value), nIn = 4 below
    seq = np.ones((2, 7, 4), np.float32)                            # [batch, frames, features]
    # TemporalConvolution: gradOutput copied (reversed), then the stride-0
    # weight of 2**59 columns cannot be copied
    huge_frames = np.broadcast_to(np.ones(1, np.float32), (1, 1, 2 ** 58))
    huge_weight = np.broadcast_to(np.ones(1, np.float32), (2, 2 ** 58))
    reversed_go = np.ones((1, 1, 2), np.float32)[:, :, ::-1]
    cell = np.ones((2, 9))                                          # GRU gates, hiddenSize 3
    return [
        ("index out of range", lambda: D.LookupTable_updateOutput(np.array([[0, 6]]), None, table),
         thnn.THNNError, "input[0, 1] = 6 is out of range [0, 6)"),
        ("negative index, before any gradient", lambda: D.LookupTable_accGradParameters(
            np.array([1, -1]), np.ones((2, 3)), np.zeros((6, 3)), True, -1, 1.0), thnn.THNNError,
         "input[1] = -1 is out of range"),
        ("int32 indices copied, then out of range", lambda: D.LookupTable_renorm(
            np.array([0, 9], np.int32), np.ones((6, 3)), 1.0, 2.0), thnn.THNNError, "idx[1] = 9"),
        ("feature out of range", lambda: D.SparseLinear_updateOutput(coo, None, np.ones((2, 4)), np.ones(2), 2),
         thnn.THNNError, "input[1, 1] = 4 is not a feature index"),
        ("sample out of range", lambda: D.SparseLinear_updateOutput(coo, None, np.ones((2, 5)), np.ones(2), 1),
         thnn.THNNError, "input[1, 0] = 1 is not a sample index"),
        ("fractional feature", lambda: F.SparseLinear_legacyAccGradParameters(
            np.array([[[0, 1.0], [2.5, 1.0]]], np.float32), np.ones((1, 2), np.float32),
            np.zeros((2, 4), np.float32), np.zeros(2, np.float32), np.ones((2, 4), np.float32),
            np.ones(2, np.float32), 0.0, 1.0), thnn.THNNError, "input[0, 1, 0] = 2.5 is not a feature index"),
        ("key out of range with its offset", lambda: D.IndexLinear_updateOutput(
            np.array([0, 5]), 1, np.ones(2), np.array([2]), None, np.ones((6, 3)), np.ones(3), None, False),
         thnn.THNNError, "keys[1] = 5 with keysOffset 1 is out of range"),
        ("sizes not adding up to the keys", lambda: D.IndexLinear_accGradParameters(
            np.array([0, 1, 2]), 0, np.ones(3), np.array([1, 1]), np.ones((2, 3)), None, np.zeros(3),
            np.ones((6, 3)), np.ones(3), 1.0), thnn.THNNError, "sizes sum to 2 but there are 3 keys"),
        ("label out of range", lambda: D.MultiLabelMarginCriterion_updateOutput(
            np.ones((2, 3)), np.array([[0, -1, 0], [3, -1, 0]]), None, None, True), thnn.THNNError,
         "target 3 at [1, 0] is out of range"),
        ("pixel target out of range", lambda: D.SpatialClassNLLCriterion_updateOutput(
            np.zeros((1, 3, 2, 2)), np.array([[[0, 1], [2, 5]]]), None, True, None, None, -100),
         thnn.THNNError, "target 5 at [0, 1, 1] is out of range"),
        ("p neither 1 nor 2", lambda: D.MultiMarginCriterion_updateGradInput(
            np.ones((2, 3)), np.array([0, 1]), None, True, 3, None, 1.0), thnn.THNNError, "p must be 1 or 2"),
        ("kW = 0", lambda: F.TemporalConvolution_updateOutput(
            seq, None, np.ones((5, 0), np.float32), np.ones(5, np.float32), 0, 1, 4, 5), thnn.THNNError,
         "kW and dW must be positive"),
        ("weight of another kW", lambda: F.TemporalRowConvolution_updateOutput(
            seq, None, np.ones((4, 1, 3), np.float32), None, 2, 1, False), thnn.THNNError,
         "weight must be 3D [inputFrameSize, 1, kW = 2]"),
        ("window longer than the sequence", lambda: F.TemporalSubSampling_accGradParameters(
            seq, np.ones((2, 1, 4), np.float32), np.zeros(4, np.float32), np.zeros(4, np.float32), 8, 1, 1.0),
         thnn.THNNError, "at least kW = 8 frames long"),
        ("copies made, then an index outside the window", lambda: D.TemporalMaxPooling_updateGradInput(
            np.ones((7, 2)), np.ones((3, 2))[::-1], None, np.asfortranarray([[0, 1], [1, 0], [3, 0]]), 2, 2), thnn.THNNError, "indices must lie in [0, kW = 2), got 3"),
        ("temporal: copy made, then out of memory", lambda: F.TemporalConvolution_updateGradInput(
            huge_frames, reversed_go, None, huge_weight, 1, 1), thnn.THNNError, "out of memory"),
        ("gate pre-activations of another size", lambda: D.GRUFused_updateOutput(
            np.ones((2, 10)), cell, None, None, np.ones((2, 3)), None, None), thnn.THNNError,
         "input must be 2D of size [2, 9]"),
        ("storage not 5 blocks", lambda: D.GRUFused_updateGradInput(
            None, None, np.ones((2, 3)), None, np.ones((2, 14))), thnn.THNNError, "storage must be"),
        ("bias1 without bias2", lambda: D.LSTMFused_updateOutput(
            np.ones((2, 12)), np.ones((2, 12)), np.ones(12), None, np.ones((2, 3)), None, None, None),
         thnn.THNNError, "bias1 and bias2 must be given together"),
        ("cell gradient of another size", lambda: D.LSTMFused_updateGradInput(
            np.ones((2, 12)), None, np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 4)), None),
         thnn.THNNError, "gradOutputCell must be shaped as cx"),
        ("training without noise", lambda: F.RReLU_updateOutput(
            np.ones((2, 3), np.float32), None, None, 0.1, 0.3, True, False), thnn.THNNError,
         "noise is required in training mode"),
        ("a slope per channel, of another count", lambda: D.PReLU_updateGradInput(
            np.ones((2, 3)), np.ones((2, 3)), None, np.ones(2), 3), thnn.THNNError, "weight must be"),
        ("odd size to halve", lambda: D.GatedLinear_updateOutput(np.ones((2, 5)), None, 1), thnn.THNNError,
         "of even size along dim 1"),
    ] + _pooling_failures() + _resampling_failures() + _convolution_failures()


def _pooling_failures():
    F, D = thnn.Float, thnn.Double
    image = np.ones((1, 2, 7, 6))                                   # [batch, planes, H, W]
    volume = np.ones((1, 2, 5, 6, 5))                               # [batch, planes, T, H, W]
    return [
        ("copy made, then an index outside the plane", lambda: D.SpatialMaxPooling_updateGradInput(
            image, np.ones((1, 2, 4, 4))[..., ::-1], None, np.full((1, 2, 4, 4), 42), 3, 2, 2, 2, 1, 1, True),
         thnn.THNNError, "indices[0, 0, 0, 0] = 42 is out of range [0, 42)"),
        ("unpooled past the output", lambda: D.SpatialMaxUnpooling_updateOutput(
            np.ones((1, 2, 2, 3)), None, np.array([[[[0, 1, 2], [3, 4, 12]]] * 2]), 4, 3), thnn.THNNError,
         "indices[0, 0, 1, 2] = 12 is out of range [0, 12)"),
        ("negative unpooling index", lambda: D.VolumetricMaxUnpooling_updateGradInput(
            np.ones((1, 2, 2, 2, 3)), np.ones((1, 2, 3, 3, 4)), None, np.full((1, 2, 2, 2, 3), -1), 3, 4, 3),
         thnn.THNNError, "indices[0, 0, 0, 0, 0] = -1 is out of range [0, 36)"),
        ("padding over half the window", lambda: D.SpatialAveragePooling_updateOutput(
            image, None, 3, 2, 2, 2, 2, 1, True, False), thnn.THNNError, "got padW=2 for kW=3"),
        ("dilation 0", lambda: D.VolumetricDilatedMaxPooling_updateOutput(
            volume, None, None, 2, 3, 2, 2, 2, 2, 1, 1, 1, 0, 2, 2, True), thnn.THNNError,
         "dilation must be > 0, got dilationT=0"),
        ("no output width", lambda: D.SpatialAdaptiveAveragePooling_updateOutput(image, None, 0, 3),
         thnn.THNNError, "output width must be at least 1"),
        ("fractional output too long", lambda: F.VolumetricFractionalMaxPooling_updateOutput(
            volume.astype(np.float32), None, 5, 3, 4, 2, 2, 2, None, np.full((1, 2, 3), 0.5, np.float32)),
         thnn.THNNError, "outputT=5 with poolSizeT=2 needs an input of at least 6 along time"),
        ("random sample outside [0, 1)", lambda: D.SpatialFractionalMaxPooling_updateOutput(
            image, None, 3, 4, 2, 2, None, np.full((1, 2, 2), 1.5)), thnn.THNNError,
         "randomSamples[0, 0, 0] = 1.5 is outside [0, 1)"),
        ("LP window of one feature", lambda: D.FeatureLPPooling_updateOutput(
            np.ones((2, 8, 3)), None, 2.0, 1, 2, True), thnn.THNNError, "width must be between 2 and 16"),
    ]


def _resampling_failures():
    F, D = thnn.Float, thnn.Double
    image = np.ones((1, 2, 4, 5))                                   # [batch, planes, H, W]
    x = np.ones((4, 3))                                             # [batch, channels]
    return [
        ("reflection as wide as the input", lambda: D.SpatialReflectionPadding_updateOutput(
            image, None, 5, 0, 0, 0), thnn.THNNError, "pad_l and pad_r must be smaller than the input width (5)"),
        ("cropped to nothing", lambda: D.VolumetricReplicationPadding_updateOutput(
            np.ones((1, 2, 3, 4, 5)), None, -3, -2, 0, 0, 0, 0), thnn.THNNError, "leaves no output"),
        ("scale factor 0", lambda: D.SpatialUpSamplingNearest_updateOutput(image, None, 0), thnn.THNNError,
         "scale_factor must be an integer >= 1"),
        ("no output rows", lambda: D.SpatialUpSamplingBilinear_updateOutput(image, None, 0, 3), thnn.THNNError,
         "outputHeight must be >= 1"),
        ("strided gradOutput of another size", lambda: F.VolumetricUpSamplingTrilinear_updateGradInput(
            np.ones((1, 2, 2, 3, 4), np.float32), np.ones((1, 2, 3, 5, 6), np.float32)[..., ::-1], None, 3, 5, 7),
         thnn.THNNError, "gradOutput must be 5D of size [1, 2, 3, 5, 7]"),
        ("grid points of 3 coordinates", lambda: D.SpatialGridSamplerBilinear_updateOutput(
            image, np.zeros((1, 3, 3, 3)), None, 0), thnn.THNNError, "grid must be 4D [1, oh, ow, 2]"),
        ("padding mode 2", lambda: D.SpatialGridSamplerBilinear_updateOutput(
            image, np.zeros((1, 3, 3, 2)), None, 2), thnn.THNNError, "padding_mode must be 0 (zeros) or 1"),
        ("strided running statistics in training", lambda: D.BatchNormalization_updateOutput(
            x, None, None, None, np.zeros(3), np.ones(6)[::2], None, None, True, 0.1, 1e-5), thnn.THNNError,
         "running_var must be contiguous"),
        ("gradWeight of another channel count", lambda: D.BatchNormalization_backward(
            x, np.ones((4, 3))[::-1], None, np.zeros(2), None, None, np.zeros(3), np.ones(3), None, None, True,
            1.0, 1e-5), thnn.THNNError, "gradWeight must be 1D of size [3]"),
    ]


def _convolution_failures():
    F, D = thnn.Float, thnn.Double
    image = np.ones((1, 2, 5, 6))                                   # [batch, planes, H, W]
    weight = np.ones((3, 2, 2, 3))                                  # [nOut, nIn, kH, kW]
    return [
        ("padding as wide as the kernel", lambda: D.SpatialConvolutionMM_updateOutput(
            image, None, weight, None, None, 3, 2, 2, 1, 3, 1), thnn.THNNError, "got padW=3, padH=1"),
        ("weight for 4 input planes", lambda: D.SpatialConvolutionMM_updateOutput(
            image, None, np.ones((3, 4, 2, 3)), None, None, 3, 2, 2, 1, 1, 1), thnn.THNNError,
         "input must be 3D or 4D with 4 planes"),
        ("image smaller than the kernel", lambda: D.SpatialConvolutionMM_updateOutput(
            np.ones((1, 2, 1, 1)), None, weight, None, None, 3, 2, 1, 1, 0, 0), thnn.THNNError,
         "input must be at least 2 high and 3 wide"),
        ("dilation 0 in a convolution", lambda: D.SpatialDilatedConvolution_updateOutput(
            image, None, weight, None, None, 3, 2, 2, 1, 1, 1, 0, 1), thnn.THNNError, "dilation must be positive"),
        ("output padding as large as the stride", lambda: F.SpatialFullConvolution_updateOutput(
            image.astype(np.float32), None, np.ones((2, 3, 2, 3), np.float32), None, None, 3, 2, 2, 1, 1, 1, 2, 0),
         thnn.THNNError, "got adjW=2, adjH=0"),
        ("strided gradOutput of another image size", lambda: D.SpatialFullConvolution_updateGradInput(
            image, np.ones((1, 3, 6, 11))[..., ::-1], None, np.ones((2, 3, 2, 3)), None, 3, 2, 2, 1, 1, 1, 1, 0),
         thnn.THNNError, "gradOutput must be 4D of size [1, 3, 4, 12]"),
        ("depth-wise bias flattened", lambda: D.SpatialDepthWiseConvolution_updateOutput(
            image, None, np.ones((2, 2, 2, 3)), np.ones(4), 3, 2, 2, 1, 1, 1), thnn.THNNError,
         "bias must be 2D of size [2, 2]"),
        ("stride 0", lambda: D.SpatialSubSampling_updateOutput(image, None, np.ones(2), np.ones(2), 2, 2, 0, 1),
         thnn.THNNError, "stride must be positive"),
        ("volumetric weight of 4 dims", lambda: D.VolumetricConvolution_updateOutput(
            np.ones((1, 2, 3, 4, 5)), None, np.ones((3, 2, 2, 2)), None, 2, 2, 2, 1, 1, 1, 0, 0, 0),
         thnn.THNNError, "weight must be 5D"),
        ("locally connected, input of another width", lambda: D.SpatialConvolutionLocal_updateOutput(
            np.ones((1, 2, 4, 6)), None, np.ones((5, 2, 3, 2, 2, 3)), np.ones((3, 5, 2)), 3, 2, 2, 1, 0, 1, 5, 4,
            2, 5), thnn.THNNError, "input must be 3D [nInputPlane=2, iH=4, iW=5]"),
        ("connection to a missing plane", lambda: D.SpatialConvolutionMap_updateOutput(
            np.ones((1, 3, 4, 5)), None, np.ones((2, 2, 3)), np.ones(3), np.array([[0, 0], [3, 1]]), 3, 3, 3, 2,
            1, 2), thnn.THNNError, "connTable row 1 is (3, 1)"),
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
