"""The Python binding of every kernel (thnn/_binding.py): argument checking,
zero copy, what it writes and what it never writes, [OUT] array reuse and
aliasing.  Kernels come from tests/kernel_cases.py, one valid call each."""
import re

import numpy as np
import pytest

import thnn
from kernel_cases import (BY_ID, CASES, DTYPES, HEADER, failing_calls, gapped_view, guarded, produced,
                          read_only, result_dtype, reversed_view, snapshot, written)

CASE_IDS = [c.id for c in CASES]
OTHER = {np.dtype(np.float32): np.float64, np.dtype(np.float64): np.float32,
         np.dtype(np.int64): np.int32}  # (index results)


def cases_with(predicate):
    return [pytest.param(c, id=c.id) for c in CASES if predicate(c)]


def alias_pairs(case, dtype=np.float64):
    """([OUT] name, read-only input name) pairs of the same shape and dtype."""
    kw = case.kwargs(dtype)
    outs = case.results(case.call(dtype, case.kwargs(dtype)))
    return [(o, i) for o in produced(case) for i in read_only(case, kw)
            if kw[i].shape == outs[o].shape and kw[i].dtype == outs[o].dtype]


READERS = cases_with(lambda c: read_only(c, c.kwargs(np.float64)))
PRODUCERS = cases_with(produced)


def named(kernel, arg):
    """The start every binding error has: the kernel, then the argument."""
    return re.escape(f"{kernel}: {arg} ")


def same(a, b):
    """Equal values, NaN equal to NaN, same dtype and shape."""
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


def run(case, dtype, kw):
    return case.results(case.call(dtype, kw))


def test_every_kernel_has_a_case():
    missing = sorted(set(HEADER) - {c.function for c in CASES})
    assert not missing, f"add a valid call of {missing} to tests/kernel_cases.py"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_case_is_a_valid_call(case, dtype):
    # the negative tests below mean something only if the unmodified call works
    kw = case.kwargs(dtype)
    outs = run(case, dtype, kw)
    assert set(outs) == set(produced(case))
    for name, out in outs.items():
        assert isinstance(out, np.ndarray), name
        assert out.dtype == result_dtype(case, name, dtype) and out.flags.c_contiguous and out.flags.writeable
        assert np.all(np.isfinite(out))


# ---- wrong arguments raise, naming kernel and argument ----

@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_wrong_argument_count(case):
    k = getattr(thnn.Float, case.function)
    args = case.args(np.float32)
    for bad in (args[:-1], args + [None], []):
        with pytest.raises(TypeError, match=rf"{case.function} takes {len(args)} arguments \(.*\), "
                                            rf"got {len(bad)}"):
            k(*bad)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_none_for_a_required_tensor(case):
    for a in case.params:
        if not a.is_tensor or a.tags & {"OUT", "BUFFER", "OPTIONAL"}:
            continue
        kw = case.kwargs(np.float64)
        kw[a.name] = None
        with pytest.raises(TypeError, match=named(case.function, a.name) + "is required, got None"):
            case.call(np.float64, kw)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_none_for_an_optional_tensor_is_accepted(case):
    for a in case.params:
        if a.is_tensor and "OPTIONAL" in a.tags:
            kw = case.kwargs(np.float64)
            kw[a.name] = None
            try:
                case.call(np.float64, kw)
            except thnn.THNNError as e:
                # refused only where another argument needs it, with that reason; valid without both
                if a.name not in NEEDED_BY or NEEDED_BY[a.name][0] not in kw:
                    raise
                other, value, reason = NEEDED_BY[a.name]
                assert reason in str(e), e
                kw[other] = value
                case.call(np.float64, kw)


# [OPTIONAL] tensors that another argument needs (THNN.h says so on them):
# {name: (that argument, its value that does not need it, the kernel's error)}
NEEDED_BY = {
    "bias": ("gradBias", None, "gradBias given but bias is missing"),        # Linear_accGradParameters
    "bias1": ("bias2", None, "bias1 and bias2 must be given together"),       # GRUFused, LSTMFused
    "bias2": ("bias1", None, "bias1 and bias2 must be given together"),
    "noise": ("train", False, "noise is required in training mode"),          # RReLU
}


