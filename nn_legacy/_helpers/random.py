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


# getRNGState's array: a tag, then pack_state's six numbers.
_STATE_TAG = 0x6E6E6C5043473634   # b"nnlPCG64"
_MASK = (1 << 64) - 1


def pack_state(rng, name="getRNGState"):
    """A numpy PCG64 Generator's state (default_rng's) as a uint64 array of
    6 numbers, which nn_legacy.save can write (its 128-bit integers do not
    fit a file's numbers): the state and the increment as (high, low)
    halves, then the cached half of a 64-bit draw."""
    bits = rng.bit_generator.state
    if bits.get("bit_generator") != "PCG64":
        raise TypeError(f"{name}: the generator is a {bits.get('bit_generator')}, not a PCG64 (default_rng)")
    state, inc = bits["state"]["state"], bits["state"]["inc"]
    return np.array([state >> 64, state & _MASK, inc >> 64, inc & _MASK, bits["has_uint32"], bits["uinteger"]],
                    dtype=np.uint64)


def unpack_state(rng, state, name="setRNGState"):
    """Put rng (a PCG64 Generator) in the state pack_state returned; anything
    else raises TypeError/ValueError and leaves rng as it was."""
    if not isinstance(state, np.ndarray):
        raise TypeError(f"{name}: state must be the numpy array of a saved generator state, got "
                        f"{type(state).__name__}")
    if state.dtype != np.uint64 or state.shape != (6,):
        raise ValueError(f"{name}: state must be a uint64 array of 6 numbers, got a {state.dtype} array of "
                         f"shape {list(state.shape)}")
    v = [int(x) for x in state]
    if v[3] % 2 == 0 or v[4] > 1 or v[5] > 0xFFFFFFFF:
        raise ValueError(f"{name}: state is not a saved generator state (its increment is even or its cached "
                         f"half-draw is out of range)")
    bits = rng.bit_generator.state
    if bits.get("bit_generator") != "PCG64":
        raise TypeError(f"{name}: the generator is a {bits.get('bit_generator')}, not a PCG64 (default_rng)")
    bits.update({"state": {"state": (v[0] << 64) | v[1], "inc": (v[2] << 64) | v[3]},
                 "has_uint32": v[4], "uinteger": v[5]})
    rng.bit_generator.state = bits


def getRNGState():
    """The state of every generator the library draws from, as a uint64
    array of 7 numbers (Torch7's torch.getRNGState): ``setRNGState`` of it
    makes the draws that follow repeat exactly.  That is the host generator
    manualSeed seeds (reset(), Dropout, RReLU, WhiteNoise, the fractional
    poolings, minibatches, StochasticGradient...); the device draws (a CUDA
    device or the emulator) are functions of a seed taken from it, so they
    repeat too.  nn_legacy.save writes the array and load reads it back."""
    return np.concatenate([np.array([_STATE_TAG], dtype=np.uint64), pack_state(_rng)])


def setRNGState(state):
    """Restore the generators to a state getRNGState returned (Torch7's
    torch.setRNGState).  Anything else raises TypeError/ValueError and
    leaves the generators as they were."""
    if isinstance(state, np.ndarray) and (state.shape != (7,) or state.dtype != np.uint64
                                          or int(state[0]) != _STATE_TAG):
        raise ValueError(f"setRNGState: state must be the uint64 array of 7 numbers getRNGState returns, got a "
                         f"{state.dtype} array of shape {list(state.shape)}"
                         + (" with another tag" if state.shape == (7,) and state.dtype == np.uint64 else ""))
    unpack_state(_rng, state[1:] if isinstance(state, np.ndarray) else state)


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
