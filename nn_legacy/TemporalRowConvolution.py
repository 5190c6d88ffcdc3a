import math

import numpy as np

from ._helpers.checks import check_positive
from .Module import Module, uniform


class TemporalRowConvolution(Module):
    """Depth-wise 1D convolution: every feature filtered by its own kernel
    (Torch7's nn.TemporalRowConvolution).

    input ``[nInputFrame, inputFrameSize]`` (or ``[inputFrameSize,
    nInputFrame]`` with ``featFirst=True``), optionally with a batch dim
    first; output laid out the same way with ``nOutputFrame = (nInputFrame -
    kW) // dW + 1`` frames; the input needs at least ``kW`` frames::

        y[t, c] = bias[c] + sum_{k<kW} weight[c, 0, k] x[t*dW + k, c]

    ``weight`` is ``[inputFrameSize, 1, kW]``, ``bias`` ``[inputFrameSize]``
    (absent after ``noBias()``).  Gradients: ``dL/dx[t*dW + k, c] +=
    weight[c, 0, k] dL/dy[t, c]``; ``dL/dweight[c, 0, k] += scale * sum_t
    dL/dy[t, c] x[t*dW + k, c]``, ``dL/dbias[c] += scale * sum_t dL/dy[t, c]``
    (also summed over the batch).  reset() draws both from
    U(-1/sqrt(kW*inputFrameSize), +1/sqrt(kW*inputFrameSize)) as Torch7 did;
    reset(stdv) from U(-stdv, stdv).  Unlike Torch7, the output is a
    contiguous array in the input's layout (Torch7 returned a transposed
    view when featFirst was false), and no unfolded finput/fgradInput
    buffers are kept: the kernel runs over the taps directly.
    """

    _kernel = "TemporalRowConvolution"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputFrameSize, kW, dW=1, featFirst=False):
        super().__init__()
        check_positive("TemporalRowConvolution", inputFrameSize=inputFrameSize, kW=kW, dW=dW)
        self.inputFrameSize, self.kW, self.dW = int(inputFrameSize), int(kW), int(dW)
        self.featFirst = bool(featFirst)
        self.weight = np.zeros((self.inputFrameSize, 1, self.kW))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(self.inputFrameSize)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.kW * self.inputFrameSize) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, self.kW, self.dW, self.featFirst)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.kW, self.dW, self.featFirst)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.dW, self.featFirst, scale)

    def _t7_fixup(self, version):
        """Torch7 stored the sizes as Lua numbers (floats); its column
        buffers are not ours."""
        from ._helpers.spatial import t7_ints, t7_parameter
        t7_ints(self, "inputFrameSize", "kW", "dW")
        self.featFirst = bool(getattr(self, "featFirst", False))
        t7_parameter(self, "weight", (self.inputFrameSize, 1, self.kW))
        for name in ("finput", "fgradInput"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        extra = (", featFirst" if self.featFirst else "") + ("" if self.bias is not None else ", without bias")
        return f"nn.TemporalRowConvolution({self.inputFrameSize}, kW={self.kW}, dW={self.dW}{extra})"

    def _onnx(self, g, x, y):
        """Conv (1D, one group per feature)"""
        weight = g.param(self.weight, "weight")
        bias = None if self.bias is None else g.param(self.bias, "bias")
        return g.frames(x, lambda v: g.op("Conv", [v, weight, bias], kernel_shape=[self.kW], strides=[self.dW],
                                          group=self.inputFrameSize), features_first=self.featFirst)
