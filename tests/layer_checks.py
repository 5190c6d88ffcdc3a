"""The checks every layer test runs, written once.

Each ``check_*`` function drives a module (or criterion) through one
property and fails with a message saying what differed; the per-layer test
files choose shapes and call them.  The tolerances are the project's:

- Jacobians in float64 by central differences with step ``STEP`` = 1e-6 must
  agree within ``JACOBIAN_TOL`` = 1e-5 (largest absolute difference).
- float32 results must lie within ``FLOAT32_RTOL`` = 1e-4 of the float64 ones,
  relative to the largest float64 magnitude of the array compared (a
  per-element relative error is meaningless where sums cancel to ~0).
- Strided inputs must give bit-identical results to their contiguous copy
  (the kernels copy them to contiguous memory first).
"""
import contextlib
import pickle
import re
import warnings

import numpy as np
import pytest

from nn_legacy import jacobian

STEP = 1e-6
JACOBIAN_TOL = 1e-5
FLOAT32_RTOL = 1e-4
# batch vs. one sample at a time: the same arithmetic except for BLAS blocking
BATCH_RTOL = 1e-12


def uniform(shape, seed=0, low=-2.0, high=2.0):
    """float64 input drawn from U(low, high), the same for the same seed."""
    return np.random.default_rng(seed).uniform(low, high, size=shape)


def with_zeros(shape, seed=1):
    """uniform(shape, seed) with every fourth element (from the first) exactly
    0: an input that sits on the kink of ReLU, Abs and their kin."""
    x = uniform(shape, seed)
    x.reshape(-1)[::4] = 0.0
    return x


def classes(n, n_classes, seed=0):
    """n int64 class targets in [0, n_classes)."""
    return np.random.default_rng(seed).integers(0, n_classes, size=n).astype(np.int64)


@contextlib.contextmanager
def raises_exactly(exc_type, message):
    """Expect exc_type with exactly this message."""
    with pytest.raises(exc_type, match="^" + re.escape(message) + "$") as info:
        yield info


# ---------------------------------------------------------------- Jacobians
def assert_input_jacobian(module, x, kinks=()):
    """d output / d input through updateGradInput, against central differences."""
    report = jacobian.testJacobian(module, x, perturbation=STEP, kinks=kinks)
    assert report < JACOBIAN_TOL, report
    return report


def assert_parameter_jacobians(module, x):
    """For every parameter: d output / d param through accGradParameters and
    through accUpdateGradParameters, against central differences."""
    params = module.parameters()[0]
    assert params, f"{module!r} has no parameters to check"
    for i, (param, reports) in enumerate(zip(params, jacobian.testEachParameter(module, x, perturbation=STEP))):
        for report in reports:
            assert report < JACOBIAN_TOL, f"parameter {i} of shape {param.shape}: {report}"


def assert_criterion_gradient(criterion, x, target):
    """d loss / d input through backward, against central differences."""
    report = jacobian.testCriterion(criterion, x, target, perturbation=STEP)
    assert report < JACOBIAN_TOL, report
    return report


def check_criterion_values(criterion, x, target, loss, gradInput, rtol=1e-14, grad_tol=None):
    """criterion.forward(x, target) is a Python float close to loss (rtol),
    and criterion.backward(x, target) close to gradInput within grad_tol
    ((rtol, atol); default rtol alone)."""
    value = criterion.forward(x, target)
    assert isinstance(value, float), type(value)
    np.testing.assert_allclose(value, loss, rtol=rtol, err_msg="loss")
    grad_rtol, grad_atol = grad_tol or (rtol, 0)
    np.testing.assert_allclose(criterion.backward(x, target), gradInput, rtol=grad_rtol, atol=grad_atol,
                               err_msg="gradInput")


def check_criterion_matches_torch(criterion, loss_fn, x, target, rtol=1e-14, grad_tol=None):
    """check_criterion_values against torch autograd of loss_fn(input, target)
    in float64 (target passed as a tensor)."""
    torch = torch_or_skip()
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tl = loss_fn(tx, torch.from_numpy(target))
    tl.backward()
    check_criterion_values(criterion, x, target, tl.item(), tx.grad.numpy(), rtol, grad_tol)