def bad_arrays(arg, good):
    """(label, bad value, expected exception) for one tensor argument."""
    real = good.dtype if not arg.is_index else np.dtype(np.float64)
    out = [
        ("0-d", np.zeros((), good.dtype), thnn.THNNError),
        ("9-D", np.zeros((1,) * 9, good.dtype), thnn.THNNError),
        ("bool", good.astype(bool), TypeError),
        ("complex", good.astype(np.complex128), TypeError),
        ("object", good.astype(object), TypeError),
        ("list", good.tolist(), TypeError),
        ("scalar", 1.5, TypeError),
    ]
    if arg.is_index:
        out += [("float index", good.astype(np.float64), TypeError),
                ("float32 index", good.astype(np.float32), TypeError)]
    else:
        out += [("int32", good.astype(np.int32), TypeError),
                ("int64", good.astype(np.int64), TypeError),
                ("other float", good.astype(OTHER[real]), TypeError)]
    return [o for o in out if o is not None]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_bad_arrays_raise_naming_kernel_and_argument(case, dtype):
    checked = 0
    for a in case.params:
        good = case.kwargs(dtype)[a.name]
        if not a.is_tensor or a.tags & {"OUT", "BUFFER"} or good is None:
            continue
        for label, bad, error in bad_arrays(a, good):
            kw = case.kwargs(dtype)
            kw[a.name] = bad
            try:
                case.call(dtype, kw)
            except error as e:
                assert re.match(named(case.function, a.name), str(e)), f"{a.name} as {label}: {e}"
            else:
                pytest.fail(f"{case.function} accepted {a.name} as {label}")
            checked += 1
    assert checked > 0


def test_mixed_precision_message():
    case = BY_ID["Linear_updateOutput"]
    kw = case.kwargs(np.float32)
    kw["weight"] = kw["weight"].astype(np.float64)
    with pytest.raises(TypeError, match=r"Linear_updateOutput: weight must be float32 like the other "
                                        r"tensors, got float64"):
        case.call(np.float32, kw)
    # the backend is chosen by the caller: float64 arrays into thnn.Float are refused too
    with pytest.raises(TypeError, match=r"Linear_updateOutput: input must be float32"):
        case.call(np.float32, case.kwargs(np.float64))


def index_inputs(case):
    return [a.name for a in case.params if a.is_index and not a.tags & {"OUT", "BUFFER"}]


@pytest.mark.parametrize("case", cases_with(index_inputs))
def test_an_index_tensor_of_another_integer_type_is_converted(case):
    index = index_inputs(case)
    expected = run(case, np.float64, case.kwargs(np.float64))
    converted = 0
    for dtype in (np.int32, np.uint8, np.dtype(">i8")):
        kw = case.kwargs(np.float64)
        if not all(np.array_equal(kw[name].astype(dtype), kw[name]) for name in index):
            continue                            # values it cannot hold (-1 padding in uint8)
        for name in index:
            kw[name] = kw[name].astype(dtype)
        for name, out in run(case, np.float64, kw).items():
            same(out, expected[name])
        converted += 1
    assert converted >= 2


WITH_SCALARS = cases_with(lambda c: any(not a.is_tensor for a in c.params))


@pytest.mark.parametrize("case", WITH_SCALARS)
def test_bad_scalars_raise_naming_kernel_and_argument(case):
    for a in case.params:
        if a.is_tensor:
            continue
        bad = {"bool": [2, -1, "yes", None, np.array([True, False])],
               "int": [1.5, "3", None, 2 ** 31, -2 ** 31 - 1],
               "int64_t": [1.5, "3", None, 2 ** 63, -2 ** 63 - 1],
               "accreal": ["0.5", None, np.ones(2), 1j]}[a.ctype]
        for value in bad:
            kw = case.kwargs(np.float64)
            kw[a.name] = value
            with pytest.raises((TypeError, ValueError), match=named(case.function, a.name)):
                case.call(np.float64, kw)


