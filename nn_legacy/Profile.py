import time

from .Decorator import Decorator
from .Module import Module


class Profile(Decorator):
    """Times ``module`` (dpnn's Profile, in Lua nn): every
    ``print_interval`` forward passes it prints ``<name> took S seconds for
    N forward passes`` (the wall-clock time of those N updateOutput calls),
    and the same for backward passes (updateGradInput), then starts
    counting again.  ``name`` defaults to the module's class ("nn.Linear").
    Outputs and gradients are the module's, unchanged.  The running counts
    are ``numFwds``, ``numBwds``, ``summedFwdTime`` and ``summedBwdTime``."""

    _integer_arguments = ("print_interval",)
    _t7_raw_fields = ("timer",)   # a torch.Timer, which Torch7 saves empty

    def __init__(self, module, print_interval=100, name=None):
        super().__init__(module)
        if not isinstance(print_interval, int) or isinstance(print_interval, bool) or print_interval < 1:
            raise ValueError(f"Profile: print_interval must be a positive integer, got {print_interval!r}")
        self.print_interval = print_interval
        self.name = f"nn.{type(module).__name__}" if name is None else str(name)
        self.numFwds = self.numBwds = 0
        self.summedFwdTime = self.summedBwdTime = 0.0

    def _t7_fixup(self, version):
        self.print_interval = int(self.print_interval)
        self.numFwds, self.numBwds = int(self.numFwds), int(self.numBwds)
        for name in ("module", "timer"):   # Torch7's second reference to the module, and its timer
            self.__dict__.pop(name, None)

    def _timed(self, passes, count, total, verb, *args):
        """child's verb, its time added to the fields named total and count;
        the line printed every print_interval passes."""
        start = time.perf_counter()
        result = self._child(0, verb, *args)
        setattr(self, total, getattr(self, total) + time.perf_counter() - start)
        setattr(self, count, getattr(self, count) + 1)
        if getattr(self, count) % self.print_interval == 0:
            print(f"{self.name} took {getattr(self, total):.3f} seconds for {self.print_interval} {passes} passes")
            setattr(self, count, 0)
            setattr(self, total, 0.0)
        return result

    def updateOutput(self, input):
        self.output = self._timed("forward", "numFwds", "summedFwdTime", "updateOutput", input)
        return self.output

    def updateGradInput(self, input, gradOutput):
        self.gradInput = self._timed("backward", "numBwds", "summedBwdTime", "updateGradInput", input, gradOutput)
        return self.gradInput

    backward = Module.backward   # timed through updateGradInput (Decorator's goes straight to the module)

    def __repr__(self):
        return f"nn.Profile({self.name!r}) @ " + repr(self.modules[0])
