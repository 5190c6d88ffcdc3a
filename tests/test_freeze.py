"""nn.freeze (nn_legacy/fold.py): an inference copy whose parameters are
read-only arrays over immutable bytes, and whose convolutions keep their
weight packed for the indirect product between calls
(SpatialDilatedConvolution_packWeight / _updateOutputPacked,
generic/unfold.h).  The copy computes what the model computes: bit for bit
where both take the same path (THGemmConv_setMode 2 or 0), within the
convolution tests' float tolerance where the packed weight's own rule
picks the indirect product and the plain rule does not.  Every way the
weight or bias can change drops the packed weight (each test below fails
when its check is removed); training the copy raises; clone, save and
load give an unfrozen model."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
import thnn.cuda
from cuda_devices import DEVICES, device_named
from test_indirect_convolution import LIB, forward, needs_avx2, reference


def _model(dtype=np.float32, bias=True):
    """Three convolutions of each class through the forward's indirect product."""
    nn.manualSeed(3)
    convs = [nn.SpatialConvolution(24, 40, 3, 3, 1, 1, 1, 1), nn.SpatialDilatedConvolution(40, 20, 3, 3, 1, 1, 2, 2, 2, 2),
             nn.SpatialConvolutionMM(20, 17, 5, 5, 2, 2, 1, 1)]
    model = nn.Sequential()
    for i, conv in enumerate(convs):
        if not bias and i != 1:
            conv.noBias()
        model.add(conv).add(nn.ReLU())
    return model.type(dtype)


