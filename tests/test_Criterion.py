"""The Criterion API of nn_legacy: forward gives a Python float, backward an
array, sizeAverage divides as documented, and type conversion, clearState,
clone and pickling work on every criterion (CrossEntropy's inner ones too)."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn


def rand(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape)


def log_probs(batch, classes, seed=0):
    p = np.random.default_rng(seed).uniform(0.1, 1, size=(batch, classes))
    return np.log(p / p.sum(1, keepdims=True))


TARGETS = np.array([0, 2, 1, 2, 0])
WEIGHTS = np.array([0.5, 2.0, 1.5])

# name -> (make(sizeAverage), input, target)
CRITERIA = {
    "MSE": (lambda avg: nn.MSECriterion(avg), rand(5, 3, seed=1), rand(5, 3, seed=2)),
    "ClassNLL": (lambda avg: nn.ClassNLLCriterion(sizeAverage=avg), log_probs(5, 3), TARGETS),
    "ClassNLL weighted": (lambda avg: nn.ClassNLLCriterion(WEIGHTS, avg), log_probs(5, 3), TARGETS),
    "CrossEntropy": (lambda avg: nn.CrossEntropyCriterion(sizeAverage=avg), rand(5, 3, seed=3), TARGETS),
    "CrossEntropy weighted": (lambda avg: nn.CrossEntropyCriterion(WEIGHTS, avg), rand(5, 3, seed=3), TARGETS),
}
criteria = pytest.mark.parametrize("name", CRITERIA)


def reference_loss(name, x, t, average):
    """The loss written out in numpy, from each class's docstring."""
    if name == "MSE":
        s = ((x - t) ** 2).sum()
        return s / x.size if average else s
    if name.startswith("CrossEntropy"):
        x = x - np.log(np.exp(x).sum(1, keepdims=True))
    w = WEIGHTS[t] if "weighted" in name else np.ones(len(t))
    s = -(w * x[np.arange(len(t)), t]).sum()
    return s / w.sum() if average else s


@criteria
@pytest.mark.parametrize("average", [True, False])
def test_forward_returns_a_python_float_equal_to_the_formula(name, average):
    make, x, t = CRITERIA[name]
    loss = make(average).forward(x, t)
    assert type(loss) is float
    assert loss == pytest.approx(reference_loss(name, x, t, average), rel=1e-12)


@criteria
def test_sizeAverage_divides_by_the_count_or_total_weight(name):
    make, x, t = CRITERIA[name]
    summed, averaged = make(False), make(True)
    if name == "MSE":
        divisor = x.size
    else:
        divisor = WEIGHTS[t].sum() if "weighted" in name else len(t)
    assert summed.forward(x, t) == pytest.approx(divisor * averaged.forward(x, t), rel=1e-12)
    np.testing.assert_allclose(summed.backward(x, t), divisor * averaged.backward(x, t), rtol=1e-12)


@criteria
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_backward_returns_an_array_shaped_as_input(name, dtype):
    make, x, t = CRITERIA[name]
    c = make(True)
    if dtype == np.float32:
        c.float()
    x = x.astype(dtype)
    t = t.astype(dtype) if name == "MSE" else t
    assert type(c.forward(x, t)) is float
    g = c.backward(x, t)
    assert isinstance(g, np.ndarray) and g.shape == x.shape and g.dtype == dtype
    assert g is c.gradInput
    assert c.backward(x, t) is g                 # same shape: the same array again


def test_gradients_are_those_of_the_formula():
    x, t = rand(4, 3, seed=1), rand(4, 3, seed=2)
    np.testing.assert_allclose(nn.MSECriterion().backward(x, t), 2 * (x - t) / x.size, rtol=1e-12)
    lp = log_probs(5, 3)
    expected = np.zeros_like(lp)
    expected[np.arange(5), TARGETS] = -WEIGHTS[TARGETS] / WEIGHTS[TARGETS].sum()
    c = nn.ClassNLLCriterion(WEIGHTS)
    c.forward(lp, TARGETS)
    np.testing.assert_allclose(c.backward(lp, TARGETS), expected, rtol=1e-12)


def test_targets_as_ints_and_lists():
    lp = log_probs(1, 3)[0]
    c = nn.ClassNLLCriterion()
    assert c.forward(lp, 2) == pytest.approx(-lp[2])
    assert c.forward(lp, np.int64(2)) == pytest.approx(-lp[2])
    x = rand(3, seed=1)
    assert nn.MSECriterion(False).forward(x, [0.0, 0.0, 0.0]) == pytest.approx((x ** 2).sum())
    assert nn.MSECriterion(False).forward(x, 0.5 * np.ones(3, np.int64)) == pytest.approx(((x - 0.5) ** 2).sum())


def test_ignore_index_counts_for_nothing():
    lp = log_probs(4, 3)
    t = np.array([0, -100, 2, -100])
    c = nn.ClassNLLCriterion()
    assert c.forward(lp, t) == pytest.approx(-(lp[0, 0] + lp[2, 2]) / 2, rel=1e-12)
    g = c.backward(lp, t)
    assert np.all(g[[1, 3]] == 0)
    all_ignored = nn.ClassNLLCriterion(ignore_index=1)
    assert all_ignored.forward(lp, np.ones(4, np.int64)) == 0.0
    assert np.all(all_ignored.backward(lp, np.ones(4, np.int64)) == 0)


