"""Models prepared for inference: batch normalization folded into the
layer before it (fold_batchnorm), and parameters frozen (freeze).

In evaluation mode a BatchNormalization is an affine map per channel,
``y = x * s + t`` with ``s = weight / sqrt(running_var + eps)`` and ``t =
bias - running_mean * s`` (``weight`` 1 and ``bias`` 0 without affine).  When
the layer before it in a Sequential is linear in its input per output
channel (Linear, the convolutions, the full convolutions), both collapse
into that layer: its weight scaled by ``s`` along the output channels and
its bias ``bias * s + t``.  The forward then skips a pass over every
activation, which is what onnxruntime does to the same model when it loads
it::

    import nn_legacy as nn
    model.evaluate()
    fast = nn.fold_batchnorm(model)     # a new model; `model` is unchanged
    y = fast.forward(x)                 # the same values, up to rounding

The result is for inference: each folded BatchNormalization is replaced by
an Identity (so the children keep their indices), and training the result
would train a different model (no normalization any more).  A
BatchNormalization still in training mode refuses to fold (it normalizes
by the batch's statistics, not the running ones); one whose predecessor is
not such a layer, or whose channel count does not match it, is left as it
is.  Host arrays only (fold before ``cuda()``).
"""
import numpy as np

from .Module import Module

from .BatchNormalization import BatchNormalization
from .Identity import Identity
from .Linear import Linear
from .Sequential import Sequential
from .SpatialConvolution import SpatialConvolution
from .SpatialFullConvolution import SpatialFullConvolution
from .VolumetricConvolution import VolumetricConvolution
from .VolumetricFullConvolution import VolumetricFullConvolution

# layer class -> (the dims of the batch normalization's input after it, the weight's axis of output channels)
_FOLDABLE = (
    (Linear, 2, 0),
    (SpatialConvolution, 4, 0),           # and SpatialConvolutionMM, SpatialDilatedConvolution
    (SpatialFullConvolution, 4, 1),       # weight [nInputPlane, nOutputPlane, kH, kW]; and the dilated one
    (VolumetricConvolution, 5, 0),        # and VolumetricConvolutionMM, VolumetricDilatedConvolution
    (VolumetricFullConvolution, 5, 1),
)


def fold_batchnorm(model):
    """A copy of ``model`` for inference, in which every BatchNormalization
    (and its Spatial / Volumetric variants) that directly follows a Linear
    or a convolution (plain, MM, dilated, full, volumetric) in a Sequential
    is folded into that layer: the layer's weight scaled per output channel
    by ``weight / sqrt(running_var + eps)``, its bias (created if it had
    none) shifted, and the normalization replaced by an Identity.  The copy
    computes what ``model`` computes in evaluation mode, up to rounding;
    ``model`` itself is not changed.  Raises ValueError when a
    normalization to fold is in training mode (call ``evaluate()`` first)
    and TypeError for device arrays (fold before ``cuda()``)."""
    folded = model.clone()
    _fold_tree(folded, type(folded).__name__)
    return folded


def _fold_tree(module, path):
    children = getattr(module, "modules", None)
    if not isinstance(children, list):
        return
    for i, child in enumerate(children):
        where = f"{path} ({i}) -> {type(child).__name__}"
        if isinstance(module, Sequential) and isinstance(child, BatchNormalization) and i > 0 \
                and _fold_pair(children[i - 1], child, where):
            children[i] = Identity()
            children[i].train = False
        else:
            _fold_tree(child, where)


