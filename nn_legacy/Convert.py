import math
import numpy as np

from ._helpers.arrays import describe, name_of, reuse
from ._bases.dims import check_array, check_grad
from .Module import Module


class Convert(Module):
    """Converts between data layouts named by letters, and converts the
    input to the module's dtype (dpnn's Convert, in Lua nn).

    ``Convert(inputShape, outputShape)`` with shapes such as ``'bchw'``,
    ``'bf'``, ``'chw'``, ``'f'``, ``'bt'``, ``'b'``: ``b`` is the batch
    dim (added in front when a shape has none: ``'chw'`` is ``'bchw'``),
    ``f`` features, ``t`` classes of a multi-class target, other letters any
    dims.  ``Convert()`` (``'b*'`` to ``'b*'``) only converts the dtype.
    The conversions, as Torch7's:

    - the same letters in another order (``'bhwc'`` to ``'bchw'``): the
      dims permuted;
    - to ``'bf'``: the batch dim moved first and every sample flattened
      (``'b'`` gives ``[b, 1]``; ``'bt'`` is refused);
    - ``'bt'`` / ``'tb'`` to ``'b'``: the first class of each sample;
      ``'bf'`` / ``'fb'`` to ``'b'``: the one feature of each sample;
    - ``'b'`` to ``'bt'``: ``[b, 1]``.

    An input with fewer dims than ``inputShape`` is one sample: the batch
    dim is added for the conversion and taken out of the output again.
    The output is a new array (never a view of the input) of the module's
    dtype: float64, or float32 after ``float()``; an input of another dtype
    (bytes, integers, the other precision) is converted first, and
    gradInput is in the module's dtype too, as in Torch7.  gradInput is
    gradOutput taken back through the conversion (zeros where a conversion
    dropped values).
    """

    def __init__(self, inputShape=None, outputShape=None):
        super().__init__()
        if outputShape is not None and inputShape is None:
            raise ValueError("Convert: outputShape given without inputShape; Convert(inputShape, outputShape)")
        inputShape = "b*" if inputShape is None else inputShape
        outputShape = inputShape if outputShape is None else outputShape
        self.inputShape = self._shape(inputShape, "inputShape")
        self.outputShape = self._shape(outputShape, "outputShape")
        self.outputType = np.dtype(np.float64)
        self._plan()

    def _shape(self, shape, name):
        """shape with its batch letter, checked: letters, each once."""
        if not isinstance(shape, str) or not shape or len(set(shape)) != len(shape) \
                or not (shape in ("*", "b*") or shape.isalpha()):
            raise ValueError(f"{name_of(self)}: {name} must be letters naming dims, each once (e.g. 'bchw', 'bf'), "
                             f"or 'b*', got {shape!r}")
        return shape if "b" in shape else "b" + shape

    def _plan(self):
        """Which conversion this is; a ValueError for one Torch7 did not have."""
        ins, outs = self.inputShape, self.outputShape
        if "b*" in (ins, outs):
            if ins != outs:
                raise ValueError(f"{name_of(self)}: 'b*' converts only to 'b*', got {ins!r} to {outs!r}")
            self._kind = "identity"
        elif sorted(ins) == sorted(outs):
            self._kind = "identity" if ins == outs else "transpose"
        elif outs == "bf" and ins != "bt":
            self._kind = "bf"
        elif outs == "b" and ins in ("bt", "tb", "bf", "fb"):
            self._kind = "b"
        elif outs == "bt" and ins == "b":
            self._kind = "bt"
        else:
            raise ValueError(f"{name_of(self)}: cannot convert shape {ins!r} to {outs!r}")

    def _t7_unfixup(self, fields):
        """save_lua: Torch7 kept the type as output's."""
        fields["output"] = np.zeros(0, fields.pop("outputType"))

    def _t7_fixup(self, version):
        """Torch7 kept its converter modules and work tensors: rebuilt here from the shapes."""
        self.outputType = self.output.dtype if isinstance(self.output, np.ndarray) and \
            self.output.dtype == np.float32 else np.dtype(np.float64)
        for name in ("modules", "converter", "inputBatchDim", "outputBatchDim", "nInputDim", "nOutputDim",
                     "transposition", "batchMode", "_input", "_gradInput", "__input", "__output", "__gradInput",
                     "__gradOutput"):
            self.__dict__.pop(name, None)
        self.output = self.gradInput = None
        self._plan()

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return self.outputType
        super().type(dtype, _memo)
        self.outputType = np.dtype(dtype)
        return self

    # ---- the layout ----
    def _batch(self, input):
        """(input in the module's dtype, with a batch dim; whether it had one)."""
        check_array(self, input)
        x = input if input.dtype == self.outputType else input.astype(self.outputType)
        if self._kind == "identity" and self.inputShape == "b*":
            return x, True
        n = len(self.inputShape)
        if x.ndim == n:
            return x, True
        if x.ndim == n - 1:
            return np.expand_dims(x, self.inputShape.index("b")), False
        raise ValueError(f"{name_of(self)}: input must have {n} dims ('{self.inputShape}') or {n - 1} (one sample), "
                         f"got {describe(input)}")

    def _other_axis(self, x):
        """'b' output: the axis that is not the batch (of a 2D input)."""
        other = 1 - self.inputShape.index("b")
        if self.inputShape in ("bf", "fb") and x.shape[other] != 1:
            raise ValueError(f"{name_of(self)}: cannot convert '{self.inputShape}' to 'b' when there is more than "
                             f"one feature, got input {describe(x)}")
        return other

    def _convert(self, x):
        """The batch-mode output for the batch-mode input x (a view where it can)."""
        kind = self._kind
        if kind == "transpose":
            return x.transpose([self.inputShape.index(c) for c in self.outputShape])
        if kind == "bf":
            moved = np.moveaxis(x, self.inputShape.index("b"), 0)
            return moved.reshape(moved.shape[0], int(math.prod(moved.shape[1:])))
        if kind == "b":
            return np.take(x, 0, axis=self._other_axis(x))
        if kind == "bt":
            return x.reshape(x.shape[0], 1)
        return x

    def _unconvert(self, x, g):
        """dL/dx (batch mode) for g = dL/d(output) (batch mode)."""
        kind = self._kind
        if kind == "transpose":
            return g.transpose(np.argsort([self.inputShape.index(c) for c in self.outputShape]))
        if kind == "bf":
            b = self.inputShape.index("b")
            return np.moveaxis(g.reshape(np.moveaxis(x, b, 0).shape), 0, b)
        if kind == "b":
            out = np.zeros(x.shape, g.dtype)
            index = [slice(None)] * 2
            index[self._other_axis(x)] = 0
            out[tuple(index)] = g
            return out
        return g.reshape(x.shape)

    def _out_shape(self, x, batched):
        shape = self._convert(x).shape
        if batched:
            return shape
        b = self.outputShape.index("b") if self.outputShape != "b*" else 0
        return shape[:b] + shape[b + 1:]

    def updateOutput(self, input):
        x, batched = self._batch(input)
        y = self._convert(x)
        if not batched:
            y = y.reshape(self._out_shape(x, False))
        self.output = reuse(self.output, y.shape, self.outputType, input)
        self.output[...] = y
        return self.output

    def updateGradInput(self, input, gradOutput):
        x, batched = self._batch(input)
        check_grad(self, gradOutput, self._out_shape(x, batched))
        g = gradOutput.astype(self.outputType, copy=False).reshape(self._convert(x).shape)
        grad = self._unconvert(x, g)
        self.gradInput = reuse(self.gradInput, input.shape, self.outputType, input, gradOutput)
        self.gradInput[...] = grad.reshape(input.shape)
        return self.gradInput

    def __repr__(self):
        return f"nn.Convert('{self.inputShape}', '{self.outputShape}')"

    def _onnx(self, g, x, y):
        """Cast to the module's type, then Transpose / Reshape / Gather as the layouts ask"""
        from ._helpers.onnx_types import _ELEMENT_TYPES
        v = x.name if x.dtype == self.outputType else g.op("Cast", [x], to=_ELEMENT_TYPES[self.outputType.name])
        batched = self._batch(x.value)[1]
        if self._kind == "identity":
            return x if v == x.name else v
        b = self.inputShape.index("b")
        v = v if batched else g.op("Unsqueeze", [v, g.ints([b])])
        if self._kind == "transpose":
            v = g.op("Transpose", [v], perm=[self.inputShape.index(c) for c in self.outputShape])
        elif self._kind == "bf":
            order = [b] + [d for d in range(len(self.inputShape)) if d != b]
            v = g.op("Reshape", [g.op("Transpose", [v], perm=order), g.ints([0, -1])])
        elif self._kind == "b":
            v = g.op("Gather", [v, np.array(1 - b, dtype=np.int64)], axis=1 - b)
        else:   # "bt"
            v = g.op("Unsqueeze", [v, g.ints([1])])
        return v if batched else g.op("Reshape", [v, g.ints(y.shape)])
