"""Torch7 classes of other backends, and old names of nn's own, loaded as
the nn class of the same meaning (used by ``load_lua``).

Each translation takes the object as read (a TorchObject) and gives what to
load in its place: most often a TorchObject of an nn class with the fields
that class had in nn (its ``_t7_fixup`` then runs as for a file saved by nn
itself), sometimes a small nn container doing the same thing, or, for the
multi-GPU wrappers, the module they wrap (``nn.GPU`` loads as nn_legacy's GPU
decorator, which passes calls through on the host).

- cudnn.torch (soumith/cudnn.torch, 2014-2017): ``cudnn.convert`` swaps
  metatables between nn and cudnn, so the fields mostly line up with nn's.
  The exceptions handled here: grouped convolutions (``groups``; loaded as
  one convolution per group on its slice of the planes, joined), weights
  kept in other views of the same memory, activations and pooling given by
  a ``mode`` string, ``SoftMax`` normalizing the whole sample (cudnn's
  instance mode), the ``K`` of the 2015 LRN, ``ClippedReLU`` (a HardTanh
  from 0), ``TemporalConvolution`` with padding.
- cunn: ``nn.DataParallelTable`` (every replica is the same module: the
  first is loaded) and ``nn.TransferGPU`` (a copy between GPUs: Identity).
- char-rnn: its bare-named ``OneHot`` (nn's OneHot; classes 0-based).
- nngraph: ``nngraph.JustElement`` (what ``split(1)`` puts in a graph:
  SelectTable of the one entry) and ``nngraph.JustTable`` (x -> {x}).
- nn: the old names ``nn.SpatialCrossLRN`` (2015)
  and ``nn.SpatialDeconvolution`` (2015), and ``nn.L2Normalize`` (2015).
- fbcunn / fbnn: the FFT convolutions and ``fbnn.SpatialConvolution``,
  ``nn.TemporalConvolutionFB``, ``nn.LookupTableGPU``, ``fbnn.BatchNormalization``
  and ``fbnn.SpatialBatchNormalization`` (which keep 1/std, as nn's class
  version 1 did), ``nn.DataParallel`` (its first replica).

Not translated (they have no nn_legacy counterpart of the same meaning):
cudnn's RNN/LSTM/GRU family (cuDNN's packed weights), its
SpatialDivisiveNormalization (cuDNN's own Gaussian-window formula),
Volumetric(Log)SoftMax and the cross-entropy criterions, nn.SpatialConvolutionCUDA
and its cuda-convnet relatives (another memory layout of the input),
fbcunn's HalfPrecision, TemporalKMaxPooling and ModelParallel.
"""
import numpy as np

from .._helpers.lua import LuaFunction, LuaTable, T7Error, TorchObject

# the Module fields Torch7 wrote for every module
_MODULE_FIELDS = ("output", "gradInput", "train", "_type")


def _nn(obj, name, names=(), version=None, **values):
    """A TorchObject of nn class `name` with obj's module fields, the named
    fields of obj, and the given values (None values left out).  Lua
    functions in obj's fields come along, to be reported as every function
    in a file is."""
    fields = obj.fields if isinstance(obj.fields, dict) else {}
    out = LuaTable((k, fields[k]) for k in _MODULE_FIELDS + tuple(names) if k in fields)
    out.update((k, v) for k, v in fields.items() if isinstance(v, LuaFunction))
    out.update((k, v) for k, v in values.items() if v is not None)
    new = TorchObject(name, obj.version if version is None else version)
    new.fields = out
    return new


def _field(obj, name, default=None):
    fields = obj.fields if isinstance(obj.fields, dict) else {}
    value = fields.get(name)
    return default if value is None else value


