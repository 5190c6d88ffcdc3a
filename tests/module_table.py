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


# ---- newcomer
# The modules of issue 13 (the rest of Lua nn) and the dim variants of the
# softmax family.  Notes for the harnesses: Kmeans's output is a nearest-centre
# index (piecewise constant) and its gradWeight is the k-means step, not a
# derivative of the output; WhiteNoise draws noise at every training forward;
# PrintSize and Profile print; GPU runs its module on a CUDA device after cuda().
_ENTRIES += [
    Entry("CAddTensorTable", lambda: nn.CAddTensorTable(), lambda r: [_u(r, 3, 4), [_u(r, 3, 4), _u(r, 3, 4)]]),
    Entry("Convert", lambda: nn.Convert("bchw", "bf"), lambda r: _u(r, 2, 3, 4, 5)),
    Entry("Convert", lambda: nn.Convert("bhwc", "bchw"), lambda r: _u(r, 2, 4, 5, 3), variant="transpose"),
    Entry("DontCast", lambda: nn.DontCast(nn.Linear(5, 3), True), lambda r: _u(r, 4, 5)),
    Entry("GPU", lambda: nn.GPU(nn.Linear(5, 3), 1), lambda r: _u(r, 4, 5)),
    Entry("Kmeans", lambda: nn.Kmeans(3, 5), lambda r: _u(r, 8, 5)),
    Entry("LayerNormalization", lambda: nn.LayerNormalization(5), lambda r: _u(r, 4, 5)),
    Entry("LayerNormalization", lambda: nn.LayerNormalization(5, affine=False), lambda r: _u(r, 4, 5),
          variant="plain"),
    Entry("LinearWeightNorm", lambda: nn.LinearWeightNorm(5, 3), lambda r: _u(r, 4, 5)),
    Entry("NaN", lambda: nn.NaN(nn.Linear(5, 3)), lambda r: _u(r, 4, 5)),
    Entry("PrintSize", lambda: nn.PrintSize(), lambda r: _u(r, 4, 5)),
    Entry("Profile", lambda: nn.Profile(nn.Linear(5, 3), 10 ** 9), lambda r: _u(r, 4, 5)),
    Entry("SpatialAutoCropMSECriterion", lambda: nn.SpatialAutoCropMSECriterion(), lambda r: _u(r, 2, 3, 4, 5),
          lambda r: _u(r, 2, 3, 6, 7)),
    Entry("TemporalDynamicKMaxPooling", lambda: nn.TemporalDynamicKMaxPooling(2, 0.5), lambda r: _u(r, 3, 7, 4)),
    Entry("WhiteNoise", lambda: nn.WhiteNoise(0.1, 0.2), lambda r: _u(r, 4, 5)),
    Entry("SoftMax", lambda: nn.SoftMax(2), lambda r: _u(r, 2, 3, 4), variant="dim"),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(0), lambda r: _u(r, 3, 4), variant="dim"),
    Entry("SoftMin", lambda: nn.SoftMin(-1), lambda r: _u(r, 2, 3, 4), variant="dim"),
    Entry("Add", lambda: nn.Add((3, 4)), lambda r: _u(r, 2, 3, 4), variant="shape"),
]
ENTRIES = sorted(_ENTRIES, key=lambda e: e.id)
