import numpy as np

from ._helpers.arrays import check_like, check_writeable
from ._bases.tables import ElementwiseTable
from .Threshold import Threshold


class CAddTable(ElementwiseTable):
    """``output = input[0] + input[1] + ...`` over a table of float arrays of
    one shape; every gradInput[i] is gradOutput.  With ``inplace`` the sum
    is accumulated into input[0], which is returned, and every gradInput[i]
    is the gradOutput array itself."""

    _t7_tables = ('gradInput',)   # save_lua: Torch7's constructor made these tables, not tensors
    _ufunc = np.add   # (what _forward does, for two numpy arrays)

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = bool(inplace)

    def _t7_fixup(self, version):
        self.inplace = bool(getattr(self, "inplace", False))

    def updateOutput(self, input):
        if not self.inplace:
            return super().updateOutput(input)
        xs = self._inputs(input)
        check_writeable(self, input[0], "input[0]")
        for x in xs[1:]:
            input[0] += x
        self.output = input[0]
        return self.output

    def _fuse_next(self, following, input):
        """Sequential's step for this module and the ``following`` one: when
        this one sums two arrays of one shape and dtype in place and that one
        is an in-place Threshold (a ResNet block's ``CAddTable(true)`` then
        ``ReLU(true)``), one pass writes the thresholded sum into input[0],
        which both modules' ``output`` then are, as after the two steps.  None
        (nothing done) otherwise."""
        if not (self.inplace and isinstance(following, Threshold) and following._fusable()):
            return None
        xs = self._inputs(input)
        if len(xs) != 2 or xs[0].shape != xs[1].shape or xs[0].dtype != xs[1].dtype:
            return None
        check_writeable(self, input[0], "input[0]")
        following._kernel_of(xs[0], "addUpdateOutput")(input[0], input[1], None, following.threshold, following.val,
                                                       True)
        self.output = following.output = input[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        if not self.inplace:
            return super().updateGradInput(input, gradOutput)
        xs = self._inputs(input)
        check_like(self, gradOutput, "gradOutput", xs[0], "the output")
        self.gradInput = [gradOutput] * len(xs)
        return self.gradInput

    def _forward(self, xs, out):
        out[...] = xs[0]
        for x in xs[1:]:
            out += x

    def _backward(self, xs, g, outs):
        for out in outs:
            out[...] = g

    def _onnx(self, g, x, y):
        """Sum"""
        return g.op("Sum", x)
