"""The REINFORCE family of the rnn package (dpnn's before it, with the same
fields): Reinforce, ReinforceBernoulli, ReinforceNormal,
ReinforceCategorical, ReinforceGamma, VRClassReward, and reinforce(reward)
through containers and recurrent modules.

Checked: the samples against draws made here from the same seed (numpy
transcriptions of each distribution's sampling), backward against numpy
transcriptions of REINFORCE's formulas, and the estimator itself
statistically: the mean of -gradInput over many samples is the gradient of
the expected reward (the score function identity), computed in closed form
here.  Files: loaded from streams laid out as the package's constructors
laid them out, written back with save_lua."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from nn_legacy.ReinforceGamma import digamma
from nn_legacy.serialization.t7 import load_lua, read_t7
from t7_writer import t7_bytes

SEED = 11


def _forward(m, x, seed=SEED):
    nn.manualSeed(seed)
    return m.forward(x)


# ---------------------------------------------------------------- sampling, evaluation
def test_bernoulli_samples_and_gradient():
    p = np.random.default_rng(0).uniform(0.1, 0.9, (4, 6))
    m = nn.ReinforceBernoulli()
    x = _forward(m, p)
    np.testing.assert_array_equal(x, (np.random.default_rng(SEED).random(p.shape) < p).astype(float))
    r = np.array([1.0, -2.0, 0.5, 3.0])
    m.reinforce(r)
    g = m.backward(p, None)
    np.testing.assert_allclose(g, -r[:, None] * (x - p) / (p * (1 - p)), rtol=1e-14)
    m.evaluate()
    np.testing.assert_array_equal(m.forward(p), p)       # the package's evaluation: p itself
    m.stochastic = True
    assert set(np.unique(_forward(m, p))) <= {0.0, 1.0}


def test_normal_samples_and_gradients():
    rng = np.random.default_rng(1)
    u, s = rng.uniform(-1, 1, (3, 5)), rng.uniform(0.2, 1, (3, 5))
    r = np.array([0.5, -1.0, 2.0])
    for stdev in (0.3, s, s[0]):   # a number, the mean's shape, one sample's shape
        m = nn.ReinforceNormal(stdev)
        x = _forward(m, u)
        np.testing.assert_allclose(x, np.random.default_rng(SEED).normal(0, 1, u.shape) * stdev + u, rtol=1e-14)
        m.reinforce(r)
        np.testing.assert_allclose(m.backward(u, np.zeros_like(u)), -r[:, None] * (x - u) / stdev ** 2, rtol=1e-13)
    m = nn.ReinforceNormal()   # the table [mean, stdev]
    x = _forward(m, [u, s])
    m.reinforce(r)
    gu, gs = m.backward([u, s], None)
    np.testing.assert_allclose(gu, -r[:, None] * (x - u) / s ** 2, rtol=1e-13)
    np.testing.assert_allclose(gs, -r[:, None] * ((x - u) ** 2 - s ** 2) / (s ** 3 + 1e-8), rtol=1e-13)
    m.evaluate()
    np.testing.assert_array_equal(m.forward([u, s]), u)


def test_categorical_samples_and_gradient():
    rng = np.random.default_rng(2)
    p = rng.uniform(0.05, 1, (6, 4))
    p /= p.sum(1, keepdims=True)
    m = nn.ReinforceCategorical()
    x = _forward(m, p)
    draws = np.random.default_rng(SEED).random((6, 1))
    want = (np.cumsum(p, 1) <= draws).sum(1)
    np.testing.assert_array_equal(x, np.eye(4)[want])
    r = rng.uniform(-1, 1, 6)
    m.reinforce(r)
    np.testing.assert_allclose(m.backward(p, None), -r[:, None] * x / (p + 1e-8), rtol=1e-14)
    m.evaluate()
    np.testing.assert_array_equal(m.forward(p), p)
    with pytest.raises(ValueError, match="ReinforceCategorical: each row"):
        nn.ReinforceCategorical(stochastic=True).forward(-p)


def test_gamma_samples_and_gradients():
    rng = np.random.default_rng(3)
    k, theta = rng.uniform(0.5, 3, (3, 4)), rng.uniform(0.3, 2, (3, 4))
    r = np.array([1.0, 0.5, -2.0])
    m = nn.ReinforceGamma(0.7)
    x = _forward(m, k)
    np.testing.assert_allclose(x, np.random.default_rng(SEED).gamma(k, np.full_like(k, 0.7)), rtol=1e-14)
    m.reinforce(r)
    np.testing.assert_allclose(m.backward(k, None), -r[:, None] * (np.log(x) - digamma(k) - np.log(0.7)),
                               rtol=1e-12)
    m = nn.ReinforceGamma()
    x = _forward(m, [k, theta])
    m.reinforce(r)
    gk, gt = m.backward([k, theta], None)
    np.testing.assert_allclose(gk, -r[:, None] * (np.log(x) - digamma(k) - np.log(theta)), rtol=1e-12)
    np.testing.assert_allclose(gt, -r[:, None] * (x / theta ** 2 - k / theta), rtol=1e-12)
    m.evaluate()
    np.testing.assert_allclose(m.forward([k, theta]), k * theta)


def test_digamma():
    """psi against its known values and its recurrence psi(x + 1) = psi(x) + 1/x."""
    euler = 0.5772156649015329
    np.testing.assert_allclose(digamma([1.0, 0.5, 2.0]), [-euler, -euler - 2 * np.log(2), 1 - euler], rtol=1e-13)
    x = np.geomspace(1e-3, 80, 50)
    np.testing.assert_allclose(digamma(x + 1), digamma(x) + 1 / x, rtol=1e-12, atol=1e-12)


def test_a_single_sample_takes_a_reward_of_one_element():
    m = nn.ReinforceNormal(0.5)
    u = np.array([0.1, -0.3, 0.2])
    x = _forward(m, u)
    m.reinforce(np.array([2.0]))
    np.testing.assert_allclose(m.backward(u, None), -2.0 * (x - u) / 0.25, rtol=1e-14)
    m.reinforce(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="ReinforceNormal: the reward holds 2 values"):
        m.backward(u, None)


def test_errors_name_the_layer():
    m = nn.ReinforceBernoulli()
    p = np.full((2, 3), 0.5)
    m.forward(p)
    with pytest.raises(RuntimeError, match="ReinforceBernoulli: backward needs a reward"):
        m.backward(p, None)
    with pytest.raises(ValueError, match="ReinforceBernoulli.reinforce: reward must be a 1D"):
        m.reinforce(np.ones((2, 2)))
    with pytest.raises(TypeError, match="ReinforceBernoulli.reinforce"):
        m.reinforce([1.0, 2.0])
    with pytest.raises(ValueError, match="ReinforceNormal: built without stdev"):
        nn.ReinforceNormal().forward(p)
    with pytest.raises(ValueError, match="ReinforceNormal: stdev must be a positive"):
        nn.ReinforceNormal(-1)
    with pytest.raises(ValueError, match="ReinforceGamma: the shape and the scale must be positive"):
        nn.ReinforceGamma(1.0).forward(-p)
    with pytest.raises(TypeError, match="VRClassReward: module must be"):
        nn.VRClassReward(nn.MSECriterion())


# ---------------------------------------------------------------- the estimator
@pytest.mark.parametrize("case", ["bernoulli", "normal-mean", "normal-stdev", "categorical", "gamma"])
def test_the_estimate_is_the_gradient_of_the_expected_reward(case):
    """E[reward(x) * d log f(x) / d theta] = d E[reward(x)] / d theta: the mean
    of -gradInput over many draws (reward(x) = the sum of x^2 over a row)
    against the closed form of that derivative."""
    n = 200000
    rng = np.random.default_rng(4)
    if case == "bernoulli":
        p = np.tile(rng.uniform(0.2, 0.8, 3), (n, 1))
        m, inp, grad = nn.ReinforceBernoulli(), p, lambda g: g
        want = np.ones(3)                                        # E[x^2] = p
    elif case.startswith("normal"):
        u, s = np.tile(rng.uniform(-1, 1, 3), (n, 1)), np.tile(rng.uniform(0.3, 1, 3), (n, 1))
        m, inp = nn.ReinforceNormal(), [u, s]
        grad = (lambda g: g[0]) if case == "normal-mean" else (lambda g: g[1])
        want = 2 * u[0] if case == "normal-mean" else 2 * s[0]  # E[x^2] = u^2 + s^2
    elif case == "categorical":
        p = np.tile(np.array([0.2, 0.5, 0.3]), (n, 1))
        m, inp, grad = nn.ReinforceCategorical(), p, lambda g: g
        want = np.ones(3)                                        # E[x_j^2] = p_j (p read as probabilities)
    else:
        k = np.tile(rng.uniform(1, 3, 3), (n, 1))
        m, inp, grad = nn.ReinforceGamma(0.5), k, lambda g: g
        want = 0.25 * (2 * k[0] + 1)                             # E[x^2] = theta^2 k (k + 1)
    x = _forward(m, inp, seed=5)
    m.reinforce((x ** 2).sum(1))
    got = -grad(m.backward(inp, None)).mean(0)
    np.testing.assert_allclose(got, want, rtol=0.05, atol=0.02)


# ---------------------------------------------------------------- reinforce() through the tree
def test_reinforce_reaches_every_reinforce_module_of_the_tree():
    a, b, c = nn.ReinforceNormal(0.1), nn.ReinforceBernoulli(), nn.ReinforceNormal(0.2)
    model = nn.Sequential().add(nn.ConcatTable().add(a).add(nn.Sequential().add(nn.Sigmoid()).add(b))) \
        .add(nn.ParallelTable().add(c).add(nn.Identity()))
    r = np.array([1.0, 2.0])
    model.reinforce(r)
    assert a.reward is r and b.reward is r and c.reward is r


def test_a_recurrent_module_takes_one_reward_per_step():
    """As the package's AbstractRecurrent:reinforce: a table (or an array
    [steps, batch]) gives each of the last steps its reward, through the
    clone that computed that step; one reward goes to every step."""
    rec = nn.Recursor(nn.ReinforceNormal(0.5))
    u = [np.random.default_rng(6).uniform(-1, 1, (2, 3)) for _ in range(3)]
    nn.manualSeed(7)
    xs = [rec.forward(x).copy() for x in u]
    rewards = [np.array([1.0, 2.0]), np.array([-1.0, 0.5]), np.array([3.0, 0.0])]
    rec.reinforce(rewards)
    for t in reversed(range(3)):
        g = rec.backward(u[t], np.zeros_like(u[t]))
        np.testing.assert_allclose(g, -rewards[t][:, None] * (xs[t] - u[t]) / 0.25, rtol=1e-14)
    rec.forget()
    rec.forward(u[0])
    rec.reinforce(np.array([1.0, 1.0]))
    assert all(m.reward is not None for m in [rec.recurrentModule] + list(rec._clones.values()))
    with pytest.raises(ValueError, match="Recursor.reinforce: 3 rewards"):
        rec.reinforce(np.ones((3, 2)))


# ---------------------------------------------------------------- VRClassReward
def test_vr_class_reward():
    """The reward, the loss, the reward handed to the model (minus the
    baseline, over the batch) and the baseline's MSE gradient, in numpy."""
    rng = np.random.default_rng(8)
    normal = nn.ReinforceNormal(0.4)
    model = nn.Sequential().add(nn.Linear(3, 4)).add(normal)
    x = rng.uniform(-1, 1, (5, 3))
    nn.manualSeed(9)
    pred = model.forward(x)
    baseline = rng.uniform(0, 1, (5, 1))
    target = np.argmax(pred, 1)
    target[:2] = (target[:2] + 1) % 4              # two wrong, three right
    crit = nn.VRClassReward(model, scale=2.0)
    reward = 2.0 * (np.argmax(pred, 1) == target)
    assert crit.forward([pred, baseline], target) == pytest.approx(-reward.sum() / 5, abs=1e-15)
    g_pred, g_base = crit.backward([pred, baseline], target)
    assert not g_pred.any() and g_pred.shape == pred.shape
    np.testing.assert_allclose(g_base, 2 * (baseline - reward[:, None]) / 5, rtol=1e-14)
    vr = (reward - baseline[:, 0]) / 5
    np.testing.assert_allclose(normal.reward, vr, rtol=1e-14)
    linear_out = model.modules[0].output
    model.backward(x, g_pred)
    np.testing.assert_allclose(normal.gradInput, -vr[:, None] * (pred - linear_out) / 0.16, rtol=1e-13)
    crit.sizeAverage = False
    assert crit.forward([pred, baseline], target) == -reward.sum()