def check_element_count_mismatch(criterion, x, target, sizes, *kernel_args):
    """A pointwise criterion's kernels only count elements and refuse a target
    of another count (sizes: "(<input>), got <target>", as the kernel words
    them); the module refuses the target's shape before the kernels run.
    kernel_args follow (input, target, output, sizeAverage) in each call."""
    import thnn
    name = type(criterion).__name__
    msg = "target must be the same number of elements as input " + sizes
    for verb in ("updateOutput", "updateGradInput"):
        with raises_exactly(thnn.THNNError, f"{name}_{verb}: {msg}"):
            getattr(thnn.Double, f"{name}_{verb}")(x, target, None, True, *kernel_args)
    for call in (criterion.forward, criterion.backward):
        with pytest.raises(ValueError, match=rf"^{name}: target must have the shape of input \["):
            call(x, target)


def check_acc_update(module, x, gradOutput, lr=0.1):
    """accUpdateGradParameters(x, g, lr) moves every parameter by -lr times the
    gradient accGradParameters would accumulate, and leaves the stored
    gradients alone."""
    reference = module.clone()
    reference.zeroGradParameters()
    reference.forward(x)
    reference.backward(x, gradOutput)
    expected_grads = [g.copy() for g in reference.parameters()[1]]

    params, grads = module.parameters()
    before = [p.copy() for p in params]
    for g in grads:
        g.fill(7.0)  # a sentinel the update must not touch
    module.forward(x)
    module.updateGradInput(x, gradOutput)
    module.accUpdateGradParameters(x, gradOutput, lr)
    for i, (p, p0, g, expected) in enumerate(zip(params, before, grads, expected_grads)):
        np.testing.assert_allclose(p, p0 - lr * expected, rtol=1e-12, atol=1e-15,
                                   err_msg=f"parameter {i} after accUpdateGradParameters")
        assert np.all(g == 7.0), f"accUpdateGradParameters changed gradient {i}"


