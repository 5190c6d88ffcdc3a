"""The CUDA side's own machinery: CudaTensor, the kernel wrapper, and what
the twins rely on (block barriers, shared memory, reductions across blocks,
atomics, the device error slot), on the emulator and on a GPU when present."""
import gc

import numpy as np
import pytest

import thnn.cuda as cuda
from cuda_devices import emulator_only


def _call(dev, name, *args):
    state = dev.ffi.new("THNNState*")
    status = getattr(dev.lib, name)(state, *args)
    return status, dev.ffi.string(state.message).decode()


@pytest.mark.parametrize("n", [1, 255, 256, 257, 5000, 100_000])
def test_block_reduction_across_blocks(dev, n):
    x = np.random.default_rng(n).uniform(-1, 1, n)
    X = dev.to_device(x)
    out = dev.ffi.new("THDoubleTensor*")
    t, storage = X._struct(dev.ffi)   # both kept alive: t points at storage
    status, message = _call(dev, "THCSelfTest_sum", t, out)
    assert status == 0, message
    total = np.empty(1)
    assert dev.lib.THCDoubleStorage_copyToHost(dev.ffi.new("THNNState*"), dev.ffi.cast("double*", total.ctypes.data),
                                               out.storage, 0, 1) == 0
    dev.lib.THCDoubleStorage_free(out.storage)
    assert abs(total[0] - x.sum()) <= 1e-12 * n


def test_error_slot_reports_the_bad_value(dev):
    values = np.arange(3000) % 7
    values[2345] = 9
    v = dev.to_device(values)   # kept alive: the struct below only borrows its memory
    t, storage = v._struct(dev.ffi)
    assert _call(dev, "THCSelfTest_checkRange", t, 7) == (-1, "value 9 at 2345 is outside [0, 7)")
    assert _call(dev, "THCSelfTest_checkRange", t, 10) == (0, "")


def test_launch_errors_become_messages(dev):
    status, message = _call(dev, "THCSelfTest_badLaunch")
    assert status == -1 and "THCSelfTest_badLaunch: kernel launch failed: invalid configuration" in message
    ones = dev.to_device(np.ones(3))
    out = dev.ffi.new("THDoubleTensor*")
    t, storage = ones._struct(dev.ffi)
    assert _call(dev, "THCSelfTest_sum", t, out)[0] == 0   # the error was consumed
    dev.lib.THCDoubleStorage_free(out.storage)


def test_synchronize_waits_for_the_kernels_and_leaves_no_error(dev):
    x = dev.to_device(np.arange(100_000.0))
    y = dev.Cuda.Sigmoid_updateOutput(dev.to_device(np.ones(100_000, np.float32)), None)
    assert dev.synchronize() is None
    assert abs(y.numpy()[-1] - 1 / (1 + np.exp(-1.0))) < 1e-6
    status, message = _call(dev, "THCSelfTest_badLaunch")   # (a launch error is reported by its call,
    assert status == -1                                    # not left for the next synchronisation)
    dev.synchronize()
    assert x.numpy()[-1] == 99_999.0


def test_a_build_without_the_emulator_says_so(monkeypatch):
    monkeypatch.setattr(cuda, "_devices", {})
    monkeypatch.setattr(cuda, "emulator_unavailable_reason",
                        lambda: "thnn was built without the CUDA emulator (THNN_EMULATOR=0 skips it; ...)")
    with pytest.raises(RuntimeError, match=r"thnn.cuda.emulator: thnn was built without the CUDA emulator "
                                           r"\(THNN_EMULATOR=0"):
        cuda.emulator()


