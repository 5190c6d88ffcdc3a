import math
import numpy as np

from ._helpers.arrays import is_array, reuse
from ._helpers.namespace import array_namespace
from .Container import Container
from .Module import Module, normal

EPS = 1e-4   # added to the squared norm, as Torch7's 10e-5


class WeightNorm(Container):
    """Weight normalization (Salimans & Kingma 2016) of a module's ``weight``:
    the weight is no longer a parameter but is computed before every
    forward from a direction ``v`` and a length ``g``:

        w_i = g_i * v_i / sqrt(||v_i||^2 + 1e-4)

    for every slice i of the weight along ``outputDim`` (0-based; 0, the
    output units of Linear, by default): ``v`` is ``[n, rest]``, the weight
    with outputDim moved to the front and the other dims flattened, as in
    Torch7, and ``g`` is ``[n]``.  Gradients reach v and g through the
    chain rule (with ``s_i = dL/dw_i . v_i / norm_i``):

        dL/dg_i = s_i,   dL/dv_i = g_i / norm_i * (dL/dw_i - s_i * v_i / norm_i)

    The parameters are ``v``, ``g`` and the module's ``bias`` (when it has
    one), with gradients ``gradV``, ``gradG`` and the module's ``gradBias``.
    The module's ``gradWeight`` is scratch space.  As in Torch7, v is drawn
    from N(0, 2 / rest), g is set to the norms of v and the bias to zero when
    built (and by ``reset``): the module's weight is replaced.
    """

    _parameter_names = (("v", "gradV"), ("g", "gradG"))

    def __init__(self, module, outputDim=0):
        super().__init__(module)
        weight = getattr(module, "weight", None)
        if not isinstance(weight, np.ndarray) or weight.dtype.kind != "f" or weight.size == 0:
            raise TypeError(f"WeightNorm: the module must have a non-empty float array weight, got "
                            f"{type(module).__name__} with {type(weight).__name__} weight")
        if not isinstance(outputDim, (int, np.integer)) or not 0 <= outputDim < weight.ndim:
            raise ValueError(f"WeightNorm: outputDim must be a dimension of the weight "
                             f"({weight.ndim}D of size {list(weight.shape)}), got {outputDim!r}")
        self.outputDim = int(outputDim)
        n = weight.shape[self.outputDim]
        self.v = np.zeros((n, weight.size // n), weight.dtype)
        self.g = np.zeros(n, weight.dtype)
        self.gradV = np.zeros_like(self.v)
        self.gradG = np.zeros_like(self.g)
        self.reset()

    _t7_one_based = ("outputDim",)   # save_lua: Torch7 counted from 1

    _t7_storages = ("weightSize", "viewIn", "viewOut")   # save_lua: Torch7's sizes (torch.LongStorage)

    def _t7_unfixup(self, fields):
        """save_lua: what Torch7's constructor made (its forward and read() use them): the sizes, the
        work vectors _norm and _scale, and the module's weight, gradient and bias as aliases."""
        module = self.modules[0]
        shape = list(module.weight.shape)
        n = shape[self.outputDim]
        fields["weightSize"] = shape
        fields["otherDims"] = int(math.prod(shape)) // n
        fields["viewIn"] = [n, fields["otherDims"]]
        fields["viewOut"] = [n] + shape[:self.outputDim] + shape[self.outputDim + 1:]
        fields["_norm"], fields["_scale"] = np.zeros(n, self.v.dtype), np.zeros(n, self.v.dtype)
        for name in ("weight", "gradWeight", "bias", "gradBias"):
            if getattr(module, name, None) is not None:
                fields[name] = getattr(module, name)

    def _t7_fixup(self, version):
        self.outputDim = int(self.outputDim) - 1   # Torch7 counted from 1
        module = self.modules[0]
        size = getattr(self, "weightSize", None)
        if getattr(module, "weight", None) is None and isinstance(size, np.ndarray):
            module.weight = np.zeros([int(s) for s in size], self.v.dtype)   # not stored by later Torch7
            module.gradWeight = np.zeros_like(module.weight)
        for name in ("weight", "bias", "gradWeight", "gradBias", "_norm", "_scale", "viewIn", "viewOut",
                     "otherDims", "weightSize"):
            vars(self).pop(name, None)   # aliases of the module's arrays, and work arrays

    def add(self, module):
        if self.modules:
            raise ValueError(f"{type(self).__name__}.add: it wraps a single module, and it has one")
        return super().add(module)

    # ---- parameters: v, g and the module's bias ----
    def _all_parameters(self):
        module = self.modules[0]
        bias = [(module, "bias", "gradBias")] if getattr(module, "bias", None) is not None else []
        return self._owned_parameters() + bias

    # v, g and the bias themselves (Container's versions would reach the weight)
    zeroGradParameters = Module.zeroGradParameters
    updateParameters = Module.updateParameters

    def reset(self, stdv=None):
        rest = self.v.shape[1]
        self.v[...] = normal(self.v.shape, np.sqrt(2.0 / rest), self.v.dtype)
        self.g[...] = np.sqrt((self.v ** 2).sum(axis=1))
        if getattr(self.modules[0], "bias", None) is not None:
            self.modules[0].bias.fill(0)
        return self

    # ---- the weight from v and g ----
    def _rows(self, array):
        """A weight-shaped array as [n, rest] (outputDim first)."""
        return array_namespace(array).moveaxis(array, self.outputDim, 0).reshape(self.v.shape)

    def _norm(self):
        return array_namespace(self.v).sqrt((self.v ** 2).sum(axis=1) + EPS)

    def _set_weight(self):
        module = self.modules[0]
        weight = getattr(module, "weight", None)
        if not is_array(weight) or weight.size != self.v.size or weight.shape[self.outputDim] != self.v.shape[0]:
            shape = list(weight.shape) if is_array(weight) else None
            raise ValueError(f"WeightNorm: the module's weight {shape} does not fit v {list(self.v.shape)} "
                             f"along outputDim {self.outputDim}")
        w = (self.g / self._norm())[:, None] * self.v
        target = array_namespace(weight).moveaxis(weight, self.outputDim, 0)   # a view: writing it writes the weight
        target[...] = w.reshape(target.shape)

    def updateOutput(self, input):
        self._set_weight()
        self.output = self._child(0, "updateOutput", input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._need_output()   # (the child's weight is set from v and g by forward)
        self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        module = self.modules[0]
        module.gradWeight = _scratch(module.gradWeight, module.weight)
        self._child(0, "accGradParameters", input, gradOutput, scale)   # bias: straight into gradBias
        grad_w = self._rows(module.gradWeight)
        norm = self._norm()
        s = (grad_w * self.v).sum(axis=1) / norm
        self.gradG += s
        self.gradV += (self.g / norm)[:, None] * (grad_w - (s / norm)[:, None] * self.v)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        """Step v, g and the bias by -lr times this sample's gradients, the
        stored gradients untouched."""
        entries = self._all_parameters()
        saved = [getattr(m, g) for m, _, g in entries]
        steps = [array_namespace(getattr(m, p)).zeros_like(getattr(m, p)) for m, p, _ in entries]
        for (m, _, g), step in zip(entries, steps):
            setattr(m, g, step)
        try:
            self.accGradParameters(input, gradOutput, 1)
        finally:
            for (m, _, g), grad in zip(entries, saved):
                setattr(m, g, grad)
        for (m, p, _), step in zip(entries, steps):
            getattr(m, p)[...] -= lr * step

    def __repr__(self):
        return f"nn.{type(self).__name__} [" + repr(self.modules[0]) + "]"

    def _onnx(self, g, x, y):
        """the module's nodes, with the weight made from v and g"""
        for copy in (self, g.twin(self)):
            if copy is not None:
                copy._set_weight()
        return g.child(self, 0, x)


def _scratch(buffer, like):
    """A zeroed array shaped as like (buffer again when it fits)."""
    buffer = reuse(buffer, like.shape, like.dtype, like)
    buffer.fill(0)
    return buffer
