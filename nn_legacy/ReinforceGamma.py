import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import describe, is_array, reuse, to_host
from ._helpers.namespace import array_namespace
from .Reinforce import Reinforce


class ReinforceGamma(Reinforce):
    """REINFORCE over gamma draws (the rnn package's ReinforceGamma): the
    input is the shape k of a gamma distribution per element, of scale
    theta; while training (or with ``stochastic``) the output x is drawn
    from Gamma(k, theta) (nn_legacy's generator, on the host; the package
    used randomkit); in evaluation it is ``k * theta``, as in the package.

    ``ReinforceGamma(scale=None, stochastic=False)``: scale theta a number,
    an array of the input's shape, or of one sample's shape (shared by a
    batch).  Without scale the input is the table ``[k, theta]`` (theta of
    k's shape), and backward gives the gradient w.r.t. both.

    Backward, after ``reinforce(reward)`` (gradOutput is ignored; psi is the
    digamma function, the reward broadcast over each sample)::

        gradInput_k     = -reward * (log x - psi(k) - log theta)
        gradInput_theta = -reward * (x / theta^2 - k / theta)
    """

    def __init__(self, scale=None, stochastic=False):
        super().__init__(stochastic)
        if scale is not None and not is_array(scale):
            if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
                raise ValueError(f"ReinforceGamma: scale must be a positive number, an array or None, got {scale!r}")
            scale = float(scale)
        self.scale = scale

    def _parts(self, input):
        """(shape k, scale theta as an array of k's shape, table?)."""
        if isinstance(input, (list, tuple)):
            if len(input) != 2:
                raise ValueError(f"ReinforceGamma: a table input is [shape, scale], got {len(input)} elements")
            k, theta = input
            self._check_input(k, "shape (input[0])")
            self._check_input(theta, "scale (input[1])")
            if theta.shape != k.shape:
                raise ValueError(f"ReinforceGamma: scale (input[1]) must have the shape's shape {list(k.shape)}, "
                                 f"got {describe(theta)}")
            return k, theta, True
        self._check_input(input)
        k, theta = input, self.scale
        xp = array_namespace(k)
        if theta is None:
            raise ValueError("ReinforceGamma: built without scale, so the input must be the table [shape, scale]")
        if is_array(theta):
            theta = xp.asarray(theta).astype(k.dtype)
            if theta.shape != k.shape and theta.shape != k.shape[1:]:
                raise ValueError(f"ReinforceGamma: scale {describe(theta)} must have the input's shape "
                                 f"{list(k.shape)} or one sample's {list(k.shape[1:])}")
            theta = xp.broadcast_to(theta, k.shape)
        else:
            theta = xp.full(k.shape, theta, dtype=k.dtype)
        return k, theta, False

    def updateOutput(self, input):
        k, theta, _ = self._parts(input)
        xp = array_namespace(k)
        self.output = reuse(self.output, k.shape, k.dtype, k)
        if self._sampling():
            k_host, theta_host = to_host(k), to_host(theta)
            if not (k_host > 0).all() or not (theta_host > 0).all():
                raise ValueError("ReinforceGamma: the shape and the scale must be positive to draw")
            drawn = _random.generator().gamma(k_host, theta_host).astype(k.dtype)
            self.output[...] = drawn if xp is np else xp.asarray(drawn)
        else:
            self.output[...] = k * theta
        return self.output

    def updateGradInput(self, input, gradOutput):
        k, theta, table = self._parts(input)
        self._check_backward(input, gradOutput)
        xp = array_namespace(k)
        reward = self._reward_as(k)
        psi = digamma(to_host(k)).astype(k.dtype)
        psi = psi if xp is np else xp.asarray(psi)
        return self._gradients_of_parts(table, [
            (k, lambda: -(xp.log(self.output) - psi - xp.log(theta)) * reward),
            (k, lambda: -(self.output / (theta * theta) - k / theta) * reward, theta)])

    def _t7_unfixup(self, fields):
        """save_lua: without scale the package's constructor made gradInput a
        table of two tensors, which its backward unpacks."""
        if self.scale is None and not isinstance(fields.get("gradInput"), list):
            dtype = self.output.dtype if is_array(self.output) else np.float64
            fields["gradInput"] = [np.zeros(0, dtype), np.zeros(0, dtype)]

    def _t7_fixup(self, version):
        super()._t7_fixup(version)
        scale = vars(self).get("scale")
        if not (scale is None or is_array(scale) or (isinstance(scale, float) and scale > 0)):
            from ._helpers.lua import T7Error
            raise T7Error(f"ReinforceGamma: scale in the file must be a positive number, a tensor or nil, got "
                          f"{scale!r}")

    def __repr__(self):
        s = "" if self.scale is None else (f"{self.scale:g}" if isinstance(self.scale, float) else "tensor")
        return f"nn.ReinforceGamma({s})" + (" stochastic" if self.stochastic else "")


def digamma(x):
    """psi(x) = d log Gamma(x) / dx for x > 0 (float64 numpy): the recurrence
    psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series
    (error below 1e-13 there)."""
    x = np.array(x, dtype=np.float64)
    if not (x > 0).all():
        raise ValueError("ReinforceGamma: the digamma of the shape needs a positive shape")
    out = np.zeros_like(x)
    while True:
        small = x < 10
        if not small.any():
            break
        out[small] -= 1 / x[small]
        x = np.where(small, x + 1, x)
    inv2 = 1 / (x * x)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))))
    return out + np.log(x) - 0.5 / x - series
