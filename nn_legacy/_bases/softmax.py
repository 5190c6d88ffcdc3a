"""The plumbing of SoftMax, LogSoftMax and SoftMin (not a layer itself; the
math is in their docstrings): the feature dimension, Torch7's rule or the
one given as ``dim``.

The kernels take Torch7's rule: dim 0 of a 1D or 3D input, dim 1 of a 2D or
4D one.  A dim given to the constructor (0-based, negative from the end, as
torch.legacy.nn took it) is reached without moving any data: an input of
shape ``[a..., n, b...]`` is viewed as the 4D ``[prod(a), n, prod(b), 1]``,
whose dim 1 is the one wanted, and the result is viewed back."""
import math
import numpy as np

from thnn.cuda import CudaTensor

from .._helpers.arrays import describe, name_of
from .dims import check_int
from ..Module import Module


class FeatureSoftMax(Module):
    """A softmax-like layer over one dimension; subclasses name the kernel
    pair in ``_kernel`` ("SoftMax" or "LogSoftMax")."""

    _kernel = None
    dim = None   # Torch7's rule; Torch7 files have no dim

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's softmax layers have no dim: one given here has no Torch7 counterpart."""
        if self.dim is not None:
            raise TypeError(f"save_lua: nn.{name_of(self)}(dim={self.dim}) has no Torch7 counterpart (Torch7's "
                            f"picks its dim from the input's dimension count)")

    def __init__(self, dim=None):
        super().__init__()
        self.dim = check_int(self, dim, "dim", optional=True)

    def _shape4(self, input):
        """The 4D shape the kernels see, or None for Torch7's rule."""
        if self.dim is None:
            return None
        d = self.dim + input.ndim if self.dim < 0 else self.dim
        if not 0 <= d < input.ndim:
            raise ValueError(f"{name_of(self)}: dim {self.dim} is out of range for input {describe(input)}")
        shape = input.shape
        return (int(math.prod(shape[:d])), shape[d], int(math.prod(shape[d + 1:])), 1)

    @staticmethod
    def _view(array, shape4):
        if shape4 is None or array is None:
            return array
        if isinstance(array, CudaTensor):
            return array.contiguous().reshape(shape4)
        return array.reshape(shape4)

    @staticmethod
    def _buffer(buffer, like, shape4):
        """The module's buffer as the kernel should see it: the 4D view of it
        when it can take the result in place, else None (a new array)."""
        if shape4 is None:
            return buffer
        fits = buffer is not None and type(buffer) is type(like) and buffer.shape == like.shape \
            and buffer.dtype == like.dtype
        contiguous = fits and (buffer.is_contiguous() if isinstance(buffer, CudaTensor)
                               else buffer.flags.c_contiguous)
        return buffer.reshape(shape4) if contiguous else None

    def _check_grad(self, input, gradOutput):
        shape = getattr(gradOutput, "shape", None)
        if shape is not None and shape != input.shape:
            raise ValueError(f"{name_of(self)}: gradOutput must be of size [{', '.join(map(str, input.shape))}] "
                             f"like the input, got {describe(gradOutput)}")

    def _forward(self, kernels, input):
        shape4 = self._shape4(input)
        out = self._buffer(self.output, input, shape4)
        result = getattr(kernels, f"{self._kernel}_updateOutput")(self._view(input, shape4), out)
        self.output = result if shape4 is None else (self.output if result is out else result.reshape(input.shape))
        return self.output

    def _backward(self, kernels, input, gradOutput):
        shape4 = self._shape4(input)
        if shape4 is not None and not isinstance(gradOutput, (np.ndarray, CudaTensor)):   # (before the 4D view)
            raise TypeError(f"{name_of(self)}: gradOutput must be a numpy array, got {type(gradOutput).__name__}")
        if shape4 is not None:
            self._check_grad(input, gradOutput)
        buffer = self._buffer(self.gradInput, input, shape4)
        result = getattr(kernels, f"{self._kernel}_updateGradInput")(
            self._view(input, shape4), self._view(gradOutput, shape4), buffer, self._view(self.output, shape4))
        self.gradInput = result if shape4 is None else (self.gradInput if result is buffer
                                                        else result.reshape(input.shape))
        return self.gradInput

    def updateOutput(self, input):
        return self._forward(self._kernels(input), input)

    def updateGradInput(self, input, gradOutput):
        return self._backward(self._kernels(input), input, gradOutput)

    def __repr__(self):
        return f"nn.{name_of(self)}" + (f"(dim={self.dim})" if self.dim is not None else "")

    def _onnx_axis(self, x):
        """The ONNX axis of the feature dim, for a Value of the input."""
        if self.dim is not None:
            return self.dim % x.ndim   # in range: the forward checked it
        if x.ndim not in (1, 2, 3, 4):
            from .._helpers.onnx_types import NotExportable
            raise NotExportable(f"input must be 1D, 2D, 3D or 4D, got {x.ndim}D")
        return 0 if x.ndim in (1, 3) else 1

