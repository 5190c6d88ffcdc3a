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


# ---- rnn
# The rnn package's modules.  FastLSTM, LSTM, GRU, Recurrent and Recursor take
# one time step per forward and carry their state to the next (forget() starts
# over): their entries feed one step.  The sequencers, SeqLSTM and SeqGRU take
# a whole sequence [seqlen, batch, size] and start afresh at each forward.
# Backpropagation through time is checked in tests/test_rnn_gradients.py.
def _rnn_seq(rng):
    return rng.uniform(-2, 2, (4, 2, 3))


def _rnn_padded(rng):
    x = rng.uniform(-2, 2, (4, 3))
    x[1] = 0
    return x


_ENTRIES += [
    Entry("LinearNoBias", lambda: nn.LinearNoBias(5, 3), lambda r: _u(r, 4, 5)),
    Entry("MaskZero", lambda: nn.MaskZero(nn.Linear(3, 4), 1), _rnn_padded),
    Entry("FastLSTMStep", lambda: nn.FastLSTMStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4), _u(r, 2, 4)]),
    Entry("LSTMStep", lambda: nn.LSTMStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4), _u(r, 2, 4)]),
    Entry("GRUStep", lambda: nn.GRUStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4)]),
    Entry("FastLSTM", lambda: nn.FastLSTM(3, 4), lambda r: _u(r, 2, 3)),
    Entry("LSTM", lambda: nn.LSTM(3, 4), lambda r: _u(r, 2, 3)),
    Entry("GRU", lambda: nn.GRU(3, 4), lambda r: _u(r, 2, 3)),
    Entry("Recurrent", lambda: nn.Recurrent(4, nn.Linear(3, 4), nn.Linear(4, 4), nn.Tanh()), lambda r: _u(r, 2, 3)),
    Entry("Recursor", lambda: nn.Recursor(nn.Linear(3, 4)), lambda r: _u(r, 2, 3)),
    Entry("SeqLSTM", lambda: nn.SeqLSTM(3, 4), _rnn_seq),
    Entry("SeqGRU", lambda: nn.SeqGRU(3, 4), _rnn_seq),
    Entry("Sequencer", lambda: nn.Sequencer(nn.FastLSTM(3, 4)), _rnn_seq),
    Entry("Repeater", lambda: nn.Repeater(nn.GRU(3, 4), 3), lambda r: _u(r, 2, 3)),
    Entry("BiSequencer", lambda: nn.BiSequencer(nn.FastLSTM(3, 4), nn.GRU(3, 2)), _rnn_seq),
    Entry("BiSequencerLM", lambda: nn.BiSequencerLM(nn.GRU(3, 4)), _rnn_seq),
    Entry("SeqReverseSequence", lambda: nn.SeqReverseSequence(0), _rnn_seq),
]
ENTRIES = sorted(_ENTRIES, key=lambda e: e.id)
