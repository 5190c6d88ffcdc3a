import numpy as np

from ._bases.recurrent import OutputIsState, zeros
from ._helpers.arrays import describe, is_array
from .AbstractRecurrent import AbstractRecurrent
from .Module import Module


class Recurrence(OutputIsState, AbstractRecurrent):
    """The rnn package's general recurrence: its module maps ``[x_t,
    y_{t-1}]`` to ``y_t``, fed one step per forward (``y_t =
    rec.forward(x_t)``), the previous output being the state.

    ``Recurrence(module, outputSize, nInputDim, rho=9999)``: ``outputSize``
    is the shape of one sample's output (a number, a shape such as ``(3,
    4)``, or a list of those when the module outputs a table), ``nInputDim``
    the dims of one sample of the input (its first array, for a table
    input): an input with one more dim is a batch, and y_0 is then zeros of
    ``[batch, *outputSize]`` (of ``outputSize`` without one), unless
    ``userPrevOutput`` or ``setStartState(y0)`` gives it.  Each step runs on
    a clone of the module sharing its parameters; time, BPTT (the gradient
    w.r.t. y_{t-1} goes back to step t - 1) and ``rho`` are
    AbstractRecurrent's, and a recurrent module inside the module counts
    its own steps, as in Recursor.  Runs on CUDA where its module does.
    """

    userPrevOutput = None

    def __init__(self, module, outputSize, nInputDim, rho=9999):
        if not isinstance(module, Module):
            raise TypeError(f"Recurrence: expected a Module, got {type(module).__name__}")
        if isinstance(nInputDim, bool) or not isinstance(nInputDim, (int, np.integer)) or nInputDim < 0:
            raise ValueError(f"Recurrence: nInputDim must be a non-negative integer, got {nInputDim!r}")
        self.outputSize = _sizes(outputSize)
        self.nInputDim = int(nInputDim)
        super().__init__(module, rho)
        self.module = module

    _decorates_any = True

    # the clones and the record of the last sequence: not needed, not converted
    _t7_raw_fields = ("sharedClones", "outputs", "gradInputs", "_gradOutputs", "gradOutputs", "zeroTensor",
                      "typeTensor")

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        fields = vars(self)
        step = self._t7_loaded_step()
        try:
            self.outputSize = _sizes(fields.get("outputSize"))
        except (TypeError, ValueError) as e:
            raise T7Error(f"Recurrence: outputSize in the file: {e}") from None
        n = fields.get("nInputDim")
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n < 0 or n != int(n):
            raise T7Error(f"Recurrence: nInputDim in the file must be a whole number, got {n!r}")
        self.nInputDim = int(n)
        fields.pop("typeTensor", None)
        self._t7_finish(step)
        self.module = step

    def _t7_unfixup(self, fields):
        """save_lua: torch/rnn's constructor made typeTensor, an empty
        tensor of the module's type, which its first step reads."""
        params = self.recurrentModule.parameters()[0]
        fields["typeTensor"] = np.zeros(0, params[0].dtype if params else np.float64)

    # ---- the hooks: the state is the previous output (OutputIsState); its shape ----
    def _zero_state(self, input):
        first = input
        while isinstance(first, (list, tuple)) and first:
            first = first[0]
        if not is_array(first):
            raise TypeError(f"Recurrence: the input's first array must be an array, got {type(first).__name__}")
        if first.ndim == self.nInputDim:
            batch = ()
        elif first.ndim == self.nInputDim + 1:
            batch = (first.shape[0],)
        else:
            raise ValueError(f"Recurrence: the input's first array must have nInputDim={self.nInputDim} dims (one "
                             f"sample) or {self.nInputDim + 1} (a batch), got {describe(first)}")
        if first.dtype.kind != "f":   # indices (LookupRNN): y_0 of the module's type, as torch/rnn's typeTensor
            params = self.recurrentModule.parameters()[0]
            first = params[0] if params else first
        return _zeros(first, self.outputSize, batch)

    def _user_state(self, input):
        return self.userPrevOutput

    def _onnx_state_per_sample(self, first, a):
        """A batch is an input of nInputDim + 1 dims (indices of nInputDim 0
        included), its state [batch, *outputSize]."""
        return first.batched and first.ndim == self.nInputDim + 1 and a.ndim >= 1 and a.shape[0] == first.shape[0]

    def __repr__(self):
        return "nn.Recurrence @ " + repr(self.recurrentModule)


def _sizes(size):
    """outputSize as a tuple shape, or a list of those (nested) for a table output."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        return (int(size),)
    if isinstance(size, float) and size.is_integer():
        return (int(size),)
    if is_array(size) and size.ndim == 1:
        size = [int(v) for v in size.tolist()]
    if isinstance(size, (list, tuple)) and size:
        if all(isinstance(v, (int, float, np.integer)) and not isinstance(v, bool) for v in size):
            if any(v < 1 or v != int(v) for v in size):
                raise ValueError(f"a shape holds positive whole numbers, got {list(size)}")
            return tuple(int(v) for v in size)
        return [_sizes(v) for v in size]
    raise ValueError(f"outputSize must be a number, a shape or a list of shapes, got {size!r}")


def _zeros(like, size, batch):
    if isinstance(size, list):
        return [_zeros(like, s, batch) for s in size]
    return zeros(like, batch + size)
