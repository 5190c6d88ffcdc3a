import math

import numpy as np

from ._helpers.checks import check_positive
from .Module import Module, uniform


class TemporalConvolution(Module):
    """1D convolution over a sequence of frames (Torch7's nn.TemporalConvolution).

    input ``[nInputFrame, inputFrameSize]`` or ``[batch, nInputFrame,
    inputFrameSize]``; output ``[nOutputFrame, outputFrameSize]`` (with the
    batch dim first if the input had one), ``nOutputFrame = (nInputFrame -
    kW) // dW + 1``; the input needs at least ``kW`` frames.  Output frame
    ``t`` is ``W u_t + b`` where ``u_t`` concatenates the input frames ``t*dW
    .. t*dW + kW - 1``: ``weight`` is ``[outputFrameSize, kW *
    inputFrameSize]`` with frame ``k`` in columns ``k*inputFrameSize ..
    (k+1)*inputFrameSize - 1``, ``bias`` is ``[outputFrameSize]``.

    Gradients: ``dL/du_t = W^T dL/dy_t``, added into the frames ``u_t`` came
    from; ``dL/dW += scale * sum_t dL/dy_t u_t^T``, ``dL/db += scale * sum_t
    dL/dy_t`` (also summed over the batch).  reset() draws W and b from
    U(-1/sqrt(kW*inputFrameSize), +1/sqrt(kW*inputFrameSize)) as Torch7 did;
    reset(stdv) from U(-stdv, stdv).
    """

    _kernel = "TemporalConvolution"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputFrameSize, outputFrameSize, kW, dW=1):
        super().__init__()
        check_positive("TemporalConvolution", inputFrameSize=inputFrameSize,
                       outputFrameSize=outputFrameSize, kW=kW, dW=dW)
        self.inputFrameSize, self.outputFrameSize = int(inputFrameSize), int(outputFrameSize)
        self.kW, self.dW = int(kW), int(dW)
        self.weight = np.zeros((self.outputFrameSize, self.kW * self.inputFrameSize))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(self.outputFrameSize)
        self.gradBias = np.zeros_like(self.bias)
        self.reset()

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.kW * self.inputFrameSize) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(
            input, self.output, self.weight, self.bias, self.kW, self.dW, self.inputFrameSize,
            self.outputFrameSize)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight, self.kW, self.dW)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.gradWeight, self.gradBias, self.kW, self.dW, scale)

    def _t7_fixup(self, version):
        """Torch7 stored the sizes as Lua numbers (floats); its weight is
        [outputFrameSize, kW*inputFrameSize] (cudnn's and fbcunn's other
        views of that memory are reshaped by the loader)."""
        from ._helpers.spatial import t7_ints, t7_parameter
        t7_ints(self, "inputFrameSize", "outputFrameSize", "kW", "dW")
        t7_parameter(self, "weight", (self.outputFrameSize, self.kW * self.inputFrameSize))

    def __repr__(self):
        return (f"nn.TemporalConvolution({self.inputFrameSize} -> {self.outputFrameSize}, "
                f"kW={self.kW}, dW={self.dW})")

    def _onnx(self, g, x, y):
        """Conv (1D, over the frames)"""
        weight = self.weight.reshape(self.outputFrameSize, self.kW, self.inputFrameSize).transpose(0, 2, 1)
        weight, bias = g.param(weight, "weight"), g.param(self.bias, "bias")
        return g.frames(x, lambda v: g.op("Conv", [v, weight, bias], kernel_shape=[self.kW], strides=[self.dW]))
