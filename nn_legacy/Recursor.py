from .AbstractRecurrent import AbstractRecurrent
from .Module import Module


class Recursor(AbstractRecurrent):
    """Makes any module a recurrent one in the rnn package's sense: one step
    per forward, backward in reverse order, through a clone of the module
    per step (sharing its parameters), as AbstractRecurrent does.  Sequencer
    wraps a module that is not recurrent in one.

    The module has no state from step to step of its own; a recurrent
    module inside it (``Recursor(Sequential(LSTM, Linear))``) is not cloned:
    every clone holds that same instance, which counts its own steps (so
    feed them in step, forget them together).  ``Recursor(module,
    rho=9999999)``.
    """

    def __init__(self, module, rho=9999999):
        if not isinstance(module, Module):
            raise TypeError(f"Recursor: expected a Module to decorate, got {type(module).__name__}")
        super().__init__(module, rho)
        self.module = module

    _decorates_any = True

    # the clones and the record of the last sequence: not needed, not converted
    _t7_raw_fields = ("sharedClones", "outputs", "gradInputs", "_gradOutputs", "gradOutputs")

    def _t7_fixup(self, version):
        step = self._t7_loaded_step("module to decorate")
        self._t7_finish(step)
        self.module = step

    def __repr__(self):
        return "nn.Recursor @ " + repr(self.recurrentModule)
