"""The fast paths of the per-call plumbing (issue 28: a small model's forward
is mostly this) keep the general path's answers: _helpers.arrays.reuse with
host arrays only, _helpers.namespace.array_namespace with numpy arrays only,
_helpers.arrays.quietly in place of np.errstate, and the forward loops of
Sequential, Concat and ConcatTable that call their children directly (an
error still names the container and the child)."""
import copy
import importlib
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from thnn._call import quiet_verbs
from nn_legacy._helpers import arrays
from nn_legacy._helpers.arrays import quietly, reuse
from nn_legacy._helpers.namespace import array_namespace


def test_reuse_keeps_a_fitting_buffer_and_replaces_any_other():
    buf = np.zeros((2, 3), np.float32)
    x = np.ones((2, 3), np.float32)
    assert reuse(buf, (2, 3), np.dtype(np.float32), x) is buf
    assert reuse(buf, [2, 3], np.float32, x, None) is buf           # a list shape, a dtype type, a None skipped
    for shape, dtype in (((3, 2), np.float32), ((2, 3), np.float64)):
        new = reuse(buf, shape, dtype, x)
        assert new is not buf and new.shape == shape and new.dtype == dtype
    assert reuse(None, (2, 3), np.float32, x).shape == (2, 3)


def test_reuse_never_hands_back_a_buffer_that_overlaps_an_input_or_is_read_only():
    buf = np.zeros((4, 3), np.float32)
    for avoid in (buf, buf[1:3], buf.T, [np.ones(3), [buf[0]]]):        # tables are searched
        new = reuse(buf, (4, 3), np.float32, avoid)
        assert new is not buf and not np.may_share_memory(new, buf)
    assert reuse(buf, (4, 3), np.float32, np.zeros((4, 3), np.float32)[::-1]) is buf
    frozen = np.zeros((4, 3), np.float32)
    frozen.flags.writeable = False
    assert reuse(frozen, (4, 3), np.float32) is not frozen


def test_reuse_of_an_array_subclass_and_with_subclass_inputs_is_as_before():
    class Sub(np.ndarray):
        pass
    buf = np.zeros((2, 2)).view(Sub)
    assert reuse(buf, (2, 2), np.float64, np.ones((2, 2))) is buf       # the general path still keeps it
    assert reuse(buf, (2, 2), np.float64, buf[:1]) is not buf
    plain = np.zeros((2, 2))
    assert reuse(plain, (2, 2), np.float64, plain.view(Sub)) is not plain


def test_array_namespace_of_host_arrays_and_tables_is_numpy():
    x = np.ones(3)
    assert array_namespace(x) is np and array_namespace(x, x.astype(np.float32)) is np
    assert array_namespace([x, [x]], None, 2.0) is np
    assert array_namespace() is np


def _bad_second_child(container):
    return container.add(nn.Linear(3, 4)).add(nn.Linear(5, 2))


@pytest.mark.parametrize("make, name", [(lambda: nn.Sequential(), "Sequential"), (lambda: nn.Concat(1), "Concat"),
                                        (lambda: nn.ConcatTable(), "ConcatTable")])
def test_a_child_error_in_forward_names_the_container_and_the_child(make, name):
    m = _bad_second_child(make())
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match=rf"^{name} \(1\) -> Linear_updateOutput: input must be 1D or 2D with 5 "
                                         r"features, got 2D of size \[2, \d\]$") as info:
        m.forward(x)
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(TypeError, match=rf"^{name} \(0\) -> Linear: input is float32 but the module is float64"):
        m.forward(x.astype(np.float32))


def test_the_direct_forward_loops_give_what_the_children_give():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 3))
    a, b = nn.Linear(3, 4), nn.Tanh()
    expected = copy.deepcopy(b).forward(copy.deepcopy(a).forward(x))
    np.testing.assert_array_equal(nn.Sequential(a, b).forward(x), expected)
    c = nn.Concat(1).add(nn.Linear(3, 2)).add(nn.Identity())
    first = copy.deepcopy(c.modules[0]).forward(x)
    np.testing.assert_array_equal(c.forward(x), np.concatenate([first, x], 1))
    t = nn.ConcatTable().add(nn.Identity()).add(nn.Tanh())
    out = t.forward(x)
    assert out[0] is t.modules[0].output and out[1] is t.modules[1].output
    np.testing.assert_array_equal(out[1], nn.Tanh().forward(x))


