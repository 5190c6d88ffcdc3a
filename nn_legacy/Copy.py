import numpy as np

from ._helpers.arrays import name_of, reuse
from ._bases.dims import check_array, check_grad
from .Module import Module


class Copy(Module):
    """``output`` = the input converted to ``outtype``, ``gradInput`` =
    gradOutput converted to ``intype`` (numpy dtypes, float64 by default;
    the input may have any numeric dtype).

    Both are copies, except that when intype and outtype are the same and
    forceCopy is False the module passes the arrays through as Identity
    does.  ``type(dtype)`` sets intype and outtype to dtype (in Torch7 the
    types of the module's buffers, which the conversion changed, decided
    them), unless ``dontCast`` is set: then it leaves the module as it is.
    """

    def __init__(self, intype=np.float64, outtype=np.float64, forceCopy=False, dontCast=False):
        super().__init__()
        self.intype = self._dtype_arg(intype, "intype")
        self.outtype = self._dtype_arg(outtype, "outtype")
        self.forceCopy = bool(forceCopy)
        self.dontCast = bool(dontCast)

    def _dtype_arg(self, value, name):
        try:
            dtype = np.dtype(value)
        except TypeError:
            raise TypeError(f"{name_of(self)}: {name} must be a numpy dtype, got {value!r}") from None
        if dtype.kind not in "biuf":
            raise TypeError(f"{name_of(self)}: {name} must be a numeric dtype, got {dtype}")
        return dtype

    def _t7_unfixup(self, fields):
        """save_lua: Torch7 kept the types as those of gradInput (in) and output (out)."""
        fields["gradInput"] = np.zeros(0, fields.pop("intype"))
        fields["output"] = np.zeros(0, fields.pop("outtype"))

    def _t7_fixup(self, version):
        # Torch7 kept no type fields: the types of its buffers were the types
        self.intype = self.gradInput.dtype if isinstance(self.gradInput, np.ndarray) else np.dtype(np.float64)
        self.outtype = self.output.dtype if isinstance(self.output, np.ndarray) else np.dtype(np.float64)
        self.forceCopy = bool(getattr(self, "forceCopy", False))
        self.dontCast = bool(getattr(self, "dontCast", False))

    def _passes_through(self):
        return self.intype == self.outtype and not self.forceCopy

    def updateOutput(self, input):
        check_array(self, input)
        if self._passes_through():
            self.output = input
        else:
            self.output = reuse(self.output, input.shape, self.outtype, input)
            self.output[...] = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        check_grad(self, gradOutput, input.shape)
        if self._passes_through():
            self.gradInput = gradOutput
        else:
            self.gradInput = reuse(self.gradInput, input.shape, self.intype, input, gradOutput)
            self.gradInput[...] = gradOutput
        return self.gradInput

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return super().type()
        if self.dontCast:
            return self
        super().type(dtype, _memo)
        self.intype = self.outtype = np.dtype(dtype)
        return self

    def __repr__(self):
        return f"nn.Copy({self.intype} -> {self.outtype})"

    def _onnx(self, g, x, y):
        """Cast (none when the types agree)"""
        if x.dtype == y.dtype:
            return x
        from ._helpers.onnx_types import _ELEMENT_TYPES
        return g.op("Cast", [x], to=_ELEMENT_TYPES[y.dtype.name])
