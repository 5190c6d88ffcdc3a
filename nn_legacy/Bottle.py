import math
import numpy as np

from ._helpers.arrays import data_address, describe, is_array
from .Container import Container


class Bottle(Container):
    """Runs a module made for ``nInputDim``-dimensional input on input with
    more dimensions, by folding the leading ones into the first:
    an input ``[a, b, n, k]`` for a module of ``nInputDim = 2`` goes in as
    ``[a * b * n, k]``, and the module's output ``[a * b * n, m]``
    (``nOutputDim`` dimensions, by default ``nInputDim``) comes out as
    ``[a, b, n, m]``.  Input of ``nInputDim`` dimensions or fewer goes
    through unchanged.  The first dimension of the module's output must be
    a multiple of the folded size (it is when the module keeps its batch).

    Output and gradInput are views of the module's own arrays where the
    module's arrays allow it.
    """

    def __init__(self, module, nInputDim=2, nOutputDim=None):
        super().__init__(module)
        nOutputDim = nInputDim if nOutputDim is None else nOutputDim
        for name, n in (("nInputDim", nInputDim), ("nOutputDim", nOutputDim)):
            if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
                raise ValueError(f"Bottle: {name} must be a positive integer, got {n!r}")
        self.nInputDim = int(nInputDim)
        self.nOutputDim = int(nOutputDim)

    def _t7_fixup(self, version):
        self.nInputDim, self.nOutputDim = int(self.nInputDim), int(self.nOutputDim)
        for name in ("dimDelta", "inShape", "outShape"):   # Torch7's work arrays
            vars(self).pop(name, None)

    def add(self, module):
        if self.modules:
            raise ValueError(f"{type(self).__name__}.add: it wraps a single module, and it has one")
        return super().add(module)

    def _folded(self, input):
        """(the input as the module sees it, the number of leading entries
        folded into its first dim, or None when nothing is folded)."""
        name = type(self).__name__
        if not is_array(input):
            raise TypeError(f"{name}: input must be a numpy array or a CudaTensor, got {type(input).__name__}")
        k = input.ndim - self.nInputDim
        if k <= 0:
            return input, None
        lead = int(math.prod(input.shape[:k]))
        if lead == 0:
            raise ValueError(f"{name}: cannot fold the leading dims of an input of {describe(input)}: "
                             f"they hold no entries")
        return input.reshape((lead * input.shape[k],) + input.shape[k + 1:]), lead

    def _unfolded(self, input, lead, out, previous):
        """The module's output of nOutputDim dims with its leading entries unfolded."""
        name = type(self).__name__
        if not is_array(out) or out.ndim != self.nOutputDim:
            got = describe(out) if is_array(out) else type(out).__name__
            raise ValueError(f"{name}: the module's output must have nOutputDim = {self.nOutputDim} dimensions, "
                             f"got {got}")
        if out.shape[0] % lead:
            raise ValueError(f"{name}: the module's output {describe(out)} cannot be unfolded into the "
                             f"{lead} leading entries of the input")
        k = input.ndim - self.nInputDim
        return _view(previous, out, input.shape[:k] + (out.shape[0] // lead,) + out.shape[1:])

    def updateOutput(self, input):
        inner, lead = self._folded(input)
        out = self._child(0, "updateOutput", inner)
        self.output = out if lead is None else self._unfolded(input, lead, out, self.output)
        return self.output

    def _inner_grad(self, gradOutput):
        self._need_output()
        if not is_array(gradOutput):
            raise TypeError(f"{type(self).__name__}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if gradOutput.shape != self.output.shape:
            got = describe(gradOutput)
            raise ValueError(f"{type(self).__name__}: gradOutput must be shaped as output "
                             f"{list(self.output.shape)}, got {got}")
        return gradOutput.reshape(self.modules[0].output.shape)

    def _backward(self, method, input, gradOutput, *extra):
        inner, lead = self._folded(input)
        if lead is None:
            self.gradInput = self._child(0, method, input, gradOutput, *extra)
        else:
            grad = self._child(0, method, inner, self._inner_grad(gradOutput), *extra)
            self.gradInput = _view(self.gradInput, grad, input.shape)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._backward("updateGradInput", input, gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._backward("backward", input, gradOutput, scale)

    def _parameter_verb(self, method, input, gradOutput, arg):
        inner, lead = self._folded(input)
        if lead is not None:
            gradOutput = self._inner_grad(gradOutput)
        self._child(0, method, inner, gradOutput, arg)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._parameter_verb("accGradParameters", input, gradOutput, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._parameter_verb("accUpdateGradParameters", input, gradOutput, lr)

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.nInputDim} -> {self.nOutputDim}) @ " + repr(self.modules[0])

    def _onnx(self, g, x, y):
        """the module's nodes between Reshapes that fold and unfold the leading dims"""
        if self._folded(x.value)[1] is None:
            return g.child(self, 0, x)
        k = x.ndim - self.nInputDim
        inner = g.derive(g.op("Reshape", [x, g.ints([-1] + list(x.shape[k + 1:]))]), x, lambda a: self._folded(a)[0])
        out = g.child(self, 0, inner)

        def unfold(a, o):
            lead = self._folded(a)[1]
            return o.reshape(a.shape[:k] + (o.shape[0] // lead,) + o.shape[1:])
        shape = list(unfold(x.value, out.value).shape)
        if x.batched:
            shape[0] = -1
        name = g.op("Reshape", [out, g.ints(shape)])
        probe = None if x.probe is None or out.probe is None else unfold(x.probe, out.probe)
        return type(x)(g, name, unfold(x.value, out.value), probe)


def _view(previous, array, shape):
    """array reshaped to shape: ``previous`` again when it already is that
    view of the same memory (so a module's output array stays the same
    object while shapes stay the same), else a new view (or a copy when
    array's layout allows no view)."""
    shape = tuple(shape)
    if (type(previous) is type(array) and previous.shape == shape and previous.dtype == array.dtype
            and previous.size == array.size and previous.flags.c_contiguous and array.flags.c_contiguous
            and data_address(previous) == data_address(array)):
        return previous
    return array.reshape(shape)
