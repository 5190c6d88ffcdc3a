import numpy as np

from ._helpers.checks import check_positive
from .Module import Module


class TemporalMaxPooling(Module):
    """Maximum over windows of frames, per feature (Torch7's nn.TemporalMaxPooling).

    input ``[nInputFrame, frameSize]`` or ``[batch, nInputFrame,
    frameSize]``; output ``[nOutputFrame, frameSize]`` (batch dim kept),
    ``nOutputFrame = (nInputFrame - kW) // dW + 1``; the input needs at least
    ``kW`` frames::

        y[t, c] = max_{k<kW} x[t*dW + k, c]

    ``indices`` (int64, shaped as the output, a buffer of the module) holds
    the ``k`` of each maximum, its 0-based offset inside the window as in
    Torch7 (the input frame is ``t*dW + k``).  The first maximum wins a tie,
    and a NaN wins over any number, so it propagates.  Gradient:
    ``dL/dx[t*dW + k, c] += dL/dy[t, c]`` for that ``k`` only; with ``dW <
    kW`` windows overlap and a frame collects from every window it wins.
    ``dW`` defaults to ``kW``.
    """

    _kernel = "TemporalMaxPooling"

    _buffer_names = ("indices",)

    def __init__(self, kW, dW=None):
        super().__init__()
        dW = kW if dW is None else dW
        check_positive("TemporalMaxPooling", kW=kW, dW=dW)
        self.kW, self.dW = int(kW), int(dW)
        self.indices = None

    def updateOutput(self, input):
        # only an int64 array may be offered for reuse: the binding would let the
        # kernel write int64 values into a float32 array of the same shape
        indices = self.indices if isinstance(self.indices, np.ndarray) and self.indices.dtype == np.int64 else None
        self.output, self.indices = self._kernel_of(input, "updateOutput")(
            input, self.output, indices, self.kW, self.dW)
        return self.output

    def updateGradInput(self, input, gradOutput):
        if self.indices is None:
            raise RuntimeError("TemporalMaxPooling: updateGradInput needs the indices of a forward pass first")
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.indices, self.kW, self.dW)
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7 stored the sizes as Lua numbers (floats), and the indices
        of the last forward as these are, the offset in the window counted
        from 0 (THNN's TemporalMaxPooling.c, and nn's C code before it,
        which kept them in a tensor of the input's type): kept when each is
        a whole number in [0, kW) in a 2D or 3D array (the backward kernel
        checks their shape against its gradOutput), else dropped (the next
        forward makes them)."""
        from ._helpers.spatial import t7_ints
        t7_ints(self, "kW", "dW")
        raw = self.indices
        self.indices = None
        if isinstance(raw, np.ndarray) and raw.ndim in (2, 3) and raw.size and raw.dtype.kind in "iuf":
            whole = raw.dtype.kind != "f" or bool(np.all(np.isfinite(raw)) and np.all(raw == np.floor(raw)))
            if whole and np.min(raw) >= 0 and np.max(raw) < self.kW:
                self.indices = np.ascontiguousarray(raw, dtype=np.int64)

    def __repr__(self):
        return f"nn.TemporalMaxPooling(kW={self.kW}, dW={self.dW})"

    def _onnx(self, g, x, y):
        """MaxPool (1D, over the frames)"""
        return g.frames(x, lambda v: g.op("MaxPool", [v], kernel_shape=[self.kW], strides=[self.dW]))
