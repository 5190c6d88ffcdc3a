import itertools

import numpy as np

from .Decorator import Decorator
from .Module import Module


def _has_nan(value):
    """A NaN anywhere in an array or (nested) table of arrays."""
    if isinstance(value, (list, tuple)):
        return any(_has_nan(v) for v in value)
    return isinstance(value, np.ndarray) and value.dtype.kind in "fc" and bool(np.isnan(value).any())


class NaN(Decorator):
    """Runs ``module`` and raises as soon as a NaN appears, saying where it
    came from (dpnn's NaN, in Lua nn): a FloatingPointError naming this
    decorator's ``id`` and the module, for a NaN in

    - the output: "in input" when the input held one already, "in
      parameters" when the module's parameters did, else "in output";
    - gradInput: "in gradOutput" when gradOutput held one, else "in gradInput";
    - the parameter gradients after accGradParameters: "in gradParameters".

    ``id`` defaults to a number counted up from 1 over the NaN decorators
    made.  Values are otherwise passed through unchanged: output and
    gradInput are the module's own arrays.  (Torch7 tested whether the sum
    was NaN, which an array holding both +inf and -inf also makes; here only
    a NaN element counts.)
    """

    _ids = itertools.count(1)

    def __init__(self, module, id=None):
        super().__init__(module)
        self.id = next(NaN._ids) if id is None else id

    def _fail(self, where):
        raise FloatingPointError(f"NaN found in {where} of module :\n{self!r}")

    def updateOutput(self, input):
        self.output = self._child(0, "updateOutput", input)
        if _has_nan(self.output):
            if _has_nan(input):
                self._fail("input")
            if _has_nan(self.parameters()[0]):
                self._fail("parameters")
            self._fail("output")
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
        if _has_nan(self.gradInput):
            if _has_nan(gradOutput):
                self._fail("gradOutput")
            self._fail("gradInput")
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        self._child(0, "accGradParameters", input, gradOutput, scale)
        if _has_nan(self.parameters()[1]):
            self._fail("gradParameters")

    backward = Module.backward   # through the checks above (Decorator's goes straight to the module)

    def __repr__(self):
        return f"nn.NaN({self.id}) @ " + repr(self.modules[0])