def test_verbs_run_with_floating_point_errors_ignored_and_restore_the_callers_state():
    """thnn/_guard.c: a verb (forward, backward, updateOutput called directly, a container's child) runs its
    numpy arithmetic as the kernels do, inf and NaN without a warning; the caller's state comes back after it,
    after an error too."""
    class Probe(nn.Module):
        def updateOutput(self, input):
            self.seen = np.geterr()
            self.output = input * 1e300
            return self.output

        def updateGradInput(self, input, gradOutput):
            raise ValueError("Probe: refused")

    probe = Probe()
    net = nn.Sequential(nn.Identity(), probe)
    x = np.array([1e300, -1e300])
    for state in ("raise", "warn"):
        with np.errstate(all=state), warnings.catch_warnings():
            warnings.simplefilter("error")
            for run in (net.forward, probe.forward, probe.updateOutput):
                probe.seen = None
                assert np.isneginf(run(x)[1]) and set(probe.seen.values()) == {"ignore"}
                assert set(np.geterr().values()) == {state}
            with pytest.raises(ValueError, match="Probe: refused"):
                net.backward(x, np.ones(2))
            assert set(np.geterr().values()) == {state}
    quiet_verbs(None, None)   # off (for measurements): the caller's state reaches the verb
    try:
        with np.errstate(all="raise"), pytest.raises(FloatingPointError):
            probe.forward(x)
    finally:
        quiet_verbs(arrays._extobj_contextvar, arrays._IGNORE_ALL)
    assert np.isinf(probe.forward(x)).all() and set(probe.seen.values()) == {"ignore"}


def test_quietly_inside_a_verb_leaves_the_state_the_verb_set():
    class Probe(nn.Module):
        def updateOutput(self, input):
            self.before = arrays._extobj_contextvar.get()
            self.output, self.inside = quietly(lambda: (input * 1e300, np.geterr()))
            self.after = arrays._extobj_contextvar.get()
            return self.output

    probe = Probe()
    with np.errstate(all="raise"):
        assert np.isinf(probe.forward(np.array([1e300]))).all()
    assert probe.before is probe.after is arrays._IGNORE_ALL and set(probe.inside.values()) == {"ignore"}


def test_quietly_ignores_floating_point_errors_for_one_call_and_restores_the_state():
    def overflow(a, b):
        return (a * b, np.geterr())

    big = np.array([3e38], np.float32)
    with np.errstate(all="raise"):
        value, inside = quietly(overflow, big, big)
        assert np.isinf(value).all() and set(inside.values()) == {"ignore"}
        assert set(np.geterr().values()) == {"raise"}                 # restored after the call
        with pytest.raises(ZeroDivisionError):
            quietly(lambda: 1 / 0)
        assert set(np.geterr().values()) == {"raise"}                 # and after an exception
        with pytest.raises(FloatingPointError):
            big * big


@pytest.mark.parametrize("make, x", [
    (nn.CAddTable, [np.array([np.inf, 3e38], np.float32), np.array([-np.inf, 3e38], np.float32)]),
    (nn.CDivTable, [np.array([1.0, 0.0]), np.array([0.0, 0.0])]),
    (nn.Log, np.array([0.0, -1.0])),
    (nn.CosineDistance, [np.array([[np.inf, 1.0, 1.0]]), np.ones((1, 3))]),
], ids=["CAddTable", "CDivTable", "Log", "CosineDistance"])
def test_modules_return_inf_and_nan_without_warnings(make, x):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = make()
        y = m.forward(x)
        assert not np.isfinite(y).all()
        m.backward(x, np.ones_like(y))


def test_parallel_table_names_a_child_error_as_the_other_containers_do():
    m = nn.ParallelTable().add(nn.Linear(3, 4)).add(nn.Linear(5, 2))
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match=r"^ParallelTable \(1\) -> Linear_updateOutput: input must be 1D or 2D with 5 "
                                         r"features, got 2D of size \[2, 3\]$") as info:
        m.forward([x, x])
    assert isinstance(info.value.__cause__, ValueError)
    with pytest.raises(TypeError, match=r"^ParallelTable \(0\) -> Linear: input is float32 but the module is float64"):
        m.forward([x.astype(np.float32), x])
    out = m.forward((x, np.ones((2, 5))))        # a tuple is a table too
    assert out[0] is m.modules[0].output and out[1] is m.modules[1].output
    assert m.forward([x, np.ones((2, 5))]) is out    # the same table again while it holds the same arrays


