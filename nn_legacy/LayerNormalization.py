import math

import numpy as np

from ._helpers.arrays import check_features, check_like, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class LayerNormalization(Module):
    """Layer normalization (Ba et al. 2016) of a ``[nOutput]`` sample or of
    each row of a ``[batch, nOutput]`` batch::

        c = x - mean(x)
        z = sqrt(n) * c / sqrt(sum_i c_i^2 + eps)        (n = nOutput)
        y = weight * z + bias                            (affine=True)

    so z has zero mean and unit (population) standard deviation.  With
    ``affine`` the gain ``weight`` starts at 1 and ``bias`` at the ``bias``
    argument; without, the module has no parameters.  Defaults as Torch7:
    ``bias=0``, ``eps=1e-10``, ``affine=True``.

    Gradients, with ``g = weight * dL/dy`` and ``s = sqrt(sum c^2 + eps)``:
    ``dL/dc_j = sqrt(n) (g_j / s - c_j (sum_i g_i c_i) / s^3)``,
    ``dL/dx = dL/dc - mean(dL/dc)``; ``dL/dweight += scale * dL/dy * z``
    and ``dL/dbias += scale * dL/dy`` (summed over the batch).

    Torch7 built this layer from other modules (a Sequential of
    ConcatTable(Identity, Sequential(Mean, Replicate)), CSubTable,
    Normalize(2, eps), MulConstant(sqrt(n)), CMul, Add); a Torch7 file of
    it loads into this one module, its gain and bias taken from the CMul
    and the Add.  That construction subtracted the mean in memory order,
    which is right for one sample but mixes rows in a batch; here every
    row is normalized on its own.
    """

    def __init__(self, nOutput, bias=0, eps=1e-10, affine=True):
        super().__init__()
        if not isinstance(nOutput, int) or isinstance(nOutput, bool) or nOutput < 1:
            raise ValueError(f"LayerNormalization: nOutput must be a positive integer, got {nOutput!r}")
        self.nOutput, self.eps = nOutput, float(eps)
        self.weight = np.ones(nOutput) if affine else None
        self.gradWeight = np.zeros(nOutput) if affine else None
        self.bias = np.full(nOutput, float(bias)) if affine else None
        self.gradBias = np.zeros(nOutput) if affine else None

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's LayerNormalization is a Sequential of the parts _t7_fixup reads."""
        from .Add import Add
        from .CMul import CMul
        from .ConcatTable import ConcatTable
        from .CSubTable import CSubTable
        from .Identity import Identity
        from .Mean import Mean
        from .MulConstant import MulConstant
        from .Normalize import Normalize
        from .Replicate import Replicate
        from .Sequential import Sequential
        n = self.nOutput
        mean = Sequential().add(Mean(0, 1)).add(Replicate(n, 0, 1))
        parts = [ConcatTable().add(Identity()).add(mean), CSubTable(), Normalize(2, self.eps), MulConstant(math.sqrt(n))]
        if self.weight is not None:
            gain, shift = CMul(n), Add(n)
            gain.weight, gain.gradWeight = self.weight, self.gradWeight
            shift.bias, shift.gradBias = self.bias, self.gradBias
            parts += [gain, shift]
        for key in ("nOutput", "eps", "weight", "bias", "gradWeight", "gradBias"):
            fields.pop(key, None)
        fields["modules"] = parts

    def _t7_fixup(self, version):
        """Torch7's parts: Replicate (n), Normalize (eps), and with affine CMul (gain) and Add (bias)."""
        parts = self.__dict__.pop("modules")
        self.nOutput = int(parts[0].modules[1].modules[1].nfeatures)
        self.eps = float(parts[2].eps)
        affine = len(parts) > 4
        self.weight = parts[4].weight.reshape(-1).copy() if affine else None
        self.bias = parts[5].bias.reshape(-1).copy() if affine else None
        self.gradWeight = np.zeros_like(self.weight) if affine else None
        self.gradBias = np.zeros_like(self.bias) if affine else None

    def _normalized(self, input):
        """(c, s, z) for the rows of input, as 2D arrays."""
        xp = array_namespace(input)
        self._kernels(input)
        check_features(self, input, self.nOutput)
        x = xp.ascontiguousarray(input).reshape(-1, self.nOutput)
        c = x - x.mean(axis=1, keepdims=True)
        s = xp.sqrt((c * c).sum(axis=1, keepdims=True) + self.eps)
        return c, s, c * (math.sqrt(self.nOutput) / s)

    def updateOutput(self, input):
        _, _, z = self._normalized(input)
        if self.weight is not None:
            z = z * self.weight + self.bias
        self.output = reuse(self.output, input.shape, input.dtype, input)
        self.output[...] = z.reshape(input.shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        c, s, _ = self._normalized(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        g = xp.ascontiguousarray(gradOutput).reshape(c.shape)
        if self.weight is not None:
            g = g * self.weight
        dc = math.sqrt(self.nOutput) * (g / s - c * (g * c).sum(axis=1, keepdims=True) / s ** 3)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput[...] = (dc - dc.mean(axis=1, keepdims=True)).reshape(input.shape)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        xp = array_namespace(input)
        if self.weight is None:
            return
        _, _, z = self._normalized(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        g = xp.ascontiguousarray(gradOutput).reshape(z.shape)
        self.gradWeight += scale * (g * z).sum(axis=0)
        self.gradBias += scale * g.sum(axis=0)

    def __repr__(self):
        return f"nn.LayerNormalization({self.nOutput}{'' if self.weight is not None else ', no affine'})"

    def _onnx(self, g, x, y):
        """x - ReduceMean(x), times sqrt(n) / Sqrt(ReduceSumSquare + eps), Mul, Add"""
        last = g.ints([-1])
        centred = g.op("Sub", [x, g.op("ReduceMean", [x, last], keepdims=1)])
        norm = g.op("Sqrt", [g.op("Add", [g.op("ReduceSumSquare", [centred, last], keepdims=1),
                                          np.array(self.eps, dtype=x.dtype)])])
        z = g.op("Mul", [g.op("Div", [centred, norm]), np.array(np.sqrt(x.shape[-1]), dtype=x.dtype)])
        if self.weight is None:
            return z
        return g.op("Add", [g.op("Mul", [z, g.param(self.weight, "weight")]), g.param(self.bias, "bias")])
