from ._helpers.arrays import is_array, reuse
from ._helpers.namespace import array_namespace
from .Container import Container, tree_repr


class Concat(Container):
    """Every child sees the same input; their outputs are joined along
    ``dimension`` (0-based): ``output = [m_0(x), m_1(x), ...]`` concatenated.

    The outputs must agree in every other dimension.  Going back, child i gets
    its own slice of gradOutput and the gradInputs of all children are summed:
    ``dL/dx = sum_i dm_i/dx^T dL/dy_i``.
    """

    def __init__(self, dimension):
        super().__init__()
        self.dimension = int(dimension)
        self.outputSize = None

    _t7_one_based = ('dimension',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.dimension = int(self.dimension) - 1  # Lua numbers are floats; Torch7 counted from 1
        vars(self).pop("size", None)              # Torch7's work buffer; here it would hide size()
        self.outputSize = None                    # its later name (2016), absent from older files

    def updateOutput(self, input):
        outputs = self._forward_each(input)
        self.output = _join(self, outputs, self.dimension, self.output)
        return self.output

    def _slices(self, gradOutput):
        """gradOutput cut into the children's parts (views)."""
        parts, offset = [], 0
        for m in self.modules:
            n = m.output.shape[self.dimension]
            index = [slice(None)] * gradOutput.ndim
            index[self.dimension] = slice(offset, offset + n)
            parts.append(gradOutput[tuple(index)])
            offset += n
        return parts

    def _check_grad(self, gradOutput):
        self._need_output()
        if not is_array(gradOutput):
            raise TypeError(f"{type(self).__name__}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if gradOutput.shape != self.output.shape:
            raise ValueError(f"{type(self).__name__}: gradOutput must be shaped as output {list(self.output.shape)}, "
                             f"got {list(gradOutput.shape)}")

    def _sum_grad_inputs(self, input, method, gradOutput, *extra):
        self._check_grad(gradOutput)
        total = None
        for i, part in enumerate(self._slices(gradOutput)):
            g = self._child(i, method, input, part, *extra)
            if total is None:
                if self.gradInput is None or self.gradInput.shape != g.shape or self.gradInput.dtype != g.dtype \
                        or type(self.gradInput) is not type(g):
                    self.gradInput = array_namespace(g).empty_like(g)
                total = self.gradInput
                total[...] = g
            else:
                total += g
        return self.gradInput

    def updateGradInput(self, input, gradOutput):
        return self._sum_grad_inputs(input, "updateGradInput", gradOutput)

    def backward(self, input, gradOutput, scale=1):
        return self._sum_grad_inputs(input, "backward", gradOutput, scale)

    def accGradParameters(self, input, gradOutput, scale=1):
        self._check_grad(gradOutput)
        for i, part in enumerate(self._slices(gradOutput)):
            self._child(i, "accGradParameters", input, part, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._check_grad(gradOutput)
        for i, part in enumerate(self._slices(gradOutput)):
            self._child(i, "accUpdateGradParameters", input, part, lr)

    def __repr__(self):
        return tree_repr(self, f"nn.{type(self).__name__}({self.dimension})")

    def _onnx(self, g, x, y):
        """Concat of the children's outputs"""
        outputs = [g.child(self, i, x) for i in range(len(self.modules))]
        return g.concat(outputs, self.dimension)


def _join(container, outputs, dim, buffer):
    """Concatenate the children's outputs along dim into buffer (reused when
    its shape and dtype fit), with an error naming the first child that does
    not fit."""
    name = type(container).__name__
    if not outputs:
        raise ValueError(f"{name}: the container is empty")
    first = outputs[0]
    if not 0 <= dim < first.ndim:
        raise ValueError(f"{name}: dimension {dim} is out of range for outputs of {first.ndim} dimensions")
    before, after, total, dtype = first.shape[:dim], first.shape[dim + 1:], first.shape[dim], first.dtype
    for i, out in enumerate(outputs[1:], 1):
        s = out.shape
        if len(s) != len(first.shape) or s[:dim] != before or s[dim + 1:] != after:
            raise ValueError(f"{name}: output of module ({i}) has size {list(out.shape)}, which cannot be joined "
                             f"along dimension {dim} with size {list(first.shape)} of module (0)")
        total += s[dim]
        if out.dtype is not dtype:
            dtype = None
    xp = array_namespace(*outputs)
    if dtype is None:      # (outputs of one dtype, the usual case: no promotion to work out)
        dtype = xp.result_type(*outputs)
    buffer = reuse(buffer, before + (total,) + after, dtype, *outputs)
    xp.concatenate(outputs, axis=dim, out=buffer)
    return buffer
