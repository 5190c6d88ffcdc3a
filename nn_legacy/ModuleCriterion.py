from .Criterion import Criterion
from .Module import Module
from ._bases.numpy_criterion import NumpyCriterion


class ModuleCriterion(NumpyCriterion):
    """A criterion behind modules (dpnn's ModuleCriterion): the input goes
    through ``inputModule`` and the target through ``targetModule`` (either
    optional) before ``criterion`` sees them::

        loss = criterion(inputModule(input), targetModule(target))
        gradInput = inputModule.backward(input, dcriterion/d inputModule(input))

    Without inputModule gradInput is the criterion's own.  As in dpnn the
    inputModule is run with ``backward`` (scale 1), so parameter gradients
    of a module that has them accumulate: zero them as for any module.  No
    gradient flows to the target.  ``castTarget`` (default True) says
    whether ``type()``/``float()``/``double()`` convert targetModule too;
    set it to False for a target module that must keep its dtype.
    """

    def __init__(self, criterion, inputModule=None, targetModule=None, castTarget=True):
        super().__init__()
        if not isinstance(criterion, Criterion):
            raise TypeError(f"{self._name()}: criterion must be a Criterion, got {type(criterion).__name__}")
        for name, module in (("inputModule", inputModule), ("targetModule", targetModule)):
            if module is not None and not isinstance(module, Module):
                raise TypeError(f"{self._name()}: {name} must be a Module or None, got {type(module).__name__}")
        self.criterion = criterion
        self.inputModule = inputModule
        self.targetModule = targetModule
        self.castTarget = bool(castTarget)

    def _transformed(self, input, target):
        if self.inputModule is not None:
            input = self.inputModule.forward(input)
        if self.targetModule is not None:
            target = self.targetModule.forward(target)
        return input, target

    def updateOutput(self, input, target):
        self.output = float(self.criterion.updateOutput(*self._transformed(input, target)))
        return self.output

    def updateGradInput(self, input, target):
        # the modules' outputs from forward, as every backward uses its forward
        # (a stochastic inputModule must not draw again)
        inner_input, inner_target = input, target
        for name, module in (("inputModule", self.inputModule), ("targetModule", self.targetModule)):
            if module is not None and module.output is None:
                raise RuntimeError(f"{self._name()}: backward needs the {name}'s output: call forward first")
        if self.inputModule is not None:
            inner_input = self.inputModule.output
        if self.targetModule is not None:
            inner_target = self.targetModule.output
        grad = self.criterion.updateGradInput(inner_input, inner_target)
        self.gradInput = grad if self.inputModule is None else self.inputModule.backward(input, grad)
        return self.gradInput

    def type(self, dtype=None, _memo=None):
        if dtype is None:
            return None
        memo = {} if _memo is None else _memo
        target_module = self.targetModule
        self.targetModule = None  # Criterion.type would convert every module it finds
        try:
            Criterion.type(self, dtype, memo)
        finally:
            self.targetModule = target_module
        if self.castTarget and target_module is not None:
            target_module.type(dtype, memo)
        self.criterion.type(dtype, memo)
        return self

    def clearState(self):
        for part in (self.criterion, self.inputModule, self.targetModule):
            if part is not None:
                part.clearState()
        return super().clearState()

    def __repr__(self):
        parts = [f"criterion: {self.criterion!r}"]
        if self.inputModule is not None:
            parts.append(f"inputModule: {self.inputModule!r}")
        if self.targetModule is not None:
            parts.append(f"targetModule: {self.targetModule!r}")
        return "nn.ModuleCriterion {\n  " + "\n".join(parts).replace("\n", "\n  ") + "\n}"
