from ._helpers.arrays import name_of, reuse
from ._bases.dims import check_array, check_grad, check_int, lua_int
from ._helpers.planes import check_planes
from .Module import Module


class ShaveImage(Module):
    """The border of each plane cut off: ``size`` rows at the top and at
    the bottom, ``size`` columns on the left and on the right (the layer of
    fast-neural-style, which trims what its unpadded convolutions cannot
    see)::

        output[..., y, x] = input[..., y + size, x + size]

    input ``[planes, H, W]`` or ``[batch, planes, H, W]``; output
    ``[..., H - 2 size, W - 2 size]`` (at least 1x1).  Gradient:
    ``gradInput`` is gradOutput in the middle and 0 on the border.  The input
    may hold any numbers (the module only moves them).
    """

    def __init__(self, size):
        super().__init__()
        self.size = check_int(self, size, "size", 0)

    def _t7_fixup(self, version):
        self.size = lua_int(self.size)   # a Lua number
        if self.size < 0:
            raise ValueError(f"ShaveImage: size must be at least 0, got {self.size}")

    def _window(self, input):
        check_array(self, input)
        check_planes(self, input)
        s = self.size
        h, w = input.shape[-2:]
        if h - 2 * s < 1 or w - 2 * s < 1:
            raise ValueError(f"{name_of(self)}: shaving {s} from each side of a {h}x{w} (height x width) input "
                             f"leaves nothing; the input must be larger than {2 * s}x{2 * s}")
        return input.shape[:-2] + (h - 2 * s, w - 2 * s), (Ellipsis, slice(s, h - s), slice(s, w - s))

    def updateOutput(self, input):
        shape, window = self._window(input)
        self.output = reuse(self.output, shape, input.dtype, input)
        self.output[...] = input[window]
        return self.output

    def updateGradInput(self, input, gradOutput):
        shape, window = self._window(input)
        check_grad(self, gradOutput, shape)
        self.gradInput = reuse(self.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
        self.gradInput.fill(0)
        self.gradInput[window] = gradOutput
        return self.gradInput

    def __repr__(self):
        return f"nn.ShaveImage({self.size})"

    def _onnx(self, g, x, y):
        """Slice"""
        s, lead = self.size, [0] * (x.ndim - 2)
        return g.pad(x, lead + [-s, -s], lead + [-s, -s])
