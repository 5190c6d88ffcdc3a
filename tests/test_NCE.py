"""NCEModule and NCECriterion (noise-contrastive estimation, the rnn
package's and dpnn's): the scores and the noise draws against numpy, for
noise drawn per batch and per sample; the backward against numpy
transcriptions and the criterion's gradient against central differences;
the normalized evaluation; training; Torch7 files."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from nn_legacy.serialization.t7 import load_lua, read_t7
from t7_writer import t7_bytes

D, N, K, B = 4, 9, 3, 5
UNIGRAMS = np.arange(1.0, N + 1)


def _module(batchnoise=True, Z=None):
    nn.manualSeed(0)
    m = nn.NCEModule(D, N, K, UNIGRAMS, Z)
    m.batchnoise = batchnoise
    return m


def _data(seed=1):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, (B, D)), rng.integers(0, N, B)


@pytest.mark.parametrize("batchnoise", [True, False])
def test_scores_and_backward_against_numpy(batchnoise):
    m = _module(batchnoise, Z=2.0)
    x, t = _data()
    nn.manualSeed(5)
    Pmt, Pms, Pnt, Pns = m.forward([x, t])
    p = UNIGRAMS / UNIGRAMS.sum()
    noise = np.random.default_rng(5).choice(N, size=K if batchnoise else (B, K), p=p)
    W, b = m.weight, m.bias
    if batchnoise:
        want_s = np.exp(x @ W[noise].T + b[noise]) / 2
        want_ns = np.tile(p[noise], (B, 1))
    else:
        want_s = np.exp(np.einsum("bkd,bd->bk", W[noise], x) + b[noise]) / 2
        want_ns = p[noise]
    np.testing.assert_allclose(Pmt, np.exp((x * W[t]).sum(1) + b[t]) / 2, rtol=1e-14)
    np.testing.assert_allclose(Pms, want_s, rtol=1e-14)
    np.testing.assert_allclose(Pnt, p[t], rtol=1e-15)
    np.testing.assert_allclose(Pns, want_ns, rtol=1e-15)
    rng = np.random.default_rng(2)
    gt, gs = rng.uniform(-1, 1, B), rng.uniform(-1, 1, (B, K))
    m.zeroGradParameters()
    gx, gtarget = m.backward([x, t], [gt, gs, np.zeros(B), np.zeros((B, K))])
    dt, ds = gt * Pmt, gs * Pms      # d(exp(s)/Z)/ds = exp(s)/Z
    if batchnoise:
        want_gx = dt[:, None] * W[t] + ds @ W[noise]
    else:
        want_gx = dt[:, None] * W[t] + np.einsum("bk,bkd->bd", ds, W[noise])
    np.testing.assert_allclose(gx, want_gx, rtol=1e-13, atol=1e-15)
    assert not gtarget.any() and gtarget.shape == t.shape
    gW, gb = np.zeros_like(W), np.zeros_like(b)
    rows = np.concatenate([t[:, None], np.broadcast_to(noise, (B, K)) if batchnoise else noise], 1)
    scores = np.concatenate([dt[:, None], ds], 1)
    for i in range(B):
        for j in range(K + 1):
            gW[rows[i, j]] += scores[i, j] * x[i]
            gb[rows[i, j]] += scores[i, j]
    np.testing.assert_allclose(m.gradWeight, gW, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, gb, rtol=1e-12, atol=1e-15)


def test_z_is_estimated_from_the_first_batch_then_kept():
    m = _module()
    x, t = _data()
    nn.manualSeed(6)
    m.forward([x, t])
    noise = np.random.default_rng(6).choice(N, size=K, p=UNIGRAMS / UNIGRAMS.sum())
    want = np.exp(x @ m.weight[noise].T + m.bias[noise]).mean() * N
    assert m.Z[0] == pytest.approx(want, rel=1e-14)
    m.forward([x, t])
    assert m.Z[0] == pytest.approx(want, rel=1e-14)


def test_the_criterion_and_its_gradient():
    rng = np.random.default_rng(3)
    p = [rng.uniform(0.1, 2, B), rng.uniform(0.1, 2, (B, K)), rng.uniform(0.01, 0.5, B), rng.uniform(0.01, 0.5, (B, K))]
    c = nn.NCECriterion()
    eps = 1e-7

    def loss(q):
        return -(np.log(q[0] / (q[0] + K * q[2] + eps)).sum() + np.log(K * q[3] / (q[1] + K * q[3] + eps)).sum()) / B

    assert c.forward(p, None) == pytest.approx(loss(p), rel=1e-14)
    g = c.backward(p, None)
    for i in (0, 1):   # central differences w.r.t. Pmt and Pms (Pnt, Pns: constants, zeros)
        num = np.zeros_like(p[i])
        for idx in np.ndindex(p[i].shape):
            up, down = [a.copy() for a in p], [a.copy() for a in p]
            up[i][idx] += 1e-6
            down[i][idx] -= 1e-6
            num[idx] = (loss(up) - loss(down)) / 2e-6
        np.testing.assert_allclose(g[i], num, rtol=1e-5, atol=1e-8)
    assert not g[2].any() and not g[3].any()
    with pytest.raises(ValueError, match="NCECriterion: target"):
        c.forward(p, np.zeros(B + 1))


def test_normalized_evaluation_is_the_full_softmax():
    m = _module()
    x, t = _data()
    m.evaluate()
    m.normalized = True
    z = x @ m.weight.T + m.bias
    soft = np.exp(z) / np.exp(z).sum(1, keepdims=True)
    np.testing.assert_allclose(m.forward([x, t]), soft, rtol=1e-13)
    m.logsoftmax = True
    np.testing.assert_allclose(m.forward([x, t]), np.log(soft), rtol=1e-12, atol=1e-14)
    with pytest.raises(RuntimeError, match="NCEModule: backward needs a training forward"):
        m.backward([x, t], [np.zeros(B), np.zeros((B, K))])


def test_training_with_nce_learns_the_classes():
    """x is one of N one-hot rows; the class is its index: NCE training
    makes the normalized evaluation put most mass on the right class."""
    nn.manualSeed(1)
    m = nn.NCEModule(N, N, 5, np.ones(N), Z=1.0)
    c = nn.NCECriterion()
    x, t = np.eye(N), np.arange(N)
    for _ in range(300):
        out = m.forward([x, t])
        c.forward(out, t)
        m.zeroGradParameters()
        m.backward([x, t], c.backward(out, t))
        m.updateParameters(0.5)
    m.evaluate()
    m.normalized = True
    probs = m.forward([x, t])
    assert (probs.argmax(1) == t).all() and probs[t, t].min() > 0.5


def test_errors_name_the_module():
    m = _module()
    x, t = _data()
    with pytest.raises(ValueError, match="NCEModule: input\\[1\\] \\(target\\) holds a class outside"):
        m.forward([x, t + N])
    with pytest.raises(TypeError, match="NCEModule: input must be the table"):
        m.forward(x)
    with pytest.raises(ValueError, match="NCEModule: unigrams must hold 9"):
        nn.NCEModule(D, N, K, np.ones(3))
    with pytest.raises(RuntimeError, match="NCEModule: backward needs"):
        _module().backward([x, t], [np.zeros(B), np.zeros((B, K))])


# ---------------------------------------------------------------- Torch7 files
def _raw(m, version=7, **more):
    """nn.NCEModule as the package's constructor left it (an nn.Linear's
    fields, k, unigrams normalised, Z a tensor {Z}, batchnoise), with the
    torchx AliasMultinomial it made (J, q tables) and dpnn's lists."""
    fields = {"weight": m.weight, "bias": m.bias, "gradWeight": np.zeros_like(m.weight),
              "gradBias": np.zeros_like(m.bias), "k": float(m.k), "unigrams": UNIGRAMS / UNIGRAMS.sum(),
              "Z": np.array([-1.0]), "batchnoise": True,
              "aliasmultinomial": F.T7Object("torch.AliasMultinomial", {"J": np.zeros(N), "q": np.zeros(N)}),
              "output": F.table(F.EMPTY, F.EMPTY, F.EMPTY, F.EMPTY), "gradInput": F.table(F.EMPTY, F.EMPTY)}
    fields.update(more)
    o = F.obj("NCEModule", fields)
    o.version = version
    return o


