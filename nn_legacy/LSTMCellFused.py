from ._helpers.checks import check_table
from ._bases.fused_cell import FusedCell


class LSTMCellFused(FusedCell):
    """One LSTM step from precomputed gate pre-activations (THNN's LSTMFused kernels).

    input: a list ``[inputGates, hiddenGates, cx]`` with ``inputGates = W_ih
    x`` and ``hiddenGates = W_hh hx`` of shape ``[batch, 4*hiddenSize]`` (or
    ``[4*hiddenSize]``), in the gate order i (input), f (forget), g (cell
    candidate), o (output), and the previous cell state ``cx`` ``[batch,
    hiddenSize]`` (or ``[hiddenSize]``); output: the list ``[hy, cy]``, each
    shaped as cx.  With ``a = inputGates + hiddenGates + inputBias +
    hiddenBias`` split into its i, f, g, o blocks::

        i = sigmoid(a_i), f = sigmoid(a_f), g = tanh(a_g), o = sigmoid(a_o)
        cy = f * cx + i * g
        hy = o * tanh(cy)

    which is torch.nn.LSTMCell once the two matrix products are done (by a
    Linear each, say).  ``inputBias`` and ``hiddenBias`` are
    ``[4*hiddenSize]`` (both absent with ``bias=False``); only their sum
    matters, both are kept to match torch.nn.LSTMCell.  reset() draws them
    from U(-1/sqrt(hiddenSize), 1/sqrt(hiddenSize)) as torch.nn.LSTMCell does.

    Gradients: gradOutput is ``[dL/dhy, dL/dcy]`` (``dL/dcy`` may be None,
    meaning zero, e.g. at the last step).  With ``dc = dL/dhy o (1 -
    tanh(cy)^2) + dL/dcy``: ``d_i = dc g i (1 - i)``, ``d_f = dc cx f (1 -
    f)``, ``d_g = dc i (1 - g^2)``, ``d_o = dL/dhy tanh(cy) o (1 - o)`` and
    ``dL/dcx = dc f``.  The gates enter as a sum, so inputGates and
    hiddenGates share one gradient: ``gradInput = [d, d, dL/dcx]`` holds the
    same array ``d`` twice.  Both biases accumulate ``scale * d`` summed over
    the batch.
    """

    _kernel = "LSTMFused"

    _gates = 4

    def _unpack(self, input):
        """(backend, [inputGates, hiddenGates, cx])"""
        gates, hidden, cx = check_table("LSTMCellFused", "input", input, ("inputGates", "hiddenGates", "cx"))
        return self._kernels(gates, "inputGates"), (gates, hidden, cx)

    def updateOutput(self, input):
        k, (gates, hidden, cx) = self._unpack(input)
        hy, cy = self.output if self.output is not None else (None, None)
        hy, cy, self.storage = k.LSTMFused_updateOutput(
            gates, hidden, self.inputBias, self.hiddenBias, cx, hy, cy, self.storage)
        self.output = [hy, cy]
        return self.output

    def _gradients(self, k, input, gradOutput, reuse):
        """[dL/dgates, dL/dcx], written into the arrays of reuse when they fit."""
        if self.storage is None or self.output is None:
            raise RuntimeError("LSTMCellFused: the backward pass needs the state of a forward pass first")
        gradHy, gradCy = check_table("LSTMCellFused", "gradOutput", gradOutput, ("gradHy", "gradCy"))
        gates, cx = reuse if reuse is not None else (None, None)
        return list(k.LSTMFused_updateGradInput(self.storage, gates, input[2], self.output[1],
                                                gradHy, gradCy, cx))

    def updateGradInput(self, input, gradOutput):
        k, input = self._unpack(input)
        reuse = None if self.gradInput is None else (self.gradInput[0], self.gradInput[2])
        gates, cx = self._gradients(k, input, gradOutput, reuse)
        self.gradInput = [gates, gates, cx]
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.inputBias is None:
            return
        k, input = self._unpack(input)
        # the gate gradients again, in buffers of our own: self.gradInput may have been changed by the caller
        self._accGrads = self._gradients(k, input, gradOutput, self._accGrads)
        d = self._accGrads[0].reshape(-1, 4 * self.hiddenSize).sum(axis=0)
        self.gradInputBias += scale * d
        self.gradHiddenBias += scale * d

    def _onnx(self, g, x, y):
        """Add, Split into the gates, Sigmoid / Tanh, Mul, Add"""
        a = g.op("Add", [x[0], x[1]])
        if self.inputBias is not None:
            a = g.op("Add", [a, g.param(self.inputBias + self.hiddenBias, "bias")])
        i, f, c, o = g.op("Split", [a], outputs=4, axis=-1, num_outputs=4)
        i, f, o, c = g.op("Sigmoid", [i]), g.op("Sigmoid", [f]), g.op("Sigmoid", [o]), g.op("Tanh", [c])
        cy = g.op("Add", [g.op("Mul", [f, x[2]]), g.op("Mul", [i, c])])
        return [g.op("Mul", [o, g.op("Tanh", [cy])]), cy]
