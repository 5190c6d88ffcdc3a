from ._helpers.arrays import name_of
from ._bases.tables import check_nested, check_nested_like, table_leaves
from .Module import Module


class FlattenTable(Module):
    """A nested table flattened, depth first: ``[a, [b, [c]], d]`` gives
    ``[a, b, c, d]`` (the arrays themselves, not copies; an array alone
    gives ``[array]``).  gradInput puts the arrays of gradOutput back into
    the input's nesting (the arrays themselves)."""

    _t7_tables = ('output', 'gradInput')   # save_lua: Torch7's constructor made these tables, not tensors

    def updateOutput(self, input):
        check_nested(self, input)
        self.output = table_leaves(input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        check_nested(self, input)
        leaves = table_leaves(input)
        check_nested_like(self, gradOutput, leaves)
        grads = iter(gradOutput)
        self.gradInput = _nest(input, grads)
        return self.gradInput

    def __repr__(self):
        return f"nn.{name_of(self)}"

    def _onnx(self, g, x, y):
        """none (the entries themselves)"""
        return table_leaves(x)


def _nest(like, flat):
    """The next arrays of the iterator flat, nested as like."""
    if isinstance(like, (list, tuple)):
        return [_nest(v, flat) for v in like]
    return next(flat)