@pytest.mark.parametrize("version", [6, 7])
def test_loads_from_the_package_s_layout(tmp_path, version):
    m = _module()
    f = tmp_path / "nce.t7"
    f.write_bytes(t7_bytes({1: _raw(m, version, Z=np.array([2.0]), normalized=True),
                            2: F.criterion("NCECriterion", sizeAverage=True,
                                           gradInput=F.table(F.EMPTY, F.EMPTY, F.EMPTY, F.EMPTY))}))
    loaded, crit = load_lua(str(f))
    assert type(loaded) is nn.NCEModule and loaded.k == K and loaded.Z[0] == 2.0 and loaded.normalized
    assert type(crit) is nn.NCECriterion and crit.sizeAverage
    assert not hasattr(loaded, "aliasmultinomial")
    x, t = _data()
    m.Z[0] = 2.0
    nn.manualSeed(3)
    want = m.forward([x, t])
    nn.manualSeed(3)
    for a, b in zip(loaded.forward([x, t]), want):
        np.testing.assert_array_equal(a, b)


def test_hostile_fields_raise_t7_error(tmp_path):
    from nn_legacy.t7 import T7Error
    m = _module()
    f = tmp_path / "nce.t7"
    for bad, match in (({"k": -1.0}, "NCEModule: k"), ({"unigrams": np.ones(2)}, "NCEModule: unigrams"),
                       ({"bias": np.zeros(2)}, "NCEModule: the file's bias")):
        f.write_bytes(t7_bytes(_raw(m, **bad)))
        with pytest.raises(T7Error, match=match):
            load_lua(str(f))


def test_save_lua(tmp_path):
    m = _module(Z=1.5)
    x, t = _data()
    m.forward([x, t])
    f = tmp_path / "nce.t7"
    nn.save_lua(str(f), [m, nn.NCECriterion()])
    raw = read_t7(str(f))
    fields = raw[1.0].fields
    assert fields["k"] == float(K) and fields["batchnoise"] is True and fields["Z"].tolist() == [1.5]
    assert len(fields["output"]) == 4 and len(fields["gradInput"]) == 2 and "sampleidx" not in fields
    np.testing.assert_allclose(fields["unigrams"], UNIGRAMS / UNIGRAMS.sum())
    again, crit = load_lua(str(f))
    nn.manualSeed(4)
    want = m.forward([x, t])
    nn.manualSeed(4)
    for a, b in zip(again.forward([x, t]), want):
        np.testing.assert_array_equal(a, b)
