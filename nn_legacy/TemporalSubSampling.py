import math

import numpy as np

from ._helpers.checks import check_positive
from .Module import Module, uniform


class TemporalSubSampling(Module):
    """Weighted sum over windows of frames, per feature (Torch7's nn.TemporalSubSampling).

    input ``[nInputFrame, inputFrameSize]`` or ``[batch, nInputFrame,
    inputFrameSize]``; output ``[nOutputFrame, inputFrameSize]`` (batch dim
    kept), ``nOutputFrame = (nInputFrame - kW) // dW + 1``; the input needs at
    least ``kW`` frames.  With ``s[t, c] = sum_{k<kW} x[t*dW + k, c]``::

        y[t, c] = weight[c] * s[t, c] + bias[c]

    ``weight`` and ``bias`` are ``[inputFrameSize]``.  Gradients:
    ``dL/dx[t*dW + k, c] += weight[c] dL/dy[t, c]`` for every ``k < kW``;
    ``dL/dweight[c] += scale * sum_t dL/dy[t, c] s[t, c]``, ``dL/dbias[c] +=
    scale * sum_t dL/dy[t, c]`` (also summed over the batch).  reset() draws
    both from U(-1/sqrt(kW), 1/sqrt(kW)) as Torch7 did; reset(stdv) from
    U(-stdv, stdv).  (Torch7's kernel took 2D input only; the batch form is
    an addition.)
    """

    _kernel = "TemporalSubSampling"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputFrameSize, kW, dW=1):
        super().__init__()
        check_positive("TemporalSubSampling", inputFrameSize=inputFrameSize, kW=kW, dW=dW)
        self.inputFrameSize, self.kW, self.dW = int(inputFrameSize), int(kW), int(dW)
        self.weight = np.zeros(self.inputFrameSize)
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(self.inputFrameSize)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.kW) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, self.kW, self.dW, self.inputFrameSize)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.kW, self.dW)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.dW, scale)

    def _t7_fixup(self, version):
        """Torch7 stored the sizes as Lua numbers (floats)."""
        from ._helpers.spatial import t7_ints
        t7_ints(self, "inputFrameSize", "kW", "dW")

    def __repr__(self):
        return f"nn.TemporalSubSampling({self.inputFrameSize}, kW={self.kW}, dW={self.dW})"

    def _onnx(self, g, x, y):
        """Conv (1D, one group per feature, each kernel weight[c] everywhere)"""
        weight = g.param(np.repeat(self.weight[:, None, None], self.kW, axis=2), "weight")
        bias = g.param(self.bias, "bias")
        return g.frames(x, lambda v: g.op("Conv", [v, weight, bias], kernel_shape=[self.kW], strides=[self.dW],
                                          group=self.inputFrameSize))
