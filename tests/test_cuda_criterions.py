"""The criterion twins (thcunn_cu/generic/*Criterion.cu, L1Cost.cu) against
their CPU kernels on large inputs (losses summed over many blocks, with and
without sizeAverage, with class weights and ignored targets), and the bad
values only the device sees: an out-of-range class target, or an input of
BCECriterion that is no probability, must raise thnn.cuda.CudaError with
exactly the message of the CPU kernel's thnn.THNNError, naming the same
(first) bad element.

Tolerances as tests/test_cuda_twins.py: relative to the largest magnitude
of the CPU result, float32 1e-4 forward and 1e-3 backward, float64 1e-10."""
import numpy as np
import pytest

import thnn
import thnn.cuda as cuda

DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
SIZE_AVERAGE = pytest.mark.parametrize("size_average", [True, False], ids=["sizeAverage", "sum"])


def _tolerance(dtype, verb):
    if np.dtype(dtype) == np.float64:
        return 1e-10
    return 1e-4 if verb == "updateOutput" else 1e-3


def _results(value):
    return value if isinstance(value, tuple) else (value,)


def _compare(dev, dtype, name, *args):
    """Run name on the CPU and on dev with the same arguments (numpy arrays
    copied to the device, None for [OUT] arguments) and compare every result."""
    cpu = _results(getattr(thnn.backend(dtype), name)(*args))
    on_device = [dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    twin = _results(getattr(dev.backend(dtype), name)(*on_device))
    tol = _tolerance(dtype, name.split("_")[-1])
    assert len(twin) == len(cpu)
    for got, want in zip(twin, cpu):
        got = got.numpy()
        assert got.shape == want.shape
        scale = max(float(np.max(np.abs(want))), 1e-30)
        err = float(np.max(np.abs(got.astype(np.float64) - want)))
        assert err <= tol * scale, f"{name}: max |twin - cpu| = {err:.3g}, CPU magnitude {scale:.3g}"
    return cpu


def _both_verbs(dev, dtype, layer, *args):
    _compare(dev, dtype, f"{layer}_updateOutput", *args)
    _compare(dev, dtype, f"{layer}_updateGradInput", *args)


# ---- losses over large inputs ----

def _elementwise_inputs(layer, dtype, rng, shape=(100, 1000)):
    """input, target (100k elements) in the range each criterion expects"""
    if layer == "BCECriterion":
        return rng.uniform(0.01, 0.99, shape).astype(dtype), rng.random(shape).astype(dtype)
    if layer == "DistKLDivCriterion":
        t = np.where(rng.random(shape) < 0.2, 0.0, rng.random(shape))
        return np.log(rng.uniform(0.05, 1, shape)).astype(dtype), t.astype(dtype)
    if layer in ("MarginCriterion", "SoftMarginCriterion"):
        return rng.uniform(-3, 3, shape).astype(dtype), rng.choice([-1.0, 1.0], shape).astype(dtype)
    return rng.uniform(-3, 3, shape).astype(dtype), rng.uniform(-3, 3, shape).astype(dtype)


@DTYPES
@SIZE_AVERAGE
@pytest.mark.parametrize("layer", ["MSECriterion", "AbsCriterion", "SmoothL1Criterion", "SoftMarginCriterion",
                                   "DistKLDivCriterion", "BCECriterion"])
def test_elementwise_criterion_100k(dev, dtype, size_average, layer):
    x, t = _elementwise_inputs(layer, dtype, np.random.default_rng(1))
    weights = (None,) if layer == "BCECriterion" else ()
    _both_verbs(dev, dtype, layer, x, t, None, size_average, *weights)


@DTYPES
@SIZE_AVERAGE
def test_bce_with_weights_100k(dev, dtype, size_average):
    rng = np.random.default_rng(2)
    x, t = _elementwise_inputs("BCECriterion", dtype, rng)
    x[0, :5] = [0, 1, 0, 1, 0.5]   # the clamped logs and the clamped gradient denominator
    w = rng.uniform(0.5, 2, x.shape).astype(dtype)
    _both_verbs(dev, dtype, "BCECriterion", x, t, None, size_average, w)


@DTYPES
@SIZE_AVERAGE
@pytest.mark.parametrize("margin", [1.0, 0.25])
def test_margin_criterion_100k(dev, dtype, size_average, margin):
    x, t = _elementwise_inputs("MarginCriterion", dtype, np.random.default_rng(3))
    _both_verbs(dev, dtype, "MarginCriterion", x, t, None, size_average, margin)


@DTYPES
def test_l1_cost_100k(dev, dtype):
    x = np.random.default_rng(4).uniform(-3, 3, (100, 1000)).astype(dtype)
    x[0, :3] = 0
    _both_verbs(dev, dtype, "L1Cost", x, None)


def _class_nll_args(dtype, rng, shape, ignore_index, weighted):
    """log-probabilities of shape, targets (a tenth of them ignore_index)"""
    n_classes = shape[1]
    x = np.log(rng.uniform(0.01, 1, shape)).astype(dtype)
    target_shape = (shape[0], *shape[2:])
    t = rng.integers(0, n_classes, target_shape)
    t[rng.random(target_shape) < 0.1] = ignore_index
    w = rng.uniform(0.5, 2, n_classes).astype(dtype) if weighted else None
    return x, t, w


@DTYPES
@SIZE_AVERAGE
@pytest.mark.parametrize("weighted", [True, False], ids=["weights", "no_weights"])
@pytest.mark.parametrize("ignore_index", [-100, 7])
def test_class_nll_300x1000(dev, dtype, size_average, weighted, ignore_index):
    x, t, w = _class_nll_args(dtype, np.random.default_rng(5), (300, 1000), ignore_index, weighted)
    out, total_weight = _compare(dev, dtype, "ClassNLLCriterion_updateOutput", x, t, None, size_average, w, None,
                                 ignore_index)
    _compare(dev, dtype, "ClassNLLCriterion_updateGradInput", x, t, None, size_average, w, total_weight,
             ignore_index)


@DTYPES
def test_class_nll_of_one_sample_and_all_ignored(dev, dtype):
    x = np.log(np.full(5, 0.2, dtype))
    _compare(dev, dtype, "ClassNLLCriterion_updateOutput", x, np.array([3]), None, True, None, None, -100)
    _compare(dev, dtype, "ClassNLLCriterion_updateGradInput", x, np.array([3]), None, True, None,
             np.ones(1, dtype), -100)
    xs = np.log(np.full((600, 5), 0.2, dtype))
    none = np.full(600, 2)
    out, total_weight = _compare(dev, dtype, "ClassNLLCriterion_updateOutput", xs, none, None, True, None, None, 2)
    assert out[0] == 0 and total_weight[0] == 0
    _compare(dev, dtype, "ClassNLLCriterion_updateGradInput", xs, none, None, True, None, total_weight, 2)


@DTYPES
@SIZE_AVERAGE
@pytest.mark.parametrize("weighted", [True, False], ids=["weights", "no_weights"])
def test_spatial_class_nll(dev, dtype, size_average, weighted):
    x, t, w = _class_nll_args(dtype, np.random.default_rng(6), (4, 10, 30, 40), 3, weighted)
    out, total_weight = _compare(dev, dtype, "SpatialClassNLLCriterion_updateOutput", x, t, None, size_average, w,
                                 None, 3)
    _compare(dev, dtype, "SpatialClassNLLCriterion_updateGradInput", x, t, None, size_average, w, total_weight, 3)


@DTYPES
@SIZE_AVERAGE
@pytest.mark.parametrize("p", [1, 2])
@pytest.mark.parametrize("weighted", [True, False], ids=["weights", "no_weights"])
def test_multi_margin_300x100(dev, dtype, size_average, p, weighted):
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (300, 100)).astype(dtype)
    t = rng.integers(0, 100, 300)
    w = rng.uniform(0.5, 2, 100).astype(dtype) if weighted else None
    _both_verbs(dev, dtype, "MultiMarginCriterion", x, t, None, size_average, p, w, 0.5)
    _both_verbs(dev, dtype, "MultiMarginCriterion", x[0], t[:1], None, size_average, p, w, 1.0)


