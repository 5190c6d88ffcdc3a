from ._helpers.arrays import describe, is_array, name_of, reuse
from ._helpers.namespace import array_namespace
from .Container import Container
from .Sequential import Sequential
from ._helpers.onnx_types import NotExportable


class SpatialClassifier(Container):
    """A classifier of feature vectors (a module taking ``[n, K]``) run at
    every pixel of a feature map (nnx's ``nn.SpatialClassifier``): the K
    planes at each position form one vector.

    input ``[K, H, W]``; the classifier gets the ``[H*W, K]`` matrix of the
    positions (row-major: row ``y*W + x``) and returns ``[H*W, N]``; the
    output is that turned back into planes, ``[N, H, W]``, or with
    ``spatialOutput = False`` the ``[H*W, N]`` matrix itself.  A batch
    ``[batch, K, H, W]`` gives ``[batch, N, H, W]`` (``[batch, H*W, N]``
    without spatial output), each sample as on its own.  Gradients are the
    classifier's, moved back the same way; its parameters are this
    module's.  ``add(m)`` adds to the classifier (an empty Sequential by
    default).
    """

    def __init__(self, classifier=None):
        super().__init__()
        classifier = Sequential() if classifier is None else classifier
        super().add(classifier)
        self.classifier = classifier
        self.spatialOutput = True

    def add(self, module):
        self.classifier.add(module)
        return self

    def _t7_fixup(self, version):
        self.classifier = self.modules[0] if self.modules else self.classifier
        self.modules = [self.classifier]
        self.spatialOutput = bool(getattr(self, "spatialOutput", True))
        for name in ("inputF", "inputT", "outputF", "outputT", "gradOutputF", "gradOutputT", "gradInputF",
                     "gradInputT"):   # nnx's work tensors
            self.__dict__.pop(name, None)

    def _rows(self, input, name="input"):
        """input [(batch,) K, H, W] as the [(batch *) H*W, K] rows, and its (batch, K, H, W)."""
        xp = array_namespace(input)
        if not is_array(input):
            raise TypeError(f"{name_of(self)}: {name} must be an array, got {type(input).__name__}")
        if input.ndim not in (3, 4):
            raise ValueError(f"{name_of(self)}: {name} must be 3D [features, height, width] or 4D "
                             f"[batch, features, height, width], got {describe(input)}")
        x = input if input.ndim == 4 else input[None]
        b, k, h, w = x.shape
        return xp.ascontiguousarray(x.transpose(0, 2, 3, 1)).reshape(b * h * w, k), (b, k, h, w)

    def _planes(self, rows, shape, batched):
        """The classifier's [(batch *) H*W, N] back as [(batch,) N, H, W] (or the rows without spatial output)."""
        b, _, h, w = shape
        if not is_array(rows) or rows.ndim != 2 or rows.shape[0] != b * h * w:
            got = describe(rows) if is_array(rows) else type(rows).__name__
            raise ValueError(f"{name_of(self)}: the classifier must map [{b * h * w}, K] to [{b * h * w}, N], "
                             f"got {got}")
        n = rows.shape[1]
        if not self.spatialOutput:
            return rows.reshape(b, h * w, n) if batched else rows
        planes = rows.reshape(b, h, w, n).transpose(0, 3, 1, 2)
        return planes if batched else planes[0]

    def _grad_rows(self, input, gradOutput, shape):
        self._need_output()
        xp = array_namespace(input)
        b, _, h, w = shape
        n = self.modules[0].output.shape[1]
        want = ((b, n, h, w) if input.ndim == 4 else (n, h, w)) if self.spatialOutput else \
            ((b, h * w, n) if input.ndim == 4 else (h * w, n))
        if not is_array(gradOutput):
            raise TypeError(f"{name_of(self)}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if gradOutput.shape != want:
            got = describe(gradOutput)
            raise ValueError(f"{name_of(self)}: gradOutput must be of size [{', '.join(map(str, want))}] like the "
                             f"output, got {got}")
        if not self.spatialOutput:
            return xp.ascontiguousarray(gradOutput).reshape(b * h * w, n)
        g = gradOutput if input.ndim == 4 else gradOutput[None]
        return xp.ascontiguousarray(g.transpose(0, 2, 3, 1)).reshape(b * h * w, n)

    def updateOutput(self, input):
        rows, shape = self._rows(input)
        out = self._planes(self._child(0, "updateOutput", rows), shape, input.ndim == 4)
        self.output = reuse(self.output, out.shape, out.dtype, input)
        self.output[...] = out
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        rows, shape = self._rows(input)
        grad = self._child(0, "updateGradInput", rows, self._grad_rows(input, gradOutput, shape))
        b, k, h, w = shape
        back = xp.asarray(grad).reshape(b, h, w, k).transpose(0, 3, 1, 2)
        self.gradInput = reuse(self.gradInput, input.shape, back.dtype, input, gradOutput)
        self.gradInput[...] = back if input.ndim == 4 else back[0]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        rows, shape = self._rows(input)
        self._child(0, "accGradParameters", rows, self._grad_rows(input, gradOutput, shape), scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        rows, shape = self._rows(input)
        self._child(0, "accUpdateGradParameters", rows, self._grad_rows(input, gradOutput, shape), lr)

    def __repr__(self):
        flat = "" if self.spatialOutput else " (flat output)"
        return f"nn.SpatialClassifier{flat} @ {self.classifier!r}"

    def _onnx(self, g, x, y):
        """Transpose and Reshape to a row per position, the classifier's nodes, back to planes"""
        if x.ndim not in (3, 4):
            raise NotExportable(f"input must be 3D or 4D, got {x.ndim}D")
        b = x if x.ndim == 4 else g.derive(g.op("Unsqueeze", [x, g.ints([0])]), x, lambda a: a[None])
        _, k, h, w = b.shape
        rows = g.derive(g.op("Reshape", [g.op("Transpose", [b], perm=[0, 2, 3, 1]), g.ints([-1, k])]), x,
                        lambda a: self._rows(a)[0])
        out = g.child(self, 0, rows)
        n = out.shape[1]
        if self.spatialOutput:
            name = g.op("Transpose", [g.op("Reshape", [out, g.ints([-1, h, w, n])])], perm=[0, 3, 1, 2])
            name = name if x.ndim == 4 else g.op("Squeeze", [name, g.ints([0])])
        else:
            name = g.op("Reshape", [out, g.ints([-1, h * w, n])]) if x.ndim == 4 else out.name

        def planes(a, o):
            return None if a is None or o is None else self._planes(o, self._rows(a)[1], a.ndim == 4)
        return type(x)(g, name, planes(x.value, out.value), planes(x.probe, out.probe))
