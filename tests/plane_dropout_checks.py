"""The checks SpatialDropout and VolumetricDropout share: one draw per plane
(per sample and plane), kept planes scaled by 1/(1-p), the same factors in
backward; identity at evaluation; Torch7's v1 scheme on request."""
import pickle

import numpy as np

import nn_legacy as nn
from nn_legacy import jacobian
from nn_legacy._helpers.random import generator
from layer_checks import (JACOBIAN_TOL, STEP, assert_float32_close, check_buffer_reuse, check_pickle,
                          noncontiguous_views, raises_exactly, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy, from_torch7

P = 0.3


def planes_of(shape, n_space):
    return shape[:len(shape) - n_space]


def expected_noise(shape, n_space, p, seed, scaled=True):
    """The factors a plane dropout draws after manualSeed(seed), shaped to broadcast over each plane."""
    nn.manualSeed(seed)
    keep = generator().random(planes_of(shape, n_space)) >= p
    factors = keep * (1 / (1 - p) if scaled and p < 1 else 1.0)
    return factors.reshape(planes_of(shape, n_space) + (1,) * n_space)


def forward_seeded(m, x, seed):
    nn.manualSeed(seed)
    return m.forward(x)


def check_training_matches_numpy(cls, shape, n_space, v1=False):
    x, g = uniform(shape, 1), uniform(shape, 2)
    noise = expected_noise(shape, n_space, P, 5, scaled=not v1)
    m = cls(P, v1=v1)
    np.testing.assert_array_equal(forward_seeded(m, x, 5), x * noise)
    np.testing.assert_array_equal(m.backward(x, g), g * noise)
    np.testing.assert_array_equal(m.noise, noise)
    assert m.noise.shape == planes_of(shape, n_space) + (1,) * n_space


def check_whole_planes_dropped(cls, shape, n_space):
    """Every plane is all zero or all scaled by 1/(1-p), and about p of them are zero."""
    x = uniform(shape, 1, 0.5, 2)
    out = forward_seeded(cls(P), x, 3)
    ratio = (out / x).reshape(int(np.prod(planes_of(shape, n_space))), -1)
    dropped = np.all(ratio == 0, axis=1)
    np.testing.assert_allclose(ratio[~dropped], 1 / (1 - P), rtol=1e-15)
    assert abs(dropped.mean() - P) < 0.05, dropped.mean()


def check_scaling_matches_torch(cls, torch_name, shape, n_space):
    """Kept planes scaled by 1/(1-p), dropped ones zero, as torch's dropout2d/dropout3d."""
    torch = torch_or_skip()
    x = uniform(shape, 1, 0.5, 2)
    theirs = getattr(torch.nn.functional, torch_name)(torch.from_numpy(x), p=P, training=True).numpy()
    ours = forward_seeded(cls(P), x, 5)
    for out in (ours, theirs):
        ratio = (out / x).reshape(int(np.prod(planes_of(shape, n_space))), -1)
        dropped = np.all(ratio == 0, axis=1)
        assert 0.2 < dropped.mean() < 0.4
        np.testing.assert_allclose(ratio[~dropped], 1 / (1 - P), rtol=1e-15)
        np.testing.assert_array_equal(out.reshape(ratio.shape)[~dropped],
                                      (x * (1 / (1 - P))).reshape(ratio.shape)[~dropped])


def check_modes(cls, shape):
    """Evaluation is the identity (v1: times 1-p); p = 0 the identity; p = 1 zeros without NaN."""
    x, g = uniform(shape, 1), uniform(shape, 2)
    m = cls(P)
    m.evaluate()
    out = m.forward(x)
    np.testing.assert_array_equal(out, x)
    assert out is not x
    np.testing.assert_array_equal(m.backward(x, g), g)
    v1 = cls(P, v1=True)
    v1.evaluate()
    np.testing.assert_array_equal(v1.forward(x), x * (1 - P))
    np.testing.assert_array_equal(v1.backward(x, g), g * (1 - P))
    zero = cls(0)
    np.testing.assert_array_equal(zero.forward(x), x)
    np.testing.assert_array_equal(zero.backward(x, g), g)
    one = cls(1)
    np.testing.assert_array_equal(one.forward(x), np.zeros(shape))
    np.testing.assert_array_equal(one.backward(x, g), np.zeros(shape))


def check_jacobian(cls, shape):
    for kwargs in ({}, {"v1": True}):
        report = jacobian.testJacobian(cls(0.4, **kwargs), uniform(shape, 3), perturbation=STEP, seed=11)
        assert report < JACOBIAN_TOL, report


def check_float32(cls, shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    m64 = cls(P)
    m32 = m64.clone().float()
    assert_float32_close(forward_seeded(m32, x.astype(np.float32), 4), forward_seeded(m64, x, 4), "output")
    assert_float32_close(m32.backward(x.astype(np.float32), g.astype(np.float32)), m64.backward(x, g),
                         "gradInput")


def check_noncontiguous(cls, shape):
    x, g = uniform(shape, 1), uniform(shape, 2)
    m = cls(P)
    out = forward_seeded(m, x, 6).copy()
    grad = m.backward(x, g).copy()
    for (name, xv), (_, gv) in zip(noncontiguous_views(x), noncontiguous_views(g)):
        x_before, g_before = xv.copy(), gv.copy()
        np.testing.assert_array_equal(forward_seeded(m, xv, 6), out, err_msg=name)
        np.testing.assert_array_equal(m.backward(xv, gv), grad, err_msg=name)
        np.testing.assert_array_equal(xv, x_before, err_msg=name)
        np.testing.assert_array_equal(gv, g_before, err_msg=name)


def check_batch_equals_samples_drawn_in_order(cls, shape):
    """The batch's noise is the samples' noise drawn one after the other."""
    x, g = uniform(shape, 1), uniform(shape, 2)
    m = cls(P)
    out = forward_seeded(m, x, 8).copy()
    grad = m.backward(x, g).copy()
    nn.manualSeed(8)
    for i in range(shape[0]):
        np.testing.assert_array_equal(m.forward(x[i]), out[i])
        np.testing.assert_array_equal(m.backward(x[i], g[i]), grad[i])


def check_buffers(cls, big, small, n_space):
    m = cls(P)
    m.evaluate()
    check_buffer_reuse(m, uniform(big, 1), uniform(big, 2), uniform(small, 3), uniform(small, 4))
    m = cls(P)
    x_big, x_small = uniform(big, 1), uniform(small, 2)
    big_out = forward_seeded(m, x_big, 1)
    kept = big_out.copy()
    small_out = forward_seeded(m, x_small, 2)
    np.testing.assert_array_equal(big_out, kept)
    assert forward_seeded(m, x_small, 3) is small_out
    np.testing.assert_array_equal(small_out, x_small * expected_noise(small, n_space, P, 3))


def check_backward_needs_noise(cls, shape, other):
    name = cls.__name__
    m = cls(P)
    described = f"{len(shape)}D of size [{', '.join(map(str, shape))}]"
    with raises_exactly(ValueError, f"{name}: updateGradInput needs the noise of a training forward pass on "
                                    f"this input ({described}), got none"):
        m.backward(uniform(shape), uniform(shape))
    m.forward(uniform(other))   # other planes: its noise does not fit
    got = m.noise.shape
    with raises_exactly(ValueError, f"{name}: updateGradInput needs the noise of a training forward pass on "
                                    f"this input ({described}), got {len(got)}D of size "
                                    f"[{', '.join(map(str, got))}]"):
        m.backward(uniform(shape), uniform(shape))


def check_pickle_and_state(cls, shape):
    m = cls(P)
    m.evaluate()
    check_pickle(m, uniform(shape, 1), uniform(shape, 2))
    restored = pickle.loads(pickle.dumps(cls(P, v1=True)))
    assert (restored.p, restored.v1, restored.train) == (P, True, True)
    m = cls(P)
    m.forward(uniform(shape))
    assert m.clearState().noise is None


def check_bad_input(cls, good_shape, space_names):
    name = cls.__name__
    m = cls(P)
    m.evaluate()
    check_bad_arrays_numpy(m, uniform(good_shape, 1), uniform(good_shape, 2))
    n = len(space_names) + 1
    one = ", ".join(("planes",) + space_names)
    for shape in (good_shape[2:], good_shape + (1,)):
        described = f"{len(shape)}D of size [{', '.join(map(str, shape))}]"
        with raises_exactly(ValueError, f"{name}: input must be {n}D [{one}] or {n + 1}D [batch, {one}], "
                                        f"got {described}"):
            cls(P).forward(uniform(shape))
    with raises_exactly(ValueError, f"{name}: p must be in [0, 1], got 1.5"):
        cls(1.5)
    with raises_exactly(ValueError, f"{name}: p must be in [0, 1], got -0.1"):
        cls().setp(-0.1)
    assert cls().setp(0.2).p == 0.2
    assert cls().p == 0.5


def check_from_torch7(cls, shape, n_space):
    """Torch7's plane dropouts kept planes unscaled and scaled by 1 - p at
    evaluation: a loaded module keeps doing so."""
    m = from_torch7(f"nn.{cls.__name__}", p=0.25, noise=np.zeros(0))
    assert (m.p, m.v1, m.noise) == (0.25, True, None)
    x = uniform(shape, 1)
    np.testing.assert_array_equal(forward_seeded(m, x, 2), x * expected_noise(shape, n_space, 0.25, 2, False))
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), x * 0.75)


def check_repr(cls):
    name = cls.__name__
    assert repr(cls()) == f"nn.{name}(0.5)"
    assert repr(cls(0.2, v1=True)) == f"nn.{name}(0.2, v1)"
