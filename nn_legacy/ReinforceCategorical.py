from ._helpers import random as _random
from ._helpers.arrays import describe, reuse
from ._helpers.namespace import array_namespace
from .Reinforce import Reinforce


class ReinforceCategorical(Reinforce):
    """REINFORCE over categorical draws (the rnn package's
    ReinforceCategorical): each row of the input ``[batch, k]`` (or one row
    ``[k]``) holds the probabilities of k classes (scaled to sum to 1, as
    torch.multinomial did); while training (or with ``stochastic``) the
    output is the one-hot row of one class drawn from them (the first class
    whose cumulative probability exceeds a uniform draw); in evaluation the
    output is the input itself, as in the package.

    Backward, after ``reinforce(reward)`` (gradOutput is ignored)::

        gradInput = -reward * x / (p + 1e-8)

    x the one-hot output (the derivative of log p[class drawn]), the
    reward broadcast over each row.  ``ReinforceCategorical(stochastic=False)``.
    """

    def _check_input(self, input, name="input"):
        super()._check_input(input, name)
        if input.ndim > 2:
            raise ValueError(f"ReinforceCategorical: {name} must be [batch, classes] or [classes], got "
                             f"{describe(input)}")

    def updateOutput(self, input):
        self._check_input(input)
        xp = array_namespace(input)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        if self._sampling():
            p = input.reshape((-1, input.shape[-1]))
            if bool((p < 0).any()) or not bool((p.sum(axis=1) > 0).all()):
                raise ValueError("ReinforceCategorical: each row of the input must hold probabilities: no "
                                 "negative element, a positive sum")
            cdf = xp.cumsum(p, axis=1)
            u = _random.random(xp, (p.shape[0], 1)) * cdf[:, -1:]
            drawn = (cdf <= u).sum(axis=1)          # the class of each row
            drawn = xp.minimum(drawn, p.shape[1] - 1)
            k = xp.arange(p.shape[1]).reshape((1, -1))
            self.output[...] = (k == drawn.reshape((-1, 1))).astype(input.dtype).reshape(input.shape)
        else:
            self.output[...] = input
        return self.output

    def _gradient(self, input, reward):
        return -self.output / (input + 1e-8) * reward
