"""Checks for modules whose input or output is a table (a list of arrays,
possibly nested), or an array: the table versions of the checks in
layer_checks.py, with its step and tolerances.

``Flattened(module, like)`` is the module seen as a map from one flat
float64 vector to another, so nn_legacy.jacobian can check the derivative
w.r.t. every entry of every float array of the table at once.  Arrays of
other dtypes in the table (indices, masks, targets) stay fixed, and a
number in the output (CriterionTable's loss) is one entry of the vector.

Every check takes the input table and gradOutput (laid out as the output).
"""
import pickle

import numpy as np

from layer_checks import (JACOBIAN_TOL, STEP, assert_float32_close, assert_parameter_jacobians, map_table,
                          noncontiguous_views, relative_error, table_leaves)
from nn_legacy import Module, jacobian


def is_free(leaf):
    """A float array: an entry the derivative is taken w.r.t."""
    return isinstance(leaf, np.ndarray) and leaf.dtype.kind == "f"


def free_mask(table, fixed=()):
    """Per leaf: is it free (a float array whose path is not in fixed)?"""
    return [is_free(leaf) and path not in fixed for path, leaf in zip(leaf_paths(table), table_leaves(table))]


def leaf_paths(value, path=""):
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in leaf_paths(v, f"{path}[{i}]")]
    return [path]


def flat(value):
    """The leaves of value (arrays or numbers) raveled into one float64 vector."""
    parts = [np.ravel(np.asarray(leaf, dtype=np.float64)) for leaf in table_leaves(value)]
    return np.concatenate(parts + [np.zeros(0)])


def unflat(vector, like):
    """vector cut into the layout of like (an array, a number or a nested table)."""
    offset = 0

    def take(leaf):
        nonlocal offset
        n = int(np.size(leaf))
        part = vector[offset:offset + n]
        offset += n
        if isinstance(leaf, np.ndarray):
            return part.reshape(leaf.shape).astype(leaf.dtype)
        return float(part[0])

    return map_table(take, like)


class Flattened(Module):
    """The module with one flat vector in and out (see the module docstring)."""

    def __init__(self, module, like, fixed=()):
        super().__init__()
        self.module, self.like = module, like
        self.free = free_mask(like, fixed)
        self.out_like = None
        self.last = None    # (vector, table) of the last forward

    def input_for(self, x):
        """The table forward last took, when x is its vector (backward gets the
        very input forward got, which an in-place module overwrote), else a
        fresh one."""
        if self.last is not None and np.array_equal(self.last[0], x):
            return self.last[1]
        return self.table(x)

    def table(self, x):
        """The input table with its free float arrays taken from the vector x."""
        offset = 0
        free = iter(self.free)

        def put(leaf):
            nonlocal offset
            if not next(free):
                return leaf
            part = x[offset:offset + leaf.size].reshape(leaf.shape).copy()
            offset += leaf.size
            return part

        return map_table(put, self.like)

    def updateOutput(self, x):
        self.last = (np.array(x, copy=True), self.table(x))
        out = self.module.updateOutput(self.last[1])
        self.out_like = map_table(lambda a: np.array(a, copy=True) if isinstance(a, np.ndarray) else a, out)
        self.output = flat(out)
        return self.output

    def updateGradInput(self, x, g):
        grad = self.module.updateGradInput(self.input_for(x), unflat(g, self.out_like))
        grad_shapes = [np.shape(leaf) for leaf in table_leaves(grad)]
        like_shapes = [np.shape(leaf) for leaf in table_leaves(self.like)]
        assert grad_shapes == like_shapes, f"gradInput shapes {grad_shapes} for input shapes {like_shapes}"
        self.gradInput = np.concatenate([np.ravel(leaf).astype(np.float64)
                                         for leaf, f in zip(table_leaves(grad), self.free) if f] + [np.zeros(0)])
        return self.gradInput

    # the module's parameters and parameter verbs are the wrapper's, so the
    # parameter checks of layer_checks go through the module's own code
    def accGradParameters(self, x, g, scale=1):
        self.module.accGradParameters(self.input_for(x), unflat(g, self.out_like), scale)

    def accUpdateGradParameters(self, x, g, lr):
        self.module.accUpdateGradParameters(self.input_for(x), unflat(g, self.out_like), lr)

    def _all_parameters(self):
        return self.module._all_parameters()

    def zeroGradParameters(self):
        self.module.zeroGradParameters()

    def updateParameters(self, learningRate):
        self.module.updateParameters(learningRate)

    def _dtype(self):
        return self.module._dtype()

    def vector(self):
        """The free float arrays of the input table as one vector."""
        return np.concatenate([np.ravel(leaf) for leaf, f in zip(table_leaves(self.like), self.free) if f]
                              + [np.zeros(0)])


