import numpy as np

from ._helpers.arrays import describe, is_array, name_of, reuse
from ._bases.dims import check_array, check_grad, check_int, lua_int
from ._helpers.namespace import array_namespace
from .Module import Module


class OneHot(Module):
    """Class indices to one-hot rows: for an input of any shape holding
    0-based classes in ``[0, outputSize)`` (an integer array, a float array
    of whole numbers, or a single int), the output has the input's shape
    plus a last dim of ``outputSize``, 1 at each index and 0 elsewhere.

    The output is float64, or float32 after ``float()`` (the module's
    type, as in Torch7).  gradInput is zeros laid out as the input (0 for a
    single int): indices have no gradient.
    """

    def __init__(self, outputSize):
        super().__init__()
        self.outputSize = check_int(self, outputSize, "outputSize", 1)
        self.outputType = np.dtype(np.float64)

    def _t7_unfixup(self, fields):
        """save_lua: Torch7 kept the type as output's."""
        fields["output"] = np.zeros(0, fields.pop("outputType"))

    def _t7_fixup(self, version):
        self.outputSize = lua_int(self.outputSize)
        self.outputType = self.output.dtype if isinstance(self.output, np.ndarray) else np.dtype(np.float64)
        for key in ("_single", "_input"):   # Torch7's buffers
            self.__dict__.pop(key, None)

    def _classes(self, input):
        xp = array_namespace(input)
        if isinstance(input, (int, np.integer)) and not isinstance(input, (bool, np.bool_)):
            input = xp.array(int(input))
        check_array(self, input)
        if input.dtype.kind == "b":
            raise TypeError(f"{name_of(self)}: input must hold class indices, got bool")
        if input.dtype.kind == "f":
            whole = xp.isfinite(input) & (input == xp.round(input))
            if not whole.all():
                where = tuple(int(i) for i in xp.argwhere(~whole)[0])
                raise ValueError(f"{name_of(self)}: input must hold whole class indices, got "
                                 f"{input[where].item()!r} at {list(where)}")
        bad = (input < 0) | (input >= self.outputSize)
        if bad.any():
            where = tuple(int(i) for i in xp.argwhere(bad)[0])
            raise ValueError(f"{name_of(self)}: class {input[where].item()!r} at {list(where)} is out of range "
                             f"[0, {self.outputSize}) of input {describe(input)}")
        return input.astype(np.int64)

    def updateOutput(self, input):
        xp = array_namespace(input)
        classes = self._classes(input)
        self.output = reuse(self.output, classes.shape + (self.outputSize,), self.outputType, classes)
        self.output.fill(0)
        xp.put_along_axis(self.output, classes[..., None], 1, axis=-1)
        return self.output

    def updateGradInput(self, input, gradOutput):
        classes = self._classes(input)
        check_grad(self, gradOutput, classes.shape + (self.outputSize,))
        if not is_array(input):
            self.gradInput = 0
            return self.gradInput
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input)
        self.gradInput.fill(0)
        return self.gradInput

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return super().type()
        super().type(dtype, _memo)
        self.outputType = np.dtype(dtype)
        return self

    def __repr__(self):
        return f"nn.OneHot({self.outputSize})"

    def _onnx(self, g, x, y):
        """OneHot"""
        values = np.array([0, 1], dtype=self.outputType)
        from ._helpers.onnx_types import _ELEMENT_TYPES
        out = g.op("OneHot", [x, g.ints([self.outputSize]), g.const(values, "values")], axis=-1)
        return out if self.outputType == g.float else g.op("Cast", [out], to=_ELEMENT_TYPES[self.outputType.name])
