import numpy as np

from ._helpers.arrays import describe, host_plan, name_of, reuse
from ._bases.dims import check_array, check_grad, from_lua
from .Module import Module


class Transpose(Module):
    """Dims swapped pair by pair, in the order given: ``Transpose((0, 3),
    (0, 2))`` swaps dims 0 and 3, then 0 and 2 (0-based; negative ones count
    from the end).  The output is a C-contiguous copy; gradInput is
    gradOutput with the swaps undone (last pair first), also a copy."""

    _cache_names = ("_plan",)   # the checked order per input shape (see host_plan)

    def __init__(self, *pairs):
        super().__init__()
        self._plan = None
        for p in pairs:
            if not (isinstance(p, (tuple, list)) and len(p) == 2 and all(
                    isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) for d in p)):
                raise TypeError(f"{name_of(self)}: every argument must be a pair of dims (a, b), got {p!r}")
        self.permutations = [(int(a), int(b)) for a, b in pairs]   # Torch7's name

    def _t7_unfixup(self, fields):
        """save_lua: the inverse of _t7_fixup (1-based dims, negative ones from the end)."""
        fields["permutations"] = [tuple(d + 1 if d >= 0 else d for d in pair) for pair in self.permutations]

    def _t7_fixup(self, version):
        self.permutations = [(from_lua(a), from_lua(b)) for a, b in self.permutations]
        # Torch7's Transpose from April 2017: with numInputDims set, the
        # dims count after the leading (batch) dims of a larger input
        n = getattr(self, "numInputDims", None)
        self.numInputDims = None if n is None else int(n)

    def _order(self, input):
        """Which input dim each output dim is."""
        order = list(range(input.ndim))
        n = getattr(self, "numInputDims", None)
        offset = input.ndim - n if n is not None and input.ndim > n else 0
        for a, b in self.permutations:
            if not (-input.ndim <= a < input.ndim and -input.ndim <= b < input.ndim):
                raise ValueError(f"{name_of(self)}: pair ({a}, {b}) is out of range for input {describe(input)}")
            a, b = (a + offset if a >= 0 else a), (b + offset if b >= 0 else b)
            if not (a < input.ndim and b < input.ndim):
                raise ValueError(f"{name_of(self)}: pair ({a - offset}, {b - offset}) after {offset} batch dims "
                                 f"is out of range for input {describe(input)}")
            order[a], order[b] = order[b], order[a]
        return order

    def _checked_order(self, input):
        check_array(self, input)
        return tuple(self._order(input))

    def updateOutput(self, input):
        order = host_plan(self, input, (tuple(self.permutations), getattr(self, "numInputDims", None)),
                          self._checked_order)
        if order is None:   # a device or strided input: the checks each call
            order = self._checked_order(input)
        moved = input.transpose(order)
        self.output = reuse(self.output, moved.shape, input.dtype, input)
        self.output[...] = moved
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_array(self, input)
        order = self._order(input)
        check_grad(self, gradOutput, tuple(input.shape[i] for i in order))
        self.gradInput = reuse(self.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
        self.gradInput[...] = gradOutput.transpose(tuple(int(i) for i in np.argsort(order)))
        return self.gradInput

    def __repr__(self):
        return "nn.Transpose(" + ", ".join(f"({a}, {b})" for a, b in self.permutations) + ")"

    def _onnx(self, g, x, y):
        """Transpose"""
        return g.op("Transpose", [x], perm=self._order(x.value))
