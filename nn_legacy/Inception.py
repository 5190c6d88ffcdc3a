from ._helpers.arrays import describe, is_array, name_of
from .Decorator import Decorator
from .DepthConcat import DepthConcat
from .ReLU import ReLU
from .Sequential import Sequential
from .SpatialBatchNormalization import SpatialBatchNormalization
from .SpatialConvolution import SpatialConvolution
from .SpatialMaxPooling import SpatialMaxPooling


class Inception(Decorator):
    """dpnn's GoogLeNet inception block (used by OpenFace): parallel columns
    over the same input, their outputs joined along the planes by a
    DepthConcat (smaller outputs centred in zeros)::

        column i (one per kernelSize[i]):
            1x1 conv inputSize -> reduceSize[i] (stride reduceStride[i]), [BN], transfer,
            kxk conv reduceSize[i] -> outputSize[i] (k = kernelSize[i], stride kernelStride[i],
                                                    pad k//2 when padding), [BN], transfer
        the pooling column: pool (max pooling poolSize, stride poolStride by default),
            then, if reduceSize has an entry for it, 1x1 conv -> reduceSize[n], [BN], transfer
        the 1x1 column, if reduceSize has an entry for it:
            1x1 conv inputSize -> reduceSize[n + 1], [BN], transfer

    where n = len(kernelSize), [BN] is a SpatialBatchNormalization when
    ``batchNorm``, and transfer a copy of ``transfer`` (ReLU by default).
    input ``[inputSize, H, W]`` or ``[batch, inputSize, H, W]``; output
    ``[(batch,) sum of the columns' planes, H', W']``.  Forward, backward
    and parameters are those of the DepthConcat inside (``modules[0]``), a
    single sample going through as a batch of one, as dpnn did.
    """

    def __init__(self, inputSize, outputSize, reduceSize, reduceStride=None, transfer=None, batchNorm=False,
                 padding=True, kernelSize=(5, 3), kernelStride=(1, 1), poolSize=3, poolStride=1, pool=None):
        self.inputSize = int(inputSize)
        self.outputSize, self.reduceSize = [int(n) for n in outputSize], [int(n) for n in reduceSize]
        self.reduceStride = [int(n) for n in (reduceStride or [])]
        self.transfer = ReLU() if transfer is None else transfer
        self.batchNorm, self.padding = bool(batchNorm), bool(padding)
        self.kernelSize, self.kernelStride = [int(n) for n in kernelSize], [int(n) for n in kernelStride]
        self.poolSize, self.poolStride = int(poolSize), int(poolStride)
        self.pool = SpatialMaxPooling(self.poolSize, self.poolSize, self.poolStride, self.poolStride) \
            if pool is None else pool
        if len(self.outputSize) != len(self.kernelSize) or len(self.kernelStride) < len(self.kernelSize):
            raise ValueError(f"Inception: outputSize {self.outputSize} and kernelStride {self.kernelStride} need "
                             f"an entry for each kernel size {self.kernelSize}")
        if len(self.reduceSize) < len(self.kernelSize):
            raise ValueError(f"Inception: reduceSize {self.reduceSize} needs an entry for each kernel size "
                             f"{self.kernelSize} (and one each for the pooling and 1x1 columns to have them)")
        concat = DepthConcat(1)   # the planes of [batch, planes, H, W]
        n = len(self.kernelSize)
        for i, k in enumerate(self.kernelSize):
            column = self._reduced(Sequential(), i)
            pad = k // 2 if self.padding else 0
            column.add(SpatialConvolution(self.reduceSize[i], self.outputSize[i], k, k, self.kernelStride[i],
                                          self.kernelStride[i], pad, pad))
            concat.add(self._finished(column, self.outputSize[i]))
        pooled = Sequential().add(self.pool)
        concat.add(self._reduced(pooled, n) if len(self.reduceSize) > n else pooled)
        if len(self.reduceSize) > n + 1:
            concat.add(self._reduced(Sequential(), n + 1))
        super().__init__(concat)

    def _reduced(self, column, i):
        stride = self.reduceStride[i] if i < len(self.reduceStride) else 1
        column.add(SpatialConvolution(self.inputSize, self.reduceSize[i], 1, 1, stride, stride))
        return self._finished(column, self.reduceSize[i])

    def _finished(self, column, planes):
        if self.batchNorm:
            column.add(SpatialBatchNormalization(planes))
        return column.add(self.transfer.clone())

    def _t7_fixup(self, version):
        """dpnn's fields: Lua numbers and tables of them; the block itself
        is modules[1] (also kept as depthConcat in 2015 and as module until
        2017)."""
        for name in ("module", "depthConcat"):
            self.__dict__.pop(name, None)
        self.inputSize = int(self.inputSize)
        for name in ("outputSize", "reduceSize", "reduceStride", "kernelSize", "kernelStride"):
            value = getattr(self, name, None) or []
            setattr(self, name, [int(v) for v in (value.values() if isinstance(value, dict) else value)])
        for name in ("poolSize", "poolStride"):
            setattr(self, name, int(getattr(self, name, 1)))
        self.batchNorm, self.padding = bool(getattr(self, "batchNorm", False)), bool(getattr(self, "padding", True))

    def _batched(self, value, name):
        if not is_array(value):
            raise TypeError(f"{name_of(self)}: {name} must be an array, got {type(value).__name__}")
        if value.ndim not in (3, 4):
            raise ValueError(f"{name_of(self)}: {name} must be 3D [planes, height, width] or 4D "
                             f"[batch, planes, height, width], got {describe(value)}")
        return value if value.ndim == 4 else value[None]

    def updateOutput(self, input):
        out = self._child(0, "updateOutput", self._batched(input, "input"))
        self.output = out if input.ndim == 4 else out[0]
        return self.output

    def updateGradInput(self, input, gradOutput):
        grad = self._child(0, "updateGradInput", self._batched(input, "input"), self._batched(gradOutput, "gradOutput"))
        self.gradInput = grad if input.ndim == 4 else grad[0]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._child(0, "accGradParameters", self._batched(input, "input"), self._batched(gradOutput, "gradOutput"),
                    scale)

    def accUpdateGradParameters(self, input, gradOutput, lr):
        self._child(0, "accUpdateGradParameters", self._batched(input, "input"),
                    self._batched(gradOutput, "gradOutput"), lr)

    def backward(self, input, gradOutput, scale=1):
        grad = self._child(0, "backward", self._batched(input, "input"), self._batched(gradOutput, "gradOutput"),
                           scale)
        self.gradInput = grad if input.ndim == 4 else grad[0]
        return self.gradInput

    def __repr__(self):
        return (f"nn.Inception({self.inputSize} -> kernels {self.kernelSize}, outputs {self.outputSize}, "
                f"reductions {self.reduceSize}) @ " + repr(self.modules[0]))

    def _onnx(self, g, x, y):
        """its DepthConcat's nodes (one sample as a batch of one)"""
        if x.ndim == 4:
            return g.child(self, 0, x)
        out = g.child(self, 0, g.derive(g.op("Unsqueeze", [x, g.ints([0])]), x, lambda a: a[None]))
        return g.derive(g.op("Squeeze", [out, g.ints([0])]), out, lambda a: a[0])
