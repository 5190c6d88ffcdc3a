"""The twins of linear, embedding, temporal, fused cell and batch
normalization layers beyond test_cuda_twins.py's generic comparison: bad
indices found on the device (the CPU kernel's exact message, as a
thnn.cuda.CudaError), shapes spanning many blocks, evaluation mode, layers
without parameters, and rows whose updates collide in atomics.  Every result
is compared with the CPU kernel on the same arrays, at test_cuda_twins.py's
tolerances (float32 1e-4 forward, 1e-3 backward, float64 1e-10, relative to
the CPU result's largest magnitude)."""
import numpy as np
import pytest

import thnn
import thnn.cuda as cuda

DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])


def _close(got, want, tol):
    got = got.numpy() if isinstance(got, cuda.CudaTensor) else got
    assert got.shape == want.shape
    scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1e-30)
    err = float(np.max(np.abs(got.astype(np.float64) - want))) if want.size else 0.0
    assert err <= tol * scale, f"max |twin - cpu| = {err:.3g}, CPU magnitude {scale:.3g}"


def _tol(dtype, backward):
    return 1e-10 if np.dtype(dtype) == np.float64 else (1e-3 if backward else 1e-4)


def _same_error(dev, dtype, name, *args):
    """The twin refuses args (numpy arrays, uploaded) with the CPU kernel's message."""
    with pytest.raises(thnn.THNNError) as cpu:
        getattr(thnn.backend(dtype), name)(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    with pytest.raises(cuda.CudaError) as twin:
        getattr(dev.backend(dtype), name)(*[dev.to_device(a) if isinstance(a, np.ndarray) else a for a in args])
    assert str(twin.value) == str(cpu.value)
    return str(twin.value)


# ---- bad indices, found on the device ----

def test_lookup_table_index_out_of_range(dev):
    table = np.ones((6, 3))
    assert _same_error(dev, np.float64, "LookupTable_updateOutput", np.array([[0, 6]]), None, table) \
        == "LookupTable_updateOutput: input[0, 1] = 6 is out of range [0, 6)"
    msg = _same_error(dev, np.float64, "LookupTable_accGradParameters", np.array([1, -1]), np.ones((2, 3)),
                      np.zeros((6, 3)), True, -1, 1.0)
    assert "input[1] = -1 is out of range" in msg
    assert "idx[1] = 9" in _same_error(dev, np.float64, "LookupTable_renorm", np.array([0, 9]), table, 1.0, 2.0)


def test_lookup_table_reports_the_first_bad_index(dev):
    """Bad indices in several threads' and blocks' strides: the first in
    row-major order is named, as the CPU kernel does."""
    idx = np.arange(5000).reshape(50, 100) % 6
    idx[40, 7] = 11
    idx[31, 99] = -3
    idx[45, 0] = 6
    msg = _same_error(dev, np.float64, "LookupTable_updateOutput", idx, None, np.ones((6, 2)))
    assert msg.endswith("input[31, 99] = -3 is out of range [0, 6)")


def test_lookup_table_bad_index_in_a_transposed_view(dev):
    idx = np.zeros((3, 4), np.int64)
    idx[1, 2] = 8                                  # row-major position (1, 2) of the view
    view = dev.to_device(np.ascontiguousarray(idx.T)).swapaxes(0, 1)
    with pytest.raises(cuda.CudaError, match=r"input\[1, 2\] = 8 is out of range \[0, 6\)"):
        dev.CudaDouble.LookupTable_updateOutput(view, None, dev.to_device(np.ones((6, 2))))


def test_lookup_table_error_leaves_gradient_untouched(dev):
    gw = dev.to_device(np.zeros((6, 3)))
    with pytest.raises(cuda.CudaError):
        dev.CudaDouble.LookupTable_accGradParameters(dev.to_device(np.array([0, 1, 7])),
                                                     dev.to_device(np.ones((3, 3))), gw, False, -1, 1.0)
    assert not gw.numpy().any()


def test_temporal_max_pooling_bad_offset(dev):
    x = np.random.default_rng(0).uniform(-1, 1, (2, 7, 4))
    out, indices = thnn.Double.TemporalMaxPooling_updateOutput(x, None, None, 3, 2)
    indices[1, 2, 3] = 3
    indices[1, 1, 0] = -1
    msg = _same_error(dev, np.float64, "TemporalMaxPooling_updateGradInput", x, np.ones_like(out), None, indices,
                      3, 2)
    assert msg.endswith("indices must lie in [0, kW = 3), got -1 at flat position 16")


# ---- many blocks, other modes ----

@DTYPES
@pytest.mark.parametrize("train", [True, False], ids=["train", "evaluate"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_batch_normalization_large(dev, dtype, train, affine):
    """16 x 8 x 30 x 30: 14400 values per channel, far more than a block's
    threads; running statistics updated in training, read in evaluation."""
    rng = np.random.default_rng(3)
    c = 8
    x = rng.normal(0.5, 2.0, (16, c, 30, 30)).astype(dtype)
    weight = rng.uniform(0.5, 1.5, c).astype(dtype) if affine else None
    bias = rng.uniform(-1, 1, c).astype(dtype) if affine else None
    rm, rv = rng.uniform(-1, 1, c).astype(dtype), rng.uniform(0.5, 2, c).astype(dtype)
    up = lambda a: None if a is None else dev.to_device(a)  # noqa: E731
    cpu_rm, cpu_rv, twin_rm, twin_rv = rm.copy(), rv.copy(), up(rm), up(rv)
    want = thnn.backend(dtype).BatchNormalization_updateOutput(x, None, weight, bias, cpu_rm, cpu_rv, None, None,
                                                               train, 0.1, 1e-5)
    got = dev.backend(dtype).BatchNormalization_updateOutput(up(x), None, up(weight), up(bias), twin_rm, twin_rv,
                                                             None, None, train, 0.1, 1e-5)
    tol = _tol(dtype, False)
    for g, w in zip(got, want):
        if w is not None:
            _close(g, w, tol)
    _close(twin_rm, cpu_rm, tol)
    _close(twin_rv, cpu_rv, tol)
    if not train:   # evaluation then Threshold(0.1, -0.5), one pass
        args = (weight, bias, cpu_rm, cpu_rv, 1e-5, 0.1, -0.5)
        _close(dev.backend(dtype).BatchNormalization_evaluateThreshold(up(x), None, *map(up, args[:4]), *args[4:]),
               thnn.backend(dtype).BatchNormalization_evaluateThreshold(x, None, *args), tol)
    save_mean, save_std = (want[1], want[2]) if train else (None, None)
    go = rng.uniform(-1, 1, x.shape).astype(dtype)
    gi, gw, gb = np.zeros_like(x), np.zeros(c, dtype), np.zeros(c, dtype)
    tgi, tgw, tgb = up(gi), up(gw), up(gb)
    thnn.backend(dtype).BatchNormalization_backward(x, go, gi, gw, gb, weight, cpu_rm, cpu_rv, save_mean, save_std,
                                                    train, 0.5, 1e-5)
    dev.backend(dtype).BatchNormalization_backward(up(x), up(go), tgi, tgw, tgb, up(weight), twin_rm, twin_rv,
                                                   up(save_mean), up(save_std), train, 0.5, 1e-5)
    for g, w in ((tgi, gi), (tgw, gw), (tgb, gb)):
        _close(g, w, _tol(dtype, True))


@DTYPES
def test_batch_normalization_backward_recomputes_statistics(dev, dtype):
    """Training backward without save_mean/save_std: the batch statistics
    are recomputed from the input (2D input, one value per sample)."""
    rng = np.random.default_rng(4)
    x, go = rng.uniform(-2, 2, (300, 5)).astype(dtype), rng.uniform(-1, 1, (300, 5)).astype(dtype)
    rm, rv = np.zeros(5, dtype), np.ones(5, dtype)
    gi, gw, gb = np.zeros_like(x), np.zeros(5, dtype), np.zeros(5, dtype)
    tgi, tgw, tgb = dev.to_device(gi), dev.to_device(gw), dev.to_device(gb)
    thnn.backend(dtype).BatchNormalization_backward(x, go, gi, gw, gb, None, rm, rv, None, None, True, 1.0, 1e-5)
    dev.backend(dtype).BatchNormalization_backward(dev.to_device(x), dev.to_device(go), tgi, tgw, tgb, None,
                                                   dev.to_device(rm), dev.to_device(rv), None, None, True, 1.0, 1e-5)
    for g, w in ((tgi, gi), (tgw, gw), (tgb, gb)):
        _close(g, w, _tol(dtype, True))


@DTYPES
def test_linear_large(dev, dtype):
    """64 x 300 -> 200: every verb, with and without bias."""
    rng = np.random.default_rng(5)
    x, w = rng.uniform(-1, 1, (64, 300)).astype(dtype), rng.uniform(-1, 1, (200, 300)).astype(dtype)
    b, go = rng.uniform(-1, 1, 200).astype(dtype), rng.uniform(-1, 1, (64, 200)).astype(dtype)
    cpu, twin, up = thnn.backend(dtype), dev.backend(dtype), dev.to_device
    for bias in (b, None):
        _close(twin.Linear_updateOutput(up(x), None, up(w), None if bias is None else up(bias)),
               cpu.Linear_updateOutput(x, None, w, bias), _tol(dtype, False))
    _close(twin.Linear_updateGradInput(up(x), up(go), None, up(w)), cpu.Linear_updateGradInput(x, go, None, w),
           _tol(dtype, True))
    gw, gb = rng.uniform(-1, 1, w.shape).astype(dtype), rng.uniform(-1, 1, 200).astype(dtype)
    tgw, tgb = up(gw), up(gb)
    cpu.Linear_accGradParameters(x, go, w, b, gw, gb, 0.5)
    twin.Linear_accGradParameters(up(x), up(go), up(w), up(b), tgw, tgb, 0.5)
    _close(tgw, gw, _tol(dtype, True))
    _close(tgb, gb, _tol(dtype, True))


@DTYPES
def test_linear_single_sample(dev, dtype):
    rng = np.random.default_rng(6)
    x, w, b = (rng.uniform(-1, 1, s).astype(dtype) for s in ((7,), (5, 7), (5,)))
    _close(dev.backend(dtype).Linear_updateOutput(dev.to_device(x), None, dev.to_device(w), dev.to_device(b)),
           thnn.backend(dtype).Linear_updateOutput(x, None, w, b), _tol(dtype, False))


@DTYPES
@pytest.mark.parametrize("by_freq", [True, False], ids=["byFreq", "plain"])
def test_lookup_table_colliding_rows(dev, dtype, by_freq):
    """3000 indices into 5 rows: many atomic additions per element of gradWeight."""
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 5, (30, 100))
    go, gw = rng.uniform(-1, 1, (30, 100, 4)).astype(dtype), rng.uniform(-1, 1, (5, 4)).astype(dtype)
    tgw = dev.to_device(gw)
    thnn.backend(dtype).LookupTable_accGradParameters(idx, go, gw, by_freq, 3, 0.5)
    dev.backend(dtype).LookupTable_accGradParameters(dev.to_device(idx), dev.to_device(go), tgw, by_freq, 3, 0.5)
    _close(tgw, gw, _tol(dtype, True))


@pytest.mark.parametrize("norm_type", [1.0, 2.0, 3.0, float("inf")])
def test_lookup_table_renorm_norms(dev, norm_type):
    """Rows of 600 values (several per thread) in every norm; rows not named stay as they are."""
    rng = np.random.default_rng(8)
    w = rng.uniform(-1, 1, (9, 600))
    idx = np.array([[0, 3, 3], [8, 5, 0]])
    tw = dev.to_device(w)
    thnn.Double.LookupTable_renorm(idx, w, 2.0, norm_type)
    dev.CudaDouble.LookupTable_renorm(dev.to_device(idx), tw, 2.0, norm_type)
    _close(tw, w, 1e-10)


@DTYPES
@pytest.mark.parametrize("layer", ["GRUFused", "LSTMFused"])
def test_fused_cells_one_row_without_bias(dev, dtype, layer):
    rng = np.random.default_rng(9)
    h, gates = 70, 3 if layer == "GRUFused" else 4
    inp, hid, state = (rng.uniform(-2, 2, s).astype(dtype) for s in ((gates * h,), (gates * h,), (h,)))
    cpu, twin, up = thnn.backend(dtype), dev.backend(dtype), dev.to_device
    if layer == "GRUFused":
        want = cpu.GRUFused_updateOutput(inp, hid, None, None, state, None, None)
        got = twin.GRUFused_updateOutput(up(inp), up(hid), None, None, up(state), None, None)
    else:
        want = cpu.LSTMFused_updateOutput(inp, hid, None, None, state, None, None, None)
        got = twin.LSTMFused_updateOutput(up(inp), up(hid), None, None, up(state), None, None, None)
    for g, w in zip(got, want):
        _close(g, w, _tol(dtype, False))
    go = rng.uniform(-1, 1, h).astype(dtype)
    if layer == "GRUFused":
        want = cpu.GRUFused_updateGradInput(None, None, go, None, want[1])
        got = twin.GRUFused_updateGradInput(None, None, up(go), None, got[1])
    else:   # no gradient w.r.t. cy
        want = cpu.LSTMFused_updateGradInput(want[2], None, state, want[1], go, None, None)
        got = twin.LSTMFused_updateGradInput(got[2], None, up(state), got[1], up(go), None, None)
    for g, w in zip(got, want):
        _close(g, w, _tol(dtype, True))


@pytest.mark.parametrize("kW,dW", [(3, 1), (2, 3), (4, 4)])
@pytest.mark.parametrize("layer", ["TemporalConvolution", "TemporalSubSampling", "TemporalRowConvolution",
                                   "TemporalMaxPooling"])
def test_temporal_strides_and_2d_input(dev, layer, kW, dW):
    """Windows overlapping (dW < kW), skipping frames (dW > kW) and tiling
    (dW = kW), on a single 2D sequence of 50 frames; every verb."""
    rng = np.random.default_rng(10)
    n_in, n_out, frames = 6, 5, 50
    x = rng.uniform(-1, 1, (frames, n_in))
    n_frames = (frames - kW) // dW + 1
    shapes = {"TemporalConvolution": ((n_out, kW * n_in), (n_out,), (n_frames, n_out)),
              "TemporalSubSampling": ((n_in,), (n_in,), (n_frames, n_in)),
              "TemporalRowConvolution": ((n_in, 1, kW), (n_in,), (n_frames, n_in)),
              "TemporalMaxPooling": (None, None, (n_frames, n_in))}[layer]
    w = rng.uniform(-1, 1, shapes[0]) if shapes[0] else None
    b = rng.uniform(-1, 1, shapes[1]) if shapes[1] else None
    go = rng.uniform(-1, 1, shapes[2])
    cpu, twin, up = thnn.Double, dev.CudaDouble, dev.to_device
    tail = {"TemporalConvolution": (kW, dW, n_in, n_out), "TemporalSubSampling": (kW, dW, n_in),
            "TemporalRowConvolution": (kW, dW, False)}
    if layer == "TemporalMaxPooling":
        want, ind = cpu.TemporalMaxPooling_updateOutput(x, None, None, kW, dW)
        got, tind = twin.TemporalMaxPooling_updateOutput(up(x), None, None, kW, dW)
        np.testing.assert_array_equal(tind.numpy(), ind)
        _close(got, want, 1e-10)
        _close(twin.TemporalMaxPooling_updateGradInput(up(x), up(go), None, tind, kW, dW),
               cpu.TemporalMaxPooling_updateGradInput(x, go, None, ind, kW, dW), 1e-10)
        return
    f = lambda verb: (getattr(cpu, f"{layer}_{verb}"), getattr(twin, f"{layer}_{verb}"))  # noqa: E731
    c, t = f("updateOutput")
    _close(t(up(x), None, up(w), up(b), *tail[layer]), c(x, None, w, b, *tail[layer]), 1e-10)
    c, t = f("updateGradInput")
    grad_tail = (kW, dW, False) if layer == "TemporalRowConvolution" else (kW, dW)
    _close(t(up(x), up(go), None, up(w), *grad_tail), c(x, go, None, w, *grad_tail), 1e-10)
    gw, gb = rng.uniform(-1, 1, w.shape), rng.uniform(-1, 1, b.shape)
    tgw, tgb = up(gw), up(gb)
    c, t = f("accGradParameters")
    extra = (False,) if layer.endswith("RowConvolution") else ()
    c(x, go, gw, gb, kW, dW, *extra, 0.5)
    t(up(x), up(go), tgw, tgb, kW, dW, *extra, 0.5)
    _close(tgw, gw, 1e-10)
    _close(tgb, gb, 1e-10)


def test_temporal_max_pooling_nan_and_ties(dev):
    """Equal values: the first in the window wins; a NaN wins over any number."""
    x = np.zeros((2, 9, 3))
    x[0, 4, 1] = np.nan
    x[1, 2:5, 2] = 7.0
    want, ind = thnn.Double.TemporalMaxPooling_updateOutput(x, None, None, 3, 2)
    got, tind = dev.CudaDouble.TemporalMaxPooling_updateOutput(dev.to_device(x), None, None, 3, 2)
    np.testing.assert_array_equal(tind.numpy(), ind)
    np.testing.assert_array_equal(got.numpy(), want)


# ---- SparseLinear: entries checked on the device, atomics ----

def test_sparse_linear_bad_entries(dev):
    coo = np.array([[0, 1, 1.0], [1, 4, 2.0]])
    assert _same_error(dev, np.float64, "SparseLinear_updateOutput", coo, None, np.ones((2, 4)), np.ones(2), 2) \
        .endswith("input[1, 1] = 4 is not a feature index, an integer in [0, 4)")
    assert "input[1, 0] = 1 is not a sample index" in _same_error(
        dev, np.float64, "SparseLinear_updateOutput", coo, None, np.ones((2, 5)), np.ones(2), 1)
    assert "batchSize must be non-negative" in _same_error(
        dev, np.float64, "SparseLinear_updateOutput", coo, None, np.ones((2, 5)), np.ones(2), -1)
    neg = np.array([[0, 1, 1.0], [-1, 2, 1.0]])
    assert "input[1, 0] = -1 is not a sample index, a non-negative integer" in _same_error(
        dev, np.float64, "SparseLinear_zeroGradParameters", np.zeros((2, 5)), np.zeros(2), neg)
    legacy = np.array([[[0, 1.0], [2.5, 1.0]]], np.float32)
    assert "input[0, 1, 0] = 2.5 is not a feature index" in _same_error(
        dev, np.float32, "SparseLinear_legacyAccGradParameters", legacy, np.ones((1, 2), np.float32),
        np.zeros((2, 4), np.float32), np.zeros(2, np.float32), np.ones((2, 4), np.float32), np.ones(2, np.float32),
        0.0, 1.0)


def test_sparse_linear_reports_the_first_bad_entry(dev):
    rng = np.random.default_rng(11)
    coo = np.stack([rng.integers(0, 20, 3000), rng.integers(0, 7, 3000), rng.uniform(-1, 1, 3000)], axis=1)
    coo[2900, 1] = 7.0
    coo[1234, 0] = 20.0      # the first: sample out of range
    coo[2000, 1] = 0.5
    msg = _same_error(dev, np.float64, "SparseLinear_updateOutput", coo, None, np.ones((3, 7)), np.ones(3), 20)
    assert msg.endswith("input[1234, 0] = 20 is not a sample index, an integer in [0, 20)")


@DTYPES
@pytest.mark.parametrize("legacy", [False, True], ids=["coo", "legacy"])
def test_sparse_linear_colliding_entries(dev, dtype, legacy):
    """600 entries over 4 samples and 3 features, many zero values, every
    verb in turn (update and zero touch each feature's column once however
    often it occurs)."""
    rng = np.random.default_rng(12)
    n_out, n_in, batch, per = 50, 6, 4, 150
    features = rng.integers(0, 3, (batch, per)).astype(dtype)
    values = np.where(rng.random((batch, per)) < 0.3, 0, rng.uniform(-1, 1, (batch, per))).astype(dtype)
    if legacy:
        inp = np.stack([features, values], axis=-1)
    else:
        inp = np.stack([np.repeat(np.arange(batch), per).astype(dtype), features.ravel(), values.ravel()], axis=1)
    w, b = rng.uniform(-1, 1, (n_out, n_in)).astype(dtype), rng.uniform(-1, 1, n_out).astype(dtype)
    go = rng.uniform(-1, 1, (batch, n_out)).astype(dtype)
    gw, gb = rng.uniform(-1, 1, w.shape).astype(dtype), rng.uniform(-1, 1, n_out).astype(dtype)
    cpu, twin, up = thnn.backend(dtype), dev.backend(dtype), dev.to_device
    pre = "SparseLinear_legacy" if legacy else "SparseLinear_"
    name = lambda verb: pre + (verb[0].upper() + verb[1:] if legacy else verb)  # noqa: E731
    size = () if legacy else (batch,)
    _close(getattr(twin, name("updateOutput"))(up(inp), None, up(w), up(b), *size),
           getattr(cpu, name("updateOutput"))(inp, None, w, b, *size), _tol(dtype, False))
    tgw, tgb = up(gw), up(gb)
    getattr(cpu, name("accGradParameters"))(inp, go, gw, gb, w, b, 0.01, 0.5)
    getattr(twin, name("accGradParameters"))(up(inp), up(go), tgw, tgb, up(w), up(b), 0.01, 0.5)
    _close(tgw, gw, _tol(dtype, True))
    _close(tgb, gb, _tol(dtype, True))
    tw, tb = up(w), up(b)
    getattr(cpu, name("updateParameters"))(w, b, gw, gb, inp, 0.1)
    getattr(twin, name("updateParameters"))(tw, tb, tgw, tgb, up(inp), 0.1)
    _close(tw, w, _tol(dtype, True))
    _close(tb, b, _tol(dtype, True))
    getattr(cpu, name("zeroGradParameters"))(gw, gb, inp)
    getattr(twin, name("zeroGradParameters"))(tgw, tgb, up(inp))
    _close(tgw, gw, _tol(dtype, True))
    assert not tgb.numpy().any()
    assert (gw[:, 3:] != 0).all()     # untouched columns keep their gradient


# ---- IndexLinear: keys checked on the device, order-dependent updates ----

def test_index_linear_bad_keys_and_sizes(dev):
    assert _same_error(dev, np.float64, "IndexLinear_updateOutput", np.array([0, 5]), 1, np.ones(2), np.array([2]),
                       None, np.ones((6, 3)), np.ones(3), None, False) \
        .endswith("keys[1] = 5 with keysOffset 1 is out of range: rows are [0, 6)")
    assert "sizes sum to 2 but there are 3 keys" in _same_error(
        dev, np.float64, "IndexLinear_accGradParameters", np.array([0, 1, 2]), 0, np.ones(3), np.array([1, 1]),
        np.ones((2, 3)), None, np.zeros(3), np.ones((6, 3)), np.ones(3), 1.0)
    assert "sizes[1] = -1: sizes must be non-negative" in _same_error(
        dev, np.float64, "IndexLinear_updateOutput", np.array([0, 1]), 0, np.ones(2), np.array([1, -1]), None,
        np.ones((6, 3)), np.ones(3), None, False)
    keys = np.arange(4000) % 5
    keys[3999], keys[2500] = -2, 9
    assert _same_error(dev, np.float64, "IndexLinear_updateParameters", np.ones((4000, 3)), np.ones(3),
                       np.ones((6, 3)), np.ones(3), keys, 0, 0.0, 0.1).endswith("keys[2500] = 9 with keysOffset 0 "
                                                                                 "is out of range: rows are [0, 6)")


@DTYPES
@pytest.mark.parametrize("normalized", [True, False], ids=["normalized", "plain"])
def test_index_linear_repeated_keys(dev, dtype, normalized):
    """600 entries over 100 samples naming 4 features again and again: the
    running max of training and the per-entry steps follow the entries' order."""
    rng = np.random.default_rng(13)
    n_in, n_out, batch = 6, 40, 100
    sizes = rng.integers(0, 12, batch)
    nnz = int(sizes.sum())
    keys, values = rng.integers(0, 4, nnz), rng.uniform(-3, 3, nnz).astype(dtype)
    w = rng.uniform(-1, 1, (n_in, n_out)).astype(dtype)
    if normalized:
        m = rng.uniform(0.5, 2.0, (n_in, 1))
        w = np.concatenate([m, 1 / m, np.ones_like(m), rng.uniform(-0.1, 0.1, (n_in, 1)), w], axis=1).astype(dtype)
    b, go = rng.uniform(-1, 1, n_out).astype(dtype), rng.uniform(-1, 1, (batch, n_out)).astype(dtype)
    cpu, twin, up = thnn.backend(dtype), dev.backend(dtype), dev.to_device
    for train in (False, True):
        cw, tw = w.copy(), up(w)
        want = cpu.IndexLinear_updateOutput(keys, 0, values, sizes, None, cw, b, None, train)
        got = twin.IndexLinear_updateOutput(up(keys), 0, up(values), up(sizes), None, tw, up(b), None, train)
        for g, x in zip(got, want):
            if x is not None:
                _close(g, x, _tol(dtype, False))
        _close(tw, cw, _tol(dtype, False))
    u = want[1] if normalized else values
    gb = rng.uniform(-1, 1, n_out).astype(dtype)
    tgb = up(gb)
    gw = cpu.IndexLinear_accGradParameters(keys, 0, u, sizes, go, None, gb, cw, b, 0.5)
    tgw = twin.IndexLinear_accGradParameters(up(keys), 0, up(u), up(sizes), up(go), None, tgb, tw, up(b), 0.5)
    _close(tgw, gw, _tol(dtype, True))
    _close(tgb, gb, _tol(dtype, True))
    cb, tb = b.copy(), up(b)
    cpu.IndexLinear_updateParameters(gw, gb, cw, cb, keys, 0, 0.01, 0.1)
    twin.IndexLinear_updateParameters(tgw, tgb, tw, tb, up(keys), 0, 0.01, 0.1)
    _close(tw, cw, _tol(dtype, True))
    _close(tb, cb, _tol(dtype, True))
    cpu.IndexLinear_accUpdateGradParameters(keys, 0, u, sizes, go, cw, cb, 0.01, 0.1)
    twin.IndexLinear_accUpdateGradParameters(up(keys), 0, up(u), up(sizes), up(go), tw, tb, 0.01, 0.1)
    _close(tw, cw, _tol(dtype, True))
    _close(tb, cb, _tol(dtype, True))
