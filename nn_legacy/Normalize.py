import math

import numpy as np

from ._helpers.arrays import check_like, describe, host_plan, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class Normalize(Module):
    """Scale each sample to unit Lp norm: ``y = x / N(x)``, for a 1D ``[n]``
    input or each row of a 2D ``[batch, n]`` one.

    ``N(x) = (sum_i |x_i|^p + eps)^(1/p)`` for finite ``p > 0``, and
    ``N(x) = max_i |x_i| + eps`` for ``p = inf`` (``math.inf``); eps
    (default 1e-10) keeps an all-zero sample finite.

    Gradient, with ``c = sum_i dL/dy_i x_i``: for finite p
    ``dL/dx_j = dL/dy_j / N - c sign(x_j) |x_j|^(p-1) / N^(p+1)`` (the
    second term taken as 0 at ``x_j = 0``); for ``p = inf``
    ``dL/dx_j = dL/dy_j / N - [j = k] c sign(x_k) / N^2`` where k is the
    first index of the largest |x_i|.
    """

    _cache_names = ("_plan",)   # the rows' shape per input shape (see host_plan)

    def __init__(self, p, eps=1e-10):
        super().__init__()
        self.p = float(p)
        if not self.p > 0:
            raise ValueError(f"Normalize: p must be positive (or math.inf), got {p}")
        self.eps = float(eps)
        self._plan = None

    def _rows(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        if input.ndim not in (1, 2):
            raise ValueError(f"Normalize: input must be 1D [n] or 2D [batch, n], got {describe(input)}")
        return xp.ascontiguousarray(input).reshape(-1, input.shape[-1])

    def _norms(self, x, xp=None):
        """N(x) for every row of x, as a column [batch, 1]."""
        xp = array_namespace(x) if xp is None else xp
        if math.isinf(self.p):
            return xp.abs(x).max(axis=1, keepdims=True, initial=0) + self.eps
        if xp is np:   # the same ufuncs on the host, in place where the expression made temporaries
            terms = np.abs(x)
            np.power(terms, self.p, out=terms)
            norm = np.add.reduce(terms, axis=1, keepdims=True)
            norm += self.eps
            norm **= 1 / self.p
            return norm
        return (xp.power(xp.abs(x), self.p).sum(axis=1, keepdims=True) + self.eps) ** (1 / self.p)

    def updateOutput(self, input):
        rows = host_plan(self, input, (), lambda a: self._rows(a).shape)
        if rows is None:   # a device or strided input: the checks and the copy each call
            xp, x = array_namespace(input), self._rows(input)
        else:   # (a C-contiguous host array of a shape seen before: checked then)
            xp, x = np, input.reshape(rows)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        xp.divide(x, self._norms(x, xp), out=self.output.reshape(x.shape))
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        x = self._rows(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        g = xp.ascontiguousarray(gradOutput).reshape(x.shape)
        norm = self._norms(x)
        c = (g * x).sum(axis=1, keepdims=True)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        grad = self.gradInput.reshape(x.shape)
        xp.divide(g, norm, out=grad)
        if math.isinf(self.p):
            if x.shape[1]:
                k = xp.abs(x).argmax(axis=1)[:, None]
                x_k = xp.take_along_axis(x, k, axis=1)
                rows = xp.arange(x.shape[0])[:, None]
                grad[rows, k] -= xp.sign(x_k) * c / norm ** 2
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                slope = xp.where(x != 0, xp.sign(x) * xp.power(xp.abs(x), self.p - 1), 0)
            grad -= slope * (c / norm ** (self.p + 1))
        return self.gradInput

    def _t7_fixup(self, version):
        """Torch7's fields (p a Lua number, math.huge for the max norm), its
        work buffers dropped."""
        self.p = float(self.p)
        self.eps = float(getattr(self, "eps", 1e-10))
        for name in ("buffer", "buffer2", "norm", "normp", "_output", "_gradInput", "_indices", "cross",
                     "diag", "eye"):
            self.__dict__.pop(name, None)

    def __repr__(self):
        return f"nn.Normalize({self.p:g})"

    def _onnx(self, g, x, y):
        """x / (ReduceSum(Abs(x)^p) + eps)^(1/p) (ReduceMax(Abs(x)) + eps for p = inf)"""
        eps = np.array(self.eps, dtype=x.dtype)
        if math.isinf(self.p):
            norm = g.op("Add", [g.op("ReduceMax", [g.op("Abs", [x]), g.ints([-1])], keepdims=1), eps])
        else:
            sums = g.op("ReduceSum", [g.op("Pow", [g.op("Abs", [x]), np.array(self.p, dtype=x.dtype)]), g.ints([-1])],
                        keepdims=1)
            norm = g.op("Pow", [g.op("Add", [sums, eps]), np.array(1 / self.p, dtype=x.dtype)])
        return g.op("Div", [x, norm])
