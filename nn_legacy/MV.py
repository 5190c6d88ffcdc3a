from ._helpers.arrays import check_float_array, check_shape, describe, name_of, reuse
from ._helpers.checks import check_table
from ._helpers.namespace import array_namespace
from ._bases.tables import reuse_list
from .Module import Module


class MV(Module):
    """Matrix-vector products of a table ``[M, v]``: ``output = op(M) @ v``,
    with op transposing M when ``trans``.  M is 2D and v 1D (one product),
    or M is 3D ``[batch, ., .]`` and v 2D ``[batch, .]`` (one per sample).
    gradInput: ``dL/dop(M) = g v^T`` (an outer product, transposed back
    with trans) and ``dL/dv = op(M)^T g``."""

    _t7_pairs = ('gradInput',)   # save_lua: Torch7's constructor made {torch.Tensor(), torch.Tensor()}

    def __init__(self, trans=False):
        super().__init__()
        self.trans = bool(trans)

    def _t7_fixup(self, version):
        self.trans = bool(getattr(self, "trans", False))

    def _operands(self, input):
        xp = array_namespace(input)
        m, v = check_table(name_of(self), "input", input, ["M", "v"])
        check_float_array(self, m, "input[0]")
        check_float_array(self, v, "input[1]", m.dtype)
        if m.ndim not in (2, 3) or v.ndim != m.ndim - 1 or (m.ndim == 3 and v.shape[0] != m.shape[0]):
            raise ValueError(f"{name_of(self)}: input must be a 2D matrix and a 1D vector, or a 3D batch of "
                             f"matrices and a 2D batch of vectors, got {describe(m)} and {describe(v)}")
        opm = xp.ascontiguousarray(xp.swapaxes(m, -1, -2) if self.trans else m)
        if opm.shape[-1] != v.shape[-1]:
            raise ValueError(f"{name_of(self)}: op(input[0]) is [{', '.join(map(str, opm.shape))}] "
                             f"(trans={self.trans}), which cannot multiply input[1] {describe(v)}")
        return opm, xp.ascontiguousarray(v)

    def updateOutput(self, input):
        xp = array_namespace(input)
        opm, v = self._operands(input)
        self.output = reuse(self.output, opm.shape[:-1], opm.dtype, *input)
        self.output[...] = xp.matmul(opm, v[..., None])[..., 0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        opm, v = self._operands(input)
        check_shape(self, gradOutput, "gradOutput", opm.shape[:-1], opm.dtype, "the output")
        g = xp.ascontiguousarray(gradOutput)
        self.gradInput = reuse_list(self.gradInput, [input[0].shape, input[1].shape], opm.dtype, *input, gradOutput)
        grad_m = g[..., :, None] * v[..., None, :]         # dL/dop(M)
        self.gradInput[0][...] = xp.swapaxes(grad_m, -1, -2) if self.trans else grad_m
        self.gradInput[1][...] = xp.matmul(xp.swapaxes(opm, -1, -2), g[..., None])[..., 0]
        return self.gradInput

    def __repr__(self):
        return f"nn.MV(trans={self.trans})"

    def _onnx(self, g, x, y):
        """MatMul of the matrix and the vector as a column (Transpose of the matrix with trans)"""
        m, v = x
        if self.trans:
            m = g.op("Transpose", [m], perm=list(range(m.ndim - 2)) + [m.ndim - 1, m.ndim - 2])
        column = g.op("Unsqueeze", [v, g.ints([-1])])
        return g.op("Squeeze", [g.op("MatMul", [m, column]), g.ints([-1])])
