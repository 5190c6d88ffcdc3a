"""nn_legacy.Kmeans: online k-means as a layer, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import assert_input_jacobian, check_pickle, raises_exactly, uniform
from numpy_checks import from_torch7

K, DIM = 3, 4


def data(n=12, seed=1):
    """Three well separated groups of n / 3 samples."""
    rng = np.random.default_rng(seed)
    centres = np.array([[4.0, 0, 0, 0], [0, 4.0, 0, 0], [0, 0, 4.0, 0]])
    return centres[np.arange(n) % 3] + rng.normal(0, 0.3, (n, DIM))


def brute_force(weight, x):
    d = np.array([[((xi - c) ** 2).sum() for c in weight] for xi in x])
    return d.argmin(axis=1), d.min(axis=1).sum()


def test_forward_is_the_nearest_centre_and_the_loss():
    m = nn.Kmeans(K, DIM)
    x = data()
    nearest, loss = brute_force(m.weight, x)
    out = m.forward(x)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, nearest)
    assert m.loss == pytest.approx(loss, rel=1e-12)
    assert not m.backward(x, np.zeros(len(x))).any()


def test_gradient_is_the_scaled_gradient_of_the_loss():
    """gradWeight[c] = s / (2 n_c) * d loss / d c (n_c + 1e-7 in Torch7's division)."""
    m = nn.Kmeans(K, DIM)
    m.weight[...] = data(3, seed=5)   # one centre near each group: no sample is near a tie
    x = data(seed=2)
    m.forward(x)
    m.zeroGradParameters()
    m.backward(x, np.zeros(len(x)), 0.5)
    counts = np.bincount(brute_force(m.weight, x)[0], minlength=K)
    np.testing.assert_array_equal(m.clusterSampleCount, counts)
    numeric = np.zeros_like(m.weight)
    for index in np.ndindex(*m.weight.shape):
        saved = m.weight[index]
        m.weight[index] = saved + 1e-6
        m.forward(x)
        plus = m.loss
        m.weight[index] = saved - 1e-6
        m.forward(x)
        m.weight[index] = saved
        numeric[index] = (plus - m.loss) / 2e-6
    expected = 0.5 / (2 * (counts[:, None] + 1e-7)) * numeric
    np.testing.assert_allclose(m.gradWeight, expected, rtol=1e-6, atol=1e-8)


def test_training_finds_the_groups():
    nn.manualSeed(3)
    m = nn.Kmeans(K, DIM)
    x = data(30)
    m.initKmeansPlus(x)
    for _ in range(5):
        m.zeroGradParameters()
        m.forward(x)
        m.backward(x, np.zeros(len(x)))
        m.updateParameters(1)     # each centre onto the mean of its samples
    groups = m.forward(x)
    assert all(len(set(groups[k::3].tolist())) == 1 for k in range(3)) and len(set(groups[:3].tolist())) == 3
    for k in range(3):
        np.testing.assert_allclose(m.weight[int(groups[k])], x[k::3].mean(axis=0), atol=1e-5)


def test_constructor_scale_wins_and_must_be_positive():
    m = nn.Kmeans(K, DIM, scale=0.25)
    x = data()
    reference = m.clone()
    m.zeroGradParameters()
    reference.zeroGradParameters()
    m.accGradParameters(x, None, 4.0)
    reference.scale = None
    reference.accGradParameters(x, None, 0.25)
    np.testing.assert_array_equal(m.gradWeight, reference.gradWeight)
    with raises_exactly(ValueError, "Kmeans: scale must be positive, got -1.0"):
        reference.accGradParameters(x, None, -1.0)
    with raises_exactly(ValueError, "Kmeans: scale must be positive, got 0"):
        nn.Kmeans(K, DIM, 0)


def test_accUpdateGradParameters_steps_the_centres():
    m = nn.Kmeans(K, DIM)
    x = data()
    reference = m.clone()
    reference.zeroGradParameters()
    reference.accGradParameters(x, None)
    before = m.weight.copy()
    m.accUpdateGradParameters(x, None, 0.5)
    np.testing.assert_allclose(m.weight, before - 0.5 * reference.gradWeight, rtol=1e-15)


def test_initialisations_pick_samples():
    x = data(9)
    nn.manualSeed(1)
    m = nn.Kmeans(K, DIM).initRandom(x)
    assert all(any((row == s).all() for s in x) for row in m.weight)
    nn.manualSeed(1)
    m = nn.Kmeans(K, DIM).initKmeansPlus(x, 0.9)
    assert all(any((row == s).all() for s in x) for row in m.weight)
    assert len({int(g) for g in m.forward(x)}) == 3   # k-means++ spread the centres over the groups
    with raises_exactly(ValueError, "Kmeans: initRandom needs at least k = 3 samples, got 2"):
        m.initRandom(x[:2])


def test_input_jacobian_is_zero():
    assert_input_jacobian(nn.Kmeans(K, DIM), data())


def test_float32_and_pickle():
    m = nn.Kmeans(K, DIM)
    x = data()
    m32 = m.clone().float()
    np.testing.assert_array_equal(m32.forward(x.astype(np.float32)), m.forward(x))
    assert m32.output.dtype == np.float32
    check_pickle(m, x, np.zeros(len(x)))


def test_bad_arguments():
    with raises_exactly(ValueError, "Kmeans: k and dim must be positive integers, got k=0, dim=4"):
        nn.Kmeans(0, DIM)
    with raises_exactly(ValueError, "Kmeans: input must be 2D [batch, 4], got 2D of size [3, 5]"):
        nn.Kmeans(K, DIM).forward(uniform((3, 5)))
    assert nn.Kmeans(3.0, 4.0).weight.shape == (3, 4)


def test_loads_from_torch7_fields():
    w = uniform((K, DIM), 4)
    m = from_torch7("nn.Kmeans", k=3.0, dim=4.0, weight=w, gradWeight=np.full_like(w, np.nan), loss=2.5,
                    clusterSampleCount=np.ones(3), _minIndx=np.ones(3), _expandedSamples=np.zeros(2))
    assert m.k == 3 and m.scale is None and "_minIndx" not in vars(m) and np.all(m.gradWeight == 0)
    x = data()
    np.testing.assert_array_equal(m.forward(x), brute_force(w, x)[0])
