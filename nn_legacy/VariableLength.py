import numpy as np

from ._helpers.arrays import describe, is_array, reuse
from .Decorator import Decorator


class VariableLength(Decorator):
    """torch/rnn's VariableLength: runs a sequence module over a batch of
    sequences of different lengths, given as a list of ``[len_i, ...]``
    arrays (one per sample).

    The samples are packed into one ``[maxlen, batch, ...]`` array, each
    at the end of its column after zero steps, and the module (a SeqLSTM,
    SeqGRU or any module with a ``maskZero()`` that zeroes the state of a
    sample whose step input is all zeros) runs over it: each sample starts
    from the zero state at its first step, so its outputs are those of the
    module run on it alone.  The output is the list of the samples' own
    steps ``[len_i, ...]``, or with ``lastOnly`` the last step of each,
    ``[batch, ...]`` (zeros for a sample of 0 steps); gradOutput is laid
    out the same, and gradInput is the list of the samples' gradients.

    ``VariableLength(module, lastOnly=False)`` calls ``module.maskZero()``.
    torch/rnn packed several short samples into one column, separated by
    a mask; the outputs are the same.  Its masks came from the lengths: here
    a sample's step of all zeros is masked too (as the rnn package's older
    maskZero did).
    """

    def __init__(self, module, lastOnly=False):
        mask = getattr(module, "maskZero", None)
        if mask is None:
            raise TypeError(f"VariableLength: the module must have maskZero() (SeqLSTM, SeqGRU), got "
                            f"{type(module).__name__}")
        try:
            mask()
        except TypeError as e:
            raise TypeError(f"VariableLength: the module's maskZero() must take no argument (SeqLSTM, SeqGRU): "
                            f"{e}") from None
        super().__init__(module)
        self.lastOnly = bool(lastOnly)
        _masked_by_decorator(module)
        self._packed = self._gradPacked = self._shapes = None

    _buffer_names = ("_packed", "_gradPacked", "_shapes")

    def _check(self, input):
        if not isinstance(input, list) or not input:
            raise TypeError(f"VariableLength: input must be a non-empty list of [len_i, ...] arrays, one per "
                            f"sample, got {type(input).__name__}")
        first = input[0]
        for i, x in enumerate(input):
            if not is_array(x) or x.dtype not in (np.float32, np.float64):
                got = f"{describe(x)} {x.dtype}" if is_array(x) else type(x).__name__
                raise TypeError(f"VariableLength: input[{i}] must be a float32 or float64 array [len, ...], got {got}")
            if x.ndim < 1:
                raise ValueError(f"VariableLength: input[{i}] must be an array [len, ...], got a 0D array")
            if x.shape[1:] != first.shape[1:] or x.dtype != first.dtype:
                raise ValueError(f"VariableLength: input[{i}] is {describe(x)} {x.dtype}, input[0] {describe(first)} "
                                 f"{first.dtype}: the samples' steps must agree in size and type")
        T = max(x.shape[0] for x in input)
        if T == 0:
            raise ValueError("VariableLength: every sample of the input has 0 steps")
        return T

    def _pack(self, buffer, arrays, T):
        first = arrays[0]
        packed = reuse(buffer, (T, len(arrays)) + first.shape[1:], first.dtype, *arrays)
        packed.fill(0)
        for i, a in enumerate(arrays):
            packed[T - a.shape[0]:, i] = a
        return packed

    def updateOutput(self, input):
        T = self._check(input)
        shapes = tuple(x.shape for x in input)
        if shapes != self._shapes:   # (buffers are reused for inputs of the same shapes only)
            self.output = self.gradInput = None
            self._shapes = shapes
        self._packed = self._pack(self._packed, input, T)
        out = self._child(0, "updateOutput", self._packed)
        if self.lastOnly:
            self.output = reuse(self.output if is_array(self.output) else None, out.shape[1:], out.dtype, out)
            self.output[...] = out[T - 1]
        else:
            self.output = self._unpack(self.output, out, input, T)
        return self.output

    @staticmethod
    def _unpack(buffers, packed, input, T):
        """The samples' own steps of packed [T, batch, ...], into buffers when they fit."""
        old = buffers if isinstance(buffers, list) and len(buffers) == len(input) else [None] * len(input)
        out = []
        for i, (b, x) in enumerate(zip(old, input)):
            a = reuse(b if is_array(b) else None, (x.shape[0],) + packed.shape[2:], packed.dtype, packed)
            a[...] = packed[T - x.shape[0]:, i]
            out.append(a)
        return out

    def _grad_packed(self, input, gradOutput):
        T = self._check(input)
        out = self.modules[0].output
        if self._packed is None or not is_array(out) or out.shape[:2] != (T, len(input)):
            raise RuntimeError("VariableLength: backward needs the forward of this input first")
        if self.lastOnly:
            _check_grad(gradOutput, out.shape[1:], out.dtype, "gradOutput")
            g = reuse(self._gradPacked, out.shape, out.dtype, gradOutput)
            g.fill(0)
            g[T - 1] = gradOutput
        else:
            if not isinstance(gradOutput, list):
                raise TypeError(f"VariableLength: gradOutput must be a list of {len(input)} arrays like the output, "
                                f"got {type(gradOutput).__name__}")
            if len(gradOutput) != len(input):
                raise ValueError(f"VariableLength: gradOutput must be a list of {len(input)} arrays like the output, "
                                 f"got {len(gradOutput)}")
            for i, (go, x) in enumerate(zip(gradOutput, input)):
                _check_grad(go, (x.shape[0],) + out.shape[2:], out.dtype, f"gradOutput[{i}]")
            g = self._pack(self._gradPacked, gradOutput, T)
        self._gradPacked = g
        return T, g

    def updateGradInput(self, input, gradOutput):
        T, g = self._grad_packed(input, gradOutput)
        gi = self._child(0, "updateGradInput", self._packed, g)
        self.gradInput = self._unpack(self.gradInput, gi, input, T)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        _, g = self._grad_packed(input, gradOutput)
        self._child(0, "accGradParameters", self._packed, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        _, g = self._grad_packed(input, gradOutput)
        self._child(0, "accUpdateGradParameters", self._packed, g, lr)

    def backward(self, input, gradOutput, scale=1):
        self.updateGradInput(input, gradOutput)
        self.accGradParameters(input, gradOutput, scale)
        return self.gradInput

    def _t7_fixup(self, version):
        for name in ("_input", "_mask", "indexes", "mappedLengths", "_gradOutput", "module"):
            vars(self).pop(name, None)
        self.lastOnly = bool(vars(self).get("lastOnly", False))
        self._packed = self._gradPacked = self._shapes = None
        if self.modules and hasattr(self.modules[0], "maskZero"):
            self.modules[0].maskZero()
            _masked_by_decorator(self.modules[0])
        if not self.lastOnly and not isinstance(self.output, list):
            self.output = None
        if not isinstance(self.gradInput, list):
            self.gradInput = None

    _onnx = None
    _onnx_unsupported = "its input is a list of sequences of different lengths"

    def __repr__(self):
        return f"nn.VariableLength{'(lastOnly)' if self.lastOnly else ''} @ " + repr(self.modules[0])


def _masked_by_decorator(module):
    """Mark module as given its zero mask by this decorator: save_lua then
    writes a torch/rnn Seq module with v2 = true, the mode in which Lua's
    VariableLength hands it the mask (with v2 false it would recompute the
    mask from its input, into the decorator's own mask tensor)."""
    module._zero_mask_from_decorator = True


def _check_grad(value, shape, dtype, name):
    if not is_array(value) or value.dtype != dtype:
        got = f"{describe(value)} {value.dtype}" if is_array(value) else type(value).__name__
        raise TypeError(f"VariableLength: {name} must be a {np.dtype(dtype)} array like the output, got {got}")
    if value.shape != tuple(shape):
        raise ValueError(f"VariableLength: {name} must be of size {list(shape)} like the output, got "
                         f"{describe(value)}")