# ---------------------------------------------------------------- float32
def relative_error(value, reference):
    """max |value - reference| / max |reference| (0 for an all-zero reference
    matched exactly)."""
    value = np.asarray(value, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    assert value.shape == reference.shape, f"shape {value.shape} vs {reference.shape}"
    diff = np.max(np.abs(value - reference), initial=0.0)
    scale = np.max(np.abs(reference), initial=0.0)
    if scale == 0:
        return 0.0 if diff == 0 else np.inf
    return diff / scale


def assert_float32_close(value32, value64, what):
    assert np.asarray(value32).dtype == np.float32, f"{what} is {np.asarray(value32).dtype}, not float32"
    err = relative_error(value32, value64)
    assert err < FLOAT32_RTOL, f"{what}: float32 differs from float64 by {err:.3g} (relative)"


def check_float32(module, x, gradOutput):
    """The module converted with .float() (same weights) gives forward,
    backward and parameter gradients within FLOAT32_RTOL of float64."""
    m32 = module.clone().float()
    for p in m32.parameters()[0] + m32.parameters()[1]:
        assert p.dtype == np.float32
    x32, g32 = x.astype(np.float32), gradOutput.astype(np.float32)
    module.zeroGradParameters()
    m32.zeroGradParameters()
    assert_float32_close(m32.forward(x32), module.forward(x), "output")
    assert_float32_close(m32.backward(x32, g32), module.backward(x, gradOutput), "gradInput")
    for i, (g32_, g64) in enumerate(zip(m32.parameters()[1], module.parameters()[1])):
        assert_float32_close(g32_, g64, f"gradient of parameter {i}")


def check_float32_criterion(criterion, x, target):
    """The criterion on float32 input gives loss and gradient within
    FLOAT32_RTOL of float64 (after .float(), so class weights follow)."""
    c32 = criterion.clone().float()
    x32 = x.astype(np.float32)
    loss64, loss32 = criterion.forward(x, target), c32.forward(x32, target)
    assert isinstance(loss32, float)
    assert relative_error(loss32, loss64) < FLOAT32_RTOL, (loss32, loss64)
    assert_float32_close(c32.backward(x32, target), criterion.backward(x, target), "gradInput")


# ---------------------------------------------------------------- strides
def noncontiguous_views(x):
    """(name, array) pairs: arrays that are not C-contiguous but hold exactly
    x's values.  The gaps of the strided view hold NaN, so a kernel reading
    them shows it."""
    x = np.asarray(x)
    reverse = tuple(slice(None, None, -1) for _ in range(x.ndim))
    step2 = tuple(slice(None, None, 2) for _ in range(x.ndim))

    views = []
    if x.ndim >= 2:
        views.append(("transposed", np.ascontiguousarray(x.T).T))
    else:  # a column of a row-major matrix
        matrix = np.full((x.shape[0], 3), np.nan if x.dtype.kind == "f" else -7, dtype=x.dtype)
        matrix[:, 1] = x
        views.append(("column", matrix[:, 1]))
    big = np.full(tuple(2 * n for n in x.shape), np.nan if x.dtype.kind == "f" else -7, dtype=x.dtype)
    big[step2] = x
    views.append(("strided", big[step2]))
    views.append(("negative strides", x[reverse].copy()[reverse]))
    for name, view in views:
        assert view.shape == x.shape and np.array_equal(view, x), name
        assert not view.flags.c_contiguous or min(x.shape) <= 1, name
    return views


def check_noncontiguous(module, x, gradOutput):
    """Strided / transposed / negatively strided input and gradOutput give the
    same output, gradInput and parameter gradients as contiguous copies, and
    are not written to."""
    module.zeroGradParameters()
    out = module.forward(x).copy()
    grad_in = module.backward(x, gradOutput).copy()
    param_grads = [g.copy() for g in module.parameters()[1]]
    x_views, g_views = noncontiguous_views(x), noncontiguous_views(gradOutput)
    cases = [(f"input {xn}, gradOutput {gn}", xv, gv) for (xn, xv), (gn, gv) in zip(x_views, g_views)]
    cases.append(("contiguous input, gradOutput transposed", x, g_views[0][1]))
    for name, xv, gv in cases:
        x_before, g_before = xv.copy(), gv.copy()
        module.zeroGradParameters()
        np.testing.assert_array_equal(module.forward(xv), out, err_msg=f"output, {name}")
        np.testing.assert_array_equal(module.backward(xv, gv), grad_in, err_msg=f"gradInput, {name}")
        for i, (g, expected) in enumerate(zip(module.parameters()[1], param_grads)):
            np.testing.assert_array_equal(g, expected, err_msg=f"gradient {i}, {name}")
        np.testing.assert_array_equal(xv, x_before, err_msg=f"the input was written to, {name}")
        np.testing.assert_array_equal(gv, g_before, err_msg=f"gradOutput was written to, {name}")


def check_noncontiguous_criterion(criterion, x, target):
    """Strided views of input and target give the same loss and gradient."""
    loss = criterion.forward(x, target)
    grad = criterion.backward(x, target).copy()
    for (xn, xv), (tn, tv) in zip(noncontiguous_views(x), noncontiguous_views(target)):
        assert criterion.forward(xv, tv) == loss, f"loss, input {xn}, target {tn}"
        np.testing.assert_array_equal(criterion.backward(xv, tv), grad, err_msg=f"input {xn}, target {tn}")


# ---------------------------------------------------------------- batches
def check_batch_equals_samples(module, x, gradOutput):
    """forward/backward of the batch x equal those of each x[i] on its own,
    and the batch's parameter gradients equal the sum over samples."""
    n = x.shape[0]
    module.zeroGradParameters()
    out = module.forward(x).copy()
    grad_in = module.backward(x, gradOutput).copy()
    batch_grads = [g.copy() for g in module.parameters()[1]]

    module.zeroGradParameters()
    sample_out, sample_grad = [], []
    for i in range(n):
        sample_out.append(module.forward(x[i]).copy())
        sample_grad.append(module.backward(x[i], gradOutput[i]).copy())
    np.testing.assert_allclose(out, np.stack(sample_out), rtol=BATCH_RTOL, atol=1e-15)
    np.testing.assert_allclose(grad_in, np.stack(sample_grad), rtol=BATCH_RTOL, atol=1e-15)
    for g_batch, g_sum in zip(batch_grads, module.parameters()[1]):
        np.testing.assert_allclose(g_batch, g_sum, rtol=BATCH_RTOL, atol=1e-14)


# ---------------------------------------------------------------- buffers
def check_buffer_reuse(module, x_big, g_big, x_small, g_small):
    """Torch7 buffers (the contract in nn_legacy/Module.py): a change of shape
    gives new arrays and leaves the ones handed out before intact; the same
    shape again reuses the module's arrays.  Results stay correct throughout
    (compared with a fresh copy of the module)."""
    fresh = module.clone()

    out1_ref = module.forward(x_big)
    out1 = out1_ref.copy()
    gin1_ref = module.backward(x_big, g_big)
    gin1 = gin1_ref.copy()

    out2_ref = module.forward(x_small)
    np.testing.assert_array_equal(out1_ref, out1, err_msg="the first output changed after a new batch size")
    np.testing.assert_array_equal(out2_ref, fresh.forward(x_small), err_msg="output after a batch size change")
    gin2_ref = module.backward(x_small, g_small)
    np.testing.assert_array_equal(gin1_ref, gin1, err_msg="the first gradInput changed after a new batch size")
    np.testing.assert_array_equal(gin2_ref, fresh.backward(x_small, g_small),
                                  err_msg="gradInput after a batch size change")

    x_again, g_again = x_small[::-1].copy(), g_small[::-1].copy()  # same shape, other values
    out3 = module.forward(x_again)
    assert out3 is out2_ref, "a second forward of the same shape did not reuse the output array"
    np.testing.assert_array_equal(out3, fresh.forward(x_again))
    gin3 = module.backward(x_again, g_again)
    assert gin3 is gin2_ref, "a second backward of the same shape did not reuse the gradInput array"
    np.testing.assert_array_equal(gin3, fresh.backward(x_again, g_again))
    np.testing.assert_array_equal(out1_ref, out1)
    np.testing.assert_array_equal(gin1_ref, gin1)


def check_criterion_buffer_reuse(criterion, x_big, t_big, x_small, t_small):
    """As check_buffer_reuse, for a criterion's gradInput."""
    fresh = criterion.clone()
    criterion.forward(x_big, t_big)
    gin1_ref = criterion.backward(x_big, t_big)
    gin1 = gin1_ref.copy()
    assert criterion.forward(x_small, t_small) == fresh.forward(x_small, t_small)
    gin2_ref = criterion.backward(x_small, t_small)
    np.testing.assert_array_equal(gin1_ref, gin1, err_msg="the first gradInput changed after a new batch size")
    np.testing.assert_array_equal(gin2_ref, fresh.backward(x_small, t_small))
    x_again = x_small[::-1].copy()
    t_again = t_small[::-1].copy()
    assert criterion.forward(x_again, t_again) == fresh.forward(x_again, t_again)
    gin3 = criterion.backward(x_again, t_again)
    assert gin3 is gin2_ref, "a second backward of the same shape did not reuse the gradInput array"
    np.testing.assert_array_equal(gin3, fresh.backward(x_again, t_again))
    np.testing.assert_array_equal(gin1_ref, gin1)


# ---------------------------------------------------------------- pickling
def check_pickle(module, x, gradOutput):
    """pickle round trip, both fresh and after use: same parameters, same
    forward and backward."""
    restored = pickle.loads(pickle.dumps(module))
    expected_out = module.forward(x).copy()
    np.testing.assert_array_equal(restored.forward(x), expected_out)
    module.zeroGradParameters()
    restored.zeroGradParameters()
    np.testing.assert_array_equal(restored.backward(x, gradOutput), module.backward(x, gradOutput))
    for a, b in zip(restored.parameters()[1], module.parameters()[1]):
        np.testing.assert_array_equal(a, b)

    used = pickle.loads(pickle.dumps(module))  # holding output/gradInput buffers now
    assert repr(used) == repr(module)
    for a, b in zip(used.parameters()[0], module.parameters()[0]):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(used.forward(x), expected_out)


def check_criterion_pickle(criterion, x, target):
    restored = pickle.loads(pickle.dumps(criterion))
    assert restored.forward(x, target) == criterion.forward(x, target)
    np.testing.assert_array_equal(restored.backward(x, target), criterion.backward(x, target))
    used = pickle.loads(pickle.dumps(criterion))
    assert used.forward(x, target) == criterion.forward(x, target)


# ---------------------------------------------------------------- NaN
def check_nan_propagates(module, x, index, nan_mask, gradOutput):
    """A NaN put at x[index] gives NaN exactly where nan_mask is true; every
    other output, and every gradInput element outside the mask, is what it
    was without the NaN.  Nothing crashes."""
    clean_out = module.forward(x).copy()
    clean_grad = module.backward(x, gradOutput).copy()
    dirty = x.copy()
    dirty[index] = np.nan
    out = module.forward(dirty).copy()
    np.testing.assert_array_equal(np.isnan(out), nan_mask, err_msg="where the output is NaN")
    np.testing.assert_array_equal(out[~nan_mask], clean_out[~nan_mask])
    grad = module.backward(dirty, gradOutput)
    np.testing.assert_array_equal(grad[~nan_mask], clean_grad[~nan_mask])


def check_nan_at(module, x, index, gradOutput):
    """check_nan_propagates for an elementwise layer: a NaN at x[index] makes
    that one output NaN and leaves every other output and gradInput alone."""
    mask = np.zeros(x.shape, dtype=bool)
    mask[index] = True
    check_nan_propagates(module, x, index, mask, gradOutput)


# ---------------------------------------------------------------- bad input
def check_bad_input_arrays(module, x):
    """A list, an integer array and a float16 array as input are refused with
    a TypeError naming the layer."""
    layer = type(module).__name__
    with raises_exactly(TypeError, f"{layer}: input must be a numpy array, got list"):
        module.forward(x.tolist())
    with raises_exactly(TypeError, f"{layer}: input must be float32 or float64, got int64"):
        module.forward(x.astype(np.int64))
    with raises_exactly(TypeError, f"{layer}: input must be float32 or float64, got float16"):
        module.forward(x.astype(np.float16))


def check_bad_arrays(module, x, gradOutput, kernel):
    """The classes of bad array every module refuses with a TypeError naming
    the layer or kernel: lists, integer arrays, a float dtype other than
    float32/float64, and a gradOutput of the other float precision.
    `kernel` is the THNN prefix of the module's kernels ("Threshold" for ReLU)."""
    check_bad_input_arrays(module, x)
    module.forward(x)
    with raises_exactly(TypeError, f"{kernel}_updateGradInput: gradOutput must be a numpy array, got list"):
        module.backward(x, gradOutput.tolist())
    with raises_exactly(TypeError, f"{kernel}_updateGradInput: gradOutput must be a float32 or float64 "
                                   f"array, got int64"):
        module.backward(x, gradOutput.astype(np.int64))
    with raises_exactly(TypeError, f"{kernel}_updateGradInput: gradOutput must be float64 like the other "
                                   f"tensors, got float32"):
        module.backward(x, gradOutput.astype(np.float32))
    # the module still works after all of that
    np.testing.assert_array_equal(module.forward(x), module.clone().forward(x))


# ---------------------------------------------------------------- torch
def torch_or_skip():
    torch = pytest.importorskip("torch")
    return torch


def torch_forward_backward(fn, x, gradOutput):
    """(fn(x), d<fn(x), gradOutput>/dx) by torch autograd in float64, as numpy."""
    torch = torch_or_skip()
    tx = torch.from_numpy(np.array(x, dtype=np.float64)).requires_grad_(True)
    ty = fn(tx)
    ty.backward(torch.from_numpy(np.array(gradOutput, dtype=np.float64)))
    return ty.detach().numpy(), tx.grad.numpy()


def assert_close_or_equal(value, reference, tol, err_msg=""):
    """tol None: equal to the last bit; (rtol, atol): np.testing.assert_allclose."""
    if tol is None:
        np.testing.assert_array_equal(value, reference, err_msg=err_msg)
    else:
        np.testing.assert_allclose(value, reference, rtol=tol[0], atol=tol[1], err_msg=err_msg)


def check_forward_backward(module, x, gradOutput, out, gradInput, out_tol=None, grad_tol=None):
    """module.forward(x) against out and module.backward(x, gradOutput) against
    gradInput, each within its tolerance (None: exactly, or (rtol, atol))."""
    assert_close_or_equal(module.forward(x), out, out_tol, "output")
    assert_close_or_equal(module.backward(x, gradOutput), gradInput, grad_tol, "gradInput")


def check_matches_torch(module, fn, x, gradOutput, out_tol=None, grad_tol=None):
    """check_forward_backward against torch autograd through fn (float64)."""
    out, gin = torch_forward_backward(fn, x, gradOutput)
    check_forward_backward(module, x, gradOutput, out, gin, out_tol, grad_tol)


def check_own_output_as_input(module, x, twice, tol=None):
    """module.forward on its own output array: a new array, the first output
    left as it was, and twice (the layer applied twice) within tol."""
    y = module.forward(x)
    kept = y.copy()
    z = module.forward(y)
    assert z is not y
    np.testing.assert_array_equal(y, kept)
    assert_close_or_equal(z, twice(kept), tol)


def check_table_matches_torch(module, fn, table, gradOutput, out_tol=None, grad_tols=None):
    """A table module against torch autograd of fn(*table) (float64): the
    output within out_tol and gradInput[i] within grad_tols[i] (a single
    tolerance serves every entry; None: exactly, or (rtol, atol))."""
    torch = torch_or_skip()
    leaves = [torch.from_numpy(np.array(x, dtype=np.float64)).requires_grad_(True) for x in table]
    out = fn(*leaves)
    out.backward(torch.from_numpy(np.array(gradOutput, dtype=np.float64)))
    assert_close_or_equal(module.forward(table), out.detach().numpy(), out_tol, "output")
    got = module.backward(table, gradOutput)
    tols = grad_tols if isinstance(grad_tols, list) else [grad_tols] * len(table)
    for i, (grad, leaf, tol) in enumerate(zip(got, leaves, tols, strict=True)):
        assert_close_or_equal(grad, leaf.grad.numpy(), tol, f"gradInput[{i}]")


def forward_backward_silently(module, x, gradOutput=None):
    """(output, gradInput) of module on x with every numpy warning an error:
    saturating and overflowing inputs must give IEEE values quietly.
    gradOutput defaults to ones."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = module.forward(x)
        grad = module.backward(x, np.ones(x.shape) if gradOutput is None else gradOutput)
    return out, grad


# ---------------------------------------------------------------- hypothesis
def arbitrary_views(shape, low=-3.0, high=3.0):
    """A hypothesis strategy: float64 arrays of this shape laid out every
    way numpy allows (each dim stepped by 1 or 2, forwards or backwards,
    the dims possibly stored in another order), values in [low, high]."""
    st = pytest.importorskip("hypothesis.strategies")
    hnp = pytest.importorskip("hypothesis.extra.numpy")

    @st.composite
    def build(draw):
        ndim = len(shape)
        order = draw(st.permutations(range(ndim)))            # how the dims lie in memory
        steps = [draw(st.sampled_from([1, 2, -1, -2])) for _ in range(ndim)]
        stored = tuple(shape[d] * abs(steps[d]) for d in order)
        base = draw(hnp.arrays(np.float64, stored, elements=st.floats(low, high)))
        view = np.transpose(base, np.argsort(order))       # back to the logical dim order
        return view[tuple(slice(None, None, s) for s in steps)]

    return build()


def run_hypothesis(check, max_examples=150):
    """Run check(data) on max_examples hypothesis draws (skipped when
    hypothesis is not installed); check draws with data.draw(strategy)."""
    hypothesis = pytest.importorskip("hypothesis")
    st = pytest.importorskip("hypothesis.strategies")
    settings = hypothesis.settings(max_examples=max_examples, deadline=None, database=None)
    settings(hypothesis.given(st.data())(check))()


def draw_shape(data, min_dims=1, max_dims=4, max_side=4):
    """A shape for data.draw: min_dims..max_dims dims of 0..max_side (size 0 and 1 included)."""
    st = pytest.importorskip("hypothesis.strategies")
    sides = st.lists(st.integers(0, max_side), min_size=min_dims, max_size=max_dims)
    return tuple(data.draw(sides, label="shape"))


# ---------------------------------------------------------------- table inputs
# Criterions such as CosineEmbeddingCriterion take a table (list) of arrays,
# possibly nested, and return gradInput as a table of the same layout.  These
# checks take an array or such a table.
def table_leaves(value):
    """The arrays of an array or (nested) table, in order."""
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in table_leaves(v)]
    return [value]


def map_table(fn, value):
    """The table (or array) with fn applied to every array."""
    if isinstance(value, (list, tuple)):
        return [map_table(fn, v) for v in value]
    return fn(value)


def _leaf_paths(value, path=""):
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in _leaf_paths(v, f"{path}[{i}]")]
    return [path or "input"]


def _assert_same_layout(grad, like, what):
    grad_shapes = [np.shape(g) for g in table_leaves(grad)]
    like_shapes = [np.shape(x) for x in table_leaves(like)]
    assert grad_shapes == like_shapes, f"{what}: gradient shapes {grad_shapes} for input shapes {like_shapes}"


class _FlatTable:
    """A criterion over one flat vector that stands for a whole table, so
    jacobian.testCriterion can perturb every entry of every array."""

    def __init__(self, criterion, like):
        self.criterion, self.like = criterion, like

    def table(self, flat):
        parts, offset = [], 0
        for leaf in table_leaves(self.like):
            parts.append(flat[offset:offset + leaf.size].reshape(leaf.shape))
            offset += leaf.size
        parts = iter(parts)
        return map_table(lambda _: next(parts), self.like)

    def forward(self, flat, target):
        return self.criterion.forward(self.table(flat), target)

    def backward(self, flat, target):
        grad = self.criterion.backward(self.table(flat), target)
        _assert_same_layout(grad, self.like, "backward")
        return np.concatenate([np.ravel(g) for g in table_leaves(grad)] + [np.zeros(0)])


def assert_table_criterion_gradient(criterion, table, target):
    """d loss / d every entry of the table through backward, against central
    differences (the step and tolerance of assert_criterion_gradient)."""
    table = map_table(lambda a: np.array(a, dtype=np.float64), table)
    flat = np.concatenate([a.ravel() for a in table_leaves(table)] + [np.zeros(0)])
    report = jacobian.testCriterion(_FlatTable(criterion, table), flat, target, perturbation=STEP)
    if report.where is not None and report.max_error >= JACOBIAN_TOL:
        index, sizes = int(report.where[1][0]), [a.size for a in table_leaves(table)]
        entry = int(np.searchsorted(np.cumsum(sizes), index, side="right"))
        local = index - sum(sizes[:entry])
        where = np.unravel_index(local, table_leaves(table)[entry].shape)
        raise AssertionError(f"{_leaf_paths(table)[entry]} element {tuple(int(i) for i in where)}: {report}")
    return report


def check_float32_table_criterion(criterion, table, target):
    """check_float32_criterion for a table input: the loss and every entry
    of gradInput within FLOAT32_RTOL of float64."""
    c32 = criterion.clone().float()
    table32 = map_table(lambda a: a.astype(np.float32), table)
    loss64, loss32 = criterion.forward(table, target), c32.forward(table32, target)
    assert isinstance(loss32, float)
    assert relative_error(loss32, loss64) < FLOAT32_RTOL, (loss32, loss64)
    grads32, grads64 = c32.backward(table32, target), criterion.backward(table, target)
    _assert_same_layout(grads32, table, "float32 backward")
    for path, g32, g64 in zip(_leaf_paths(table), table_leaves(grads32), table_leaves(grads64)):
        assert_float32_close(g32, g64, f"gradInput{path}")


def check_noncontiguous_table_criterion(criterion, table, target):
    """Every array of the table (and an array target) strided, transposed or
    negatively strided: the same loss and gradients, bit for bit, as
    contiguous copies, and the input left unwritten."""
    def views_of(value):
        return [v for _, v in noncontiguous_views(value)]

    loss = criterion.forward(table, target)
    grads = [g.copy() for g in table_leaves(criterion.backward(table, target))]
    leaf_views = [views_of(a) for a in table_leaves(table)]
    target_views = views_of(target) if isinstance(target, np.ndarray) and target.ndim else None
    for k in range(len(leaf_views[0])):
        views = iter([v[k] for v in leaf_views])
        strided = map_table(lambda _: next(views), table)
        t = target if target_views is None else target_views[k]
        before = [v.copy() for v in table_leaves(strided)]
        assert criterion.forward(strided, t) == loss, f"loss, layout {k}"
        for path, g, expected in zip(_leaf_paths(table), table_leaves(criterion.backward(strided, t)), grads):
            np.testing.assert_array_equal(g, expected, err_msg=f"gradInput{path}, layout {k}")
        for path, v, b in zip(_leaf_paths(table), table_leaves(strided), before):
            np.testing.assert_array_equal(v, b, err_msg=f"input{path} was written to, layout {k}")


def check_table_criterion_buffer_reuse(criterion, big, t_big, small, t_small):
    """check_criterion_buffer_reuse for table inputs: a change of shapes
    gives a new gradInput table of new arrays and leaves the ones handed out
    before intact; the same shapes again reuse the table and its arrays."""
    fresh = criterion.clone()
    criterion.forward(big, t_big)
    gin1_ref = criterion.backward(big, t_big)
    gin1 = [g.copy() for g in table_leaves(gin1_ref)]
    assert criterion.forward(small, t_small) == fresh.forward(small, t_small)
    gin2_ref = criterion.backward(small, t_small)
    gin2_leaves = table_leaves(gin2_ref)
    for path, g, expected in zip(_leaf_paths(small), gin2_leaves, table_leaves(fresh.backward(small, t_small))):
        np.testing.assert_array_equal(g, expected, err_msg=f"gradInput{path} after a batch size change")
    for path, g, kept in zip(_leaf_paths(big), table_leaves(gin1_ref), gin1):
        np.testing.assert_array_equal(g, kept, err_msg=f"the first gradInput{path} changed after a new batch size")

    small_again = map_table(lambda a: a[::-1].copy(), small)  # same shapes, other values
    t_again = t_small[::-1].copy() if isinstance(t_small, np.ndarray) and t_small.ndim else t_small
    assert criterion.forward(small_again, t_again) == fresh.forward(small_again, t_again)
    gin3 = criterion.backward(small_again, t_again)
    assert gin3 is gin2_ref, "a second backward of the same shapes did not reuse the gradInput table"
    expected3 = table_leaves(fresh.backward(small_again, t_again))
    for path, g, g2, expected in zip(_leaf_paths(small), table_leaves(gin3), gin2_leaves, expected3):
        assert g is g2, f"a second backward of the same shapes did not reuse gradInput{path}"
        np.testing.assert_array_equal(g, expected, err_msg=f"gradInput{path}")
    for g, kept in zip(table_leaves(gin1_ref), gin1):
        np.testing.assert_array_equal(g, kept)


def check_table_criterion_pickle(criterion, table, target):
    """pickle round trip, fresh and after use: same loss and gradients."""
    restored = pickle.loads(pickle.dumps(criterion))
    assert restored.forward(table, target) == criterion.forward(table, target)
    for a, b in zip(table_leaves(restored.backward(table, target)), table_leaves(criterion.backward(table, target))):
        np.testing.assert_array_equal(a, b)
    used = pickle.loads(pickle.dumps(criterion))
    assert repr(used) == repr(criterion)
    assert used.forward(table, target) == criterion.forward(table, target)
