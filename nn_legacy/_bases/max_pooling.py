"""The plumbing of the max poolings (SpatialMaxPooling, VolumetricMaxPooling
and their dilated subclasses) and of the unpoolings that read their indices
(SpatialMaxUnpooling, VolumetricMaxUnpooling); not layers themselves, the
math is in the layers' docstrings.

Evaluation mode: a pooling's forward computes the values alone (the kernels'
``updateOutputValues``), bit for bit those of the indexed forward, and
leaves ``indices`` None; a backward pass after such a forward finds the
indices again from its ``input`` argument (the forward's input, as every
backward pass takes), never stale ones.  A pooling that an unpooling reads
keeps computing them: the unpooling marks it (``_unpooled``) in its
constructor, its t7 loading, its ``evaluate()`` and every call."""
from .._helpers.pooling import onnx_unpool, t7_fields
from ..Module import Module
from .pooling_modes import RoundingMode


class MaxPooling(RoundingMode, Module):
    """A subclass gives ``_kernel``, ``_window()`` (the kernels' window
    arguments), ``_dilation()`` (their dilation arguments, none by default)
    and ``_size_names``, the input sizes each forward records."""

    _buffer_names = ("indices",)
    _size_names = ()

    def _dilation(self):
        return ()

    def _record_size(self, input):
        for name, n in zip(self._size_names, input.shape[input.ndim - len(self._size_names):]):
            setattr(self, name, n)

    def updateOutput(self, input):
        if self._values_only():
            self.output = self._kernel_of(input, "updateOutputValues")(
                input, self.output, *self._window(), *self._dilation(), self.ceil_mode)
            self.indices = None
            self._indices_skipped = True
        else:
            self.output, self.indices = self._kernel_of(input, "updateOutput")(
                input, self.output, self.indices, *self._window(), *self._dilation(), self.ceil_mode)
        self._record_size(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._indices_again(input)
        self.gradInput = self._kernel_of(input, "updateGradInput")(
            input, gradOutput, self.gradInput, self.indices, *self._window(), *self._dilation(), self.ceil_mode)
        return self.gradInput

    def _values_only(self):
        """Whether a forward pass may skip the indices: in evaluation mode,
        when no unpooling reads them."""
        return not getattr(self, "train", True) and not vars(self).get("_unpooled", False)

    def _indices_again(self, input):
        """After a forward pass without indices, the indices of input's
        windows (the forward's input, which a backward pass takes)."""
        if vars(self).get("_indices_skipped") and self.indices is None:
            _, self.indices = self._kernel_of(input, "updateOutput")(
                input, None, None, *self._window(), *self._dilation(), self.ceil_mode)
        self._indices_skipped = False


class MaxUnpooling(Module):
    """A subclass gives ``_kernel``, ``_pooling_class`` (the pooling it
    reads), ``_axes`` (the window's axes as the pooling names its fields:
    "WH" or "TWH") and ``_sizes()``, the output sizes in the kernels'
    argument order."""

    _pooling_class = MaxPooling
    _axes = ""

    def __init__(self, poolingModule):
        super().__init__()
        name = type(self).__name__
        if not isinstance(poolingModule, self._pooling_class):
            raise TypeError(f"{name}: the argument must be a {self._pooling_class.__name__} module, "
                            f"got {type(poolingModule).__name__}")
        k = [getattr(poolingModule, "k" + a) for a in self._axes]
        d = [getattr(poolingModule, "d" + a) for a in self._axes]
        if k != d:
            raise ValueError(f"{name}: the pooling module's kernel must equal its stride, got "
                             f"kernel {'x'.join(map(str, k))}, stride {'x'.join(map(str, d))}")
        self.pooling = poolingModule
        self.indices = None
        poolingModule._unpooled = True   # it keeps its indices in evaluation mode too

    def setParams(self):
        """Take the indices and the input size of the pooling's last forward."""
        name = type(self).__name__
        self.pooling._unpooled = True   # a pooling given after the constructor: from its next forward on
        if getattr(self.pooling, "indices", None) is None and vars(self.pooling).get("_indices_skipped"):
            raise ValueError(f"{name}: its pooling module ran its last forward in evaluation mode "
                             "without indices (it was paired with this unpooling after that forward); "
                             "run the pooling's forward again")
        if getattr(self.pooling, "indices", None) is None:
            raise ValueError(f"{name}: its pooling module has no indices yet; run its forward first")
        self.indices = self.pooling.indices
        for size in self.pooling._size_names:        # iheight -> oheight, ...
            setattr(self, "o" + size[1:], getattr(self.pooling, size))

    def _mark_pooling(self):
        if isinstance(vars(self).get("pooling"), self._pooling_class):
            self.pooling._unpooled = True

    def evaluate(self):
        """Evaluation mode; its pooling keeps computing the indices this
        module reads (a model saved before poolings skipped them in
        evaluation mode has no mark of the pairing; model.evaluate() reaches
        every module)."""
        super().evaluate()
        self._mark_pooling()

    def updateOutput(self, input):
        self.setParams()
        self.output = self._kernel_of(input, "updateOutput")(input, self.output, self.indices, *self._sizes())
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.setParams()
        self.gradInput = self._kernel_of(input, "updateGradInput")(input, gradOutput, self.gradInput,
                                                                     self.indices, *self._sizes())
        return self.gradInput

    def __repr__(self):
        return f"nn.{type(self).__name__} associated to {self.pooling!r}"

    def _t7_fixup(self, version):
        t7_fields(self, (), {"indices": None})  # the pooling module's indices, dropped with them
        self._mark_pooling()

    def _onnx(self, g, x, y):
        """MaxUnpool with the paired pooling's indices, to its input's size"""
        return onnx_unpool(self, g, x)