class _Float32Only(nn.Tanh):
    """A kernel module that says its own dtype: _kernel_of takes the general path."""
    def _dtype(self):
        return np.dtype(np.float32)


def test_kernel_of_takes_the_general_path_where_its_fast_one_does_not_answer():
    """_kernel_of answers a numpy float input of a module of Module's own _kernels, _host_dtype and _dtype
    itself; any other case (another dtype, parameters of another dtype, a class
    that says its dtype otherwise) gets _kernels' answer or its error."""
    import thnn
    assert nn.Linear._plain_kernels and nn.Tanh._plain_kernels and not _Float32Only._plain_kernels
    lin = nn.Linear(3, 2)
    assert lin._kernel_of(np.ones((1, 3)), "updateOutput") is thnn.Double.Linear_updateOutput
    with pytest.raises(TypeError, match=r"^Linear: input is float32 but the module is float64"):
        lin._kernel_of(np.ones((1, 3), np.float32), "updateOutput")
    with pytest.raises(TypeError, match=r"^Linear: input must be float32 or float64, got int64"):
        lin._kernel_of(np.ones((1, 3), np.int64), "updateOutput")
    lin.float()
    assert lin._kernel_of(np.ones((1, 3), np.float32), "updateOutput") is thnn.Float.Linear_updateOutput
    with pytest.raises(TypeError, match=r"^Linear: input is float64 but the module is float32"):
        lin._kernel_of(np.ones((1, 3)), "updateOutput")
    assert nn.Tanh()._kernel_of(np.ones(2, np.float32), "updateOutput") is thnn.Float.Tanh_updateOutput
    with pytest.raises(TypeError, match=r"^_Float32Only: input is float64 but the module is float32"):
        _Float32Only()._kernel_of(np.ones(2), "updateOutput")


def test_parallel_slices_are_copies_and_a_child_error_names_it():
    """Parallel's slices of a numpy input (indexed, not np.take) are copies, as np.take's are; a 1D
    input gives its children numbers, as np.take does; a child's error names the container."""
    x = np.arange(24.0).reshape(2, 3, 4)
    m = nn.Parallel(1, 0).add(nn.Identity()).add(nn.Identity()).add(nn.Identity())
    np.testing.assert_array_equal(m.forward(x), np.concatenate([np.take(x, i, axis=1) for i in range(3)], 0))
    for child in m.modules:
        assert child.output.flags.c_contiguous and not np.shares_memory(child.output, x)
    flat = nn.Parallel(0, 0).add(nn.Identity()).add(nn.Identity())
    assert [type(v) for v in flat._inputs(np.arange(2.0))] == [type(np.take(np.arange(2.0), 0))] * 2
    bad = nn.Parallel(1, 1).add(nn.Linear(4, 2)).add(nn.Linear(5, 2))
    with pytest.raises(ValueError, match=r"^Parallel \(1\) -> Linear_updateOutput: input must be 1D or 2D with 5 "
                                         r"features, got 2D of size \[2, 4\]$"):
        bad.forward(np.ones((2, 2, 4)))