@DTYPES
@SIZE_AVERAGE
def test_multi_label_margin_200x50(dev, dtype, size_average):
    rng = np.random.default_rng(8)
    dim = 50
    x = rng.uniform(-1, 1, (200, dim)).astype(dtype)
    t = np.full((200, dim), -1)
    for row in t:
        k = rng.integers(0, 12)
        row[:k] = rng.integers(0, dim, k)        # duplicates count once per listing
        row[k + 1:] = rng.integers(-1, dim, dim - k - 1)   # after the -1: ignored, but in range
    t[0] = rng.permutation(dim)                  # every class a target
    _both_verbs(dev, dtype, "MultiLabelMarginCriterion", x, t, None, None, size_average)
    _both_verbs(dev, dtype, "MultiLabelMarginCriterion", x[3], t[3], None, None, size_average)


# ---- bad values: the CPU kernel's message, from the device ----

def _same_error(dev, dtype, name, *args):
    with pytest.raises(thnn.THNNError) as cpu:
        getattr(thnn.backend(dtype), name)(*args)
    assert not isinstance(cpu.value, cuda.CudaError)
    on_device = [dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    with pytest.raises(cuda.CudaError) as twin:
        getattr(dev.backend(dtype), name)(*on_device)
    assert str(twin.value) == str(cpu.value)
    return str(cpu.value)


def _targets_with(n, n_classes, bad, seed=0):
    t = np.random.default_rng(seed).integers(0, n_classes, n)
    for i, v in bad.items():
        t[i] = v
    return t


# {index: bad value}: several bad targets, the first one in memory order not
# the first one a thread of the block meets
BAD_TARGETS = [{0: 10}, {5: -1}, {299: 1000}, {260: 12, 10: -5}, {257: 11, 600: -2}, {700: -3, 1400: 99}]


@DTYPES
@pytest.mark.parametrize("bad", BAD_TARGETS, ids=lambda b: "-".join(f"{i}={v}" for i, v in b.items()))
def test_class_nll_target_out_of_range(dev, dtype, bad):
    n = max(300, max(bad) + 1)
    x = np.log(np.full((n, 10), 0.1, dtype))
    t = _targets_with(n, 10, bad)
    first = min(bad)
    for weights in (None, np.ones(10, dtype)):
        message = _same_error(dev, dtype, "ClassNLLCriterion_updateOutput", x, t, None, True, weights, None, -100)
        assert f"target {bad[first]} at index {first} is out of range [0, 10)" in message
        _same_error(dev, dtype, "ClassNLLCriterion_updateGradInput", x, t, None, True, weights, np.ones(1, dtype),
                    -100)


@DTYPES
def test_class_nll_ignored_targets_may_lie_outside(dev, dtype):
    x = np.log(np.full((300, 10), 0.1, dtype))
    t = _targets_with(300, 10, {4: -100, 280: -100})
    out, total_weight = _compare(dev, dtype, "ClassNLLCriterion_updateOutput", x, t, None, True, None, None, -100)
    assert total_weight[0] == 298
    _compare(dev, dtype, "ClassNLLCriterion_updateGradInput", x, t, None, True, None, total_weight, -100)
    t = _targets_with(300, 10, {4: 10, 280: 3})   # 10 is no ignore_index 3
    _same_error(dev, dtype, "ClassNLLCriterion_updateOutput", x, t, None, True, None, None, 3)
    x1 = np.log(np.full(10, 0.1, dtype))           # one sample
    _same_error(dev, dtype, "ClassNLLCriterion_updateOutput", x1, np.array([-1]), None, False, None, None, -100)


@DTYPES
@pytest.mark.parametrize("pixel,value", [((0, 0, 0), 4), ((1, 5, 7), -1), ((2, 9, 3), 100)])
def test_spatial_class_nll_target_out_of_range(dev, dtype, pixel, value):
    x = np.log(np.full((3, 4, 10, 8), 0.25, dtype))
    t = np.random.default_rng(1).integers(0, 4, (3, 10, 8))
    t[pixel] = value
    t[2, 9, 7] = 17                                # later: not the one reported
    for verb, tw in (("updateOutput", None), ("updateGradInput", np.ones(1, dtype))):
        message = _same_error(dev, dtype, f"SpatialClassNLLCriterion_{verb}", x, t, None, True, None, tw, -100)
        assert "target %d at [%d, %d, %d] is out of range [0, 4)" % (value, *pixel) in message
    t[pixel] = -100                                # ignored, then the later one
    message = _same_error(dev, dtype, "SpatialClassNLLCriterion_updateOutput", x, t, None, True, None, None, -100)
    assert "target 17 at [2, 9, 7]" in message


@DTYPES
@pytest.mark.parametrize("bad", BAD_TARGETS, ids=lambda b: "-".join(f"{i}={v}" for i, v in b.items()))
def test_multi_margin_target_out_of_range(dev, dtype, bad):
    n = max(300, max(bad) + 1)
    x = np.random.default_rng(2).uniform(-1, 1, (n, 10)).astype(dtype)
    t = _targets_with(n, 10, bad)
    first = min(bad)
    for p, weights in ((1, None), (2, np.ones(10, dtype))):
        for verb in ("updateOutput", "updateGradInput"):
            message = _same_error(dev, dtype, f"MultiMarginCriterion_{verb}", x, t, None, True, p, weights, 1.0)
            assert f"target {bad[first]} at index {first} is out of range [0, 10)" in message


@DTYPES
@pytest.mark.parametrize("where,value", [((0, 0), 5), ((0, 3), -2), ((150, 2), 5), ((299, 4), 77)])
def test_multi_label_margin_target_out_of_range(dev, dtype, where, value):
    x = np.random.default_rng(3).uniform(-1, 1, (300, 5)).astype(dtype)
    t = np.full((300, 5), -1)
    t[:, 0] = 1
    t[where] = value                               # also after a row's -1: every value is checked
    t[299, 4] = -7 if where != (299, 4) else value
    for verb in ("updateOutput", "updateGradInput"):
        message = _same_error(dev, dtype, f"MultiLabelMarginCriterion_{verb}", x, t, None, None, True)
        assert "target %d at [%d, %d] is out of range [0, 5)" % (value, *where) in message


def test_multi_label_margin_bad_target_of_a_transposed_target(dev):
    """A non-contiguous target: the message names the bad element by its [i, j]."""
    x = np.zeros((4, 3))
    t = np.full((4, 3), -1)
    t[2, 1] = 3
    t_dev = dev.to_device(np.ascontiguousarray(t.T)).swapaxes(0, 1)
    with pytest.raises(thnn.THNNError) as cpu:
        thnn.Double.MultiLabelMarginCriterion_updateOutput(x, t, None, None, True)
    with pytest.raises(cuda.CudaError) as twin:
        dev.CudaDouble.MultiLabelMarginCriterion_updateOutput(dev.to_device(x), t_dev, None, None, True)
    assert str(twin.value) == str(cpu.value)
    assert "target 3 at [2, 1]" in str(cpu.value)


@DTYPES
@pytest.mark.parametrize("bad", [{0: 1.5}, {777: -0.25}, {99_999: np.nan}, {5000: 2.0, 300: np.inf}],
                         ids=["first", "negative", "nan_last", "two"])
def test_bce_input_not_a_probability(dev, dtype, bad):
    x, t = _elementwise_inputs("BCECriterion", dtype, np.random.default_rng(9))
    flat = x.reshape(-1)
    for i, v in bad.items():
        flat[i] = v
    first = min(bad)
    for verb in ("updateOutput", "updateGradInput"):
        message = _same_error(dev, dtype, f"BCECriterion_{verb}", x, t, None, True, None)
        assert f"at flat index {first}" in message
    message = _same_error(dev, dtype, "BCECriterion_updateOutput", x.T, t.T, None, False, t.T)  # transposed
    assert "input must hold probabilities in [0, 1]" in message


def test_the_device_works_on_after_bad_targets(dev):
    x = np.log(np.full((300, 10), 0.1))
    _same_error(dev, np.float64, "ClassNLLCriterion_updateOutput", x, _targets_with(300, 10, {3: 10}), None, True,
                None, None, -100)
    _compare(dev, np.float64, "ClassNLLCriterion_updateOutput", x, _targets_with(300, 10, {}), None, True, None,
             None, -100)
