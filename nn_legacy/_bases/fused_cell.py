"""What THNN's fused recurrent cells share (LSTMCellFused, GRUCellFused):
their two biases, their reset, their work storage and their loading."""
import math

import numpy as np

from .._helpers.checks import check_positive
from ..Module import Module, uniform
from .rnn_t7 import OwnT7Module


class FusedCell(OwnT7Module, Module):
    """A cell of ``_gates`` gates of hiddenSize from precomputed gate
    pre-activations: ``inputBias`` and ``hiddenBias`` ``[gates *
    hiddenSize]`` (both absent with ``bias=False``), drawn by reset() from
    U(-1/sqrt(hiddenSize), 1/sqrt(hiddenSize)) as torch.nn's cells do;
    ``storage`` is what the kernel's forward keeps for its backward."""

    _gates = 1
    _parameter_names = (("inputBias", "gradInputBias"), ("hiddenBias", "gradHiddenBias"))
    _buffer_names = ("storage", "_accGrads")
    _t7_sizes = ("hiddenSize",)

    def __init__(self, hiddenSize, bias=True):
        super().__init__()
        check_positive(type(self).__name__, hiddenSize=hiddenSize)
        self.hiddenSize = int(hiddenSize)
        n = self._gates * self.hiddenSize
        self.inputBias = np.zeros(n) if bias else None
        self.hiddenBias = np.zeros(n) if bias else None
        self.gradInputBias = np.zeros(n) if bias else None
        self.gradHiddenBias = np.zeros(n) if bias else None
        self.storage = None
        self._accGrads = None
        self.reset()

    def _t7_fresh(self):
        return type(self)(self.hiddenSize, bias=self.inputBias is not None)

    def _t7_parameter_count(self):
        return 2 * self._gates * self.hiddenSize if self.inputBias is not None else 0

    def reset(self, stdv=None):
        stdv = 1 / math.sqrt(self.hiddenSize) if stdv is None else stdv
        for name in ("inputBias", "hiddenBias"):
            bias = getattr(self, name)
            if bias is not None:
                bias[...] = uniform(bias.shape, stdv, bias.dtype)
        return self

    def __repr__(self):
        return f"nn.{type(self).__name__}({self.hiddenSize}{'' if self.inputBias is not None else ', without bias'})"