@pytest.mark.parametrize("name", ["CAddTable", "CMulTable", "CSubTable", "CDivTable"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_two_entry_elementwise_table_takes_its_ufunc_with_the_bits_of_its_forward(name, dtype):
    rng = np.random.default_rng(5)
    a, b = (rng.standard_normal((3, 4)).astype(dtype) for _ in range(2))
    b[0, 0], a[1, 1], b[1, 1] = 0, 0, 0                       # x / 0 and 0 / 0 for CDivTable: inf and nan
    m = getattr(nn, name)()
    expected = np.empty_like(a)
    with np.errstate(all="ignore"):
        m._forward([a, b], expected)                           # the general path's arithmetic
    m._forward = None                                          # (so the general path would fail: not taken)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward([a, b])
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == dtype and not np.may_share_memory(out, a) and not np.may_share_memory(out, b)
    assert m.forward([a, b]) is out                            # the buffer kept while the shapes are
    again = m.forward([out, b])                                # the output fed back: a new buffer
    assert again is not out and not np.may_share_memory(again, out)
    del m._forward
    np.testing.assert_array_equal(m.updateGradInput([a, b], np.ones_like(a))[0].shape, a.shape)


def test_three_entry_tables_and_device_like_inputs_keep_the_general_path():
    rng = np.random.default_rng(6)
    xs = [rng.standard_normal((2, 3)) for _ in range(3)]
    m = nn.CMulTable()
    calls = []
    forward = m._forward
    m._forward = lambda ys, out: calls.append(len(ys)) or forward(ys, out)
    np.testing.assert_array_equal(m.forward(xs), xs[0] * xs[1] * xs[2])
    m.forward([xs[0], xs[1].T.copy().T])                        # (any layout: numpy arrays as they are)
    m.forward((xs[0], xs[1]))                                   # a tuple: the general checks, then _forward
    assert calls == [3, 2]


@pytest.mark.parametrize("shape", [(5,), (2, 3), (2, 3, 4), (2, 3, 1, 4)])
def test_split_table_slices_are_views_as_indexing_gives_them(shape):
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    for dim in range(-len(shape), len(shape)):
        out = nn.SplitTable(dim).forward(x)
        d = dim % len(shape)
        assert len(out) == shape[d]
        for i, part in enumerate(out):
            want = x[(slice(None),) * d + (i, ...)]
            assert type(part) is np.ndarray and part.shape == want.shape and part.strides == want.strides
            assert part.__array_interface__["data"] == want.__array_interface__["data"]
            np.testing.assert_array_equal(part, want)


@pytest.mark.parametrize("name", ["Max", "Min", "Sum", "Mean"])
def test_reductions_of_contiguous_and_strided_inputs_agree_with_numpy(name):
    rng = np.random.default_rng(7)
    base = rng.standard_normal((3, 4, 5)).astype(np.float32)
    base[0, 1, 2] = np.nan
    base[1, :, 3] = 0.5                                             # ties: the first position
    for x in (base, base.transpose(1, 0, 2), base[:, ::2]):
        for dim in range(3):
            m = getattr(nn, name)(dim)
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                out = m.forward(x)
            if name in ("Max", "Min"):
                pick = np.argmax if name == "Max" else np.argmin
                np.testing.assert_array_equal(m.indices, pick(x, axis=dim))
                at = np.expand_dims(pick(x, axis=dim), dim)
                np.testing.assert_array_equal(out, np.take_along_axis(x, at, axis=dim).squeeze(dim))
            else:
                want = np.add.reduce(np.ascontiguousarray(x), axis=dim)
                np.testing.assert_array_equal(out, want / x.shape[dim] if name == "Mean" else want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_two_entry_elementwise_table_checks_inline_without_the_general_helpers(dtype, monkeypatch):
    """Two numpy arrays of one shape and float dtype: the ufunc into the kept output, checked inline (no
    plain_floats call); reuse's rules hold: a read-only or overlapping buffer is replaced,
    inf and nan come without warnings, batch 1 and 8, a strided input, another shape on a second call."""
    from nn_legacy._bases import tables

    def refuse(*args):
        raise AssertionError("the general path's helper was called")
    rng = np.random.default_rng(8)
    for batch in (1, 8):
        a = rng.standard_normal((batch, 5)).astype(dtype)
        b = rng.standard_normal((5, batch)).astype(dtype).T          # (not contiguous)
        a[0, 0], b[0, 0] = np.finfo(dtype).max, np.finfo(dtype).max  # overflow: inf, quietly
        for name, want in (("CAddTable", np.add), ("CMulTable", np.multiply), ("CSubTable", np.subtract)):
            m = getattr(nn, name)()
            with monkeypatch.context() as patch:
                patch.setattr(tables, "plain_floats", refuse)
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    out = m.forward([a, b])
                    with np.errstate(all="ignore"):
                        np.testing.assert_array_equal(out, want(a, b))
                    assert m.forward([a, b]) is out and out.dtype == dtype
                    out.flags.writeable = False                      # a read-only buffer: replaced
                    again = m.forward([a, b])
                    assert again is not out and again.flags.writeable
                    fed = m.forward([again, b])                      # the output fed back: a new buffer
                    assert fed is not again and not np.may_share_memory(fed, again)
                    other = m.forward([a[:1, :3].copy(), b[:1, :3].copy()])   # another shape
                    assert other.shape == (1, 3) and other is not fed
            finite = np.ones_like(b)
            with pytest.raises(TypeError, match=f"{name}: input\\[1\\] must be float32 or float64"):
                m.forward([a, finite.astype(np.int64)])              # the general path's checks, as before
            with pytest.raises(TypeError, match=f"{name}: input\\[1\\] is "):
                m.forward([a, finite.astype(np.float64 if dtype is np.float32 else np.float32)])
            with pytest.raises(ValueError, match=f"{name}: input\\[1\\] must be of size"):
                m.forward([a, b[:, :2]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_split_table_keeps_its_checked_order_per_ndim_and_checks_again_when_a_field_changes(dtype, monkeypatch):
    """SplitTable of a 2+ dim numpy array checks its dim once per (ndim, dtype, dimension, nInputDims):
    later calls with another shape of the same ndim, or a strided input, skip the checks and give the views
    indexing gives; a change of dimension, nInputDims or ndim checks again and raises as before."""
    split_module = importlib.import_module("nn_legacy.SplitTable")
    m = nn.SplitTable(1)
    x = np.arange(24, dtype=dtype).reshape(2, 3, 4)
    assert [p.shape for p in m.forward(x)] == [(2, 4)] * 3
    with monkeypatch.context() as patch:
        patch.setattr(split_module, "batch_dim", lambda *a, **k: 1 / 0)    # (the checks would fail: not run)
        for y in (np.ones((5, 2, 1), dtype), x.transpose(2, 1, 0), x[:1]):
            out = m.forward(y)
            assert len(out) == y.shape[1]
            for i, part in enumerate(out):
                assert part.__array_interface__ == y[:, i].__array_interface__
    m.dimension = 2
    assert len(m.forward(x)) == 4
    m.nInputDims = 1                                       # 3 dims are not a batch of 1 dim: dimension 2 as is
    assert len(m.forward(x)) == 4
    m.nInputDims = 2                                       # a batch: dimension 2 counts after it, out of range
    with pytest.raises(ValueError, match=r"SplitTable: dimension 2 \(nInputDims 2\) is out of range"):
        m.forward(x)
    m.nInputDims = None
    with pytest.raises(ValueError, match="SplitTable: dimension 2 is out of range for input 2D"):
        m.forward(x[0])
    with pytest.raises(TypeError, match="SplitTable: input must hold numbers"):
        m.forward(np.array([["a", "b"]] * 2, dtype=object).reshape(2, 2, 1))
    assert nn.SplitTable(0).forward(x)[1].__array_interface__ == x[1].__array_interface__
    assert m.float().__dict__.get("_plan") is None         # (a cache: type conversion drops it)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_join_table_of_numpy_arrays_concatenates_without_the_dispatch(dtype, monkeypatch):
    """JoinTable of a table of numpy arrays calls numpy's concatenate implementation directly (no
    array_namespace, no __array_function__ dispatch): the same values into the kept output, batch 1 and 8,
    strided entries, another shape on a second call; a bad table raises as before."""
    join_module = importlib.import_module("nn_legacy.JoinTable")
    calls = []
    concatenate = join_module._concatenate
    monkeypatch.setattr(join_module, "_concatenate", lambda xs, d, out: calls.append(d) or concatenate(xs, d, out))
    monkeypatch.setattr(join_module, "array_namespace", lambda *a: 1 / 0)   # (the general path: not taken)
    rng = np.random.default_rng(9)
    m = nn.JoinTable(1)
    for batch in (1, 8):
        a = (rng.standard_normal((batch, 3)) * 10).astype(dtype)
        b = (rng.standard_normal((4, batch)) * 10).astype(dtype).T              # (not contiguous)
        out = m.forward([a, b])
        np.testing.assert_array_equal(out, np.concatenate([a, b], axis=1))
        assert m.forward([a, b]) is out and out.dtype == dtype
    assert calls == [1, 1, 1, 1]
    with pytest.raises(TypeError, match=r"JoinTable: input\[1\] is "):
        m.forward([a, b.astype(np.float16)])
    with pytest.raises(ValueError, match=r"JoinTable: input\[1\] has size \[8, 4\], which cannot be joined"):
        nn.JoinTable(0).forward([a, b])
