from ._helpers.arrays import check_shape, describe, reuse
from ._helpers.namespace import array_namespace
from .Container import Container
from .Linear import Linear
from .Module import Module


class Maxout(Container):
    """Maxout units (Goodfellow et al. 2013): a Linear layer with
    ``outputSize * maxoutNumber`` outputs, then the maximum over groups of
    ``maxoutNumber`` of them: ``y_j = max_k z[k * outputSize + j]``, with
    ``z = W x + b``.  So the Linear outputs viewed as ``[maxoutNumber,
    outputSize]`` (per sample) are reduced over their first dim, as Torch7's
    ``Linear -> View(maxoutNumber, outputSize) -> Max`` did.

    Input ``[inputSize]`` or ``[batch, inputSize]``; output ``[outputSize]``
    or ``[batch, outputSize]``.  ``preprocess``, an optional module, is
    applied to the view ``[batch, maxoutNumber, outputSize]`` (or
    ``[maxoutNumber, outputSize]``) before the maximum and must keep its
    shape (e.g. Dropout).  The layers are ``self.modules`` (the Linear
    first), so parameters(), float() etc. reach them.

    Gradient: dL/dy_j flows to the first largest element of its group only
    (then through preprocess and the Linear layer's gradients).
    """

    _buffer_names = ("_indices", "_gradMax")

    def __init__(self, inputSize, outputSize, maxoutNumber, preprocess=None):
        super().__init__(Linear(inputSize, outputSize * maxoutNumber))
        if preprocess is not None:
            if not isinstance(preprocess, Module):
                raise TypeError(f"Maxout: preprocess must be a Module, got {type(preprocess).__name__}")
            self.add(preprocess)
        if maxoutNumber < 1 or outputSize < 1:
            raise ValueError(f"Maxout: outputSize and maxoutNumber must be positive, "
                             f"got {outputSize} and {maxoutNumber}")
        self.outputSize = int(outputSize)
        self.maxoutNumber = int(maxoutNumber)
        self._indices = None
        self._gradMax = None

    def _groups(self, array):
        """A [..., maxoutNumber * outputSize] array viewed as [..., maxoutNumber, outputSize]."""
        return array.reshape(array.shape[:-1] + (self.maxoutNumber, self.outputSize))

    def updateOutput(self, input):
        xp = array_namespace(input)
        self._kernels(input)
        groups = self._groups(self._child(0, "updateOutput", input))
        if len(self.modules) > 1:
            pre = self._child(1, "updateOutput", groups)
            if pre.shape != groups.shape:
                raise ValueError(f"Maxout: preprocess must keep the shape {describe(groups)}, got {describe(pre)}")
            groups = pre
        self._indices = groups.argmax(axis=-2)
        self.output = reuse(self.output, self._indices.shape, groups.dtype, input)
        self.output[...] = xp.take_along_axis(groups, self._indices[..., None, :], axis=-2)[..., 0, :]
        return self.output

    def _grad_groups(self, gradOutput):
        """dL/d(groups): gradOutput placed at the maxima of the last forward pass."""
        xp = array_namespace(gradOutput)
        if self._indices is None:
            raise ValueError("Maxout: backward needs a forward pass first")
        check_shape(self, gradOutput, "gradOutput", self._indices.shape, self.output.dtype, "the output")
        shape = self._indices.shape[:-1] + (self.maxoutNumber, self.outputSize)
        self._gradMax = reuse(self._gradMax, shape, gradOutput.dtype, gradOutput)
        self._gradMax.fill(0)
        xp.put_along_axis(self._gradMax, self._indices[..., None, :], gradOutput[..., None, :], axis=-2)
        return self._gradMax

    def _grad_linear_output(self, gradOutput, verb=None, *args):
        """dL/dz, flat as the Linear output: through preprocess, then its
        parameter verb (if any) with the same gradient; the gradient goes
        through first, so an update of its parameters cannot change it."""
        grad = self._grad_groups(gradOutput)
        if len(self.modules) > 1:
            groups = self._groups(self.modules[0].output)
            # a copy: an in-place preprocess overwrites the gradient it is given
            through = self._child(1, "updateGradInput", groups, grad.copy())
            if verb is not None:
                self._child(1, verb, groups, grad, *args)
            grad = through
        return grad.reshape(self.modules[0].output.shape)

    def updateGradInput(self, input, gradOutput):
        grad = self._grad_linear_output(gradOutput)
        self.gradInput = self._child(0, "updateGradInput", input, grad)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        grad = self._grad_linear_output(gradOutput, "accGradParameters", scale)
        self._child(0, "accGradParameters", input, grad, scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        grad = self._grad_linear_output(gradOutput, "accUpdateGradParameters", lr)
        self._child(0, "accUpdateGradParameters", input, grad, lr)

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's Maxout is a Sequential: Linear, View(maxoutNumber, outputSize), the preprocess
        if any, Max(1, 2) (1-based)."""
        from .Max import Max
        from .View import View
        view = View(self.maxoutNumber, self.outputSize).setNumInputDims(1)
        fields["modules"] = [self.modules[0], view, *self.modules[1:], Max(0, 2)]
        fields.pop("maxoutNumber", None)
        fields.pop("outputSize", None)

    def _t7_fixup(self, version):
        """Torch7's Maxout was a Sequential: Linear, View(maxoutNumber,
        outputSize), the preprocess if any, Max(1, 2); here the view and
        the maximum are the module's own."""
        from .View import View
        view = next((m for m in self.modules if isinstance(m, View)), None)
        if view is None or len(view.size) != 2:
            raise ValueError("Maxout: a Torch7 Maxout holds a View(maxoutNumber, outputSize) after its Linear")
        self.maxoutNumber, self.outputSize = (int(n) for n in view.size)
        self.modules = [self.modules[0]] + self.modules[2:-1]
        self._indices = self._gradMax = None

    def __repr__(self):
        n_in = self.modules[0].weight.shape[1]
        pre = f", preprocess {self.modules[1]!r}" if len(self.modules) > 1 else ""
        return f"nn.Maxout({n_in} -> {self.outputSize}, {self.maxoutNumber} pieces{pre})"

    def _onnx(self, g, x, y):
        """Gemm, Reshape to the groups, ReduceMax"""
        z = g.child(self, 0, x)
        groups = g.derive(g.op("Reshape", [z, g.ints(([-1] if z.ndim == 2 else []) + [self.maxoutNumber,
                                                                                       self.outputSize])]),
                          z, self._groups)
        if len(self.modules) > 1:
            groups = g.child(self, 1, groups)
        name = g.op("ReduceMax", [groups, g.ints([-2])], keepdims=0)
        probe = None if groups.probe is None else groups.probe.max(axis=-2)
        return type(x)(g, name, groups.value.max(axis=-2), probe)