# ---------------------------------------------------------------- Torch7 files
def _load(tmp_path, obj):
    f = tmp_path / "m.t7"
    f.write_bytes(t7_bytes(obj))
    return load_lua(str(f))


def _reinforce(name, **fields):
    """nn.<name> as the package's constructor left it (stochastic nil unless given)."""
    return F.obj(name, fields)


def test_loaded_from_the_package_s_layout(tmp_path):
    u = np.random.default_rng(10).uniform(0.1, 0.9, (2, 3))
    m = _load(tmp_path, _reinforce("ReinforceNormal", stdev=0.5))
    assert type(m) is nn.ReinforceNormal and m.stdev == 0.5 and m.stochastic is False
    m.evaluate()
    np.testing.assert_array_equal(m.forward(u), u)
    m = _load(tmp_path, _reinforce("ReinforceNormal", stochastic=True, gradInput=F.table(F.EMPTY, F.EMPTY)))
    assert m.stdev is None and m.stochastic is True
    m.forward([u, u])
    m = _load(tmp_path, _reinforce("ReinforceBernoulli", _uniform=np.zeros((2, 3)), reward=np.array([1.0, 2.0])))
    x = m.forward(u)
    np.testing.assert_allclose(m.backward(u, None), -np.array([[1.0], [2.0]]) * (x - u) / (u * (1 - u)))
    m = _load(tmp_path, _reinforce("ReinforceGamma", scale=np.full(3, 0.5)))
    assert m.scale.shape == (3,)
    m.evaluate()
    np.testing.assert_allclose(m.forward(u), 0.5 * u)
    m = _load(tmp_path, _reinforce("ReinforceCategorical", _index=np.zeros((2, 1))))
    assert type(m) is nn.ReinforceCategorical and not hasattr(m, "_index")
    normal = _reinforce("ReinforceNormal", stdev=0.5)
    model = F.seq(F.linear(np.ones((4, 3)), np.zeros(4)), normal)
    crit = F.criterion("VRClassReward", module=model, scale=1.0, criterion=F.criterion("MSECriterion",
                                                                                        sizeAverage=True),
                       sizeAverage=True, gradInput=F.table(F.EMPTY))
    loaded = _load(tmp_path, {1: model, 2: crit})
    net, vr = loaded   # (a table 1..n: a list)
    assert vr.module is net and type(vr.criterion) is nn.MSECriterion and vr.scale == 1.0
    pred = net.forward(u)
    vr.forward([pred, np.zeros((2, 1))], np.array([0, 1]))
    vr.backward([pred, np.zeros((2, 1))], np.array([0, 1]))
    assert net.modules[1].reward is vr.vrReward


