import math
import numpy as np

from ._helpers.arrays import describe, name_of
from ._bases.dims import ViewOf, check_int, lua_int, shape_text, sizes_arg


class View(ViewOf):
    """The input seen with the sizes ``sizes`` (``View(3, 4)`` or
    ``View((3, 4))``); one size may be -1, inferred from the number of
    elements.

    Batches, by Torch7's rule: the last ``numInputDims`` dims of the input
    (``setNumInputDims``; by default all of them) hold the elements of one
    sample.  Without a -1 among the sizes, the number of samples there is
    (their elements) / prod(sizes); with a -1 it is 1.  Any leading dims
    beyond numInputDims multiply it.  The output is ``[batch] + sizes``,
    except that a batch of 1 from an input of at most numInputDims dims
    (or with numInputDims unset) gives just ``sizes``.  Output and gradInput
    are views when the memory allows (see ``ViewOf``); Torch7 refused
    non-contiguous input instead of copying it.
    """

    def __init__(self, *sizes):
        super().__init__()
        self.size = sizes_arg(self, sizes, "sizes", allow_infer=True)
        self.numElements = int(math.prod([n for n in self.size if n != -1]))
        self.numInputDims = None

    def resetSize(self, *sizes):
        """Take other sizes (as the constructor's), keeping numInputDims;
        returns self.  torch-rnn resized its views at every forward."""
        self.size = sizes_arg(self, sizes, "sizes", allow_infer=True)
        self.numElements = int(math.prod([n for n in self.size if n != -1]))
        return self

    def setNumInputDims(self, numInputDims):
        self.numInputDims = check_int(self, numInputDims, "numInputDims", 0, optional=True)
        return self

    #: fields save_lua writes as torch.LongStorages, as Torch7's constructor made them
    _t7_storages = ("size",)

    def _t7_fixup(self, version):
        self.size = tuple(int(n) for n in np.asarray(self.size).ravel())
        self.numElements = int(math.prod([n for n in self.size if n != -1]))
        self.numInputDims = lua_int(getattr(self, "numInputDims", None))

    def _shape(self, input):
        n = input.ndim if self.numInputDims is None else self.numInputDims
        if n > input.ndim:
            raise ValueError(f"{name_of(self)}: input must have at least numInputDims ({n}) dimensions, "
                             f"got {describe(input)}")
        lead, inner = input.shape[:input.ndim - n], int(math.prod(input.shape[input.ndim - n:]))
        if inner % self.numElements:
            raise ValueError(f"{name_of(self)}: input {describe(input)} does not fit the view "
                             f"{shape_text(self.size)}")
        batch = (1 if -1 in self.size else inner // self.numElements) * int(math.prod(lead))
        if batch == 1 and (self.numInputDims is None or input.ndim <= self.numInputDims):
            shape = self.size
        else:
            shape = (batch,) + self.size
        if -1 in shape:   # what one sample's elements leave for it (a batch of 0 samples too)
            shape = tuple(inner // self.numElements if s == -1 else s for s in shape)
        return shape

    def __repr__(self):
        return f"nn.View({', '.join(map(str, self.size))})"
