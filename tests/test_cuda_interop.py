"""CudaTensors handed to other libraries and taken from them without a copy
(thnn/_dlpack.py): DLPack both ways, and ``__cuda_array_interface__``.

On the emulator, whose device memory is host memory, DLPack says kCPU:
numpy and PyTorch (CPU) read and write an emulator tensor's memory, and a
numpy array or a CPU torch tensor becomes an emulator tensor, both as
views.  On a GPU the same runs with PyTorch's CUDA tensors (and CuPy's)."""
import gc

import numpy as np
import pytest

import thnn.cuda as cuda
from cuda_devices import gpu_only
from thnn import _dlpack

torch = pytest.importorskip("torch")


def test_numpy_and_torch_view_an_emulator_tensor():
    dev = cuda.emulator()
    t = dev.to_device(np.arange(12.0).reshape(3, 4))
    a = np.from_dlpack(t)
    assert a.flags.writeable and not a.flags.owndata
    a[0, 0] = 100.0                                  # writes the tensor's memory
    assert t.numpy()[0, 0] == 100.0
    view = t.T[1:]                                   # strides go across
    b = np.from_dlpack(view)
    assert b.strides == (8, 32)
    np.testing.assert_array_equal(b, t.numpy().T[1:])
    tt = torch.from_dlpack(t[:, ::2])
    assert tt.stride() == (4, 2) and tt.data_ptr() == t.data_ptr()
    f32 = dev.to_device(np.ones(3, np.float32))
    assert torch.from_dlpack(f32).dtype == torch.float32
    assert torch.from_dlpack(dev.to_device(np.arange(3))).dtype == torch.int64


def test_an_emulator_tensor_of_host_arrays():
    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = cuda.from_dlpack(h)
    assert t.device is cuda.emulator() and t.dtype == np.float32 and t.shape == (2, 3)
    h[1, 1] = -1.0
    assert t.numpy()[1, 1] == -1.0                   # a view, not a copy
    reversed_ = np.arange(10.0)[::-2]
    s = cuda.from_dlpack(reversed_)
    assert s.strides == (-2,)
    np.testing.assert_array_equal(s.numpy(), reversed_)
    np.testing.assert_array_equal((s * 2).numpy(), reversed_ * 2)   # the device math reads it
    from_torch = cuda.from_dlpack(torch.arange(10, dtype=torch.float64)[1::3])
    assert from_torch.strides == (3,) and from_torch.numpy().tolist() == [1.0, 4.0, 7.0]


def test_memory_lives_as_long_as_a_view():
    """An exported tensor stays alive until the consumer drops it; an
    imported array's producer is released with the last view."""
    dev = cuda.emulator()
    gc.collect()
    before = len(_dlpack._exported)
    t = dev.to_device(np.arange(5.0))
    a = np.from_dlpack(t)
    del t
    gc.collect()
    assert a.sum() == 10.0 and len(_dlpack._exported) == before + 1
    del a
    gc.collect()
    assert len(_dlpack._exported) == before
    capsule = dev.to_device(np.ones(2)).__dlpack__()   # a capsule nobody consumes
    del capsule
    gc.collect()
    assert len(_dlpack._exported) == before
    released = []
    tt = torch.arange(4.0)
    t = cuda.from_dlpack(tt)[1:]
    del tt
    gc.collect()
    assert t.numpy().tolist() == [1.0, 2.0, 3.0]
    import weakref
    weakref.finalize(t._owner, released.append, True)
    del t
    gc.collect()
    assert released == [True]


def test_what_does_not_cross():
    dev = cuda.emulator()
    with pytest.raises(TypeError, match="stored as int64; convert it first"):
        np.from_dlpack(dev.to_device(np.array([True, False])))
    with pytest.raises(TypeError, match="float32, float64 or int64, got DLPack type code 0 of 32 bits"):
        cuda.from_dlpack(np.arange(3, dtype=np.int32))
    with pytest.raises(AttributeError, match="emulator's memory is host memory"):
        dev.to_device(np.ones(2)).__cuda_array_interface__
    assert not hasattr(dev.to_device(np.ones(2)), "__cuda_array_interface__")
    with pytest.raises(BufferError):
        dev.to_device(np.ones(2)).__dlpack__(dl_device=(2, 0))
    t = dev.to_device(np.ones(2))
    copy = np.from_dlpack(t, copy=True)                # (asked for, a copy: the tensor keeps its values)
    copy[0] = 5.0
    assert t.numpy().tolist() == [1.0, 1.0]


@gpu_only
def test_torch_cuda_views_a_gpu_tensor():
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    dev = cuda.gpu()
    t = dev.to_device(np.arange(12.0).reshape(3, 4))
    tt = torch.from_dlpack(t.T)
    assert tt.is_cuda and tt.data_ptr() == t.data_ptr() and tt.stride() == (1, 4)
    tt[0, 0] = 7.0
    torch.cuda.synchronize()
    assert t.numpy()[0, 0] == 7.0
    back = cuda.from_dlpack(torch.arange(6.0, device="cuda")[::2])
    assert back.device is dev and back.numpy().tolist() == [0.0, 2.0, 4.0]
    cai = t.__cuda_array_interface__
    assert cai["version"] == 3 and cai["data"][0] == t.data_ptr() and cai["typestr"] == "<f8"
    assert torch.as_tensor(t, device="cuda").data_ptr() == t.data_ptr()


@gpu_only
def test_cupy_views_a_gpu_tensor():
    cupy = pytest.importorskip("cupy")
    dev = cuda.gpu()
    t = dev.to_device(np.arange(6, dtype=np.float32))
    c = cupy.asarray(t)                      # through __cuda_array_interface__
    assert c.data.ptr == t.data_ptr()
    d = cupy.from_dlpack(t)
    assert d.data.ptr == t.data_ptr()
    back = cuda.from_dlpack(cupy.arange(4, dtype=cupy.float64))
    assert back.numpy().tolist() == [0.0, 1.0, 2.0, 3.0]
