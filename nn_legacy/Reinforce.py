from ._helpers.arrays import check_float_array, check_like, describe, is_array, reuse
from ._helpers.namespace import array_namespace
from .Module import Module


class Reinforce(Module):
    """The base of the REINFORCE modules (Williams, 1992), as in the rnn
    package (and dpnn before it): a module that samples its output from a
    distribution its input parameterises, and whose backward is not the
    derivative of its forward but REINFORCE's estimate of the gradient of the
    expected reward: ``gradInput = -reward * d log f(output; input) /
    d input``.  ``gradOutput`` is ignored.

    The reward comes from ``reinforce(reward)``, which a reward criterion
    (VRClassReward) calls on the whole model in its backward
    (``Module.reinforce`` hands it down the tree): an array ``[batch]``,
    one reward per sample, broadcast over the other dims of the input (an
    input of one sample takes a reward of one element).

    ``Reinforce(stochastic=False)``: ``stochastic`` samples in evaluation
    too; otherwise evaluation is deterministic (each subclass says what it
    outputs then).  The samples come from nn_legacy's generator
    (``nn.manualSeed`` repeats them).  This base class samples nothing: its
    output is its input, its gradInput the reward, broadcast to the input's
    shape (the package's Reinforce).
    """

    _onnx_unsupported = "REINFORCE: samples at random while training (its evaluation form is not exported yet)"

    def __init__(self, stochastic=False):
        super().__init__()
        self.stochastic = bool(stochastic)
        self.reward = None

    def reinforce(self, reward):
        """Keep reward (an array [batch]) for the next backward."""
        if not is_array(reward):
            raise TypeError(f"{type(self).__name__}.reinforce: reward must be an array [batch], got "
                            f"{type(reward).__name__}")
        if reward.ndim != 1 or reward.dtype.kind not in "fiu":
            raise ValueError(f"{type(self).__name__}.reinforce: reward must be a 1D array of numbers [batch], got "
                             f"{describe(reward)} of {reward.dtype}")
        self.reward = reward

    def _sampling(self):
        return self.stochastic or self.train

    def _check_input(self, input, name="input"):
        check_float_array(self, input, name)
        if input.ndim == 0:
            raise ValueError(f"{type(self).__name__}: {name} must have at least 1 dim, got a scalar")

    def _check_backward(self, input, gradOutput):
        """gradOutput is ignored, but when given it must look like the
        output; the output must be the one of a forward of this input."""
        first = input[0] if isinstance(input, (list, tuple)) else input
        if gradOutput is not None:
            check_like(self, gradOutput, "gradOutput", first, "the output")
        if not is_array(self.output) or self.output.shape != first.shape or self.output.dtype != first.dtype:
            raise RuntimeError(f"{type(self).__name__}: backward needs the output (the sample) of a forward of "
                               "this input first")

    def _reward_as(self, input):
        """The reward in input's dtype, shaped to broadcast over input: [batch,
        1, ...] over a batch input, [1, ...] (one element) over a single
        sample (the package's rewardAs)."""
        if self.reward is None:
            raise RuntimeError(f"{type(self).__name__}: backward needs a reward: call reinforce(reward) first (a "
                               "reward criterion such as VRClassReward does it in its backward)")
        xp = array_namespace(input)
        reward = xp.asarray(self.reward).astype(input.dtype)
        n = reward.shape[0]
        if n == input.shape[0]:
            return reward.reshape((n,) + (1,) * (input.ndim - 1))
        if n == 1:   # (a single sample: the package's online mode)
            return reward.reshape((1,) * input.ndim)
        raise ValueError(f"{type(self).__name__}: the reward holds {n} values, one per sample, but the input is "
                         f"{describe(input)}: {input.shape[0]} samples (or one)")

    def updateOutput(self, input):
        self._check_input(input)
        self.output = input
        return self.output

    def updateGradInput(self, input, gradOutput):
        self._check_input(input)
        self._check_backward(input, gradOutput)
        reward = self._reward_as(input)
        self.gradInput = reuse(self.gradInput, input.shape, input.dtype, input)
        self.gradInput[...] = self._gradient(input, reward)
        return self.gradInput

    def _gradient(self, input, reward):
        """``-reward * d log f(output; input) / d input`` for an array input
        (each subclass's distribution); the base passes the reward on."""
        return reward

    def _gradients_of_parts(self, table, parts):
        """gradInput of a distribution of two parameters, given as a table
        {first, second} or the first alone: parts holds, for each, (an array
        like it, a function giving its gradient, arrays the buffer must not
        overlap...); the buffers held before are reused."""
        held = self.gradInput if isinstance(self.gradInput, list) else [self.gradInput, None]
        held = [a if is_array(a) else None for a in held]
        out = []
        for k, (like, gradient, *avoid) in enumerate(parts[:2 if table else 1]):
            g = reuse(held[k], like.shape, like.dtype, like, *avoid, *out)
            g[...] = gradient()
            out.append(g)
        self.gradInput = out if table else out[0]
        return self.gradInput

    def _t7_fixup(self, version):
        fields = vars(self)
        self.stochastic = bool(fields.get("stochastic", False))
        reward = fields.get("reward")
        self.reward = reward if is_array(reward) and reward.ndim == 1 and reward.size else None
        for name in ("_reward", "__reward", "_uniform", "_div", "_input", "_index", "_stdev", "__stdev", "_stdev2",
                     "_scale", "__scale", "_logOutput", "_logScale"):
            fields.pop(name, None)

    def __repr__(self):
        return f"nn.{type(self).__name__}" + ("(stochastic)" if self.stochastic else "")

