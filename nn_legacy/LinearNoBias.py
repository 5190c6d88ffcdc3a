import math

from .Linear import Linear
from .Module import uniform


class LinearNoBias(Linear):
    """The rnn package's Linear without bias: ``y = W x``.

    input ``[nIn]`` or ``[batch, nIn]``; ``weight`` ``[nOut, nIn]`` (the
    only parameter).  Gradients: ``dL/dx = W^T dL/dy``, ``dL/dW += scale *
    dL/dy x^T``.  reset() draws W from U(-1/sqrt(nIn), 1/sqrt(nIn)); with a
    ``stdv`` argument from U(-stdv*sqrt(3), stdv*sqrt(3)) (so stdv is the
    standard deviation), as the rnn package did.  Same as ``Linear(nIn,
    nOut, bias=False)``, under the name rnn-package files use.
    """

    def __init__(self, inputSize, outputSize):
        super().__init__(inputSize, outputSize, bias=False)

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(max(self.weight.shape[1], 1)) if stdv is None else stdv * math.sqrt(3)
        self.weight[...] = uniform(self.weight.shape, stdv, self.weight.dtype)
        return self

    def _t7_lua(self, package):
        """save_lua's rnn-package trees: this module itself for the
        Element-Research package (its nn.LinearNoBias), else what torch/rnn
        built instead, ``nn.Linear(...):noBias()``: a Linear sharing this
        one's arrays (made without drawing weights)."""
        if package == "Element-Research/rnn":
            return self
        linear = Linear.__new__(Linear)
        vars(linear).update(vars(self))
        linear.bias = linear.gradBias = None
        return linear

    def _t7_fixup(self, version):
        self.bias = self.gradBias = None   # files may hold an unused addBuffer, never a bias

    def __repr__(self):
        n_out, n_in = self.weight.shape
        return f"nn.LinearNoBias({n_in} -> {n_out})"
