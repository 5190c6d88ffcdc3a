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



def random(xp, shape, dtype=np.float64):
    """U[0, 1) numbers of shape and dtype for arrays of namespace xp: on the
    host drawn from the module generator (``generator().random``); on a
    CUDA device drawn there (thcunn_cu's counter-based generator) from a
    seed the module generator draws, so manualSeed repeats them too."""
    if xp is np:
        return _rng.random(shape, dtype=dtype)
    return _on_device(xp, "random", 0.0, 1.0, shape, dtype)


def uniform(xp, low, high, shape, dtype):
    """U[low, high) numbers, drawn as random's (``generator().uniform`` on the host)."""
    if xp is np:
        return np.ascontiguousarray(_rng.uniform(low, high, size=shape), dtype=dtype)
    return _on_device(xp, "uniform", low, high, shape, dtype)


def normal(xp, mean, std, shape, dtype):
    """N(mean, std^2) numbers, drawn as random's (``generator().normal`` on the host)."""
    if xp is np:
        return np.ascontiguousarray(_rng.normal(mean, std, size=shape), dtype=dtype)
    return _on_device(xp, "normal", mean, std, shape, dtype)


def _on_device(xp, kind, a, b, shape, dtype):
    """The device's draws (tests/test_cuda_modules.py replaces them by the
    host's, uploaded, so that a stochastic module's device run can match
    its host run)."""
    seed = int(_rng.integers(2 ** 63))
    if kind == "normal":
        return xp.random_normal(a, b, shape, dtype, seed)
    return xp.random_uniform(a, b, shape, dtype, seed)
