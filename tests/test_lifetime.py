"""Buffer lifetime: a storage a kernel allocates is adopted by the numpy array
the binding returns, and freed only when the last numpy view of it dies.
So an array you got from a kernel or a module stays valid and unchanged
through later calls of other shapes, the module's deletion, clearState()
and type().  Same-shape calls write into the same array again (Torch7).

Run under AddressSanitizer by `make asan`, where a storage freed too early
or twice is a reported error, not a silent wrong value."""
import gc
import pickle
import weakref

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from kernel_cases import CASES, DTYPES, produced


def fresh(shape, seed):
    return np.random.default_rng(seed).normal(size=shape)


def model():
    return nn.Sequential().add(nn.Linear(6, 5)).add(nn.Tanh()).add(nn.Linear(5, 3)).add(nn.LogSoftMax())


def kept(arrays):
    """Copies to compare the arrays with later."""
    return [a.copy() for a in arrays]


def assert_unchanged(arrays, copies):
    for a, c in zip(arrays, copies):
        assert a.dtype == c.dtype and a.shape == c.shape
        np.testing.assert_array_equal(a, c)
        a.sum()  # read every element (a use-after-free under ASan)


# ---- at the kernel level ----

PRODUCING = [pytest.param(c, id=c.id) for c in CASES if produced(c)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", PRODUCING)
def test_adopted_results_survive_later_calls_of_other_shapes(case, dtype):
    held = {}                                  # id -> (array, its value when last returned)
    previous = None
    for n in (3, 7, 1, 12, 2, 3):             # bigger, smaller, and back
        kw = case.kwargs(dtype, n=n, seed=n)
        handed = previous if previous is not None and not case.inplace(kw) else {}
        kw.update(handed)                      # hand the last results back in, as a module does
        outs = case.results(case.call(dtype, kw))
        previous = outs
        for name, a in outs.items():           # a result may be a reused array: its new value counts
            # only an array handed back with the shape it has may be reused (losses of [1], work
            # buffers whose size does not depend on the batch); a result of a new shape is a new array
            if name not in handed or handed[name].shape != a.shape:
                assert id(a) not in held, f"{name} of a new shape reused an array handed out before"
            held[id(a)] = (a, a.copy())
        arrays, copies = zip(*held.values())  # (storages are freed by reference counting, not gc)
        assert_unchanged(arrays, copies)


@pytest.mark.parametrize("dtype", DTYPES)
def test_a_view_keeps_the_storage_alive(dtype):
    k = thnn.backend(dtype)
    out = k.Sigmoid_updateOutput(fresh((50, 40), 0).astype(dtype), None)
    expected = out[10:20, ::3].copy()
    view = out[10:20, ::3]
    ref = weakref.ref(out.base) if out.base is not None else None
    del out
    gc.collect()
    for _ in range(20):                        # churn the allocator with other sizes
        k.Sigmoid_updateOutput(fresh((50 + _, 41), _).astype(dtype), None)
    np.testing.assert_array_equal(view, expected)
    assert ref is None or ref() is not None    # the owner lives while a view does
    del view
    gc.collect()


def test_adopted_arrays_behave_as_ordinary_arrays():
    out = thnn.Double.Tanh_updateOutput(fresh((4, 5), 1), None)
    assert out.flags.c_contiguous and out.flags.writeable and out.flags.aligned
    out[0, 0] = 42.0                           # writable
    back = pickle.loads(pickle.dumps(out))
    np.testing.assert_array_equal(back, out)
    copied = np.array(out)
    assert not np.shares_memory(copied, out)
    assert np.asarray(out) is out


@pytest.mark.parametrize("dtype", DTYPES)
def test_same_shape_calls_write_into_the_same_array(dtype):
    k = thnn.backend(dtype)
    x = fresh((4, 3), 0).astype(dtype)
    first = k.Sigmoid_updateOutput(x, None)
    again = k.Sigmoid_updateOutput(2 * x, first)
    assert again is first
    np.testing.assert_array_equal(first, k.Sigmoid_updateOutput(2 * x, None))
    bigger = k.Sigmoid_updateOutput(fresh((5, 3), 1).astype(dtype), first)
    assert bigger is not first and bigger.shape == (5, 3)


def test_arrays_freed_in_any_order():
    # many adopted storages, released in shuffled order (a double free or a
    # free of a live storage is an ASan error)
    rng = np.random.default_rng(0)
    outs = [thnn.Float.Sigmoid_updateOutput(rng.normal(size=(int(n), 3)).astype(np.float32), None)
            for n in rng.integers(1, 300, size=200)]
    copies = kept(outs)
    order = rng.permutation(len(outs))
    for i in order[:100]:
        outs[i] = copies[i] = None
    gc.collect()
    assert_unchanged([o for o in outs if o is not None], [c for c in copies if c is not None])


# ---- at the module level ----

def test_module_outputs_survive_reshaping_deletion_clear_state_and_type():
    m = model()
    x1, x2, x3 = fresh((4, 6), 1), fresh((9, 6), 2), fresh((2, 6), 3)
    o1 = m.forward(x1)
    g1 = m.backward(x1, np.ones_like(o1))
    held = [o1, g1] + [mod.output for mod in m.modules] + [mod.gradInput for mod in m.modules]
    copies = kept(held)
    m.forward(x2)                              # bigger
    m.backward(x2, np.ones((9, 3)))
    assert_unchanged(held, copies)
    m.forward(x3)                              # smaller
    assert_unchanged(held, copies)
    m.clearState()
    assert_unchanged(held, copies)
    m.forward(x1)
    m.float()
    m.forward(x1.astype(np.float32))
    assert_unchanged(held, copies)
    ref = weakref.ref(m)
    del m
    gc.collect()
    assert ref() is None
    assert_unchanged(held, copies)


def test_same_shape_forward_reuses_the_output_array():
    m = model()
    x = fresh((4, 6), 0)
    o = m.forward(x)
    inner = [mod.output for mod in m.modules]
    g = m.backward(x, np.ones_like(o))
    assert m.forward(fresh((4, 6), 1)) is o                  # overwritten, as in Torch7
    assert all(mod.output is a for mod, a in zip(m.modules, inner))
    assert m.backward(x, np.ones_like(o)) is g
    assert m.forward(fresh((5, 6), 1)) is not o               # a new shape: a new array


@pytest.mark.parametrize("layer", [nn.Sigmoid, nn.Tanh, nn.SoftMax, nn.LogSoftMax, nn.ReLU,
                                   lambda: nn.Linear(4, 4)])
def test_output_fed_back_as_input_is_not_overwritten_while_read(layer):
    m = layer()
    x = fresh((3, 4), 7)
    y = m.forward(x).copy()
    y_array = m.output
    expected = layer()
    if isinstance(m, nn.Linear):
        expected.weight[...], expected.bias[...] = m.weight, m.bias
    want = expected.forward(y.copy())
    got = m.forward(m.output)                  # the module's own output as its input
    np.testing.assert_array_equal(y_array, y)  # the input was not written
    np.testing.assert_array_equal(got, want)
    assert got is not y_array
    # and backward with gradInput fed back as gradOutput
    gi = m.backward(y_array, np.ones_like(y)).copy()
    gi_array = m.gradInput
    got = m.backward(y_array, m.gradInput)
    np.testing.assert_array_equal(gi_array, gi)
    assert got is not gi_array


def test_inplace_relu_output_is_the_callers_array():
    m = nn.ReLU(True)
    x = fresh((3, 4), 2)
    expected = np.maximum(x, 0)
    out = m.forward(x)
    assert out is x
    np.testing.assert_array_equal(x, expected)
    g = np.ones_like(x)
    assert m.backward(x, g) is g                # in place going back, too


def test_criterion_buffers_survive():
    c = nn.ClassNLLCriterion()
    x = np.log(np.full((4, 3), 1 / 3))
    c.forward(x, np.array([0, 1, 2, 0]))
    g = c.backward(x, np.array([0, 1, 2, 0]))
    gc_copy = g.copy()
    c.forward(np.log(np.full((6, 3), 1 / 3)), np.zeros(6, np.int64))
    c.backward(np.log(np.full((6, 3), 1 / 3)), np.zeros(6, np.int64))
    c.clearState()
    del c
    gc.collect()
    assert_unchanged([g], [gc_copy])


@pytest.mark.parametrize("case", PRODUCING)
def test_results_of_a_failed_call_are_not_leaked_into_later_calls(case):
    # a failed call must leave a module's [OUT] arrays as they were: the next
    # valid call still reuses them
    kw = case.kwargs(np.float64, n=4)
    first = case.results(case.call(np.float64, kw))
    failures = 0
    for name in [a.name for a in case.params if a.is_tensor and not a.tags & {"OUT", "BUFFER"}]:
        for wrong in ("shape", "dims"):        # refused by the kernel, or already by the binding
            bad = case.kwargs(np.float64, n=4)
            bad.update(first)
            good = bad[name]
            if good is None:
                continue
            bad[name] = good[..., :-1] if wrong == "shape" and good.shape[-1] > 1 else np.zeros((1,) * 9)
            copies = kept(first.values())
            try:
                case.call(np.float64, bad)
            except (thnn.THNNError, TypeError):
                failures += 1
            else:                              # a shape this kernel accepts (elementwise forward); it may
                copies = kept(first.values())  # rewrite a result of unchanged shape (a fixed output size)
                continue
            assert_unchanged(list(first.values()), copies)
    assert failures > 0
    again = case.kwargs(np.float64, n=4)
    again.update(first)
    outs = case.results(case.call(np.float64, again))
    if not case.inplace(again):
        for name in produced(case):
            assert outs[name] is first[name]
