import numpy as np

from .Module import Module


def _size(value):
    """How PrintSize shows an array (its size) or a table (its sizes, nested)."""
    if value is None:
        return "missing size"
    if isinstance(value, (list, tuple)):
        return "{" + ", ".join(_size(v) for v in value) + "}"
    if hasattr(value, "shape"):
        return "[" + ", ".join(map(str, np.shape(value) if isinstance(value, np.ndarray) else value.shape)) + "]"
    return type(value).__name__


class PrintSize(Module):
    """Prints the size of what goes through it and passes it on unchanged
    (dpnn's PrintSize, in Lua nn): forward prints ``<prefix>:input`` and the
    input's size (the sizes of a table's entries, nested), backward
    ``<prefix>:gradOutput`` and gradOutput's.  output is the input itself
    and gradInput gradOutput itself (no copy); any input.  ``prefix``
    defaults to "PrintSize"."""

    def __init__(self, prefix="PrintSize"):
        super().__init__()
        self.prefix = str(prefix)

    def updateOutput(self, input):
        print(f"{self.prefix}:input\n\t{_size(input)}")
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        print(f"{self.prefix}:gradOutput\n\t{_size(gradOutput)}")
        self.gradInput = gradOutput
        return self.gradInput

    def __repr__(self):
        return f"nn.PrintSize({self.prefix!r})"

    def _onnx(self, g, x, y):
        """none (the input passes through; the printing is not exported)"""
        return x
