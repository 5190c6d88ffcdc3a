import numpy as np

from ._helpers.arrays import reuse
from ._helpers.namespace import array_namespace
from .Concat import Concat


class DepthConcat(Concat):
    """Concat for outputs that differ in their other dimensions too (the
    inception blocks of GoogLeNet): the outputs are joined along
    ``dimension`` (0-based), and in every other dimension the output takes
    the largest size among the children; a smaller output is placed in the
    middle of that extent and the rest is zero.

    Where a child of size ``c`` sits in an extent of ``n``: from
    ``(n - c) // 2``, as Torch7 (5 in 9 -> 2 zeros on each side; 4 in 9 ->
    2 zeros before, 3 after).  Going back, child i gets the window of
    gradOutput it filled (the padding gets no gradient) and the children's
    gradInputs are summed, as in Concat.  The outputs must have the same
    number of dimensions.
    """

    def updateOutput(self, input):
        outputs = [self._child(i, "updateOutput", input) for i in range(len(self.modules))]
        shape = self._output_shape(outputs)
        dtype = array_namespace(*outputs).result_type(*outputs)
        self.output = reuse(self.output, shape, dtype, *outputs)
        self.output.fill(0)
        for window, out in zip(self._windows(self.output, outputs), outputs):
            window[...] = out
        return self.output

    def _output_shape(self, outputs):
        name, dim = type(self).__name__, self.dimension
        if not outputs:
            raise ValueError(f"{name}: the container is empty")
        first = outputs[0]
        if not 0 <= dim < first.ndim:
            raise ValueError(f"{name}: dimension {dim} is out of range for outputs of {first.ndim} dimensions")
        for i, out in enumerate(outputs[1:], 1):
            if out.ndim != first.ndim:
                raise ValueError(f"{name}: output of module ({i}) has size {list(out.shape)}, which cannot be "
                                 f"joined with size {list(first.shape)} of module (0): "
                                 f"not the same number of dimensions")
        shape = [max(out.shape[d] for out in outputs) for d in range(first.ndim)]
        shape[dim] = sum(out.shape[dim] for out in outputs)
        return tuple(shape)

    def _windows(self, array, outputs):
        """The part of array (output or gradOutput) each child's output fills."""
        windows, offset = [], 0
        for out in outputs:
            index = []
            for d, (n, c) in enumerate(zip(array.shape, out.shape)):
                start = offset if d == self.dimension else (n - c) // 2
                index.append(slice(start, start + c))
            windows.append(array[tuple(index)])
            offset += out.shape[self.dimension]
        return windows

    def _slices(self, gradOutput):
        return self._windows(gradOutput, [m.output for m in self.modules])

    def _onnx(self, g, x, y):
        """Concat of the children's outputs, each zero-padded (Pad) to the centre of the largest"""
        outputs = [g.child(self, i, x) for i in range(len(self.modules))]
        shape = self._output_shape([o.value for o in outputs])
        padded = []
        for out in outputs:
            before = [0 if d == self.dimension else (n - c) // 2 for d, (n, c) in enumerate(zip(shape, out.shape))]
            after = [0 if d == self.dimension else n - c - b
                     for d, (n, c, b) in enumerate(zip(shape, out.shape, before))]
            if any(before) or any(after):
                if out.batched and (before[0] or after[0]):
                    g.fix_batch("its children's outputs differ in their first dim")
                out = g.derive(g.pad(out, before, after), out, lambda a, w=list(zip(before, after)): np.pad(a, w))
            padded.append(out)
        return g.concat(padded, self.dimension)
