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

    def updateOutput(self, input):
        start = time.perf_counter()
        self.output = self._child(0, "updateOutput", input)
        self.summedFwdTime += time.perf_counter() - start
        self.numFwds += 1
        if self.numFwds % self.print_interval == 0:
            print(f"{self.name} took {self.summedFwdTime:.3f} seconds for {self.print_interval} forward passes")
            self.numFwds, self.summedFwdTime = 0, 0.0
        return self.output

    def updateGradInput(self, input, gradOutput):
        start = time.perf_counter()
        self.gradInput = self._child(0, "updateGradInput", input, gradOutput)
        self.summedBwdTime += time.perf_counter() - start
        self.numBwds += 1
        if self.numBwds % self.print_interval == 0:
            print(f"{self.name} took {self.summedBwdTime:.3f} seconds for {self.print_interval} backward passes")
            self.numBwds, self.summedBwdTime = 0, 0.0
        return self.gradInput

    backward = Module.backward   # timed through updateGradInput (Decorator's goes straight to the module)

    def __repr__(self):
        return f"nn.Profile({self.name!r}) @ " + repr(self.modules[0])
