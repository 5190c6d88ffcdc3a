import math
import numpy as np

from ._helpers.arrays import describe, name_of
from ._bases.dims import ViewOf, shape_text, sizes_arg


class Reshape(ViewOf):
    """The input reshaped to ``size`` (Torch7: ``Reshape(3, 4)``; here also
    ``Reshape((3, 4))``), or to ``[batch] + size`` for a batch.

    ``batchMode``: True always keeps the first dim of the input as the
    batch, False never; None (the default) takes the input as one sample
    when it has exactly prod(size) elements and a first dim other than 1,
    and as a batch otherwise.  A trailing bool among the sizes is taken as
    batchMode, as Torch7 did.  Output and gradInput are views when the
    memory allows (see ``ViewOf``).
    """

    def __init__(self, *size, batchMode=None):
        super().__init__()
        if size and isinstance(size[-1], (bool, np.bool_)):
            if batchMode is not None:
                raise TypeError(f"{name_of(self)}: batchMode given twice")
            size, batchMode = size[:-1], bool(size[-1])
        if batchMode is not None and not isinstance(batchMode, (bool, np.bool_)):
            raise TypeError(f"{name_of(self)}: batchMode must be True, False or None, got {batchMode!r}")
        self.size = sizes_arg(self, size)
        self.nelement = int(math.prod(self.size))
        self.batchMode = None if batchMode is None else bool(batchMode)

    #: fields save_lua writes as torch.LongStorages, as Torch7's constructor made them
    _t7_storages = ("size", "batchsize")

    def _t7_unfixup(self, fields):
        """save_lua: Torch7's batchsize, the storage of [batch] + size its
        forward viewed a batch with (the batch filled in then)."""
        fields["batchsize"] = (1,) + tuple(self.size)

    def _t7_fixup(self, version):
        self.size = tuple(int(n) for n in np.asarray(self.size).ravel())
        self.nelement = int(math.prod(self.size))
        self.batchMode = getattr(self, "batchMode", None)
        self.__dict__.pop("batchsize", None)   # Torch7's buffer for [batch] + size

    def _shape(self, input):
        sample = self.batchMode is False or (self.batchMode is None and input.size == self.nelement
                                             and (input.ndim == 0 or input.shape[0] != 1))
        batch = not sample and input.ndim > 0
        shape = (input.shape[0],) + self.size if batch else self.size
        if int(math.prod(shape)) != input.size:
            as_batch = f" (a batch of {shape[0]})" if batch else ""
            raise ValueError(f"{name_of(self)}: input {describe(input)} has {input.size} elements, which cannot "
                             f"be reshaped to {shape_text(shape)}{as_batch}")
        return shape

    def __repr__(self):
        return f"nn.Reshape({'x'.join(map(str, self.size))})"
