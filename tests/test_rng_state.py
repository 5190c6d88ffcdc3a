"""nn_legacy.getRNGState / setRNGState (Torch7's torch.getRNGState /
setRNGState) and the optimizers' state through nn.save / nn.load: what a
checkpoint needs so that a resumed run repeats the uninterrupted one bit
for bit."""
import io

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy._helpers import random as _random
from nn_legacy import optim
from nn_legacy.serialization.checkpoint import numpy_state, set_numpy_state


def _through_file(value):
    f = io.BytesIO()
    nn.save(value, f)
    f.seek(0)
    return nn.load(f)


# Every kind of draw the library makes: (what, fn() -> the arrays it drew).
def _forward(module, shape, training=True):
    def run():
        (module.training if training else module.evaluate)()
        return np.array(module.forward(-np.ones(shape)), copy=True)   # (RReLU draws for x < 0)
    return run


def _reset(module):
    def run():
        module.reset()
        return [np.array(p, copy=True) for p in module.parameters()[0]]
    return run


def _fractional(cls, shape, *args):
    module = cls(*args)

    def run():
        module.randomSamples = None
        return np.array(module.forward(np.random.default_rng(1).random(shape)), copy=True)
    return run


def _minibatches():
    x = np.arange(40.0).reshape(20, 2)
    return [b[1].copy() for b in nn.minibatches(x, np.arange(20), 6)]


DRAWS = {
    "Dropout": _forward(nn.Dropout(0.5), (4, 7)),
    "SpatialDropout": _forward(nn.SpatialDropout(0.5), (2, 3, 4, 4)),
    "RReLU": _forward(nn.RReLU(), (4, 7)),
    "WhiteNoise": _forward(nn.WhiteNoise(0, 0.1), (4, 7)),
    "Linear.reset": _reset(nn.Linear(5, 3)),
    "SpatialConvolution.reset": _reset(nn.SpatialConvolution(2, 3, 3, 3)),
    "SeqLSTM.reset": _reset(nn.SeqLSTM(3, 4)),
    "SpatialFractionalMaxPooling": _fractional(nn.SpatialFractionalMaxPooling, (1, 2, 7, 7), 2, 2, 4, 4),
    "VolumetricFractionalMaxPooling": _fractional(nn.VolumetricFractionalMaxPooling, (1, 2, 5, 5, 5),
                                                  2, 2, 2, 3, 3, 3),
    "minibatches": _minibatches,
    "tables.random": lambda: nn.SpatialConvolutionMap.random(6, 4, 2),
}


