import numbers

from ._helpers.arrays import check_like, describe, name_of, reuse
from ._helpers.namespace import array_namespace
from ._helpers.planes import check_planes
from .Module import Module


class TotalVariation(Module):
    """Identity on the way forward; on the way back it adds the gradient of
    a total-variation penalty on the input (fast-neural-style's TV
    regularizer, after kaishengtai/neuralart)::

        output = input
        E(x) = strength / 2 * sum over planes, y < H-1, x < W-1 of
               (x[y, x] - x[y, x+1])^2 + (x[y, x] - x[y+1, x])^2
        gradInput = gradOutput + dE/dinput

    so the differences are taken between each pixel of the top-left
    ``(H-1) x (W-1)`` block and its right and lower neighbours (the last
    row and column start no difference, as in the Lua layer).  input
    ``[planes, H, W]`` or ``[batch, planes, H, W]``, H and W at least 2.
    ``penalty(input)`` returns E.  The module has no parameters; its
    backward is not the transpose of its (identity) Jacobian, by design.
    """

    def __init__(self, strength):
        super().__init__()
        if not isinstance(strength, numbers.Real) or isinstance(strength, bool):
            raise TypeError(f"TotalVariation: strength must be a number, got {strength!r}")
        self.strength = float(strength)

    def _t7_fixup(self, version):
        self.strength = float(self.strength)
        for name in ("x_diff", "y_diff"):   # the Lua layer's work tensors
            self.__dict__.pop(name, None)

    def _diffs(self, input):
        self._kernels(input)
        check_planes(self, input)
        if input.shape[-1] < 2 or input.shape[-2] < 2:
            raise ValueError(f"{name_of(self)}: input planes must be at least 2x2, got {describe(input)}")
        corner = input[..., :-1, :-1]
        return corner - input[..., :-1, 1:], corner - input[..., 1:, :-1]

    def penalty(self, input):
        """E(input), the penalty whose gradient backward adds."""
        dx, dy = self._diffs(input)
        return self.strength / 2 * float((dx * dx).sum() + (dy * dy).sum())

    def updateOutput(self, input):
        self._diffs(input)
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        dx, dy = self._diffs(input)
        check_like(self, gradOutput, "gradOutput", input, "the input")
        grad = xp.zeros(input.shape, input.dtype)
        grad[..., :-1, :-1] += dx + dy
        grad[..., :-1, 1:] -= dx
        grad[..., 1:, :-1] -= dy
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input, gradOutput)
        xp.multiply(grad, self.strength, out=self.gradInput)
        self.gradInput += gradOutput
        return self.gradInput

    def __repr__(self):
        return f"nn.TotalVariation({self.strength:g})"

    def _onnx(self, g, x, y):
        """none (the identity going forward; the penalty acts on the gradient)"""
        return x
