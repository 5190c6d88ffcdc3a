import math

from ._helpers.arrays import check_float_array, check_shape, describe, name_of, reuse
from ._bases.dims import check_int
from ._helpers.namespace import array_namespace
from .Module import Module


class TemporalDynamicKMaxPooling(Module):
    """k-max pooling over time (Kalchbrenner et al. 2014): for each feature,
    the k largest values of the sequence, kept in their order in time.

    Input ``[seq, features]`` or ``[batch, seq, features]``; output
    ``[k, features]`` or ``[batch, k, features]`` with
    ``k = max(minK, ceil(factor * seq))`` (``factor = (L - l) / L`` for
    layer l of L gives the paper's dynamic k; ``factor=0``: k is minK).
    The sequence must hold at least k steps.  Equal values are taken in
    time order (the earlier first).  Gradient: each gradOutput element goes
    to the input element it was taken from, others get 0.
    """

    _buffer_names = ("indices",)
    indices = None

    def __init__(self, minK, factor=0):
        super().__init__()
        self.minK = check_int(self, minK, "minK", 1)
        self.factor = float(factor)
        if not 0 <= self.factor:
            raise ValueError(f"{name_of(self)}: factor must be >= 0, got {factor!r}")

    def _t7_fixup(self, version):
        self.minK, self.factor = int(self.minK), float(getattr(self, "factor", 0))
        self.indices = None   # Torch7's are 1-based; found again at the next forward

    def _select(self, input):
        """(the seq dim, the 0-based time steps kept, in time order)."""
        xp = array_namespace(input)
        check_float_array(self, input, "input")
        if input.ndim not in (2, 3):
            raise ValueError(f"{name_of(self)}: input must be 2D [seq, features] or 3D [batch, seq, features], "
                             f"got {describe(input)}")
        d = input.ndim - 2
        length = input.shape[d]
        k = max(self.minK, math.ceil(self.factor * length))
        if length < k:
            raise ValueError(f"{name_of(self)}: the sequence ({length} steps, input {describe(input)}) is shorter "
                             f"than k = {k}")
        order = xp.argsort(-xp.ascontiguousarray(input), axis=d, kind="stable")   # largest first, ties in time order
        return d, xp.sort(xp.take(order, xp.arange(k), axis=d), axis=d)

    def updateOutput(self, input):
        xp = array_namespace(input)
        d, self.indices = self._select(input)
        picked = xp.take_along_axis(input, self.indices, axis=d)
        self.output = reuse(self.output, picked.shape, input.dtype, input)
        self.output[...] = picked
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        d, indices = self._select(input)
        check_shape(self, gradOutput, "gradOutput", indices.shape, input.dtype, "the output")
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        self.gradInput.fill(0)
        xp.put_along_axis(self.gradInput, indices, gradOutput, axis=d)
        return self.gradInput

    def __repr__(self):
        return f"nn.TemporalDynamicKMaxPooling({self.minK}{f', {self.factor:g}' if self.factor else ''})"

    def _onnx(self, g, x, y):
        """TopK along time, the k positions sorted back into time order (TopK), GatherElements"""
        time = x.ndim - 2
        k = y.shape[time]
        if time == 0 and x.batched:   # one sample: its length sets k
            g.fix_batch(f"k ({k}) follows the sequence's length, the input's first dim")
        _, positions = g.op("TopK", [x, g.ints([k])], outputs=2, axis=time, largest=1, sorted=1)
        _, in_order = g.op("TopK", [positions, g.ints([k])], outputs=2, axis=time, largest=0, sorted=1)
        ordered = g.op("GatherElements", [positions, in_order], axis=time)
        return g.op("GatherElements", [x, ordered], axis=time)
