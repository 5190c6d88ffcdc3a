import numbers

import numpy as np

from ._helpers.arrays import _FLOATS, name_of, reuse
from ._bases.dims import check_array, check_grad, check_int, lua_int
from .Module import Module


class Constant(Module):
    """The output is ``value`` whatever the input: a float array (a number
    is taken as an array of size [1], as in Torch7).  With ``nInputDim``
    and an input of more dims than that, the first dim of the input is a
    batch and the output is ``[batch] + value.shape``, value repeated.
    The output has value's dtype (float64, or float32 after ``float()``);
    gradInput is zeros like the input."""

    def __init__(self, value, nInputDim=None):
        super().__init__()
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            value = np.array([value], dtype=np.float64)
        if not isinstance(value, np.ndarray) or value.dtype.kind not in "biuf":
            raise TypeError(f"{name_of(self)}: value must be a number or a numeric array, got {value!r}")
        self.value = value.astype(value.dtype if value.dtype in _FLOATS else np.float64)
        self.nInputDim = check_int(self, nInputDim, "nInputDim", 0, optional=True)

    def _t7_fixup(self, version):
        if not isinstance(self.value, np.ndarray):
            self.value = np.array([float(self.value)])
        self.nInputDim = lua_int(getattr(self, "nInputDim", None))

    def updateOutput(self, input):
        check_array(self, input)
        batch = self.nInputDim is not None and input.ndim > self.nInputDim
        shape = ((input.shape[0],) if batch else ()) + self.value.shape
        self.output = reuse(self.output, shape, self.value.dtype, input)
        self.output[...] = self.value
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        batch = self.nInputDim is not None and input.ndim > self.nInputDim
        check_grad(self, gradOutput, ((input.shape[0],) if batch else ()) + self.value.shape)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput.fill(0)
        return self.gradInput

    def __repr__(self):
        return f"nn.Constant(size [{', '.join(map(str, self.value.shape))}])"

    def _onnx(self, g, x, y):
        """a constant (Expand over the batch when there is one)"""
        value = g.param(self.value, "value")
        if y.shape == self.value.shape:
            return g.op("Identity", [value])
        if y.batched:   # [batch] + value.shape, batch taken from the input
            shape = g.op("Concat", [g.slice(g.op("Shape", [x]), 0, 0, 1), g.ints(self.value.shape)], axis=0)
            return g.op("Expand", [value, shape])
        return g.op("Expand", [value, g.ints(y.shape)])
