"""The per-shape plans (nn_legacy/_helpers/arrays.py host_plan) of CMul, Normalize, Euclidean,
WeightedEuclidean, Sum, Mean, Max, Min, Narrow, Select and Transpose: a C-contiguous host input of a shape seen before skips the
checks and shape work, and gives bit for bit what the general path (a strided input, checked and
copied each call) gives; bad input still raises, the plan follows the module's fields, and clone()
and float() carry no stale one."""
import math

import numpy as np
import pytest

import nn_legacy as nn

DTYPES = [np.float32, np.float64]


def _modules():
    """(name, module factory, input shape without the batch)."""
    return [
        ("CMul(4)", lambda: nn.CMul(4), (4,)),
        ("CMul(1, 4)", lambda: nn.CMul(1, 4), (4,)),
        ("CMul(3, 4) per sample", lambda: nn.CMul(3, 4), (3, 4)),
        ("Normalize(2)", lambda: nn.Normalize(2), (5,)),
        ("Normalize(1.5)", lambda: nn.Normalize(1.5), (5,)),
        ("Normalize(inf)", lambda: nn.Normalize(math.inf), (5,)),
        ("Euclidean", lambda: nn.Euclidean(4, 3), (4,)),
        ("WeightedEuclidean", lambda: _weighted(), (4,)),
        ("Sum(1)", lambda: nn.Sum(1), (3, 4)),
        ("Sum(-1) squeeze=False", lambda: nn.Sum(-1, squeeze=False), (3, 4)),
        ("Mean(0)", lambda: nn.Mean(0), (3, 4)),
        ("Max(1)", lambda: nn.Max(1), (3, 4)),
        ("Max(-1)", lambda: nn.Max(-1), (3, 4)),
        ("Min(0, nInputDims=2)", lambda: nn.Min(0, 2), (3, 4)),
        ("Narrow(1, 1, 2)", lambda: nn.Narrow(1, 1, 2), (3, 4)),
        ("Narrow(-1, 0, -2)", lambda: nn.Narrow(-1, 0, -2), (3, 4)),
        ("Select(1, -1)", lambda: nn.Select(1, -1), (3, 4)),
        ("Transpose((0, 2), (1, 2))", lambda: nn.Transpose((0, 2), (1, 2)), (3, 4)),
        ("Transpose numInputDims", lambda: _transpose_after_batch(), (3, 4)),
    ]


def _transpose_after_batch():
    m = nn.Transpose((0, 1))
    m.numInputDims = 2
    return m


def _weighted():
    m = nn.WeightedEuclidean(4, 3)
    m.diagCov[...] = np.random.default_rng(3).uniform(0.5, 2, m.diagCov.shape)
    return m


CASES = _modules()
IDS = [c[0] for c in CASES]


def _input(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _strided(x):
    """x's values in a non-contiguous array (the general path)."""
    wide = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), x.dtype)
    wide[..., ::2] = x
    view = wide[..., ::2]
    assert not view.flags.c_contiguous
    return view


@pytest.mark.parametrize("case", CASES, ids=IDS)
@pytest.mark.parametrize("dtype", DTYPES, ids=["float32", "float64"])
@pytest.mark.parametrize("batch", [1, 8])
def test_planned_forward_is_the_general_one_bit_for_bit(case, dtype, batch):
    _, make, shape = case
    m = make().type(dtype)
    general = make().type(dtype)
    general.__dict__.update({k: v.copy() for k, v in vars(m).items() if isinstance(v, np.ndarray)})
    for seed in range(3):   # the first call makes the plan, the next ones take it
        x = _input((batch,) + shape, dtype, seed)
        y = m.forward(x).copy()
        assert m._plan is not None and m._plan[0][0] == x.shape
        expected = general.forward(_strided(x))
        assert y.dtype == expected.dtype and y.shape == expected.shape
        np.testing.assert_array_equal(y, expected)
        if hasattr(m, "indices"):
            np.testing.assert_array_equal(m.indices, general.indices)
    assert general.__dict__.get("_plan") is None   # strided inputs never made one


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_a_new_shape_makes_a_new_plan_and_the_output_follows(case):
    _, make, shape = case
    m = make()
    m.forward(_input((2,) + shape, np.float64, 0))
    first = m._plan
    x = _input((5,) + shape, np.float64, 1)
    y = m.forward(x).copy()
    assert m._plan is not first and m._plan[0][0] == x.shape
    np.testing.assert_array_equal(y, _copy_of(m).forward(_strided(x)))


def _copy_of(m):
    c = m.clone()
    c._plan = None
    return c


def _outcome(m, x):
    try:
        return m.forward(x).copy()
    except (TypeError, ValueError) as e:
        return type(e), str(e)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_other_input_after_a_plan_does_what_a_fresh_module_does(case):
    """Another dtype (float32 into a float64 module: taken by the modules without parameters, refused
    by the others), an int array (taken by the modules that only move elements), a list, one feature more, one dim more or less: after a plan each
    call ends as on a module that never made one (the same error message, or the same output)."""
    _, make, shape = case
    m = make()
    good = _input((2,) + shape, np.float64, 0)
    m.forward(good)
    others = [good.astype(np.float32), good.astype(np.int64), good.tolist(), good[0].copy(),
              good[None].copy(), np.zeros((2,) + shape[:-1] + (shape[-1] + 1,))]
    raised = 0
    for x in others:
        planned, fresh = _outcome(m, x), _outcome(_copy_of(m), x)
        if isinstance(fresh, tuple):
            raised += 1
            assert planned == fresh
        else:
            np.testing.assert_array_equal(planned, fresh)
    assert raised >= 1   # the list at least
    np.testing.assert_array_equal(m.forward(good), _copy_of(m).forward(good))


