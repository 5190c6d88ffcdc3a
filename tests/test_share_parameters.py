"""share_parameters' cache (the step clones of the Sequencers and Recursor):
a forward after the user replaced a parameter array, converted the model or
reset it uses the new parameters in every step clone, exactly as a model
built fresh with those parameters does."""
import copy

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

D, H, N, T = 3, 4, 2, 5
X = uniform((T, N, D), 1)


def _models(cell):
    nn.manualSeed(0)
    step = nn.Sequential().add(nn.FastLSTM(D, H)).add(nn.Linear(H, 2)) if cell == "Sequential" \
        else getattr(nn, cell)(D, H)
    return nn.Sequencer(step)


def _fresh_like(m):
    """A model that never ran: the same parameters, no clones, no cache."""
    return copy.deepcopy(m).clearState()


def _clones_share(m):
    rec = m.modules[0]
    for clone in rec._clones.values():
        for (o, p, g), (c, cp, cg) in zip(rec.recurrentModule._all_parameters(), clone._all_parameters()):
            assert getattr(c, cp) is getattr(o, p) and getattr(c, cg) is getattr(o, g)


@pytest.mark.parametrize("cell", ["FastLSTM", "GRU", "RecLSTM", "RecGRU", "Sequential"])
@pytest.mark.parametrize("train", [True, False])
def test_new_arrays_reach_every_clone(cell, train):
    m = _models(cell)
    m.training() if train else m.evaluate()
    m.forward(X)
    m.forward(X)                                     # the cache is in use from here
    params = m.parameters()[0]
    rng = np.random.default_rng(3)
    owner = [(mod, p) for mod, p, _ in m.modules[0].recurrentModule._all_parameters()]
    mod, name = owner[0]
    setattr(mod, name, rng.standard_normal(getattr(mod, name).shape))   # a new array, not written in place
    assert getattr(mod, name) is not params[0]
    y = m.forward(X).copy()
    _clones_share(m)
    np.testing.assert_array_equal(y, _fresh_like(m).forward(X))

    m.float()                                         # every array replaced by a float32 copy
    y32 = m.forward(X.astype(np.float32)).copy()
    assert y32.dtype == np.float32
    _clones_share(m)
    np.testing.assert_array_equal(y32, _fresh_like(m).forward(X.astype(np.float32)))

    m.double()
    for p in m.parameters()[0]:                       # reset in place and by new arrays alike
        p[...] = rng.standard_normal(p.shape)
    m.reset()
    y = m.forward(X).copy()
    _clones_share(m)
    np.testing.assert_array_equal(y, _fresh_like(m).forward(X))


def test_a_replaced_child_reaches_the_clones():
    m = _models("Sequential")
    m.evaluate()
    m.forward(X)
    m.forward(X)
    step = m.modules[0].recurrentModule
    new = nn.Linear(H, 2)
    new.weight[...] = uniform((2, H), 7)
    step.modules[1] = new                             # same class, new arrays, the container's list mutated
    y = m.forward(X).copy()
    np.testing.assert_array_equal(y, _fresh_like(m).forward(X))


def test_unchanged_parameters_take_the_cache():
    m = _models("LSTM")   # (peepholes: stepped in evaluation; a RecGRU runs the Seq kernel there, without clones)
    m.evaluate()
    m.forward(X)
    cache = m.modules[0]._share_cache
    clones = list(m.modules[0]._clones.values())
    assert clones and all(cache[id(c)][0] is c for c in clones)
    before = {k: v for k, v in cache.items()}
    y = m.forward(X).copy()
    assert all(cache[k] is before[k] for k in before)   # no full pass: the entries were not rebuilt
    np.testing.assert_array_equal(y, _fresh_like(m).forward(X))
