from ._helpers.arrays import describe, name_of, reuse
from ._bases.dims import check_array, check_grad, check_int, lua_int
from ._helpers.planes import as_batch, check_planes
from .Module import Module


class PixelShuffle(Module):
    """Planes rearranged into pixels, for sub-pixel convolution (Shi et al.
    2016): with ``r = upscaleFactor``, an input ``[C*r*r, H, W]`` (or
    ``[batch, C*r*r, H, W]``) becomes ``[C, H*r, W*r]`` (or batched)::

        output[c, y*r + i, x*r + j] = input[c*r*r + i*r + j, y, x]

    for ``0 <= i, j < r``.  gradInput is gradOutput moved back the same way.
    The input may hold any numbers (the module only moves them).
    """

    def __init__(self, upscaleFactor):
        super().__init__()
        self.upscaleFactor = check_int(self, upscaleFactor, "upscaleFactor", 1)
        self.upscaleFactorSquared = self.upscaleFactor ** 2

    def _t7_fixup(self, version):
        self.upscaleFactor = lua_int(self.upscaleFactor)
        self.upscaleFactorSquared = self.upscaleFactor ** 2
        for name in ("_intermediateShape", "_outShape", "_shuffleOut"):   # Torch7's work buffers
            self.__dict__.pop(name, None)

    def _check(self, input):
        """(batched, the shape [batch, C, r, r, H, W] the input is split into, the output shape)."""
        check_array(self, input)
        batched = check_planes(self, input)
        r, planes, (h, w) = self.upscaleFactor, input.shape[-3], input.shape[-2:]
        if planes % (r * r):
            raise ValueError(f"{name_of(self)}: the number of input planes must be a multiple of "
                             f"upscaleFactor^2 = {r * r}, got {planes} in {describe(input)}")
        c = planes // (r * r)
        split = (input.shape[0] if batched else 1, c, r, r, h, w)
        return batched, split, input.shape[:-3] + (c, h * r, w * r)

    def updateOutput(self, input):
        batched, split, out_shape = self._check(input)
        self.output = reuse(self.output, out_shape, input.dtype, input)
        b, c, r, _, h, w = split
        moved = input.reshape(split).transpose(0, 1, 4, 2, 5, 3)       # [b, c, h, i, w, j]
        as_batch(self.output, batched).reshape(b, c, h, r, w, r)[...] = moved
        return self.output

    def updateGradInput(self, input, gradOutput):
        batched, split, out_shape = self._check(input)
        check_grad(self, gradOutput, out_shape)
        self.gradInput = reuse(self.gradInput, input.shape, gradOutput.dtype, input, gradOutput)
        b, c, r, _, h, w = split
        moved = as_batch(gradOutput, batched).reshape(b, c, h, r, w, r).transpose(0, 1, 3, 5, 2, 4)
        self.gradInput.reshape(split)[...] = moved
        return self.gradInput

    def __repr__(self):
        return f"nn.PixelShuffle({self.upscaleFactor})"

    def _onnx(self, g, x, y):
        """DepthToSpace (CRD)"""
        return g.with_batch(x, 4, lambda v: g.op("DepthToSpace", [v], blocksize=self.upscaleFactor, mode="CRD"))
