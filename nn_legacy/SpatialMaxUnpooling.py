from ._helpers.pooling import onnx_unpool, t7_fields
from .Module import Module
from .SpatialMaxPooling import SpatialMaxPooling


class SpatialMaxUnpooling(Module):
    """The inverse of a SpatialMaxPooling module: its output put back where
    the maxima were, zeros elsewhere.

    ``SpatialMaxUnpooling(poolingModule)`` takes the pooling module itself
    (its kernel must equal its stride, as Torch7 required) and at every call
    uses the ``indices`` and input size of that module's last forward.
    input: the pooling's output shape, ``[planes, h, w]`` or
    ``[batch, planes, h, w]``; output ``[(batch,) planes, iheight, iwidth]``
    (the pooling's input size) with ``output[plane][indices[i]] = input[i]``,
    0 elsewhere (where two indices coincide the later element stays).

    Gradient: ``dL/dx[i] = dL/dy[plane][indices[i]]``.
    """

    _kernel = "SpatialMaxUnpooling"

    def __init__(self, poolingModule):
        super().__init__()
        if not isinstance(poolingModule, SpatialMaxPooling):
            raise TypeError(f"SpatialMaxUnpooling: the argument must be a SpatialMaxPooling module, "
                            f"got {type(poolingModule).__name__}")
        if poolingModule.kW != poolingModule.dW or poolingModule.kH != poolingModule.dH:
            raise ValueError(f"SpatialMaxUnpooling: the pooling module's kernel must equal its stride, got "
                             f"kernel {poolingModule.kW}x{poolingModule.kH}, stride "
                             f"{poolingModule.dW}x{poolingModule.dH}")
        self.pooling = poolingModule
        self.indices = None
        poolingModule._unpooled = True   # it keeps its indices in evaluation mode too

    def setParams(self):
        """Take the indices and the input size of the pooling's last forward."""
        self.pooling._unpooled = True   # a pooling given after the constructor: from its next forward on
        if getattr(self.pooling, "indices", None) is None and vars(self.pooling).get("_indices_skipped"):
            raise ValueError("SpatialMaxUnpooling: its pooling module ran its last forward in evaluation mode "
                             "without indices (it was paired with this unpooling after that forward); "
                             "run the pooling's forward again")
        if getattr(self.pooling, "indices", None) is None:
            raise ValueError("SpatialMaxUnpooling: its pooling module has no indices yet; run its forward first")
        self.indices = self.pooling.indices
        self.oheight, self.owidth = self.pooling.iheight, self.pooling.iwidth

    def evaluate(self):
        """Evaluation mode; its pooling keeps computing the indices this
        module reads (a model saved before poolings skipped them in
        evaluation mode has no mark of the pairing; model.evaluate() reaches
        every module)."""
        super().evaluate()
        if isinstance(vars(self).get("pooling"), SpatialMaxPooling):
            self.pooling._unpooled = True

    def updateOutput(self, input):
        self.setParams()
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.indices,
                                                               self.owidth, self.oheight)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.setParams()
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput,
                                                                     self.indices, self.owidth, self.oheight)
        return self.gradInput

    def _t7_fixup(self, version):
        t7_fields(self, (), {"indices": None})  # the pooling module's indices, dropped with them
        if isinstance(vars(self).get("pooling"), SpatialMaxPooling):
            self.pooling._unpooled = True

    def __repr__(self):
        return f"nn.SpatialMaxUnpooling associated to {self.pooling!r}"

    def _onnx(self, g, x, y):
        """MaxUnpool with the paired pooling's indices, to its input's size"""
        return onnx_unpool(self, g, x)
