from ._helpers.arrays import check_shape, check_writeable, describe, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class CReLU(Module):
    """Concatenated ReLU (Shang et al. 2016): ``y = [max(0, x), max(0, -x)]``
    joined along the feature dimension, which therefore doubles.

    ``nInputDims`` is the number of dims of one sample: an input with that
    many dims is one sample and its feature dimension is dim 0; an input
    with one more dim is a batch and the feature dimension is dim 1.  So
    ``CReLU(1)`` maps ``[n] -> [2n]`` and ``[batch, n] -> [batch, 2n]``;
    ``CReLU(3)`` maps ``[batch, c, h, w] -> [batch, 2c, h, w]``.

    Gradient: ``dL/dx = dL/dy_first * (x > 0) - dL/dy_second * (x < 0)``
    (0 at ``x = 0``), where first and second are the two halves of the
    feature dimension.  The output cannot live in the input (it is twice as
    large), so ``inplace=True`` only affects the backward pass: as Torch7's
    in-place ReLU inside CReLU it zeroes gradOutput where the output is 0,
    in the caller's array.
    """

    def __init__(self, nInputDims, inplace=False):
        super().__init__()
        self.nInputDims = int(nInputDims)
        if self.nInputDims < 1:
            raise ValueError(f"CReLU: nInputDims must be at least 1, got {nInputDims}")
        self.inplace = bool(inplace)

    def _feature_dim(self, input):
        if input.ndim == self.nInputDims:
            return 0
        if input.ndim == self.nInputDims + 1:
            return 1
        raise ValueError(f"CReLU: input must be {self.nInputDims}D (one sample) or {self.nInputDims + 1}D "
                         f"(a batch) for nInputDims={self.nInputDims}, got {describe(input)}")

    def _halves(self, array, dim):
        n = array.shape[dim] // 2
        return (array[(slice(None),) * dim + (slice(None, n),)],
                array[(slice(None),) * dim + (slice(n, None),)])

    def updateOutput(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        dim = self._feature_dim(input)
        shape = list(input.shape)
        shape[dim] *= 2
        self.output = reuse(self.output, shape, input.dtype, input)
        positive, negative = self._halves(self.output, dim)
        xp.maximum(input, 0, out=positive)
        xp.negative(input, out=negative)
        xp.maximum(negative, 0, out=negative)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        self._kernels(input)
        dim = self._feature_dim(input)
        shape = list(input.shape)
        shape[dim] *= 2
        check_shape(self, gradOutput, "gradOutput", shape, input.dtype, "the output")
        g_positive, g_negative = self._halves(gradOutput, dim)
        if self.inplace:
            check_writeable(self, gradOutput, "gradOutput")
            g_positive *= input > 0
            g_negative *= input < 0
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.multiply(g_positive, input > 0, out=self.gradInput)
        self.gradInput -= g_negative * (input < 0)
        return self.gradInput

    def __repr__(self):
        return f"nn.CReLU({self.nInputDims}{', in-place' if self.inplace else ''})"

    def _onnx(self, g, x, y):
        """Concat of Relu(x) and Relu(-x) along the feature dim"""
        dim = self._feature_dim(x.value)
        return g.op("Concat", [g.op("Relu", [x]), g.op("Relu", [g.op("Neg", [x])])], axis=dim)