def assert_table_jacobian(module, table, kinks=(), fixed=()):
    """d output / d every float array of the table (or the array), through
    updateGradInput, against central differences; the failure names the
    entry (``input[1][0] element (2, 1)``).  ``fixed``: paths of float
    arrays held fixed (``{"[1]"}`` for a target)."""
    wrapped = Flattened(module, table, fixed)
    report = jacobian.testJacobian(wrapped, wrapped.vector(), perturbation=STEP, kinks=kinks)
    if not report < JACOBIAN_TOL:
        free = [(p, leaf) for p, leaf, f in zip(leaf_paths(table), table_leaves(table), wrapped.free) if f]
        index, ends = int(report.where[1][0]), np.cumsum([leaf.size for _, leaf in free])
        k = int(np.searchsorted(ends, index, side="right"))
        path, leaf = free[k]
        where = np.unravel_index(index - (ends[k] - leaf.size), leaf.shape)
        raise AssertionError(f"input{path} element {tuple(int(i) for i in where)}: {report}")
    return report


def assert_table_parameter_jacobians(module, table, fixed=()):
    """d output / d every parameter of the module, through accGradParameters
    and through accUpdateGradParameters, against central differences
    (layer_checks.assert_parameter_jacobians on the flattened module)."""
    wrapped = Flattened(module, table, fixed)
    assert_parameter_jacobians(wrapped, wrapped.vector())


def copies(value):
    """value with every array copied (numbers kept)."""
    return map_table(lambda a: np.array(a, copy=True) if isinstance(a, np.ndarray) else a, value)


def assert_same(value, expected, what):
    """Same layout, same values bit for bit (NaN matching NaN)."""
    paths = leaf_paths(expected)
    got, want = table_leaves(value), table_leaves(expected)
    assert len(got) == len(want), f"{what}: {len(got)} arrays for {len(want)}"
    for path, a, b in zip(paths, got, want):
        assert np.shape(a) == np.shape(b), f"{what}{path}: shape {np.shape(a)} for {np.shape(b)}"
        np.testing.assert_array_equal(a, b, err_msg=f"{what}{path}")


def forward_backward(module, table, gradOutput):
    """Copies of (output, gradInput) after forward and backward."""
    out = copies(module.forward(table))
    return out, copies(module.backward(table, gradOutput))


# ---------------------------------------------------------------- float32
def check_table_float32(module, table, gradOutput):
    """The module converted with .float(), on float32 copies of the float
    arrays, gives outputs and gradients within FLOAT32_RTOL of float64."""
    m32 = module.clone().float()
    to32 = (lambda a: a.astype(np.float32) if is_free(a) else a)
    out64, grad64 = forward_backward(module, table, gradOutput)
    out32, grad32 = forward_backward(m32, map_table(to32, table), map_table(to32, gradOutput))
    for what, got, want in (("output", out32, out64), ("gradInput", grad32, grad64)):
        for path, a, b in zip(leaf_paths(want), table_leaves(got), table_leaves(want)):
            if is_free(b):
                assert_float32_close(a, b, f"{what}{path}")
            elif isinstance(b, float):
                assert isinstance(a, float) and relative_error(a, b) < 1e-4, (what, a, b)
            else:
                np.testing.assert_array_equal(a, b, err_msg=f"{what}{path}")


# ---------------------------------------------------------------- strides
def strided(value, k):
    """Layout k (0: transposed or a column, 1: every other element, 2:
    negative strides) of every array of ndim >= 1 in value."""
    return map_table(lambda a: noncontiguous_views(a)[k][1] if isinstance(a, np.ndarray) and a.ndim else a, value)


def check_table_noncontiguous(module, table, gradOutput):
    """Every array of the input and of gradOutput strided, transposed or
    negatively strided: the same output and gradInput, bit for bit, as
    contiguous copies, and the arrays passed in left unwritten."""
    table, gradOutput = copies(table), copies(gradOutput)   # kept as they are, whatever the module does
    out, grad = forward_backward(module, copies(table), copies(gradOutput))
    for k in range(3):
        t, g = strided(table, k), strided(gradOutput, k)
        t_before, g_before = copies(t), copies(g)
        got_out, got_grad = forward_backward(module, t, g)
        assert_same(got_out, out, f"output, layout {k}: output")
        assert_same(got_grad, grad, f"gradInput, layout {k}: gradInput")
        assert_same(t, t_before, f"layout {k}: the input was written to: input")
        assert_same(g, g_before, f"layout {k}: gradOutput was written to: gradOutput")


