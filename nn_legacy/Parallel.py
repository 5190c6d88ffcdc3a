import numpy as np

from ._helpers.arrays import is_array, reuse
from ._helpers.namespace import array_namespace
from .Concat import _join
from .Container import Container, tree_repr


class Parallel(Container):
    """Child i gets slice i of the input along ``inputDimension`` (0-based; the
    dimension is removed, as ``input[..., i, ...]``), and the children's
    outputs are joined along ``outputDimension`` (0-based).  So a Parallel
    of n children needs an input of size n along inputDimension.

    Going back, child i gets its part of gradOutput and its gradInput fills
    slice i of the gradInput.
    """

    def __init__(self, inputDimension, outputDimension):
        super().__init__()
        self.inputDimension = int(inputDimension)
        self.outputDimension = int(outputDimension)

    _t7_one_based = ('inputDimension', 'outputDimension')   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.inputDimension = int(self.inputDimension) - 1   # Lua numbers are floats; Torch7 counted from 1
        self.outputDimension = int(self.outputDimension) - 1

    def _inputs(self, input):
        name = type(self).__name__
        if not is_array(input):
            raise TypeError(f"{name}: input must be a numpy array or a CudaTensor, got {type(input).__name__}")
        d = self.inputDimension
        if not 0 <= d < input.ndim or input.shape[d] != len(self.modules):
            raise ValueError(f"{name}: input must have size {len(self.modules)} (one slice per module) along "
                             f"dimension {d}, got {input.ndim}D of size [{', '.join(map(str, input.shape))}]")
        if type(input) is np.ndarray:   # (indexed: np.take's dispatch costs more than the copy)
            at = (slice(None),) * d
            return [input[at + (i,)].copy() for i in range(len(self.modules))]   # copies: kernels keep no views
        xp = array_namespace(input)
        return [xp.take(input, i, axis=d) for i in range(len(self.modules))]

    def updateOutput(self, input):
        outputs = self._forward_each(self._inputs(input), per_child=True)
        self.output = _join(self, outputs, self.outputDimension, self.output)
        return self.output

    def _parts(self, gradOutput):
        self._need_output()
        if not is_array(gradOutput):
            raise TypeError(f"{type(self).__name__}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if gradOutput.shape != self.output.shape:
            raise ValueError(f"{type(self).__name__}: gradOutput must be shaped as output "
                             f"{list(self.output.shape)}, got {list(gradOutput.shape)}")
        parts, offset = [], 0
        for m in self.modules:
            n = m.output.shape[self.outputDimension]
            index = [slice(None)] * gradOutput.ndim
            index[self.outputDimension] = slice(offset, offset + n)
            parts.append(gradOutput[tuple(index)])
            offset += n
        return parts

    def _backward(self, input, gradOutput, method, *extra):
        inputs = self._inputs(input)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input)
        for i, (x, g) in enumerate(zip(inputs, self._parts(gradOutput))):
            index = [slice(None)] * input.ndim
            index[self.inputDimension] = i
            self.gradInput[tuple(index)] = self._child(i, method, x, g, *extra)
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._backward(input, gradOutput, "updateGradInput")

    def backward(self, input, gradOutput, scale=1):
        return self._backward(input, gradOutput, "backward", scale)

    def accGradParameters(self, input, gradOutput, scale=1):
        for i, (x, g) in enumerate(zip(self._inputs(input), self._parts(gradOutput))):
            self._child(i, "accGradParameters", x, g, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        for i, (x, g) in enumerate(zip(self._inputs(input), self._parts(gradOutput))):
            self._child(i, "accUpdateGradParameters", x, g, lr)

    def __repr__(self):
        return tree_repr(self, f"nn.{type(self).__name__}({self.inputDimension}, {self.outputDimension})")

    def _onnx(self, g, x, y):
        """Gather of slice i for child i, Concat of their outputs"""
        d = self.inputDimension
        if d == 0 and x.batched:
            g.fix_batch("its input dimension is the batch dimension")
        outputs = []
        for i in range(len(self.modules)):
            part = g.derive(g.op("Gather", [x, np.array(i, dtype=np.int64)], axis=d), x,
                            lambda a, i=i: np.take(a, i, axis=d))
            outputs.append(g.child(self, i, part))
        return g.concat(outputs, self.outputDimension)
