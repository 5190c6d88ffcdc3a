import numpy as np

from ._helpers.arrays import check_float_array, describe, is_array, reuse
from ._helpers.namespace import array_namespace
from ._bases.dims import check_int, from_lua, lua_int
from .Module import Module


class ArgMax(Module):
    """torch/rnn's ArgMax: the 0-based position of the maximum of a float input
    along ``dim`` (the first on ties; a NaN counts as the maximum), that
    dim removed (a 1D input gives an output of size [1]).

    ``ArgMax(dim=0, nInputDim=1, asLong=True)``: ``dim`` is 0-based and
    counts one further when the input has more dims than ``nInputDim`` (a
    batch); the output is int64 with ``asLong``, else of the input's type.
    No gradient flows through an index: gradInput is zeros shaped as the
    input (torch/rnn made it for ReinforceCategorical's samples); gradOutput,
    shaped as the output (of any type: int64 as the output), is not read."""

    def __init__(self, dim=0, nInputDim=1, asLong=True):
        super().__init__()
        self.dim = check_int(self, dim, "dim", 0)
        self.nInputDim = check_int(self, nInputDim, "nInputDim", 0)
        self.asLong = bool(asLong)

    _t7_one_based = ("dim",)   # save_lua: 1-based again

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        fields = vars(self)
        dim, n = fields.get("dim", 1), fields.get("nInputDim", 1)
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 1 and float(v).is_integer()
                   for v in (dim, n)):
            raise T7Error(f"ArgMax: dim and nInputDim in the file must be whole numbers from 1, got {dim!r}, {n!r}")
        self.dim, self.nInputDim = from_lua(dim), lua_int(n)
        self.asLong = bool(fields.get("asLong", True))
        for name in ("_value", "_indices"):
            fields.pop(name, None)
        if not is_array(self.output):
            self.output = None

    def _d(self, input):
        check_float_array(self, input, "input")
        d = self.dim + 1 if input.ndim > self.nInputDim else self.dim
        if not d < input.ndim:
            raise ValueError(f"ArgMax: dim {self.dim} (nInputDim {self.nInputDim}) is out of range for input "
                             f"{describe(input)}")
        return d

    def updateOutput(self, input):
        d = self._d(input)
        xp = array_namespace(input)
        idx = xp.argmax(input, axis=d)
        shape = idx.shape if input.ndim > 1 else (1,)
        self.output = reuse(self.output, shape, np.int64 if self.asLong else input.dtype, input)
        self.output[...] = idx.reshape(shape)
        return self.output

    def updateGradInput(self, input, gradOutput):
        shape = self._out_shape(input)
        if not is_array(gradOutput) or gradOutput.shape != shape:
            got = describe(gradOutput) if is_array(gradOutput) else type(gradOutput).__name__
            raise ValueError(f"ArgMax: gradOutput must be of size [{', '.join(map(str, shape))}] like the output, "
                             f"got {got}")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput.fill(0)
        return self.gradInput

    def _out_shape(self, input):
        d = self._d(input)
        return input.shape[:d] + input.shape[d + 1:] if input.ndim > 1 else (1,)

    def __repr__(self):
        return f"nn.ArgMax({self.dim}, {self.nInputDim}{'' if self.asLong else ', not asLong'})"

    _onnx_unsupported = "its output is indices, counted as torch/rnn's sampling modules read them (not exported)"