@pytest.mark.parametrize("bad, error, message", [
    (np.array([0, 3, 1, 1, 0]), ValueError, r"ClassNLLCriterion_updateOutput: target 3 at index 1 is out of "
                                            r"range \[0, 3\)"),
    (np.array([0, 1]), ValueError, r"target must be 1D of size \[5\]"),
    (np.array([0.0, 1, 1, 1, 0]), TypeError, r"target must be an integer array"),
])
def test_bad_targets_raise_naming_the_kernel(bad, error, message):
    with pytest.raises(error, match=message):
        nn.ClassNLLCriterion().forward(log_probs(5, 3), bad)


def test_bad_inputs_raise_naming_the_criterion():
    for c in (nn.MSECriterion(), nn.ClassNLLCriterion(), nn.CrossEntropyCriterion()):
        name = type(c).__name__
        with pytest.raises(TypeError, match=f"{name}: input must be a numpy array, got list"):
            c.forward([[0.0, 1.0]], np.array([0]))
        with pytest.raises(TypeError, match=f"{name}: input must be float32 or float64, got int64"):
            c.forward(np.zeros((1, 2), np.int64), np.array([0]))
    with pytest.raises(ValueError, match="CrossEntropyCriterion: input must be 1D .* got 3D of size"):
        nn.CrossEntropyCriterion().forward(np.zeros((2, 3, 4)), np.array([0, 1]))
    with pytest.raises(ValueError, match="ClassNLLCriterion: weights must be 1D"):
        nn.ClassNLLCriterion(np.ones((2, 2)))


@criteria
def test_type_converts_every_array_including_inner_criteria(name):
    make, x, t = CRITERIA[name]
    c = make(True)
    c.forward(x, t)
    c.backward(x, t)
    assert c.float() is c

    def arrays(obj):
        for v in vars(obj).values():
            if isinstance(v, np.ndarray) and v.dtype.kind == "f":
                yield v
            elif isinstance(v, (nn.Module, nn.Criterion)):
                yield from arrays(v)
    found = list(arrays(c))
    assert found and all(a.dtype == np.float32 for a in found)
    x32 = x.astype(np.float32)
    t32 = t.astype(np.float32) if name == "MSE" else t
    assert c.forward(x32, t32) == pytest.approx(reference_loss(name, x, t, True), rel=1e-5)
    assert c.backward(x32, t32).dtype == np.float32
    c.double()
    assert all(a.dtype == np.float64 for a in arrays(c))
    assert c.forward(x, t) == pytest.approx(reference_loss(name, x, t, True), rel=1e-12)


def test_type_refuses_other_dtypes():
    with pytest.raises(TypeError, match="MSECriterion.type: float32 or float64, got int32"):
        nn.MSECriterion().type(np.int32)
    assert nn.MSECriterion().type() is None


@criteria
def test_clearState_then_backward(name):
    make, x, t = CRITERIA[name]
    c = make(True)
    c.forward(x, t)
    g = c.backward(x, t).copy()
    assert c.clearState() is c
    assert c.gradInput is None
    c.forward(x, t)
    np.testing.assert_array_equal(c.backward(x, t), g)


@criteria
def test_clone_is_deep(name):
    make, x, t = CRITERIA[name]
    c = make(True)
    loss = c.forward(x, t)
    g = c.backward(x, t).copy()
    d = c.clone()
    assert d is not c and d.forward(x, t) == loss
    d.backward(x, t)[...] = 0                    # the clone's buffers are its own
    np.testing.assert_array_equal(c.gradInput, g)


@criteria
@pytest.mark.parametrize("used", [False, True], ids=["fresh", "after forward"])
def test_pickle_round_trip(name, used):
    make, x, t = CRITERIA[name]
    c = make(False)
    if used:
        c.forward(x, t)
        c.backward(x, t)
    back = pickle.loads(pickle.dumps(c))
    assert type(back) is type(c) and repr(back) == repr(c)
    assert back.forward(x, t) == c.forward(x, t)
    np.testing.assert_array_equal(back.backward(x, t), c.backward(x, t))


def test_repr():
    assert repr(nn.MSECriterion()) == "nn.MSECriterion"
    assert repr(nn.ClassNLLCriterion()) == "nn.ClassNLLCriterion"
    assert repr(nn.CrossEntropyCriterion()) == "nn.CrossEntropyCriterion"


def test_a_criterion_after_a_module():
    nn.manualSeed(0)
    m = nn.Sequential().add(nn.Linear(4, 3)).add(nn.LogSoftMax())
    c = nn.ClassNLLCriterion()
    x = rand(5, 4, seed=1)
    out = m.forward(x)
    loss = c.forward(out, TARGETS)
    m.zeroGradParameters()
    m.backward(x, c.backward(out, TARGETS))
    m.updateParameters(0.5)
    assert c.forward(m.forward(x), TARGETS) < loss   # one step of gradient descent lowers the loss