def _int(obj, name, default=None):
    value = _field(obj, name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        raise T7Error(f"{obj.class_name}: {name} must be a whole number, got {value!r}")
    return int(value)


def _container(name, modules, version=1, **values):
    """An nn container (raw, as Torch7 wrote one) holding these raw modules."""
    new = TorchObject(name, version)
    new.fields = LuaTable({"modules": LuaTable((float(i + 1), m) for i, m in enumerate(modules)), "train": True})
    new.fields.update(values)
    return new


def _raw(name, version=1, **values):
    new = TorchObject(name, version)
    new.fields = LuaTable(values, train=True)
    return new


def _reshaped(obj, name, shape):
    """obj's tensor field `name` as a C-order array of this shape: the same
    memory, another view (cudnn kept weights as [nOut, nIn*kH*kW] or swapped
    kW and kH in the declared shape)."""
    value = _field(obj, name)
    if value is None:
        return None
    if not isinstance(value, np.ndarray) or value.size != int(np.prod(shape)):
        size = value.size if isinstance(value, np.ndarray) else type(value).__name__
        raise T7Error(f"{obj.class_name}: {name} must have {int(np.prod(shape))} elements "
                      f"({'x'.join(map(str, shape))}), got {size}")
    return np.ascontiguousarray(value).reshape(shape)


# ---------------------------------------------------------------- wrappers
def _first_module(obj):
    """The first replica of a multi-GPU wrapper (they are all the same module)."""
    modules = _field(obj, "modules")
    first = modules.get(1.0) if isinstance(modules, dict) else None
    if first is None:
        raise T7Error(f"{obj.class_name} holds no module")
    return first


def _identity(obj):
    return _nn(obj, "nn.Identity")


# ---------------------------------------------------------------- convolutions
_CONV_FIELDS = ("nInputPlane", "nOutputPlane", "kW", "kH", "dW", "dH", "padW", "padH", "bias")


def _spatial_convolution(obj):
    """cudnn.SpatialConvolution: nn's fields plus groups; the weight is
    [nOutputPlane, nInputPlane/groups, kH, kW] in memory."""
    groups = _int(obj, "groups", 1)
    n_in, n_out = _int(obj, "nInputPlane"), _int(obj, "nOutputPlane")
    kW, kH = _int(obj, "kW"), _int(obj, "kH")
    if groups < 1 or n_in % groups or n_out % groups:
        raise T7Error(f"{obj.class_name}: {groups} groups do not divide {n_in} -> {n_out} planes")
    weight = _reshaped(obj, "weight", (n_out, n_in // groups, kH, kW))
    if groups == 1:
        return _nn(obj, "nn.SpatialConvolution", _CONV_FIELDS, version=1, weight=weight,
                   padW=_int(obj, "padW", 0), padH=_int(obj, "padH", 0))
    bias = _field(obj, "bias")
    gin, gout = n_in // groups, n_out // groups
    branches = []
    for g in range(groups):
        conv = _nn(obj, "nn.SpatialConvolution", ("kW", "kH", "dW", "dH", "padW", "padH"), version=1,
                   nInputPlane=gin, nOutputPlane=gout, weight=weight[g * gout:(g + 1) * gout].copy(),
                   bias=None if bias is None else np.asarray(bias)[g * gout:(g + 1) * gout].copy())
        for key in _MODULE_FIELDS:
            conv.fields.pop(key, None)
        narrow = _raw("nn.Narrow", dimension=-3.0, index=float(g * gin + 1), length=float(gin))
        branches.append(_container("nn.Sequential", [narrow, conv]))
    # planes are dim -3 of [planes, H, W] and of [batch, planes, H, W]
    return _container("nn.Sequential", [_container("nn.ConcatTable", branches),
                                        _raw("nn.JoinTable", dimension=-3.0)])


def _full_convolution(obj):
    n_in, n_out = _int(obj, "nInputPlane"), _int(obj, "nOutputPlane")
    if _int(obj, "groups", 1) != 1:
        raise T7Error(f"{obj.class_name}: grouped full convolutions are not supported")
    weight = _reshaped(obj, "weight", (n_in, n_out, _int(obj, "kH"), _int(obj, "kW")))
    return _nn(obj, "nn.SpatialFullConvolution", _CONV_FIELDS + ("adjW", "adjH"), version=1, weight=weight)


def _deconvolution(obj):
    """nn.SpatialDeconvolution (nn, August to December 2015) became
    SpatialFullConvolution; its weight was [nInputPlane, nOutputPlane*kH*kW]."""
    return _full_convolution(obj)


def _fft_convolution(obj):
    """fbcunn's FFT convolutions: nn's fields with padLeft/padUp for the pads."""
    return _nn(obj, "nn.SpatialConvolution", _CONV_FIELDS + ("weight",), version=1,
               padW=_int(obj, "padLeft", 0), padH=_int(obj, "padUp", 0))


def _fbnn_convolution(obj):
    """fbnn.SpatialConvolution (a front to cudnn and the FFT convolutions)."""
    n_in, n_out = _int(obj, "inputPlanes"), _int(obj, "outputPlanes")
    weight = _reshaped(obj, "weight", (n_out, n_in, _int(obj, "kH"), _int(obj, "kW")))
    return _nn(obj, "nn.SpatialConvolution", ("kW", "kH", "dW", "dH", "bias"), version=1, nInputPlane=n_in,
               nOutputPlane=n_out, weight=weight, padW=_int(obj, "padLeft", 0), padH=_int(obj, "padUp", 0))


def _volumetric_convolution(obj):
    n_in, n_out = _int(obj, "nInputPlane"), _int(obj, "nOutputPlane")
    weight = _reshaped(obj, "weight", (n_out, n_in, _int(obj, "kT"), _int(obj, "kH"), _int(obj, "kW")))
    return _nn(obj, "nn.VolumetricConvolution", _CONV_FIELDS + ("kT", "dT", "padT"), version=1, weight=weight,
               padT=_int(obj, "padT", 0), padW=_int(obj, "padW", 0), padH=_int(obj, "padH", 0))


def _volumetric_full_convolution(obj):
    n_in, n_out = _int(obj, "nInputPlane"), _int(obj, "nOutputPlane")
    weight = _reshaped(obj, "weight", (n_in, n_out, _int(obj, "kT"), _int(obj, "kH"), _int(obj, "kW")))
    return _nn(obj, "nn.VolumetricFullConvolution",
               _CONV_FIELDS + ("kT", "dT", "padT", "adjT", "adjW", "adjH"), version=1, weight=weight,
               adjT=_int(obj, "adjT", 0), adjW=_int(obj, "adjW", 0), adjH=_int(obj, "adjH", 0))


def _temporal_convolution(obj):
    """cudnn.TemporalConvolution: a spatial convolution of one plane whose
    kernel is kH frames by inputFrameSize, stride dH, padding padH frames at
    both ends; the weight's memory is nn's [outputFrameSize, kH*inputFrameSize]."""
    n_in, n_out = _int(obj, "inputFrameSize"), _int(obj, "outputFrameSize")
    kW, dW, pad = _int(obj, "kH"), _int(obj, "dH", 1), _int(obj, "padH", 0)
    conv = _nn(obj, "nn.TemporalConvolution", ("bias",), version=1, inputFrameSize=n_in, outputFrameSize=n_out,
               kW=kW, dW=dW, weight=_reshaped(obj, "weight", (n_out, kW * n_in)))
    if pad == 0:
        return conv
    # frames are dim 1 (Lua) of [frames, features]; nInputDim 2 moves it past a batch dim
    before = _raw("nn.Padding", dim=1.0, pad=float(-pad), nInputDim=2.0, value=0.0)
    after = _raw("nn.Padding", dim=1.0, pad=float(pad), nInputDim=2.0, value=0.0)
    return _container("nn.Sequential", [before, after, conv])


def _temporal_convolution_fb(obj):
    """fbcunn's TemporalConvolutionFB: the weight is [out, kW, in], nn's [out, kW*in]."""
    n_in, n_out, kW = _int(obj, "inputFrameSize"), _int(obj, "outputFrameSize"), _int(obj, "kW")
    return _nn(obj, "nn.TemporalConvolution", ("bias",), version=1, inputFrameSize=n_in, outputFrameSize=n_out,
               kW=kW, dW=_int(obj, "dW", 1), weight=_reshaped(obj, "weight", (n_out, kW * n_in)))


def _lookup_table_gpu(obj):
    if _field(obj, "featuresInDim2", False):
        raise T7Error("nn.LookupTableGPU with featuresInDim2 (features along dim 2) is not supported")
    return _nn(obj, "nn.LookupTable", ("weight",), version=4)


# ---------------------------------------------------------------- activations and pooling
def _pointwise(name):
    return lambda obj: _nn(obj, name, version=1, inplace=bool(_field(obj, "inplace", False)))


def _clipped_relu(obj):
    ceiling = _field(obj, "ceiling")
    if isinstance(ceiling, bool) or not isinstance(ceiling, float):
        raise T7Error(f"cudnn.ClippedReLU: ceiling must be a number, got {ceiling!r}")
    return _nn(obj, "nn.HardTanh", version=1, min_val=0.0, max_val=ceiling,
               inplace=bool(_field(obj, "inplace", False)))


def _softmax(name):
    """cudnn.SoftMax / LogSoftMax normalize over every value of a sample
    (cuDNN's instance mode): nn's (Log)SoftMax for 1D and 2D input, and for
    3D / 4D input of the size the module last saw (iSize), a view that
    flattens each sample around it.  With no size recorded, 3D / 4D input
    cannot be told from cudnn.SpatialSoftMax's: load as nn's."""
    def translate(obj):
        plain = _nn(obj, name, version=1)
        size = _field(obj, "iSize")
        if not isinstance(size, np.ndarray) or size.size != 4:
            return plain
        planes, h, w = (int(n) for n in size[1:])
        if h * w <= 1 or planes <= 0:
            return plain
        flatten = _raw("nn.View", size=np.array([planes * h * w], dtype=np.int64), numInputDims=3.0)
        restore = _raw("nn.View", size=np.array([planes, h, w], dtype=np.int64), numInputDims=1.0)
        return _container("nn.Sequential", [flatten, plain, restore])
    return translate


def _pooling(name, ints, count_include_pad=False):
    def translate(obj):
        fields = {n: _int(obj, n, 0) for n in ints if _field(obj, n) is not None}
        extra = {"ceil_mode": bool(_field(obj, "ceil_mode", False))}
        if count_include_pad:   # the field (2016) if set, else what the mode (set by forward) says
            mode = _field(obj, "mode", "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING")
            extra["count_include_pad"] = bool(_field(obj, "count_include_pad", mode in (
                "CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING", "CUDNN_POOLING_AVERAGE")))
            extra["divide"] = True
        return _nn(obj, name, version=2, **fields, **extra)
    return translate


def _lrn(obj):
    return _nn(obj, "nn.SpatialCrossMapLRN", ("size", "alpha", "beta"), version=1,
               k=_field(obj, "k", _field(obj, "K", 1.0)))


def _batch_norm(name):
    """cudnn's and fbnn's batch normalizations keep nn's fields; class
    version 1 kept running_std = 1/sqrt(var + eps), as nn's did."""
    def translate(obj):
        return _nn(obj, name, ("eps", "momentum", "affine", "running_mean", "running_var", "running_std",
                               "weight", "bias"))
    return translate


def _l2_normalize(obj):
    """nn.L2Normalize (nn, May 2015): rows of a 2D input to unit L2 norm,
    nothing added to the norm."""
    return _nn(obj, "nn.Normalize", version=1, p=2.0, eps=0.0)


def _just_table(obj):
    """nngraph.JustTable: x -> {x}."""
    return _container("nn.ConcatTable", [_raw("nn.Identity")])


def _char_rnn_one_hot(obj):
    """char-rnn's own ``OneHot`` (util/OneHot.lua, a bare class name): rows
    of an identity matrix (``_eye``) picked by the input's classes, as
    nn's OneHot (whose classes are 0-based here)."""
    return _nn(obj, "nn.OneHot", ("outputSize",), version=1)


TRANSLATIONS = {
    # char-rnn's one-hot encoder (karpathy/char-rnn util/OneHot.lua)
    "OneHot": _char_rnn_one_hot,
    # nngraph's plumbing (its gModule loads as nn_legacy's gModule, lowered into containers)
    "nngraph.JustElement": lambda obj: _raw("nn.SelectTable", index=1.0),
    "nngraph.JustTable": _just_table,
    # multi-GPU wrappers: the module they wrap
    "nn.DataParallelTable": _first_module,
    "nn.DataParallel": _first_module,
    "nn.TransferGPU": _identity,
    # old names in nn
    "nn.SpatialCrossLRN": _lrn,
    "nn.SpatialDeconvolution": _deconvolution,
    "nn.L2Normalize": _l2_normalize,
    # cudnn
    "cudnn.SpatialConvolution": _spatial_convolution,
    "cudnn.SpatialFullConvolution": _full_convolution,
    "cudnn.VolumetricConvolution": _volumetric_convolution,
    "cudnn.VolumetricFullConvolution": _volumetric_full_convolution,
    "cudnn.TemporalConvolution": _temporal_convolution,
    "cudnn.ReLU": _pointwise("nn.ReLU"),
    "cudnn.Tanh": _pointwise("nn.Tanh"),
    "cudnn.Sigmoid": _pointwise("nn.Sigmoid"),
    "cudnn.ClippedReLU": _clipped_relu,
    "cudnn.SoftMax": _softmax("nn.SoftMax"),
    "cudnn.LogSoftMax": _softmax("nn.LogSoftMax"),
    "cudnn.SpatialSoftMax": lambda obj: _nn(obj, "nn.SoftMax", version=1),
    "cudnn.SpatialLogSoftMax": lambda obj: _nn(obj, "nn.LogSoftMax", version=1),
    "cudnn.SpatialMaxPooling": _pooling("nn.SpatialMaxPooling", ("kW", "kH", "dW", "dH", "padW", "padH")),
    "cudnn.SpatialAveragePooling": _pooling("nn.SpatialAveragePooling", ("kW", "kH", "dW", "dH", "padW", "padH"),
                                            count_include_pad=True),
    "cudnn.VolumetricMaxPooling": _pooling("nn.VolumetricMaxPooling",
                                           ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH")),
    "cudnn.VolumetricAveragePooling": _pooling("nn.VolumetricAveragePooling",
                                               ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH"),
                                               count_include_pad=True),
    "cudnn.SpatialCrossMapLRN": _lrn,
    "cudnn.BatchNormalization": _batch_norm("nn.BatchNormalization"),
    "cudnn.SpatialBatchNormalization": _batch_norm("nn.SpatialBatchNormalization"),
    "cudnn.VolumetricBatchNormalization": _batch_norm("nn.VolumetricBatchNormalization"),
    # fbcunn / fbnn
    "fbnn.SpatialConvolution": _fbnn_convolution,
    "nn.SpatialConvolutionFFT": _fft_convolution,
    "nn.SpatialConvolutionCuFFT": _fft_convolution,
    "nn.SpatialConvolutionFBFFT": _fft_convolution,
    "nn.SpatialConvolutionFBFFTGemm": _fft_convolution,
    "nn.SpatialConvolutionFFTTiled": _fft_convolution,
    "nn.SpatialConvolutionFFTTiledSync": _fft_convolution,
    "nn.SpatialConvolutionFFTTiledAsync": _fft_convolution,
    "nn.SpatialConvolutionFFTTiledIterated": _fft_convolution,
    "nn.TemporalConvolutionFB": _temporal_convolution_fb,
    "nn.LookupTableGPU": _lookup_table_gpu,
    "fbnn.BatchNormalization": _batch_norm("nn.BatchNormalization"),
    "fbnn.SpatialBatchNormalization": _batch_norm("nn.SpatialBatchNormalization"),
}
