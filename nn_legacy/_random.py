"""The one random generator every module draws from, so manualSeed(n) makes
initialisation and stochastic layers repeat (as torch.manualSeed did)."""
import numpy as np

_rng = np.random.default_rng()


def manualSeed(seed):
    """Reseed the generator used by reset() and by stochastic layers."""
    global _rng
    _rng = np.random.default_rng(seed)


def generator():
    return _rng
