import numpy as np

from ._helpers.arrays import describe, is_array
from ._helpers.namespace import array_namespace
from .AbstractRecurrent import AbstractRecurrent
from .CopyGrad import CopyGrad


class NormStabilizer(AbstractRecurrent):
    """The rnn package's norm stabilizer (Krueger & Memisevic, "Regularizing
    RNNs by stabilizing activations"): put between recurrent layers, it
    passes each step's hidden state h_t ``[batch, size]`` on unchanged and
    adds to the gradient the one of the penalty

        beta * sum over t = 2..T of mean over the batch of (n_t - n_{t-1})^2,
        n_t = ||h_t||_2 per sample (T: the steps forwarded),

    that is, backward for step t adds to gradOutput ``2 beta / batch *
    ((n_t - n_{t-1}) [t > 1] + (n_t - n_{t+1}) [t < T]) / n_t * h_t`` (0
    for a sample whose n_t is 0).  Steps as AbstractRecurrent's: forward
    step by step, then backward last step first; a neighbour step that left
    the rho window adds nothing.  ``updateLoss()`` is the penalty divided by
    T (the rnn package's summed n_{t-1} + n_t there: a slip; the
    gradients, which it computed right, are of the difference).

    ``NormStabilizer(beta=1)``; the input is a batch, 2D, as in the package.
    """

    def __init__(self, beta=1):
        if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)):
            raise TypeError(f"NormStabilizer: beta must be a number, got {type(beta).__name__}")
        super().__init__(CopyGrad())
        self.beta = float(beta)
        self.loss = None

    _decorates_any = False
    _t7_raw_fields = ("sharedClones", "outputs", "gradInputs", "_gradOutputs", "gradOutputs", "_normsum",
                      "_gradInput")

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        beta = vars(self).get("beta", 1)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise T7Error(f"NormStabilizer: beta in the file must be a number, got {type(beta).__name__}")
        self.beta = float(beta)
        self.loss = vars(self).get("loss") if isinstance(vars(self).get("loss"), float) else None
        for name in self._t7_raw_fields:
            vars(self).pop(name, None)
        self._t7_finish(CopyGrad())

    def updateOutput(self, input):
        if not is_array(input) or input.ndim != 2 or input.dtype.kind != "f":
            got = describe(input) if is_array(input) else type(input).__name__
            raise ValueError(f"NormStabilizer: input must be a 2D float array [batch, size], got {got}")
        return super().updateOutput(input)

    def _norm(self, step):
        h = self._outputs[step]
        xp = array_namespace(h)
        return xp.sqrt((h * h).sum(axis=1, keepdims=True))

    def updateGradInput(self, input, gradOutput):
        step = self._backward_step("updateGradInputStep")
        gradInput = super().updateGradInput(input, gradOutput)   # a copy of gradOutput (CopyGrad)
        h = self._outputs[step]
        n = self._norm(step)
        diff = n * 0
        if step - 1 in self._outputs:
            diff += n - self._norm(step - 1)
        if step + 1 < self.step and step + 1 in self._outputs:
            diff += n - self._norm(step + 1)
        xp = array_namespace(h)
        safe = xp.where(n == 0, 1, n)
        scale = xp.where(n == 0, 0, diff / safe) * (2 * self.beta / max(h.shape[0], 1))
        gradInput += scale * h
        return gradInput

    def updateLoss(self):
        """The penalty (see the class doc) divided by the steps forwarded."""
        T = self.step - 1
        total = 0.0
        for t in range(2, T + 1):
            if t - 1 in self._outputs and t in self._outputs:
                d = self._norm(t) - self._norm(t - 1)
                total += float((d * d).mean())
        self.loss = self.beta * total / T if T else 0.0
        return self.loss

    def __repr__(self):
        return f"nn.NormStabilizer({self.beta:g})"