def _fold_pair(layer, norm, where):
    """Fold norm into layer when layer is foldable into and the shapes match; whether it did."""
    match = [(dims, axis) for cls, dims, axis in _FOLDABLE if isinstance(layer, cls)]
    if not match:
        return False
    dims, axis = match[0]
    channels = norm.running_mean.shape[0]
    if norm.nDim != dims or layer.weight.ndim <= axis or layer.weight.shape[axis] != channels:
        return False
    if norm.train:
        raise ValueError(f"fold_batchnorm: {where} is in training mode (it normalizes by each batch); call "
                         "evaluate() on the model first")
    if not all(isinstance(a, np.ndarray) for a in (layer.weight, norm.running_mean, norm.running_var)):
        raise TypeError(f"fold_batchnorm: {where} holds device arrays; fold the model on the host, before cuda()")
    var, mean = norm.running_var.astype(np.float64), norm.running_mean.astype(np.float64)
    scale = 1.0 / np.sqrt(var + norm.eps)
    shift = -mean * scale
    if norm.weight is not None:
        scale = scale * norm.weight
        shift = shift * norm.weight + norm.bias
    along = [1] * layer.weight.ndim
    along[axis] = channels
    dtype = layer.weight.dtype
    layer.weight[...] = (layer.weight * scale.reshape(along)).astype(dtype)
    bias = np.zeros(channels) if layer.bias is None else layer.bias.astype(np.float64)
    if layer.bias is None:
        layer.gradBias = np.zeros(channels, dtype)
    layer.bias = (bias * scale + shift).astype(dtype)
    return True


def freeze(model):
    """An inference copy of ``model`` whose parameters can no longer change:
    the copy is in evaluation mode and every parameter (``weight``,
    ``bias``, ... of every module) is a new read-only array that views an
    immutable bytes object, so numpy refuses to make it writeable again.
    Its convolutions (SpatialConvolution, SpatialConvolutionMM,
    SpatialDilatedConvolution) then pack their float weight once, at the
    first forward, and reuse it in every later call, as onnxruntime does
    when it loads a model; the outputs are those of ``model`` in
    evaluation mode, up to rounding (the packed weight lets the faster
    path run on more convolutions; where both take the same path, bit for
    bit).  ``model`` itself is not changed.

    The copy cannot be trained: updateParameters, an optimizer's step or
    any write into a parameter raises ValueError (read-only array).
    Replacing a parameter (assignment, ``type()``, ``float()``,
    ``double()``, ``cuda()``) drops the packed weight of that module for
    good, as do ``clone()`` and ``nn.save``/``load`` (the copy they give
    is not frozen; freeze it again).  Combine with fold_batchnorm:
    ``nn.freeze(nn.fold_batchnorm(model))``.  Host arrays only (freeze
    before ``cuda()``); TypeError for device arrays."""
    if not isinstance(model, Module):
        raise TypeError(f"freeze: expected a Module, got {type(model).__name__}")
    frozen = model.clone()
    frozen.evaluate()
    copies = {}   # id(array) -> its read-only copy: an array shared by several modules stays shared
    for module in _every_module(frozen):
        for name, _ in getattr(type(module), "_parameter_names", ()):
            value = module.__dict__.get(name)
            if value is None:
                continue
            if not isinstance(value, np.ndarray):
                raise TypeError(f"freeze: {type(module).__name__}.{name} is a {type(value).__name__}; freeze "
                                "the model on the host, before cuda()")
            if id(value) not in copies:
                copies[id(value)] = (value, _read_only_copy(value))
            module.__dict__[name] = copies[id(value)][1]
        if isinstance(module, SpatialConvolution):
            module._frozen, module._packed = (module.weight, module.bias), None
    return frozen


def _every_module(model):
    """Every module of the tree once (listModules, and the modules kept
    outside it, such as a recurrent module's step module)."""
    seen, stack, found = set(), [model], []
    while stack:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        found.append(m)
        for value in vars(m).values():
            items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) \
                else (value,)
            stack.extend(v for v in items if isinstance(v, Module))
    return found


def _read_only_copy(array):
    """array's values in a new array that views an immutable bytes object:
    read-only, and numpy refuses to make it writeable."""
    return np.frombuffer(np.ascontiguousarray(array).tobytes(), array.dtype).reshape(array.shape)