@pytest.mark.parametrize("case", WITH_SCALARS)
def test_scalars_of_numpy_types_are_accepted(case):
    kw = case.kwargs(np.float64)
    expected = run(case, np.float64, kw)
    kw = case.kwargs(np.float64)
    for a in case.params:
        if not a.is_tensor:
            v = kw[a.name]
            kw[a.name] = np.bool_(v) if a.ctype == "bool" else np.int32(v) if a.ctype == "int" \
                else np.int64(v) if a.ctype == "int64_t" else np.float64(v)
    for name, out in run(case, np.float64, kw).items():
        same(out, expected[name])


@pytest.mark.parametrize("case", cases_with(produced))
def test_something_other_than_an_array_for_an_out_argument(case):
    for name in produced(case):
        kw = case.kwargs(np.float64)
        kw[name] = [0.0, 1.0]
        with pytest.raises(TypeError, match=named(case.function, name)):
            case.call(np.float64, kw)


@pytest.mark.parametrize("case", cases_with(lambda c: any("INOUT" in a.tags or "INPLACE" in a.tags
                                                          for a in c.params)), )
def test_read_only_arrays_written_in_place_are_refused(case):
    kw = case.kwargs(np.float64)
    targets = written(case, kw)
    for name in targets:
        kw = case.kwargs(np.float64)
        before = kw[name].copy()
        kw[name].setflags(write=False)
        with pytest.raises(thnn.THNNError, match=named(case.function, name) + "is written in place but "
                                                                              "the array is read-only"):
            case.call(np.float64, kw)
        same(kw[name], before)
    if not case.inplace(kw) and "inplace" in kw:
        # out of place, an [INPLACE] argument is only read: read-only is fine
        kw = case.kwargs(np.float64)
        for a in case.params:
            if "INPLACE" in a.tags:
                kw[a.name].setflags(write=False)
        case.call(np.float64, kw)


# ---- zero copy: the kernel reads the caller's memory through its strides ----

def test_a_wrapped_array_points_at_the_callers_memory():
    from thnn._binding import _Tensor
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    for view in (base, base[::-1, :, ::2], base.transpose(2, 0, 1), np.broadcast_to(base[:1], (7, 4, 5))):
        t = _Tensor("Float", "float", view)
        assert int(thnn._binding.ffi.cast("uintptr_t", t.storage.data)) == view.ctypes.data
        assert t.tensor.nDimension == view.ndim
        assert list(t.tensor.size)[:view.ndim] == list(view.shape)
        assert list(t.tensor.stride)[:view.ndim] == [s // 4 for s in view.strides]


# inputs whose values are a layout the kernel checks (packWeight's header and panels)
STRUCTURED = {"packed"}


def strided_variants(a):
    """(label, view with a's shape but other strides, the buffer behind it)."""
    out = [("reversed", reversed_view(a), None), ("gapped", *gapped_view(a))]
    if a.ndim >= 2:
        out.append(("fortran", np.asfortranarray(a), None))
    # stride 0: every element the same value (the first of a)
    out.append(("broadcast", np.broadcast_to(a.reshape(-1)[:1].reshape((1,) * a.ndim), a.shape), None))
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", READERS)
def test_strided_inputs_give_the_result_of_their_contiguous_copy(case, dtype):
    # bit-identical: the kernels either read through the strides with the
    # same arithmetic or copy to contiguous memory first
    for name in read_only(case, case.kwargs(dtype)):
        if case.kwargs(dtype)[name].size == 0:   # (no elements, no strides to vary: a double packed weight)
            continue
        for label, view, buf in strided_variants(case.kwargs(dtype)[name]):
            kw_view, kw_copy = case.kwargs(dtype), case.kwargs(dtype)
            kw_view[name], kw_copy[name] = view, np.ascontiguousarray(view)
            before = snapshot({"view": view, "buf": buf})
            try:
                expected = run(case, dtype, kw_copy)
            except thnn.THNNError as e:
                # one value everywhere can break a structured input (IndexLinear's
                # sizes no longer add up), as can any rearrangement of a packed
                # weight (a header, then panels): then the view must be refused alike
                if label != "broadcast" and name not in STRUCTURED:
                    raise
                with pytest.raises(thnn.THNNError, match=re.escape(str(e)) + "$"):
                    run(case, dtype, kw_view)
            else:
                got = run(case, dtype, kw_view)
                for out in got:
                    same(got[out], expected[out])
            assert snapshot({"view": view, "buf": buf}) == before, f"{name} ({label}) was written"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", cases_with(lambda c: any("INOUT" in a.tags or "INPLACE" in a.tags
                                                          for a in c.params)))
