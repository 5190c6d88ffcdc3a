from ._bases.max_pooling import MaxUnpooling
from .VolumetricMaxPooling import VolumetricMaxPooling


class VolumetricMaxUnpooling(MaxUnpooling):
    """The inverse of a VolumetricMaxPooling module: its output put back
    where the maxima were, zeros elsewhere.

    ``VolumetricMaxUnpooling(poolingModule)`` takes the pooling module itself
    (its kernel must equal its stride, as Torch7 required) and at every call
    uses the ``indices`` and input size of that module's last forward.
    input: the pooling's output shape, ``[planes, t, h, w]`` or
    ``[batch, planes, t, h, w]``; output
    ``[(batch,) planes, itime, iheight, iwidth]`` with
    ``output[plane][indices[i]] = input[i]``, 0 elsewhere (where two indices
    coincide the later element stays).

    Gradient: ``dL/dx[i] = dL/dy[plane][indices[i]]``.
    """

    _kernel = "VolumetricMaxUnpooling"
    _pooling_class = VolumetricMaxPooling
    _axes = "TWH"

    def _sizes(self):
        return (self.otime, self.owidth, self.oheight)
