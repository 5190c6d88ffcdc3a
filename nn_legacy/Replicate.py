from ._helpers.arrays import reuse
from ._bases.dims import batch_dim, check_array, check_grad, check_int, from_lua, lua_int
from ._helpers.namespace import array_namespace
from .Module import Module


class Replicate(Module):
    """``nFeature`` copies of the input stacked along a new dim ``dim``
    (0-based; negative counts from the end of the output's dims):
    ``output[..., k, ...] = input`` for ``k < nFeature``.  With ``ndim``
    (the dims of one sample) and an input of ``ndim + 1`` dims, dim is
    counted after the batch dim.  gradInput is the sum of gradOutput over
    the new dim.

    The output is a copy (Torch7 returned a view with stride 0, which numpy
    can only give read-only).
    """

    def __init__(self, nFeature, dim=0, ndim=None):
        super().__init__()
        self.nfeatures = check_int(self, nFeature, "nFeature", 1)   # Torch7's field names
        self.dim = check_int(self, dim, "dim")
        self.ndim = check_int(self, ndim, "ndim", 0, optional=True)

    _t7_one_based = ('dim',)   # save_lua: the 0-based dims/indices its _t7_fixup made, 1-based again

    def _t7_fixup(self, version):
        self.nfeatures = lua_int(self.nfeatures)
        self.dim = from_lua(getattr(self, "dim", 1))
        self.ndim = lua_int(getattr(self, "ndim", None))

    def _dim(self, input):
        return batch_dim(self, self.dim, input, self.ndim, name="dim", new=True)

    def updateOutput(self, input):
        xp = array_namespace(input)
        check_array(self, input)
        d = self._dim(input)
        shape = input.shape[:d] + (self.nfeatures,) + input.shape[d:]
        self.output = reuse(self.output, shape, input.dtype, input)
        self.output[...] = xp.expand_dims(input, d)
        return self.output

    def updateGradInput(self, input, gradOutput):
        xp = array_namespace(input)
        check_array(self, input)
        d = self._dim(input)
        check_grad(self, gradOutput, input.shape[:d] + (self.nfeatures,) + input.shape[d:])
        total = xp.ascontiguousarray(gradOutput).sum(axis=d)  # the same sums whatever the layout
        self.gradInput = reuse(self.gradInput, input.shape, total.dtype, input, gradOutput)
        self.gradInput[...] = total
        return self.gradInput

    def __repr__(self):
        return f"nn.Replicate({self.nfeatures}, {self.dim})"

    def _onnx(self, g, x, y):
        """Unsqueeze, Expand"""
        d = self._dim(x.value)
        if d == 0 and x.batched:
            g.fix_batch("it replicates along the batch dimension")
        sizes = [1] * (x.ndim + 1)
        sizes[d] = self.nfeatures
        return g.op("Expand", [g.op("Unsqueeze", [x, g.ints([d])]), g.ints(sizes)])
