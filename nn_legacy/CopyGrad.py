from ._bases.pass_through import PassThrough
from ._bases.tables import nested_copy


class CopyGrad(PassThrough):
    """The rnn package's CopyGrad: ``output = input`` (the object itself,
    as Identity) and gradInput a copy of gradOutput (a buffer of its own,
    not gradOutput itself, which a later module may overwrite).  Arrays
    or tables of them."""

    def _gradient(self, input, gradOutput):
        return nested_copy(self.gradInput, gradOutput)
