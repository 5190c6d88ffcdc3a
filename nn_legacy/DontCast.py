import numpy as np

from thnn.cuda import CudaTensor

from ._helpers.arrays import is_array, reuse
from ._helpers.checks import float_dtype
from .Decorator import Decorator
from .Module import Module

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _dtype_of(value):
    """The dtype of an array or of the first array of a (nested) table; None if none."""
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _dtype_of(v)
            if found is not None:
                return found
        return None
    return getattr(value, "dtype", None)


def _cast(buffer, value, dtype):
    """value (an array or nested table) converted to dtype, into buffer's
    arrays where their layout fits (else new ones)."""
    if isinstance(value, (list, tuple)):
        old = buffer if isinstance(buffer, list) and len(buffer) == len(value) else [None] * len(value)
        return [_cast(b, v, dtype) for b, v in zip(old, value)]
    if not is_array(value):
        return value
    if reuse(buffer, value.shape, dtype, value) is buffer:
        buffer[...] = value
        return buffer
    return value.astype(dtype)


class DontCast(Decorator):
    """Keeps ``module`` in its own dtype when the model around it is
    converted (Lua nn's DontCast): ``type()`` / ``float()`` / ``double()`` of
    this decorator (and so of a container holding it) leave the module
    alone, and change only the dtype this decorator hands out.

    ``castin``: an input (and, going back, the input of the gradient) of
    another dtype than the module's is converted to ``moduleType`` before
    it reaches the module, and gradInput is converted to this decorator's
    dtype.  ``castout`` (default: as castin): the output is converted to
    this decorator's dtype, and gradOutput to ``moduleType``.  This
    decorator's dtype is float64 until ``type()`` sets it (Torch7's default
    tensor type).  ``moduleType`` defaults to the dtype of the module's
    output or parameters; a ValueError asks for it when there are neither.
    Tables of arrays are converted entry by entry.
    """

    def __init__(self, module, castin=False, castout=None, moduleType=None):
        super().__init__(module)
        self.castin = bool(castin)
        self.castout = self.castin if castout is None else bool(castout)
        self.outputType = np.dtype(np.float64)
        if moduleType is None and (self.castin or self.castout):
            moduleType = _dtype_of(module.output) or module._dtype()
            if moduleType is None:
                raise ValueError("DontCast: cannot tell the module's dtype (it has no output or parameters yet): "
                                 "give moduleType, the 4th argument")
        self.moduleType = None if moduleType is None else np.dtype(moduleType)
        if self.moduleType is not None and self.moduleType not in _FLOATS:
            raise TypeError(f"DontCast: moduleType must be float32 or float64, got {self.moduleType}")

    def _t7_unfixup(self, fields):
        """save_lua: Torch7 kept moduleType as a type name and the output type as output's."""
        fields["output"] = np.zeros(0, fields.pop("outputType"))
        if "moduleType" in fields:
            fields["moduleType"] = {np.float32: "torch.FloatTensor", np.float64: "torch.DoubleTensor"}.get(
                fields["moduleType"].type, "torch.DoubleTensor")

    def _t7_fixup(self, version):
        self.castin, self.castout = bool(self.castin), bool(getattr(self, "castout", self.castin))
        name = getattr(self, "moduleType", None)
        types = {"torch.FloatTensor": np.float32, "torch.DoubleTensor": np.float64}
        self.moduleType = np.dtype(types[name]) if name in types else None
        self.outputType = _dtype_of(self.output) or np.dtype(np.float64)
        for name in ("_input", "_gradOutput"):
            self.__dict__.pop(name, None)

    def _inner_input(self, input):
        if self.castin and _dtype_of(input) != self.moduleType:
            self._input = _cast(getattr(self, "_input", None), input, self.moduleType)
            return self._input
        return input

    def _inner_grad(self, gradOutput):
        if self.castout and _dtype_of(gradOutput) != self.moduleType:
            self._gradOutput = _cast(getattr(self, "_gradOutput", None), gradOutput, self.moduleType)
            return self._gradOutput
        return gradOutput

    def updateOutput(self, input):
        output = self._child(0, "updateOutput", self._inner_input(input))
        self.output = _cast(self.output, output, self.outputType) if self.castout else output
        return self.output

    def updateGradInput(self, input, gradOutput):
        gradInput = self._child(0, "updateGradInput", self._inner_input(input), self._inner_grad(gradOutput))
        self.gradInput = _cast(self.gradInput, gradInput, self.outputType) if self.castin else gradInput
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._child(0, "accGradParameters", self._inner_input(input), self._inner_grad(gradOutput), scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._child(0, "accUpdateGradParameters", self._inner_input(input), self._inner_grad(gradOutput), lr)

    backward = Module.backward   # through the conversions above

    def type(self, dtype=None, _memo=None):
        """Sets the dtype this decorator hands out; the module keeps its own
        (a module on a CUDA device comes back to the host in its dtype, as
        the model around it does)."""
        if dtype is None:
            return self.outputType
        self.outputType = float_dtype(self, dtype)
        module = self.modules[0]
        if any(isinstance(p, CudaTensor) for p in module.parameters()[0]):
            module.type(module._dtype(), _memo)
        if self.castout and self.output is not None:
            self.output = _cast(None, self.output, self.outputType)
        if self.castin and self.gradInput is not None:
            self.gradInput = _cast(None, self.gradInput, self.outputType)
        return self

    def __repr__(self):
        return "nn.DontCast @ " + repr(self.modules[0])

    def _onnx(self, g, x, y):
        """the module's nodes in its own type, Cast in (castin) and out (castout)"""
        from ._helpers.onnx_types import _ELEMENT_TYPES

        def cast(v, dtype):   # a Value, or a table of them entry by entry
            if isinstance(v, list):
                return [cast(e, dtype) for e in v]
            if v.dtype == dtype or v.dtype.kind != "f":
                return v
            return g.derive(g.op("Cast", [v], to=_ELEMENT_TYPES[dtype.name]), v, lambda a: a.astype(dtype))
        inner, outer = self.moduleType or g.float, g.float
        g.float = inner   # the module's constants and parameters in its own type
        try:
            out = g.child(self, 0, cast(x, inner) if self.castin else x)
        finally:
            g.float = outer
        return cast(out, self.outputType) if self.castout else out
