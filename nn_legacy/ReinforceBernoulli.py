from ._helpers import random as _random
from ._helpers.arrays import reuse
from ._helpers.namespace import array_namespace
from .Reinforce import Reinforce


class ReinforceBernoulli(Reinforce):
    """REINFORCE over Bernoulli draws (the rnn package's
    ReinforceBernoulli): the input holds probabilities p; while training (or
    with ``stochastic``) each output element is 1 with probability p, else
    0 (``u < p`` for a uniform draw u); in evaluation the output is p
    itself, as in the package.

    Backward, after ``reinforce(reward)`` (gradOutput is ignored)::

        gradInput = -reward * (x - p) / (p * (1 - p))

    x the output sampled, the reward broadcast over each sample (see
    Reinforce).  ``ReinforceBernoulli(stochastic=False)``.
    """

    def updateOutput(self, input):
        self._check_input(input)
        xp = array_namespace(input)
        self.output = reuse(self.output, input.shape, input.dtype, input)
        if self._sampling():
            u = _random.random(xp, input.shape)   # (float64 draws: float32 samples the same)
            self.output[...] = (u < input).astype(input.dtype)
        else:
            self.output[...] = input
        return self.output

    def _gradient(self, input, reward):
        return -(self.output - input) / ((1 - input) * input) * reward