# ---------------------------------------------------------------- buffers
def check_table_buffer_reuse(module, big, g_big, small, g_small, owns_output=True, owns_gradInput=True):
    """The buffer contract (nn_legacy/Module.py) for tables: a change of
    shapes leaves the arrays handed out before intact, and results stay
    correct (against a fresh copy of the module).  For the buffers the
    module owns (``owns_output``, ``owns_gradInput``; views of the input or
    gradOutput are not owned), the same shapes again reuse every array."""
    fresh = module.clone()
    out1_ref = module.forward(big)
    out1 = copies(out1_ref)
    gin1_ref = module.backward(big, g_big)
    gin1 = copies(gin1_ref)

    out2_ref = module.forward(small)
    assert_same(out2_ref, fresh.forward(small), "output after a change of shapes: output")
    gin2_ref = module.backward(small, g_small)
    assert_same(gin2_ref, fresh.backward(small, g_small), "gradInput after a change of shapes: gradInput")
    assert_same(out1_ref, out1, "the first output changed after a change of shapes: output")
    assert_same(gin1_ref, gin1, "the first gradInput changed after a change of shapes: gradInput")

    def other_values(a):
        return (a[::-1].copy() if a.ndim else a.copy()) if is_free(a) else a

    small_again, g_again = map_table(other_values, small), map_table(other_values, g_small)
    out2_leaves, gin2_leaves = table_leaves(out2_ref), table_leaves(gin2_ref)
    out3 = module.forward(small_again)
    if owns_output:
        for path, a, b in zip(leaf_paths(out3), table_leaves(out3), out2_leaves):
            assert a is b, f"a second forward of the same shapes did not reuse output{path}"
    assert_same(out3, fresh.forward(small_again), "output: output")
    gin3 = module.backward(small_again, g_again)
    if owns_gradInput:
        for path, a, b in zip(leaf_paths(gin3), table_leaves(gin3), gin2_leaves):
            assert a is b, f"a second backward of the same shapes did not reuse gradInput{path}"
    assert_same(gin3, fresh.backward(small_again, g_again), "gradInput: gradInput")
    assert_same(out1_ref, out1, "output: output")
    assert_same(gin1_ref, gin1, "gradInput: gradInput")


# ---------------------------------------------------------------- pickling
def check_table_pickle(module, table, gradOutput):
    """pickle round trip, fresh and after use: the same forward and backward."""
    restored = pickle.loads(pickle.dumps(module))
    out, grad = forward_backward(module, table, gradOutput)
    got_out, got_grad = forward_backward(restored, table, gradOutput)
    assert_same(got_out, out, "output after pickling: output")
    assert_same(got_grad, grad, "gradInput after pickling: gradInput")
    used = pickle.loads(pickle.dumps(module))   # holding output/gradInput buffers now
    assert repr(used) == repr(module)
    assert_same(forward_backward(used, table, gradOutput)[1], grad, "gradInput after pickling a used module: ")


# ---------------------------------------------------------------- batches
def check_table_batch_equals_samples(module, table, gradOutput, sample=None):
    """forward/backward of a batch equal those of each sample on its own:
    sample i of the batch output is the output for sample i, and so is the
    gradient w.r.t. every float array.  ``sample(i)`` gives (input,
    gradOutput) of sample i; by default every array of both, indexed [i]."""
    if sample is None:
        def sample(i):
            return map_table(lambda a: a[i], table), map_table(lambda a: a[i], gradOutput)
    out, grad = forward_backward(module, table, gradOutput)
    n = table_leaves(table)[0].shape[0]
    for i in range(n):
        t, g = sample(i)
        got_out, got_grad = forward_backward(module, t, g)
        for path, a, b in zip(leaf_paths(out), table_leaves(out), table_leaves(got_out)):
            np.testing.assert_allclose(np.ravel(a[i]), np.ravel(b), rtol=1e-12, atol=1e-15,
                                       err_msg=f"output{path}, sample {i}")
        for path, x, a, b in zip(leaf_paths(table), table_leaves(table), table_leaves(grad),
                                 table_leaves(got_grad)):
            if is_free(x):
                np.testing.assert_allclose(np.ravel(a[i]), np.ravel(b), rtol=1e-12, atol=1e-15,
                                           err_msg=f"gradInput{path}, sample {i}")
