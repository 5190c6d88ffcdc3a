from ._helpers.checks import check_table
from ._bases.fused_cell import FusedCell


class GRUCellFused(FusedCell):
    """One GRU step from precomputed gate pre-activations (THNN's GRUFused kernels).

    input: a list ``[inputGates, hiddenGates, hx]`` with ``inputGates = W_ih
    x`` and ``hiddenGates = W_hh hx`` of shape ``[batch, 3*hiddenSize]`` (or
    ``[3*hiddenSize]``), in the gate order r (reset), z (update), n (new), and
    ``hx`` ``[batch, hiddenSize]`` (or ``[hiddenSize]``); output ``hy``,
    shaped as hx.  With ``a = inputGates + inputBias`` and ``h = hiddenGates
    + hiddenBias`` split into their r, z, n blocks::

        r  = sigmoid(a_r + h_r),  z = sigmoid(a_z + h_z)
        n  = tanh(a_n + r * h_n)
        hy = (1 - z) * n + z * hx

    which is torch.nn.GRUCell once the two matrix products are done (by a
    Linear each, say).  ``inputBias`` and ``hiddenBias`` are ``[3*hiddenSize]``
    (both absent with ``bias=False``); reset() draws them from
    U(-1/sqrt(hiddenSize), 1/sqrt(hiddenSize)) as torch.nn.GRUCell does.

    Gradients (gradOutput = dL/dhy): ``gradInput = [dL/dinputGates,
    dL/dhiddenGates, dL/dhx]`` with ``dL/dhx = dL/dhy * z`` and, per gate
    pre-activation, ``d_z = dL/dhy (hx - n) z (1 - z)``, ``d_n = dL/dhy (1 -
    z)(1 - n^2)``, ``d_r = d_n h_n r (1 - r)``; inputGates gets ``(d_r, d_z,
    d_n)`` and hiddenGates ``(d_r, d_z, r d_n)``.  ``dL/dinputBias += scale *
    dL/dinputGates`` and ``dL/dhiddenBias += scale * dL/dhiddenGates``, summed
    over the batch.
    """

    _kernel = "GRUFused"

    _gates = 3

    def _unpack(self, input):
        """(backend, [inputGates, hiddenGates, hx])"""
        gates, hidden, hx = check_table("GRUCellFused", "input", input, ("inputGates", "hiddenGates", "hx"))
        return self._kernels(gates, "inputGates"), (gates, hidden, hx)

    def updateOutput(self, input):
        k, (gates, hidden, hx) = self._unpack(input)
        self.output, self.storage = k.GRUFused_updateOutput(
            gates, hidden, self.inputBias, self.hiddenBias, hx, self.output, self.storage)
        return self.output

    def _gradients(self, k, gradOutput, reuse):
        """[dL/dinputGates, dL/dhiddenGates, dL/dhx], written into the arrays of reuse when they fit."""
        if self.storage is None:
            raise RuntimeError("GRUCellFused: the backward pass needs the storage of a forward pass first")
        gates, hidden, hx = reuse if reuse is not None else (None, None, None)
        return list(k.GRUFused_updateGradInput(gates, hidden, gradOutput, hx, self.storage))

    def updateGradInput(self, input, gradOutput):
        k, _ = self._unpack(input)
        self.gradInput = self._gradients(k, gradOutput, self.gradInput)
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        if self.inputBias is None:
            return
        k, _ = self._unpack(input)
        # the gate gradients again, in buffers of our own: self.gradInput may have been changed by the caller
        self._accGrads = self._gradients(k, gradOutput, self._accGrads)
        gi, gh = self._accGrads[0], self._accGrads[1]
        self.gradInputBias += scale * gi.reshape(-1, gi.shape[-1]).sum(axis=0)
        self.gradHiddenBias += scale * gh.reshape(-1, gh.shape[-1]).sum(axis=0)

    def _onnx(self, g, x, y):
        """Add of the biases, Split into the gates, Sigmoid / Tanh, Mul, Add"""
        a, h = x[0], x[1]
        if self.inputBias is not None:
            a, h = g.op("Add", [a, g.param(self.inputBias, "inputBias")]), g.op("Add", [h, g.param(self.hiddenBias,
                                                                                                   "hiddenBias")])
        a_r, a_z, a_n = g.op("Split", [a], outputs=3, axis=-1, num_outputs=3)
        h_r, h_z, h_n = g.op("Split", [h], outputs=3, axis=-1, num_outputs=3)
        r, z = g.op("Sigmoid", [g.op("Add", [a_r, h_r])]), g.op("Sigmoid", [g.op("Add", [a_z, h_z])])
        n = g.op("Tanh", [g.op("Add", [a_n, g.op("Mul", [r, h_n])])])
        return g.op("Add", [n, g.op("Mul", [z, g.op("Sub", [x[2], n])])])
