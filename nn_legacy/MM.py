from ._helpers.arrays import check_float_array, check_shape, describe, name_of, reuse
from ._helpers.checks import check_table
from ._helpers.namespace import array_namespace
from ._bases.tables import reuse_list
from .Module import Module


class MM(Module):
    """Matrix products of a table ``[A, B]``: ``output = op(A) @ op(B)``,
    where op transposes A when ``transA`` (B when ``transB``).  A and B are
    2D (one product) or 3D ``[batch, ., .]`` (one product per sample).
    gradInput: ``dL/dop(A) = G @ op(B)^T`` and ``dL/dop(B) = op(A)^T @ G``
    for G = gradOutput, transposed back where op transposed."""

    _t7_pairs = ('gradInput',)   # save_lua: Torch7's constructor made {torch.Tensor(), torch.Tensor()}

    def __init__(self, transA=False, transB=False):
        super().__init__()
        self.transA = bool(transA)
        self.transB = bool(transB)

    def _t7_fixup(self, version):
        self.transA = bool(getattr(self, "transA", False))
        self.transB = bool(getattr(self, "transB", False))

    def _operands(self, input):
        """op(A), op(B), as views."""
        xp = array_namespace(input)
        a, b = check_table(name_of(self), "input", input, ["A", "B"])
        check_float_array(self, a, "input[0]")
        check_float_array(self, b, "input[1]", a.dtype)
        if a.ndim not in (2, 3) or b.ndim != a.ndim or (a.ndim == 3 and b.shape[0] != a.shape[0]):
            raise ValueError(f"{name_of(self)}: input must be two 2D matrices or two 3D batches of matrices of "
                             f"one batch size, got {describe(a)} and {describe(b)}")
        opa = xp.swapaxes(a, -1, -2) if self.transA else a
        opb = xp.swapaxes(b, -1, -2) if self.transB else b
        if opa.shape[-1] != opb.shape[-2]:
            raise ValueError(f"{name_of(self)}: the matrices do not fit: op(input[0]) is "
                             f"[{', '.join(map(str, opa.shape))}] and op(input[1]) is "
                             f"[{', '.join(map(str, opb.shape))}] (transA={self.transA}, transB={self.transB})")
        return xp.ascontiguousarray(opa), xp.ascontiguousarray(opb)

    def updateOutput(self, input):
        xp = array_namespace(input)
        opa, opb = self._operands(input)
        self.output = reuse(self.output, opa.shape[:-1] + opb.shape[-1:], opa.dtype, *input)
        xp.matmul(opa, opb, out=self.output)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        opa, opb = self._operands(input)
        check_shape(self, gradOutput, "gradOutput", opa.shape[:-1] + opb.shape[-1:], opa.dtype, "the output")
        g = xp.ascontiguousarray(gradOutput)
        self.gradInput = reuse_list(self.gradInput, [input[0].shape, input[1].shape], opa.dtype, *input, gradOutput)
        grad_a = g @ xp.swapaxes(opb, -1, -2)     # dL/dop(A)
        grad_b = xp.swapaxes(opa, -1, -2) @ g     # dL/dop(B)
        self.gradInput[0][...] = xp.swapaxes(grad_a, -1, -2) if self.transA else grad_a
        self.gradInput[1][...] = xp.swapaxes(grad_b, -1, -2) if self.transB else grad_b
        return self.gradInput

    def __repr__(self):
        return f"nn.MM(transA={self.transA}, transB={self.transB})"

    def _onnx(self, g, x, y):
        """MatMul (Transpose of an operand where it is transposed)"""
        a, b = x
        if self.transA:
            a = g.op("Transpose", [a], perm=list(range(a.ndim - 2)) + [a.ndim - 1, a.ndim - 2])
        if self.transB:
            b = g.op("Transpose", [b], perm=list(range(b.ndim - 2)) + [b.ndim - 1, b.ndim - 2])
        return g.op("MatMul", [a, b])
