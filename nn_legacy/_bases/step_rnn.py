"""What torch/rnn's StepLSTM and StepGRU share: SeqLSTM's / SeqGRU's weight
layout for one step, its reset, its input checks and its loading."""
import math

import numpy as np

from .._helpers.namespace import array_namespace
from .._helpers.random import generator
from ..Module import Module
from .recurrent import acc_update_by_swap, step_inputs


class StepRNN(Module):
    """One step of a whole-sequence RNN: ``weight`` ``[inputsize +
    outputsize, gates * outputsize]`` (W_x's rows, then W_h's), ``bias``
    ``[gates * outputsize]``, the second gate's bias 1 after reset() (the
    forget gate of an LSTM, the update gate of a GRU), as the Seq* modules
    do.  A subclass names its inputs (``_step_inputs``), its gate count
    (``_gates``) and the fields of torch/rnn's files it drops on loading
    (``_t7_dropped``)."""

    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    _buffer_names = ("gates",)
    _step_inputs = ("x", "h")
    _gates = 1
    _t7_dropped = ("recompute_backward", "forceLua", "zeroMask", "v2", "_zeroMask", "maskzero")
    inputSize = property(lambda self: self.inputsize)     # (the names the shared step checks read)
    outputSize = property(lambda self: self.outputsize)

    def _init_weights(self):
        n = self._gates * self.outputsize
        self.weight = np.zeros((self.inputsize + self.outputsize, n))
        self.gradWeight = np.zeros_like(self.weight)
        self.bias = np.zeros(n)
        self.gradBias = np.zeros_like(self.bias)
        self.gates = None
        self.reset()

    def reset(self, std=None):
        std = 1 / math.sqrt(self.outputsize + self.inputsize) if std is None else std
        H = self.outputsize
        self.bias[...] = 0
        self.bias[H:2 * H] = 1
        self.weight[...] = generator().normal(0, std, self.weight.shape).astype(self.weight.dtype)
        return self

    def _t7_fixup(self, version):
        from .rnn_t7 import check_step_weights
        check_step_weights(self)
        self.gates = None
        for name in self._t7_dropped:
            vars(self).pop(name, None)

    #: save_lua: the fields torch/rnn's constructor made tables of empty tensors, and how many
    _t7_lua_tables = {}

    def _t7_unfixup(self, fields):
        """save_lua: the fields torch/rnn's constructor made (its forward
        fills them): gates, the tables of empty tensors (one array each),
        maskzero and v2 (RecLSTM / RecGRU set ``_t7_lua_maskzero`` on the
        step they write when maskZero masked them: torch/rnn's maskZero(v1)
        is the flag on the step, v2 false as the mask comes from the input)."""
        dtype = self.weight.dtype
        fields["gates"] = np.zeros(0, dtype)
        for key, n in self._t7_lua_tables.items():
            fields[key] = [np.zeros(0, dtype) for _ in range(n)]
        masked = bool(vars(self).get("_t7_lua_maskzero", False))
        fields["maskzero"], fields["v2"] = masked, not masked

    def _unpack(self, input):
        """The inputs, contiguous (a strided view gives the same sums as a copy)."""
        values = step_inputs(self, input, self._step_inputs)
        xp = array_namespace(*values)
        return [xp.ascontiguousarray(v) for v in values]

    def accUpdateGradParameters(self, input, gradOutput, lr):
        acc_update_by_swap(self, lambda: self.accGradParameters(input, gradOutput, -lr))