def test_strided_arrays_written_in_place_are_written_through_or_refused(case, dtype):
    # never into a private copy: either the caller's strided array holds the
    # result, or the kernel refuses the layout
    for name in written(case, case.kwargs(dtype)):
        for label, make in (("reversed", lambda a: (reversed_view(a), None)), ("gapped", gapped_view)):
            kw_view, kw_copy = case.kwargs(dtype), case.kwargs(dtype)
            view, buf = make(kw_view[name])
            kw_view[name] = view
            try:
                got = run(case, dtype, kw_view)
            except thnn.THNNError as e:
                assert str(e).startswith(f"{case.function}: {name} must be contiguous"), e
                same(view, kw_copy[name])
                continue
            expected = run(case, dtype, kw_copy)
            for out_name, out in got.items():
                if case.inplace(kw_view):       # an in-place result is the caller's array itself
                    assert out is kw_view[next(a.name for a in case.params if "INPLACE" in a.tags)]
                else:
                    same(out, expected[out_name])
            same(view, kw_copy[name])
            if buf is not None:  # nothing written between the strided elements
                gaps = np.ones(buf.shape, bool)
                gaps[tuple(slice(None, None, 2) for _ in buf.shape)] = False
                assert np.all(np.isnan(buf[gaps]))


def test_inplace_threshold_writes_through_negative_strides():
    base = np.linspace(-1, 1, 24).reshape(4, 6)
    expected = base.copy()
    view = base[::-1, ::-2]
    expected[::-1, ::-2] = np.where(view > 0.1, view, -0.5)
    out = thnn.Double.Threshold_updateOutput(view, None, 0.1, -0.5, True)
    assert out is view
    same(base, expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", READERS)
def test_misaligned_inputs_are_read_correctly(case, dtype):
    # a float array at an odd address (np.frombuffer with an offset): the
    # binding reads it from an aligned copy (C may not load a float from an
    # odd address; UBSan in `make asan` checks)
    for name in read_only(case, case.kwargs(dtype)):
        kw = case.kwargs(dtype)
        good = kw[name]
        if good.size == 0:   # (an empty array is aligned wherever it lies: a double packed weight)
            continue
        raw = np.zeros(good.nbytes + 1, np.uint8)
        odd = np.frombuffer(raw.data, dtype=good.dtype, count=good.size, offset=1).reshape(good.shape)
        odd[...] = good
        assert not odd.flags.aligned
        kw[name] = odd
        expected = run(case, dtype, case.kwargs(dtype))
        for out, value in run(case, dtype, kw).items():
            same(value, expected[out])


@pytest.mark.parametrize("case", cases_with(lambda c: any("INOUT" in a.tags or "INPLACE" in a.tags
                                                          for a in c.params)))
def test_misaligned_arrays_written_in_place_are_refused(case):
    for name in written(case, case.kwargs(np.float64)):
        kw = case.kwargs(np.float64)
        raw = np.zeros(kw[name].nbytes + 1, np.uint8)
        odd = np.frombuffer(raw.data, dtype=np.float64, count=kw[name].size, offset=1).reshape(kw[name].shape)
        odd[...] = kw[name]
        kw[name] = odd
        with pytest.raises(thnn.THNNError, match=named(case.function, name) + "is written in place but "
                                                                              "the array is not aligned"):
            case.call(np.float64, kw)


@pytest.mark.parametrize("seed", range(40))
def test_any_view_reads_like_its_copy(seed):
    # random shapes (1-4 dims) viewed with random steps (+-1, +-2) of a bigger array
    rng = np.random.default_rng(seed)
    shape = rng.integers(1, 5, size=rng.integers(1, 5))
    steps = rng.choice([1, 2, -1, -2], size=len(shape))
    kernel = rng.choice(["Sigmoid", "Tanh", "SoftMax", "LogSoftMax", "Threshold"])
    big = rng.normal(size=2 * shape)
    pick = {1: lambda n: slice(0, n), -1: lambda n: slice(n - 1, None, -1),
            2: lambda n: slice(None, None, 2), -2: lambda n: slice(None, None, -2)}
    view = big[tuple(pick[int(s)](int(n)) for s, n in zip(steps, shape))]
    assert view.shape == tuple(shape)
    extra = (0.0, -1.0, False) if kernel == "Threshold" else ()
    k = getattr(thnn.Double, f"{kernel}_updateOutput")
    before = big.copy()
    same(k(view, None, *extra), k(view.copy(), None, *extra))
    same(big, before)


# ---- what a kernel writes: [OUT] arrays, [INOUT], [INPLACE] when in place; nothing else ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", READERS)
def test_inputs_are_byte_identical_after_the_call(case, dtype):
    kw = case.kwargs(dtype)
    untouched = {n: kw[n] for n in read_only(case, kw)}
    before = snapshot(untouched)
    run(case, dtype, kw)
    assert snapshot(untouched) == before


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_nothing_is_written_by_a_call_that_fails(case, dtype):
    # every argument, [INOUT] and [INPLACE] ones included, is left alone when
    # the call is refused: for one tensor argument at a time, the wrong shape
    # (refused by the kernel, except by the elementwise forward ones), else
    # 9 dimensions (refused by the binding)
    failures = 0
    for bad_name in [a.name for a in case.params if a.is_tensor and not a.tags & {"OUT", "BUFFER"}]:
        for wrong in ("shape", "dims"):
            kw = case.kwargs(dtype)
            good = kw[bad_name]
            if good is None:
                continue
            kw[bad_name] = good[..., :-1] if wrong == "shape" and good.shape[-1] > 1 \
                else np.zeros((1,) * 9, good.dtype)
            arrays = {n: v for n, v in kw.items() if isinstance(v, np.ndarray) and n != bad_name}
            before = snapshot(arrays)
            try:
                case.call(dtype, kw)
            except (thnn.THNNError, TypeError):
                failures += 1
                assert snapshot(arrays) == before, f"a failed call with a bad {bad_name} wrote an argument"
                break
    assert failures > 0


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_writes_stay_inside_the_written_arrays(case, dtype):
    # every array the kernel writes (reused [OUT] arrays, [INOUT] ones, and
    # [INPLACE] ones when in place) sits in a buffer with sentinels either side
    outs = run(case, dtype, case.kwargs(dtype))
    kw = case.kwargs(dtype)
    buffers = {}
    for name in produced(case):
        kw[name], buffers[name] = guarded(outs[name])
    for name in written(case, kw):
        kw[name], buffers[name] = guarded(kw[name])
    got = run(case, dtype, kw)
    for name, buf in buffers.items():
        assert np.all(buf[:7] == -12345) and np.all(buf[-7:] == -12345), f"wrote outside {name}"
    for name in produced(case):
        if not case.inplace(kw):
            assert got[name] is kw[name], f"{name}: an [OUT] array of the right shape is reused"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", PRODUCERS)
def test_out_arrays_are_reused_only_when_they_fit(case, dtype):
    kw = case.kwargs(dtype)
    first = run(case, dtype, kw)
    if case.inplace(kw):
        # in place the result is a view of the [INPLACE] argument itself
        inplace_arg = next(a.name for a in case.params if "INPLACE" in a.tags)
        for name, out in first.items():
            assert out is kw[inplace_arg]
        return
    for name in produced(case):
        fit = first[name]
        read_only_fit = np.zeros(fit.shape, fit.dtype)
        read_only_fit.setflags(write=False)
        misfits = [np.zeros(fit.size + 1, fit.dtype),                  # another shape
                   np.zeros(fit.shape, OTHER[fit.dtype]),              # another dtype
                   read_only_fit]
        if fit.size > 1:                                               # not contiguous
            misfits.append(np.zeros(2 * fit.size, fit.dtype)[::2].reshape(fit.shape)
                           if fit.ndim == 1 else np.zeros(fit.shape[::-1], fit.dtype).T)
        for misfit in misfits:
            kw2 = case.kwargs(dtype)
            kw2[name] = misfit
            before = snapshot({"m": misfit})
            got = run(case, dtype, kw2)[name]
            assert got is not misfit and not np.shares_memory(got, misfit)
            assert snapshot({"m": misfit}) == before, "an [OUT] array that does not fit was written"
            same(got, first[name])
        kw3 = case.kwargs(dtype)
        kw3[name] = fit
        assert run(case, dtype, kw3)[name] is fit


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", cases_with(alias_pairs))
def test_an_out_array_that_aliases_an_input_is_not_written(case, dtype):
    # e.g. module.forward(module.output): the kernel must not write its
    # result over the input it is still reading
    expected = run(case, dtype, case.kwargs(dtype))
    for out_name, in_name in alias_pairs(case, dtype):
        # the very same array, and a contiguous array read through a reversed view
        same_array = case.kwargs(dtype)[in_name]
        mirror = np.flip(same_array).copy()
        for alias, as_input in ((same_array, same_array), (mirror, np.flip(mirror))):
            kw = case.kwargs(dtype)
            kw[in_name], kw[out_name] = as_input, alias
            before = alias.copy()
            got = run(case, dtype, kw)
            same(alias, before)
            same(got[out_name], expected[out_name])
            assert not np.shares_memory(got[out_name], alias)


def test_two_out_arguments_given_the_same_array():
    case = BY_ID["ClassNLLCriterion_updateOutput"]
    expected = run(case, np.float64, case.kwargs(np.float64))
    shared = np.zeros(1)
    kw = case.kwargs(np.float64)
    kw["output"] = kw["total_weight"] = shared
    got = run(case, np.float64, kw)
    same(got["output"], expected["output"])
    same(got["total_weight"], expected["total_weight"])
    assert not np.shares_memory(got["output"], got["total_weight"])


@pytest.mark.parametrize("label, call, error, message", failing_calls(), ids=[f[0] for f in failing_calls()])
def test_each_failing_call_fails_as_described(label, call, error, message):
    # the calls tests/test_memory.py repeats; here once each, also under ASan,
    # where a leak or bad access on their error paths is reported
    with pytest.raises(error, match=re.escape(message)):
        call()


def test_failing_calls_have_distinct_labels():
    labels = [f[0] for f in failing_calls()]
    assert len(set(labels)) == len(labels)


# ---- odd sizes the binding passes on ----

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_an_empty_batch(case, dtype):
    kw = case.kwargs(dtype, n=0)
    outs = run(case, dtype, kw)
    for name, out in outs.items():
        assert out.dtype == result_dtype(case, name, dtype)
        assert np.all(np.isfinite(out))
        if out.size and name == "output":          # a loss over nothing
            assert out.shape == (1,) and out[0] == 0


def test_eight_dimensions_are_accepted():
    x = np.random.default_rng(0).normal(size=(1, 2, 1, 2, 1, 2, 1, 2))
    flat = thnn.Double.Tanh_updateOutput(x.reshape(-1), None)
    same(thnn.Double.Tanh_updateOutput(x, None), flat.reshape(x.shape))
    np.testing.assert_allclose(flat, np.tanh(x.reshape(-1)), rtol=1e-15, atol=0)  # libm vs numpy: 1 ulp


@pytest.mark.parametrize("dtype, n", [(np.float32, 2 ** 60), (np.float64, 2 ** 59)])
def test_a_result_too_big_to_allocate_raises(dtype, n):
    # stride 0 makes a view of 2**60 elements out of one: the kernel's copy
    # or result cannot be allocated (2**62 bytes exceed any address space)
    huge = np.broadcast_to(np.ones(1, dtype), (2 ** 30, n // 2 ** 30))
    with pytest.raises(thnn.THNNError, match=r"Sigmoid_updateOutput: (out of memory|cannot resize)"):
        thnn.backend(dtype).Sigmoid_updateOutput(huge, None)


def test_backend_lookup():
    assert thnn.backend(np.float32) is thnn.Float and thnn.backend("float64") is thnn.Double
    for bad in (np.float16, np.int64, np.complex64, bool):
        with pytest.raises(TypeError, match="thnn works in float32 or float64"):
            thnn.backend(bad)


def test_kernel_errors_are_value_errors():
    assert issubclass(thnn.THNNError, ValueError)
    with pytest.raises(ValueError, match=r"^Linear_updateOutput: input must be 1D or 2D with 20 features, "
                                         r"got 2D of size \[4, 21\]$"):
        thnn.Double.Linear_updateOutput(np.zeros((4, 21)), None, np.zeros((5, 20)), None)


# ---- the C structs a kernel reuses from call to call (Kernel._spare) ----

def test_calls_from_several_threads_at_once_each_get_their_own_structs():
    # the GIL is released during the C call and threads switch between
    # bytecodes, so without a struct set per call, kept until the results are
    # read from it, two threads would fill and read each other's tensors
    import sys
    import threading
    rng = np.random.default_rng(0)
    shapes = [(3, 7), (5, 11), (2, 13), (6, 5)]
    inputs = [rng.standard_normal(s) for s in shapes]
    expected = [thnn.Double.LogSoftMax_updateOutput(x, None) for x in inputs]
    failures, start = [], threading.Barrier(len(shapes))

    def work(i):
        start.wait()
        out = None
        for n in range(300):
            out = thnn.Double.LogSoftMax_updateOutput(inputs[i], None if n % 2 else out)
            if out.shape != shapes[i] or not np.array_equal(out, expected[i]):
                failures.append(i)
                return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(shapes))]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # switch threads between almost any two bytecodes
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []


def test_a_call_after_a_failed_call_starts_clean():
    k = thnn.Double.Linear_updateOutput
    good = (np.ones((4, 20)), None, np.ones((5, 20)), None)
    first = k(*good).copy()
    with pytest.raises(thnn.THNNError, match="input must be 1D or 2D with 20 features"):
        k(np.zeros((4, 21)), None, np.zeros((5, 20)), None)
    np.testing.assert_array_equal(k(*good), first)
    # an [OUT] passed as None after calls that passed arrays gets a new array
    out = k(*good)
    assert k(good[0], out, good[2], None) is out
    again = k(*good)
    assert again is not out
    np.testing.assert_array_equal(again, first)


def test_reused_structs_keep_no_array_alive():
    import gc
    import weakref
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    out = thnn.Float.LogSoftMax_updateOutput(x, None)
    refs = [weakref.ref(x), weakref.ref(out)]
    del x, out
    gc.collect()
    assert [r() for r in refs] == [None, None]


# ---- the C path (thnn/_call.c) and the Python path (Kernel._call) ----

def kernel_of(case, dtype):
    return getattr(thnn.backend(dtype), case.function)


def both_paths(case, dtype, prepare=lambda kw: kw):
    """{path: (results, the arguments after the call)} of one call through each path, on equal arguments."""
    got = {}
    for path in ("c", "python"):
        kw = prepare(case.kwargs(dtype))
        k = kernel_of(case, dtype)
        args = [kw[a.name] for a in case.params]
        got[path] = (case.results(k(*args) if path == "c" else k._call(*args)), kw)
    return got


def test_every_kernel_takes_the_c_path():
    assert all(getattr(b, f.name)._fast for b in (thnn.Float, thnn.Double) for f in thnn.FUNCTIONS)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_the_c_and_python_paths_agree(case, dtype):
    # same values, and the same arrays handed back: fresh results, then the
    # results passed in again for reuse (and what the call wrote in place)
    first = both_paths(case, dtype)
    again = both_paths(case, dtype)
    deterministic = all(np.array_equal(first["c"][0][n], again["c"][0][n], equal_nan=True) for n in first["c"][0])
    for path in ("c", "python"):
        outs, kw = first[path]
        for name, out in outs.items():
            assert isinstance(out, np.ndarray) and out.dtype == result_dtype(case, name, dtype)
            if deterministic:
                same(out, first["python"][0][name])
        for name in written(case, kw):
            if deterministic:
                same(kw[name], first["python"][1][name])
    reused = {}
    for path in ("c", "python"):
        outs = case.results(case.call(dtype, case.kwargs(dtype)))

        def give_back(kw, outs=outs):
            kw.update(outs)
            return kw
        got, kw = both_paths(case, dtype, give_back)[path]
        reused[path] = {name: got[name] is outs[name] for name in outs}
    assert reused["c"] == reused["python"]


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_keyword_arguments(case):
    k = kernel_of(case, np.float64)
    names = [a.name for a in case.params]
    expected = case.results(case.call(np.float64, case.kwargs(np.float64)))
    kw = case.kwargs(np.float64)
    for call in (lambda: k(**kw), lambda: k(*[kw[n] for n in names[:1]], **{n: kw[n] for n in names[1:]})):
        got = case.results(call())
        if case.function.startswith("RReLU"):   # random: the shapes only
            assert {n: v.shape for n, v in got.items()} == {n: v.shape for n, v in expected.items()}
            continue
        for name, out in got.items():
            same(out, expected[name])
        kw = case.kwargs(np.float64)
    with pytest.raises(TypeError, match=rf"^{case.function}: no argument named 'nonsense'; the arguments are "
                                        rf"\({', '.join(names)}\)$"):
        k(**kw, nonsense=1)
    with pytest.raises(TypeError, match=rf"^{case.function}: {names[0]} given twice"):
        k(kw[names[0]], **kw)
    del kw[names[-1]]
    with pytest.raises(TypeError, match=rf"^{case.function} takes {len(names)} arguments .*, missing {names[-1]}$"):
        k(**kw)


@pytest.mark.parametrize("backend", [thnn.Float, thnn.Double], ids=repr)
def test_the_docstrings_list_arguments_and_results(backend):
    for f in thnn.FUNCTIONS:
        doc = getattr(backend, f.name).__doc__
        lines = doc.splitlines()
        args = f.args[1:]
        produced_ = [a.name for a in args if a.tags & {"OUT", "BUFFER"}]
        returns = "None" if not produced_ else produced_[0] if len(produced_) == 1 else f"({', '.join(produced_)})"
        assert lines[0] == f"{f.name}({', '.join(a.name for a in args)}) -> {returns}"
        for a in args:   # one line each, with its tags
            (line,) = [x for x in lines if x.startswith(f"    {a.name}: ")]
            for tag in a.tags:
                assert f"[{tag}]" in line
            assert ("array" in line) == a.is_tensor
        assert f"Returns {returns}" in doc
        assert ("replaced" in doc) == bool(produced_)
    conv = backend.SpatialConvolutionMM_updateOutput.__doc__
    assert "Returns (output, finput)" in conv and "    finput: " in conv and "[BUFFER]" in conv


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", READERS)
def test_big_endian_inputs_are_read_from_native_copies(case, dtype):
    expected = run(case, dtype, case.kwargs(dtype))
    if case.function.startswith("RReLU"):
        return
    for name in read_only(case, case.kwargs(dtype)):
        kw = case.kwargs(dtype)
        swapped = kw[name].astype(kw[name].dtype.newbyteorder(">" if np.little_endian else "<"))
        kw[name] = swapped
        before = snapshot({"x": swapped})
        for out_name, out in run(case, dtype, kw).items():
            same(out, expected[out_name])
        assert snapshot({"x": swapped}) == before


@pytest.mark.parametrize("case", cases_with(lambda c: any("INOUT" in a.tags or "INPLACE" in a.tags
                                                          for a in c.params)))
def test_big_endian_arrays_written_in_place_are_refused(case):
    for name in written(case, case.kwargs(np.float64)):
        kw = case.kwargs(np.float64)
        if kw[name].dtype != np.float64:
            continue
        kw[name] = kw[name].astype(">f8" if np.little_endian else "<f8")
        before = snapshot({"x": kw[name]})
        with pytest.raises(TypeError, match=named(case.function, name) + r"is written in place but the array "
                                          r"is in non-native byte order \([<>]f8\); pass a native one"):
            case.call(np.float64, kw)
        assert snapshot({"x": kw[name]}) == before


@pytest.mark.parametrize("path", ["c", "python"])
def test_an_out_array_of_more_dimensions_than_a_tensor_holds_is_replaced(path):
    # (it used to be wrapped as it was: nine sizes written into a struct of eight)
    x = np.linspace(-1, 1, 6)
    big = np.zeros((1,) * 8 + (6,))
    k = thnn.Double.Sigmoid_updateOutput
    out = k(x, big) if path == "c" else k._call(x, big)
    assert out is not big and np.all(big == 0)
    same(out, 1 / (1 + np.exp(-x)))