def test_hostile_fields_raise_t7_error(tmp_path):
    from nn_legacy.t7 import T7Error
    with pytest.raises(T7Error, match="ReinforceNormal: stdev"):
        _load(tmp_path, _reinforce("ReinforceNormal", stdev="wide"))
    with pytest.raises(T7Error, match="VRClassReward: the file holds no module"):
        _load(tmp_path, F.criterion("VRClassReward", scale=1.0))


@pytest.mark.parametrize("package", ["torch/rnn", "Element-Research/rnn"])
def test_save_lua_writes_the_package_s_fields(tmp_path, package):
    normal = nn.ReinforceNormal()
    model = nn.Sequential().add(nn.Linear(3, 4)).add(nn.SoftMax()).add(nn.ReinforceCategorical())
    crit = nn.VRClassReward(model, 0.5)
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), {"normal": normal, "model": model, "crit": crit}, rnn=package)
    raw = read_t7(str(f))
    fields = raw["normal"].fields
    assert fields["stochastic"] is False and "stdev" not in fields and len(fields["gradInput"]) == 2
    c = raw["crit"].fields
    assert c["module"] is raw["model"] and c["scale"] == 0.5 and c["sizeAverage"] is True
    assert c["criterion"].class_name == "nn.MSECriterion" and len(c["gradInput"]) == 1
    again = load_lua(str(f))
    assert again["crit"].module is again["model"]
    x = np.random.default_rng(11).uniform(-1, 1, (2, 3))
    nn.manualSeed(12)
    want = model.forward(x)
    nn.manualSeed(12)
    np.testing.assert_array_equal(again["model"].forward(x), want)
