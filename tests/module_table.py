"""One entry per nn_legacy module class: how to build it and feed it.

The generic contract harness, the device parity test and the ONNX parity test
all iterate ENTRIES, so a new class gets every check by adding its entry here.
An entry needs a class name, a builder and an input maker (plus a target maker
for a criterion); the other fields have defaults.  Inputs are float64 and
drawn from the generator passed in, so they repeat.
"""
import dataclasses
from typing import Callable, Optional

import numpy as np

import nn_legacy as nn


@dataclasses.dataclass(frozen=True)
class Entry:
    cls: str                                              # nn_legacy class name
    build: Callable[[], object]                           # a fresh float64 module or criterion
    input: Callable[[np.random.Generator], object]        # a valid input (batch form where there is one)
    target: Optional[Callable[[np.random.Generator], object]] = None   # criterions: a target for that input
    variant: str = ""                                     # tells entries of one class apart

    @property
    def id(self):
        return f"{self.cls}-{self.variant}" if self.variant else self.cls


def _u(rng, *shape):
    return rng.uniform(-2, 2, shape)


_ENTRIES = [
    Entry("Linear", lambda: nn.Linear(5, 3), lambda r: _u(r, 4, 5)),
    Entry("Sigmoid", lambda: nn.Sigmoid(), lambda r: _u(r, 4, 5)),
    Entry("MSECriterion", lambda: nn.MSECriterion(), lambda r: _u(r, 4, 5), lambda r: _u(r, 4, 5)),
]

ENTRIES = sorted(_ENTRIES, key=lambda e: e.id)


def entries_of(cls_name):
    """The entries of one class."""
    return [e for e in ENTRIES if e.cls == cls_name]
