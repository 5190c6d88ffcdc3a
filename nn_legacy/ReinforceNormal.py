import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import describe, is_array, reuse
from ._helpers.namespace import array_namespace
from .Reinforce import Reinforce


class ReinforceNormal(Reinforce):
    """REINFORCE over normal draws (the rnn package's ReinforceNormal): the
    input is the mean u of a normal distribution per element; while training
    (or with ``stochastic``) the output is ``x = u + s * n``, n drawn from
    N(0, 1); in evaluation it is u (the most likely value).

    ``ReinforceNormal(stdev=None, stochastic=False)``: stdev s a number, an
    array of the mean's shape, or an array of one sample's shape (shared by
    the samples of a batch).  Without stdev the input is the table ``[u,
    s]``, s of u's shape, and backward gives the gradient w.r.t. both.

    Backward, after ``reinforce(reward)`` (gradOutput is ignored; the reward
    broadcast over each sample)::

        gradInput_u = -reward * (x - u) / s^2
        gradInput_s = -reward * ((x - u)^2 - s^2) / (s^3 + 1e-8)
    """

    def __init__(self, stdev=None, stochastic=False):
        super().__init__(stochastic)
        if stdev is not None and not is_array(stdev):
            if isinstance(stdev, bool) or not isinstance(stdev, (int, float)) or not stdev > 0:
                raise ValueError(f"ReinforceNormal: stdev must be a positive number, an array or None, got {stdev!r}")
            stdev = float(stdev)
        self.stdev = stdev

    def _parts(self, input):
        """(mean, stdev as an array or number broadcasting over mean, table?)."""
        if isinstance(input, (list, tuple)):
            if len(input) != 2:
                raise ValueError(f"ReinforceNormal: a table input is [mean, stdev], got {len(input)} elements")
            mean, stdev = input
            self._check_input(mean, "mean (input[0])")
            self._check_input(stdev, "stdev (input[1])")
            if stdev.shape != mean.shape:
                raise ValueError(f"ReinforceNormal: stdev (input[1]) must have the mean's shape {list(mean.shape)}, "
                                 f"got {describe(stdev)}")
            return mean, stdev, True
        self._check_input(input)
        stdev = self.stdev
        if stdev is None:
            raise ValueError("ReinforceNormal: built without stdev, so the input must be the table [mean, stdev]")
        if is_array(stdev):
            xp = array_namespace(input)
            stdev = xp.asarray(stdev).astype(input.dtype)
            if stdev.shape != input.shape:
                if stdev.shape != input.shape[1:]:
                    raise ValueError(f"ReinforceNormal: stdev {describe(stdev)} must have the input's shape "
                                     f"{list(input.shape)} or one sample's {list(input.shape[1:])}")
                stdev = stdev.reshape((1,) + stdev.shape)
        return input, stdev, False

    def updateOutput(self, input):
        mean, stdev, _ = self._parts(input)
        xp = array_namespace(mean)
        self.output = reuse(self.output, mean.shape, mean.dtype, mean)
        if self._sampling():
            self.output[...] = _random.normal(xp, 0.0, 1.0, mean.shape, mean.dtype) * stdev + mean
        else:
            self.output[...] = mean
        return self.output

    def updateGradInput(self, input, gradOutput):
        mean, stdev, table = self._parts(input)
        self._check_backward(input, gradOutput)
        reward = self._reward_as(mean)
        diff = self.output - mean
        return self._gradients_of_parts(table, [
            (mean, lambda: -diff / (stdev * stdev) * reward),
            (stdev, lambda: -(diff * diff - stdev * stdev) / (stdev * stdev * stdev + 1e-8) * reward)])

    def _t7_unfixup(self, fields):
        """save_lua: without stdev the package's constructor made gradInput a
        table of two tensors, which its backward unpacks."""
        if self.stdev is None and not isinstance(fields.get("gradInput"), list):
            dtype = self.output.dtype if is_array(self.output) else np.float64
            fields["gradInput"] = [np.zeros(0, dtype), np.zeros(0, dtype)]

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        stdev = vars(self).get("stdev")
        if not (stdev is None or is_array(stdev) or (isinstance(stdev, float) and stdev > 0)):
            from ._helpers.lua import T7Error
            raise T7Error(f"ReinforceNormal: stdev in the file must be a positive number, a tensor or nil, got "
                          f"{stdev!r}")

    def __repr__(self):
        s = "" if self.stdev is None else (f"{self.stdev:g}" if isinstance(self.stdev, float) else "tensor")
        return f"nn.ReinforceNormal({s})" + (" stochastic" if self.stochastic else "")
