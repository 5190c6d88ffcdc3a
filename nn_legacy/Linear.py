import math

import numpy as np

from .Module import Module, uniform


class Linear(Module):
    """Affine map: ``y = W x + b``.

    input ``[nIn]`` or ``[batch, nIn]``; output ``[nOut]`` or ``[batch, nOut]``;
    ``weight`` ``[nOut, nIn]``, ``bias`` ``[nOut]`` (absent with ``bias=False``).

    Gradients: ``dL/dx = W^T dL/dy``, ``dL/dW += scale * dL/dy x^T``,
    ``dL/db += scale * dL/dy`` (summed over the batch).  reset() draws W and b
    from U(-1/sqrt(nIn), 1/sqrt(nIn)) as Torch7 did.
    """

    _kernel = "Linear"

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))

    def __init__(self, inputSize, outputSize, bias=True):
        super().__init__()
        if inputSize < 0 or outputSize < 0:
            raise ValueError(f"Linear: sizes must be non-negative, got {inputSize} -> {outputSize}")
        self.weight = np.zeros((outputSize, inputSize))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(outputSize) if bias else None
        self.gradBias = np.zeros(outputSize) if bias else None
        self.reset()

    def noBias(self):
        self.bias = self.gradBias = None
        return self

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(max(self.weight.shape[1], 1)) if stdv is None else stdv
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        if self.bias is not None:
            self.bias[...] = uniform(self.bias.shape, stdv, self.bias.dtype)
        return self

    def updateOutput(self, input):
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.weight, self.bias)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.weight)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._kernel_of(input, "accGradParameters")(
            input, gradOutput, self.weight, self.bias, self.gradWeight, self.gradBias, scale)

    def __repr__(self):
        n_out, n_in = self.weight.shape
        return f"nn.Linear({n_in} -> {n_out}{'' if self.bias is not None else ', without bias'})"

    def _onnx(self, g, x, y):
        """Gemm"""
        weight, bias = g.param(self.weight, "weight"), None if self.bias is None else g.param(self.bias, "bias")
        return g.with_batch(x, 2, lambda v: g.op("Gemm", [v, weight, bias], transB=1))