def _input(batch=2, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal((batch, 24, 18, 17)).astype(dtype)


def _convs(model):
    return [m for m in model.modules if isinstance(m, nn.SpatialConvolution)]


@needs_avx2
@pytest.mark.parametrize("mode", [2, 0])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("batch", [1, 3])
def test_the_frozen_copy_computes_the_model_bit_for_bit_on_the_same_path(mode, threads, bias, batch):
    model = _model(bias=bias)
    frozen = nn.freeze(model)
    x = _input(batch)
    want, calls = forward(model, x, mode, threads)
    got, frozen_calls = forward(frozen, x, mode, threads)
    again, _ = forward(frozen, x, mode, threads)
    assert calls == frozen_calls == (3 if mode == 2 else 0)
    assert np.array_equal(got, want) and np.array_equal(again, want)
    assert all(c._packed is not None and c._packed.size > 0 for c in _convs(frozen))


@needs_avx2
@pytest.mark.parametrize("threads", [1, 2])
def test_a_large_weight_on_a_small_image_takes_the_packed_path_by_default(threads):
    # 3x3 256->256 on 7x7: the plain rule keeps the column path (it would pack 2.4 MB per call), the packed one not
    nn.manualSeed(5)
    m = nn.SpatialConvolution(256, 256, 3, 3, 1, 1, 1, 1).float()
    frozen = nn.freeze(m)
    x = np.random.default_rng(1).standard_normal((1, 256, 7, 7)).astype(np.float32)
    want, scale = reference(m, x, 3, 3, 1, 1, 1)
    plain, plain_calls = forward(m, x, 1, threads)
    packed, packed_calls = forward(frozen, x, 1, threads)
    assert plain_calls == 0 and packed_calls == 1
    for y in (plain, packed):
        assert np.all(np.abs(y - want) <= 1e-4 * (scale + 1))


def test_double_and_an_empty_packed_weight_take_the_plain_path():
    model = _model(np.float64)
    frozen = nn.freeze(model)
    x = _input(2, np.float64)
    assert np.array_equal(frozen.forward(x), model.forward(x))
    assert all(c._packed is not None and c._packed.size == 0 for c in _convs(frozen))


def test_freeze_leaves_the_model_alone_and_its_copy_cannot_be_trained():
    model = _model()
    model.training()
    frozen = nn.freeze(model)
    assert model.train and not frozen.train and all(not m.train for m in frozen.modules)
    weights = [c.weight for c in _convs(model)]
    assert all(w.flags.writeable for w in weights)
    x = _input()
    y = frozen.forward(x).copy()
    for conv in _convs(frozen):
        for array in (conv.weight, conv.bias):
            assert not array.flags.writeable
            with pytest.raises(ValueError):
                array.flags.writeable = True   # (it views immutable bytes)
    frozen.backward(x, np.ones_like(y))
    with pytest.raises(ValueError, match="read-only"):
        frozen.updateParameters(0.1)
    with pytest.raises(ValueError, match="read-only"):
        _convs(frozen)[0].reset()
    assert np.array_equal(frozen.forward(x), y)


def test_a_shared_parameter_stays_shared():
    a = nn.SpatialConvolution(24, 8, 3, 3).float()
    b = a.clone("weight", "bias")
    frozen = nn.freeze(nn.Sequential().add(nn.ConcatTable().add(a).add(b)).add(nn.CAddTable()))
    ca, cb = frozen.modules[0].modules
    assert ca.weight is cb.weight and ca.bias is cb.bias and not ca.weight.flags.writeable


def test_freeze_takes_modules_only():
    with pytest.raises(TypeError, match="freeze: expected a Module"):
        nn.freeze(np.zeros(3))


def _changed_output(conv, x):
    """What conv computes with its current weight and bias, computed by a fresh unfrozen module."""
    fresh = nn.SpatialConvolution(conv.nInputPlane, conv.nOutputPlane, conv.kW, conv.kH, conv.dW, conv.dH,
                                  conv.padW, conv.padH).float()
    fresh.weight = np.array(conv.weight)
    fresh.bias = None if conv.bias is None else np.array(conv.bias)
    if conv.bias is None:
        fresh.gradBias = None
    return fresh.forward(x).copy()


def _frozen_conv():
    nn.manualSeed(7)
    frozen = nn.freeze(nn.SpatialConvolution(24, 32, 3, 3, 1, 1, 1, 1).float())
    x = _input(1)
    first = frozen.forward(x).copy()
    assert frozen._packed is not None and (frozen._packed.size > 0) == bool(LIB.THGemm_floatAvailable())
    return frozen, x, first


@pytest.mark.parametrize("name", ["weight", "bias"])
@pytest.mark.parametrize("read_only", [False, True])
def test_assigning_a_parameter_drops_the_packed_weight(name, read_only):
    frozen, x, first = _frozen_conv()
    new = getattr(frozen, name) * 2
    if read_only:
        new = np.frombuffer(new.tobytes(), new.dtype).reshape(new.shape)
    setattr(frozen, name, new)
    y = frozen.forward(x)
    assert np.array_equal(y, _changed_output(frozen, x)) and not np.array_equal(y, first)
    assert frozen._frozen is None and frozen._packed is None


def test_an_array_made_writeable_again_drops_the_packed_weight():
    # freeze's arrays cannot be made writeable; an owned read-only array can, which the check must see
    frozen, x, first = _frozen_conv()
    owned = np.array(frozen.weight)
    owned.flags.writeable = False
    frozen.weight = owned
    frozen._frozen, frozen._packed = (owned, frozen.bias), None
    assert np.array_equal(frozen.forward(x), first)
    owned.flags.writeable = True
    owned *= 2
    y = frozen.forward(x)
    assert np.array_equal(y, _changed_output(frozen, x)) and not np.array_equal(y, first)
    assert frozen._frozen is None


@pytest.mark.parametrize("convert", ["float", "double_float", "type"])
def test_converting_the_module_drops_the_packed_weight(convert):
    frozen, x, first = _frozen_conv()
    if convert == "float":
        frozen.float()       # (already float32: the arrays are kept, the packed weight given up all the same)
        assert frozen._frozen is None and not frozen.weight.flags.writeable
        assert np.array_equal(frozen.forward(x), first)
        return
    if convert == "double_float":
        frozen.double().float()
    else:
        frozen.type(np.float64).type(np.float32)
    assert frozen._frozen is None and frozen._packed is None and frozen.weight.flags.writeable
    frozen.weight *= 2
    y = frozen.forward(x)
    assert np.array_equal(y, _changed_output(frozen, x)) and not np.array_equal(y, first)


def test_a_clone_is_not_frozen():
    frozen, x, first = _frozen_conv()
    copy = frozen.clone()
    assert copy.weight.flags.writeable
    copy.weight *= 2
    y = copy.forward(x)
    assert np.array_equal(y, _changed_output(copy, x)) and not np.array_equal(y, first)
    assert np.array_equal(frozen.forward(x), first)


def test_clear_state_keeps_and_save_load_store_no_packed_weight(tmp_path):
    frozen, x, first = _frozen_conv()
    packed = frozen._packed
    frozen.clearState()
    assert frozen._packed is packed and frozen._frozen is not None
    assert np.array_equal(frozen.forward(x), first)
    path = tmp_path / "frozen.nn"
    nn.save(frozen, str(path))
    loaded = nn.load(str(path))
    assert loaded._frozen is None and loaded._packed is None
    assert np.array_equal(loaded.forward(x), first)
    assert loaded._frozen is None and loaded._packed is None
    plain = tmp_path / "plain.nn"
    nn.save(frozen.clone(), str(plain))   # (not frozen: nothing of the packed weight either way)
    assert path.stat().st_size <= plain.stat().st_size + 64


@needs_avx2
def test_the_kernels_read_a_copy_and_refuse_a_packed_weight_that_does_not_fit():
    frozen, x, first = _frozen_conv()
    k = frozen._kernels(x, "input")
    w, b, packed = frozen.weight, frozen.bias, frozen._packed
    args = (3, 3, 1, 1, 1, 1, 1, 1)
    y, _ = k.SpatialDilatedConvolution_updateOutputPacked(x, None, w, b, None, packed, *args)
    assert np.array_equal(y, first)
    assert packed.ctypes.data % 64 == 0   # (read in place: the kernel allocated it)
    for shift in (1, 8):   # a copy 4 or 32 bytes off the 64-byte boundary: read through an aligned copy, or in place
        raw = np.zeros(packed.size + 32, np.float32)
        start = (-raw.ctypes.data) % 64 // 4 + shift
        moved = raw[start:start + packed.size]
        moved[...] = packed
        assert moved.ctypes.data % 64 == 4 * shift
        y, _ = k.SpatialDilatedConvolution_updateOutputPacked(x, None, w, b, None, moved, *args)
        assert np.array_equal(y, first)
    for bad in (packed[:-1], np.zeros(40, np.float32), packed.reshape(-1, 1), np.concatenate([packed, np.zeros(1, np.float32)])):
        with pytest.raises(thnn.THNNError, match="packed"):
            k.SpatialDilatedConvolution_updateOutputPacked(x, None, w, b, None, bad, *args)
    other = nn.SpatialConvolution(24, 16, 3, 3).float()
    with pytest.raises(thnn.THNNError, match="packed"):
        k.SpatialDilatedConvolution_updateOutputPacked(x, None, other.weight, other.bias, None, packed, *args)
    with pytest.raises(thnn.THNNError, match="bias"):
        k.SpatialDilatedConvolution_packWeight(w, np.zeros(5, np.float32), None)
    with pytest.raises(thnn.THNNError, match="weight"):
        k.SpatialDilatedConvolution_packWeight(np.zeros((2, 3, 4), np.float32), None, None)
    empty = k.SpatialDilatedConvolution_packWeight(np.zeros((0, 24), np.float32), None, None)
    assert empty.size == 0


def test_the_double_kernels_take_an_empty_packed_weight_only():
    conv = nn.SpatialConvolution(24, 8, 3, 3).double()
    x = _input(1, np.float64)
    k = conv._kernels(x, "input")
    packed = k.SpatialDilatedConvolution_packWeight(conv.weight, conv.bias, None)
    assert packed.size == 0 and packed.dtype == np.float64
    y, _ = k.SpatialDilatedConvolution_updateOutputPacked(x, None, conv.weight, conv.bias, None, packed,
                                                          3, 3, 1, 1, 0, 0, 1, 1)
    assert np.array_equal(y, conv.forward(x))
    with pytest.raises(thnn.THNNError, match="packed"):
        k.SpatialDilatedConvolution_updateOutputPacked(x, None, conv.weight, conv.bias, None, np.zeros(64),
                                                       3, 3, 1, 1, 0, 0, 1, 1)


@pytest.mark.parametrize("device", DEVICES)
def test_the_device_keeps_no_packed_weight_and_checks_one_as_the_cpu_does(device):
    dev = device_named(device)
    frozen, x, first = _frozen_conv()
    w, b = dev.to_device(np.array(frozen.weight)), dev.to_device(np.array(frozen.bias))
    kernels, args = dev.backend(np.float32), (3, 3, 1, 1, 1, 1, 1, 1)
    packed = kernels.SpatialDilatedConvolution_packWeight(w, b, None)
    assert packed.numpy().size == 0
    for given in (packed, dev.to_device(frozen._packed)):
        y, _ = kernels.SpatialDilatedConvolution_updateOutputPacked(dev.to_device(x), None, w, b, None, given, *args)
        np.testing.assert_allclose(y.numpy(), first, rtol=1e-4, atol=1e-4)
    with pytest.raises(thnn.cuda.CudaError, match="packed must be empty, or packWeight's result"):
        kernels.SpatialDilatedConvolution_updateOutputPacked(dev.to_device(x), None, w, b, None,
                                                             dev.to_device(np.zeros(40, np.float32)), *args)