def _equal(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a.dtype == b.dtype and np.array_equal(a, b) and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("what", sorted(DRAWS))
def test_a_restored_state_repeats_every_kind_of_draw(what):
    draw = DRAWS[what]
    nn.manualSeed(5)
    draw()                                     # somewhere in the middle of the stream
    state = _through_file(nn.getRNGState())    # as a checkpoint keeps it
    first = [draw(), draw()]
    nn.manualSeed(99)                          # anything in between
    draw()
    nn.setRNGState(state)
    assert _equal([draw(), draw()], first)
    assert not _equal(draw(), first[0]) or what == "tables.random"   # the stream goes on, it does not repeat


def test_the_state_is_a_plain_array_and_the_half_draw_cache_is_part_of_it():
    nn.manualSeed(0)
    g = _random.generator()
    g.integers(0, 2 ** 31, dtype=np.uint32)    # leaves half of a 64-bit draw cached
    state = nn.getRNGState()
    assert state.dtype == np.uint64 and state.shape == (7,)
    expected = g.integers(0, 2 ** 31, size=5, dtype=np.uint32)
    nn.setRNGState(state)
    assert np.array_equal(_random.generator().integers(0, 2 ** 31, size=5, dtype=np.uint32), expected)


@pytest.mark.parametrize("bad, error", [
    ([1, 2, 3], TypeError),
    (np.zeros(7), ValueError),
    (np.zeros(7, dtype=np.uint64), ValueError),
    (np.zeros(6, dtype=np.uint64), ValueError),
])
def test_set_rng_state_refuses_what_get_rng_state_did_not_return(bad, error):
    nn.manualSeed(1)
    before = nn.getRNGState()
    with pytest.raises(error, match="setRNGState"):
        nn.setRNGState(bad)
    assert np.array_equal(nn.getRNGState(), before)


def test_an_even_increment_is_refused():
    state = nn.getRNGState()
    state[4] &= ~np.uint64(1)
    with pytest.raises(ValueError, match="increment"):
        nn.setRNGState(state)


def test_device_draws_repeat_after_set_rng_state(dev):
    """The device (emulator, GPU) draws from a seed taken from the host
    generator: restoring the host state repeats them."""
    module = nn.Dropout(0.5).cuda(dev)
    noise = nn.RReLU().cuda(dev)
    x = dev.to_device(-np.ones((3, 50)))

    def draw():
        return [np.array(module.forward(x).numpy(), copy=True), np.array(noise.forward(x).numpy(), copy=True)]
    nn.manualSeed(2)
    draw()
    state = nn.getRNGState()
    first = draw()
    draw()
    nn.setRNGState(state)
    assert _equal(draw(), first)


def test_numpy_generators_round_trip_through_a_file():
    rng = np.random.default_rng(7)
    rng.random(3)
    rng.integers(0, 5, dtype=np.uint32)
    saved = _through_file(numpy_state(rng))
    expected = rng.permutation(30)
    other = np.random.default_rng(0)
    set_numpy_state(other, saved)
    assert np.array_equal(other.permutation(30), expected)


# ---- the optimizers' state (Torch7's optimState) through nn.save / nn.load ----

CONFIGS = {
    "sgd": {"learningRate": 0.01, "momentum": 0.9, "nesterov": True, "dampening": 0,
            "learningRateDecay": 0.01, "weightDecay": 1e-3},
    "adam": {"learningRate": 0.01},
    "adamax": {"learningRate": 0.01},
    "adagrad": {"learningRate": 0.1},
    "adadelta": {},
    "rmsprop": {"learningRate": 0.01},
    "nag": {"learningRate": 0.01, "momentum": 0.9},
    "asgd": {"eta0": 0.01, "t0": 2},
    "rprop": {},
    "cg": {"maxIter": 3},
    "lbfgs": {"maxIter": 3, "learningRate": 0.5},
}


def _quadratic(x):
    """A fixed ill-conditioned quadratic with a bit of curvature coupling."""
    scales = np.linspace(0.5, 3.0, x.size)
    r = x - 1.0
    return float(np.sum(scales * r ** 2) + 0.1 * np.sum(r ** 4)), 2 * scales * r + 0.4 * r ** 3


def _run(name, x, config, state, steps):
    for _ in range(steps):
        getattr(optim, name)(_quadratic, x, config, state)


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("in_config", [False, True], ids=["state", "state-in-config"])
def test_optimizer_state_round_trips_and_resumes_bit_for_bit(name, in_config):
    assert set(CONFIGS) == set(optim.__all__)
    x0 = np.linspace(-1, 2, 9)
    whole, config, state = x0.copy(), dict(CONFIGS[name]), None if in_config else {}
    _run(name, whole, config, state, 7)
    part, config, state = x0.copy(), dict(CONFIGS[name]), None if in_config else {}
    _run(name, part, config, state, 3)
    saved = _through_file({"x": part, "config": config, "state": state})
    held, back = (config, saved["config"]) if state is None else (state, saved["state"])
    assert held.keys() == back.keys(), f"{name}: the state keys changed in the file"
    for key, value in held.items():
        assert type(back[key]) is type(value) and np.array_equal(back[key], value), f"{name}: state[{key!r}]"
    resumed = saved["x"]
    _run(name, resumed, saved["config"], saved["state"], 4)
    assert resumed.tobytes() == whole.tobytes(), f"{name}: the resumed steps differ"
