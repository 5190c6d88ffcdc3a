"""nn_legacy.L1HingeEmbeddingCriterion: the L1 distance d of one pair [x1, x2];
d for y = 1, max(0, margin - d) for y = -1."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_or_skip, uniform)


def numpy_l1_hinge(x1, x2, y, margin=1.0):
    """(loss, [dL/dx1, dL/dx2]) element by element."""
    d = sum(abs(a - b) for a, b in zip(x1.ravel(), x2.ravel()))
    if y == 1:
        g = np.sign(x1 - x2)
        return d, [g, -g]
    if d <= margin:
        return margin - d, [-np.sign(x1 - x2), np.sign(x1 - x2)]
    return 0.0, [np.zeros_like(x1), np.zeros_like(x2)]


def pair(shape=(6,), seed=0):
    x1, x2 = uniform(shape, seed), uniform(shape, seed + 1)
    assert np.all(np.abs(x1 - x2) > 1e-3), "no element at the kink of |x1 - x2|"
    return [x1, x2]


def margin_around(x, factor):
    """A margin factor times the pair's L1 distance (inside the hinge for
    factor > 1, beyond it for factor < 1)."""
    return factor * np.abs(x[0] - x[1]).sum()


CASES = {"similar": (1, 1.0), "dissimilar inside the margin": (-1, 1.5),
         "dissimilar beyond the margin": (-1, 0.5)}


@pytest.mark.parametrize("y, factor", CASES.values(), ids=CASES.keys())
@pytest.mark.parametrize("shape", [(6,), (3, 4)], ids=str)
def test_matches_numpy(shape, y, factor):
    x = pair(shape)
    margin = margin_around(x, factor)
    c = nn.L1HingeEmbeddingCriterion(margin)
    loss, grads = numpy_l1_hinge(*x, y, margin)
    assert isinstance(c.forward(x, y), float)
    np.testing.assert_allclose(c.forward(x, y), loss, rtol=1e-13, atol=1e-15)
    for g, expected in zip(c.backward(x, y), grads):
        np.testing.assert_array_equal(g, expected)


@pytest.mark.parametrize("y, factor", CASES.values(), ids=CASES.keys())
def test_matches_torch(y, factor):
    torch = torch_or_skip()
    x = pair()
    margin = margin_around(x, factor)
    t1, t2 = (torch.from_numpy(a.copy()).requires_grad_(True) for a in x)
    loss = torch.nn.functional.hinge_embedding_loss((t1 - t2).abs().sum().reshape(1),
                                                    torch.tensor([float(y)], dtype=torch.float64), margin=margin)
    loss.backward()
    c = nn.L1HingeEmbeddingCriterion(margin)
    np.testing.assert_allclose(c.forward(x, y), loss.item(), rtol=1e-13, atol=1e-15)
    for g, t in zip(c.backward(x, y), (t1, t2)):
        np.testing.assert_array_equal(g, t.grad.numpy())


def test_default_margin():
    c = nn.L1HingeEmbeddingCriterion()
    assert c.margin == 1
    assert c.forward([np.array([0.0, 0.25]), np.array([0.0, 0.0])], -1) == 0.75


def test_at_the_margin_the_gradient_is_kept_as_in_torch7():
    c = nn.L1HingeEmbeddingCriterion(0.5)
    x = [np.array([0.5, 1.0]), np.array([0.0, 1.0])]
    assert c.forward(x, -1) == 0.0
    np.testing.assert_array_equal(c.backward(x, -1)[0], [-1.0, 0.0])


def test_label_as_a_one_element_array():
    x = pair()
    c = nn.L1HingeEmbeddingCriterion(5.0)
    assert c.forward(x, np.array([-1])) == c.forward(x, -1) == c.forward(x, -1.0)
    np.testing.assert_array_equal(c.backward(x, np.array([-1.0]))[0], c.backward(x, -1)[0].copy())


def test_equal_elements_get_no_gradient():
    c = nn.L1HingeEmbeddingCriterion()
    grads = c.backward([np.array([1.0, 2.0]), np.array([1.0, 0.0])], 1)
    np.testing.assert_array_equal(grads[0], [0.0, 1.0])
    np.testing.assert_array_equal(grads[1], [0.0, -1.0])
    assert not np.signbit(grads[1][0]), "a zero gradient is +0"


def test_empty_vectors_are_at_distance_zero():
    c = nn.L1HingeEmbeddingCriterion(2.0)
    x = [np.zeros(0), np.zeros(0)]
    assert c.forward(x, 1) == 0.0
    assert c.forward(x, -1) == 2.0
    assert [g.shape for g in c.backward(x, -1)] == [(0,), (0,)]


def test_repr():
    assert repr(nn.L1HingeEmbeddingCriterion()) == "nn.L1HingeEmbeddingCriterion"


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad, shown", [(0, "0"), (2, "2"), (-0.5, "-0.5")])
def test_label_must_be_one_or_minus_one(bad, shown):
    for verb in ("forward", "backward"):
        with raises_exactly(ValueError, f"L1HingeEmbeddingCriterion: target must hold only 1 or -1, got {shown} "
                                        f"at index 0"):
            getattr(nn.L1HingeEmbeddingCriterion(), verb)(pair(), bad)


def test_one_label_only():
    with raises_exactly(ValueError, "L1HingeEmbeddingCriterion: target must be 1D of size [1] (labels 1 or -1), "
                                    "got 1D of size [2]"):
        nn.L1HingeEmbeddingCriterion().forward(pair(), np.array([1, -1]))


def test_input_must_be_a_pair_of_matching_arrays():
    c = nn.L1HingeEmbeddingCriterion()
    x = pair()
    with raises_exactly(ValueError, "L1HingeEmbeddingCriterion: input must be a table (list) of 2 arrays, "
                                    "got 1 entry"):
        c.forward(x[:1], 1)
    with raises_exactly(ValueError, "L1HingeEmbeddingCriterion: input[1] must have the shape of input[0] "
                                    "(1D of size [6]), got 1D of size [5]"):
        c.forward([x[0], x[1][:5]], 1)
    with raises_exactly(TypeError, "L1HingeEmbeddingCriterion: input[0] must be a numpy array, got list"):
        c.forward([x[0].tolist(), x[1]], 1)
