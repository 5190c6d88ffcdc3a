from ._bases.max_pooling import MaxUnpooling
from .SpatialMaxPooling import SpatialMaxPooling


class SpatialMaxUnpooling(MaxUnpooling):
    """The inverse of a SpatialMaxPooling module: its output put back where
    the maxima were, zeros elsewhere.

    ``SpatialMaxUnpooling(poolingModule)`` takes the pooling module itself
    (its kernel must equal its stride, as Torch7 required) and at every call
    uses the ``indices`` and input size of that module's last forward.
    input: the pooling's output shape, ``[planes, h, w]`` or
    ``[batch, planes, h, w]``; output ``[(batch,) planes, iheight, iwidth]``
    (the pooling's input size) with ``output[plane][indices[i]] = input[i]``,
    0 elsewhere (where two indices coincide the later element stays).

    Gradient: ``dL/dx[i] = dL/dy[plane][indices[i]]``.
    """

    _kernel = "SpatialMaxUnpooling"
    _pooling_class = SpatialMaxPooling
    _axes = "WH"

    def _sizes(self):
        return (self.owidth, self.oheight)