def test_the_plan_follows_the_reduction_fields():
    x = _input((2, 3, 4), np.float64, 0)
    m = nn.Sum(1)
    m.forward(x)
    m.dimension = 2
    np.testing.assert_array_equal(m.forward(x), x.sum(axis=2))
    m.squeeze = False
    assert m.forward(x).shape == (2, 3, 1)
    m.nInputDims = 2
    m.dimension = 0
    np.testing.assert_array_equal(m.forward(x), x.sum(axis=1, keepdims=True))
    m.dimension = 5
    with pytest.raises(ValueError, match="out of range"):
        m.forward(x)


def test_the_plan_follows_the_slice_and_transpose_fields():
    x = _input((2, 3, 4), np.float64, 0)
    m = nn.Narrow(2, 1, 2)
    m.forward(x)
    m.index, m.length = 0, 3
    np.testing.assert_array_equal(m.forward(x), x[:, :, 0:3])
    m.dimension = 1
    np.testing.assert_array_equal(m.forward(x), x[:, 0:3])
    m.index = 1
    with pytest.raises(ValueError, match="do not fit in size 3"):
        m.forward(x)
    s = nn.Select(0, 1)
    s.forward(x)
    s.index = 0
    np.testing.assert_array_equal(s.forward(x), x[0])
    t = nn.Transpose((0, 1))
    t.forward(x)
    t.permutations = [(0, 2)]
    np.testing.assert_array_equal(t.forward(x), x.transpose(2, 1, 0))
    t.numInputDims, t.permutations = 2, [(0, 1)]
    np.testing.assert_array_equal(t.forward(x), x.transpose(0, 2, 1))
    t.permutations = [(0, 3)]
    with pytest.raises(ValueError, match=r"pair \(0, 3\) is out of range"):
        t.forward(x)


def test_the_plan_follows_a_new_weight():
    x = _input((2, 4), np.float64, 0)
    m = nn.CMul(4)
    m.forward(x)
    m.weight = np.full((2, 4), 3.0)   # element by element now
    m.gradWeight = np.zeros((2, 4))
    np.testing.assert_array_equal(m.forward(x), x * 3)
    m.weight = np.full((5,), 3.0)
    m.gradWeight = np.zeros(5)
    with pytest.raises(ValueError, match="CMul: input must have 5 elements"):
        m.forward(x)
    e = nn.Euclidean(4, 3)
    e.forward(x)
    e.weight, e.gradWeight = np.zeros((3, 2)), np.zeros((3, 2))
    with pytest.raises(ValueError, match=r"Euclidean: input must be 1D \[3\]"):
        e.forward(x)
    e.weight = e.weight.astype(np.float32)
    e.gradWeight = e.gradWeight.astype(np.float32)
    with pytest.raises(TypeError, match="float64 but the module is float32"):
        e.forward(x[:, :3].copy())


def test_clone_and_type_carry_no_stale_plan():
    x = _input((2, 4), np.float64, 0)
    m = nn.CMul(4)
    m.forward(x)
    c = m.clone()
    c.weight[...] = 2
    np.testing.assert_array_equal(c.forward(x), x * 2)
    np.testing.assert_array_equal(m.forward(x), x * m.weight)
    f = m.clone().float()
    assert f.__dict__.get("_plan") is None
    np.testing.assert_array_equal(f.forward(x.astype(np.float32)), x.astype(np.float32) * m.weight.astype(np.float32))


def test_the_output_buffer_is_kept_and_not_aliased():
    m = nn.Normalize(2)
    x = _input((3, 5), np.float64, 0)
    y = m.forward(x)
    assert m.forward(x) is y
    again = m.forward(y)   # its own output as input: a new buffer, the values of a fresh module
    assert again is not y
    np.testing.assert_array_equal(again, nn.Normalize(2).forward(y.copy()))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_backward_after_planned_forwards(case):
    """Training-mode backward is untouched: its gradients after planned forwards are a fresh module's."""
    _, make, shape = case
    m = make()
    fresh = make()
    fresh.__dict__.update({k: v.copy() for k, v in vars(m).items() if isinstance(v, np.ndarray)})
    x = _input((3,) + shape, np.float64, 0)
    for _ in range(2):
        y = m.forward(x)
    assert m._plan is not None
    g = _input(y.shape, np.float64, 1)
    fresh.forward(_strided(x))
    np.testing.assert_array_equal(m.backward(x, g), fresh.backward(x, g))
    _, grads = m.parameters()
    _, fresh_grads = fresh.parameters()
    assert len(grads) == len(fresh_grads)
    for a, b in zip(grads, fresh_grads):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("shape", [(4,), (3, 4)], ids=["1D", "2D"])
def test_euclidean_writes_into_a_strided_output_buffer(shape):
    """An output buffer with strides (as a Torch7 file can leave one) still receives the distances."""
    m = nn.Euclidean(4, 3)
    x = _input(shape, np.float64, 0)
    m.forward(x)
    m.output = np.zeros(shape[:-1] + (6,))[..., ::2]
    y = m.forward(x)
    np.testing.assert_array_equal(y, _copy_of(m).forward(_strided(x)))