@emulator_only
def test_emulator_detects_a_divergent_barrier():
    status, message = _call(cuda.emulator(), "THCSelfTest_divergentBarrier")
    assert status == -1 and "disagreed at __syncthreads" in message


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_round_trip_and_views(dev, dtype):
    a = (np.arange(24).reshape(2, 3, 4) - 5).astype(dtype)
    t = dev.to_device(a)
    assert (t.shape, t.dtype, t.ndim, t.size, t.strides) == (a.shape, np.dtype(dtype), 3, 24, (12, 4, 1))
    np.testing.assert_array_equal(t.numpy(), a)
    v = t.swapaxes(0, 2)
    assert not v.is_contiguous()
    np.testing.assert_array_equal(v.numpy(), a.transpose(2, 1, 0))
    np.testing.assert_array_equal(t.narrow(2, 1, 2).numpy(), a[:, :, 1:3])
    np.testing.assert_array_equal(v.clone().numpy(), a.transpose(2, 1, 0))
    assert v.contiguous().is_contiguous()


def test_fill_copy_add(dev):
    t = dev.to_device(np.zeros((3, 4)))
    t.fill_(2.5)
    np.testing.assert_array_equal(t.numpy(), np.full((3, 4), 2.5))
    t.add_(dev.to_device(np.ones((3, 4))), alpha=-0.5)
    np.testing.assert_array_equal(t.numpy(), np.full((3, 4), 2.0))
    u = dev.to_device(np.zeros((4, 3)))
    u.copy_(t.swapaxes(0, 1))
    np.testing.assert_array_equal(u.numpy(), np.full((4, 3), 2.0))
    with pytest.raises(ValueError, match=r"src must be a CudaTensor of shape \(4, 3\), got shape \(3, 4\)"):
        u.copy_(t)
    u.copy_(dev.to_device(np.full((4, 3), 1.5, np.float32)))     # (converted, as Torch7's copy)
    np.testing.assert_array_equal(u.numpy(), np.full((4, 3), 1.5))


def test_kernel_argument_errors(dev):
    x = dev.to_device(np.ones((4, 5), np.float32))
    with pytest.raises(TypeError, match="Sigmoid_updateOutput: input must be a CudaTensor, got ndarray"):
        dev.Cuda.Sigmoid_updateOutput(np.ones(3, np.float32), None)
    with pytest.raises(TypeError, match="input must be float64, got float32"):
        dev.CudaDouble.Sigmoid_updateOutput(x, None)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        dev.Cuda.Sigmoid_updateOutput(x)
    with pytest.raises(cuda.CudaError, match=r"Sigmoid_updateGradInput: gradOutput must be shaped as output "
                                             r"\(2D of size \[4, 5\]\), got 2D of size \[5, 4\]"):
        dev.Cuda.Sigmoid_updateGradInput(dev.to_device(np.ones((5, 4), np.float32)), None, x)


def test_out_reuse_and_aliasing(dev):
    x = dev.to_device(np.zeros((4, 5), np.float32))
    y = dev.Cuda.Sigmoid_updateOutput(x, None)
    assert dev.Cuda.Sigmoid_updateOutput(x, y) is y           # same shape: its memory is reused
    z = dev.Cuda.Sigmoid_updateOutput(dev.to_device(np.zeros((2, 5), np.float32)), y)
    assert z is not y and y.shape == (4, 5)                    # another shape: y is left alone
    np.testing.assert_array_equal(y.numpy(), np.full((4, 5), 0.5, np.float32))
    w = dev.Cuda.Sigmoid_updateOutput(x, x)                    # an [OUT] that is the input: not written into
    assert w is not x
    np.testing.assert_array_equal(x.numpy(), np.zeros((4, 5), np.float32))


@emulator_only
def test_device_memory_is_freed():
    dev = cuda.emulator()
    import ctypes
    libc = ctypes.CDLL(None)

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in
                    ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                     "fordblks", "keepcost")]
    libc.mallinfo2.restype = Mallinfo2

    def heap():
        gc.collect()
        m = libc.mallinfo2()
        return m.uordblks + m.hblkhd

    x = np.ones((64, 64), np.float32)
    for _ in range(50):
        dev.Cuda.Sigmoid_updateOutput(dev.to_device(x), None).numpy()
    before = heap()
    for _ in range(2000):
        dev.Cuda.Sigmoid_updateOutput(dev.to_device(x), None).numpy()
    assert heap() - before < 256 * 1024   # 2000 calls allocate 2000 * 2 * 16 KiB of device memory
