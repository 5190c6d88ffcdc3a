"""nn_legacy.VolumetricMaxPooling and the VolumetricMaxPooling_* kernels:
the max of every kT x kW x kH window, 0-based indices within each block."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import distinct, fixed_windows, ref_index_grad, ref_max, torch_module_grad

# (kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil)
WINDOWS = [(2, 3, 2, 1, 2, 1, 1, 1, 0, False), (3, 2, 2, 2, 1, 2, 1, 0, 1, True), (1, 2, 2, 1, 2, 2, 0, 0, 0, False),
           (2, 2, 3, 2, 2, 3, 0, 1, 1, True)]
SHAPE = (2, 3, 4, 5, 6)    # T = 4, H = 5, W = 6
OUT = (2, 3, 5, 4, 3)      # of make() on SHAPE


def make(kT=2, kW=3, kH=2, dT=1, dW=2, dH=1, padT=1, padW=1, padH=0, ceil=False):
    m = nn.VolumetricMaxPooling(kT, kW, kH, dT, dW, dH, padT, padW, padH)
    return m.ceil() if ceil else m


def reference(x, kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil):
    T, H, W = x.shape[-3:]
    return ref_max(x, [fixed_windows(T, kT, dT, padT, 1, ceil), fixed_windows(H, kH, dH, padH, 1, ceil),
                       fixed_windows(W, kW, dW, padW, 1, ceil)])


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(window, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    out, ind = reference(x, *window)
    g = uniform(out.shape, 2).astype(dtype)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 3, ind, g))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_matches_torch(window):
    torch = torch_or_skip()
    kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil = window
    x = uniform((2, 3, 5, 7, 6), 1)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2)

    def pool(t):
        return torch.nn.functional.max_pool3d(t, (kT, kH, kW), (dT, dH, dW), (padT, padH, padW), ceil_mode=ceil,
                                              return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_defaults_repr_and_input_size():
    m = nn.VolumetricMaxPooling(2, 3, 2)
    assert (m.dT, m.dW, m.dH, m.padT, m.padW, m.padH, m.ceil_mode) == (2, 3, 2, 0, 0, 0, False)
    assert m.ceil() is m and m.ceil_mode and m.floor() is m and not m.ceil_mode
    assert repr(m) == "nn.VolumetricMaxPooling(2x3x2, 2,3,2)"
    assert repr(make()) == "nn.VolumetricMaxPooling(2x3x2, 1,2,1, 1,1,0)"
    m.forward(uniform(SHAPE, 1))
    assert (m.itime, m.iheight, m.iwidth) == (4, 5, 6)


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    fields = {"kT": 2.0, "kW": 3.0, "kH": 2.0, "dT": 1.0, "dW": 2.0, "dH": 1.0, "padT": 1.0, "padW": 1.0,
              "padH": 0.0, "ceil_mode": False, "indices": np.ones((2, 2))}
    (tmp_path / "v.t7").write_bytes(t7_bytes(T7Object("nn.VolumetricMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "v.t7"))
    assert m.indices is None and type(m.kT) is int
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make().forward(x))


# ---------------------------------------------------------------- bad input
def test_wrong_number_of_dims():
    with raises_exactly(thnn.THNNError, "VolumetricMaxPooling_updateOutput: input must be 4D [planes, time, height, "
                                        "width] or 5D [batch, planes, time, height, width], got 3D of size [4, 5, 6]"):
        make().forward(uniform((4, 5, 6), 1))


@pytest.mark.parametrize("args, message", [
    ((0, 3, 2), "kernel size must be > 0, got kT=0"),
    ((2, 3, 2, 1, 1, 0), "stride must be > 0, got dH=0"),
    ((2, 3, 2, 1, 1, 1, 2, 0, 0), "padding must be >= 0 and at most half the kernel size, got padT=2 for kT=2"),
])
def test_bad_window(args, message):
    with raises_exactly(thnn.THNNError, "VolumetricMaxPooling_updateOutput: " + message):
        nn.VolumetricMaxPooling(*args).forward(uniform(SHAPE, 1))


def test_input_smaller_than_the_window():
    with raises_exactly(thnn.THNNError, "VolumetricMaxPooling_updateOutput: input (5D of size [2, 3, 4, 5, 6]) is "
                                        "too small along time (4) for the window kT=5, dT=5, padT=0: the output "
                                        "time would be 0, it must be at least 1"):
        nn.VolumetricMaxPooling(5, 2, 2).forward(uniform(SHAPE, 1))


def test_mismatched_gradOutput_and_tampered_indices():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "VolumetricMaxPooling_updateGradInput: gradOutput must be 5D of size "
                                        "[2, 3, 5, 4, 3], got 5D of size [2, 3, 5, 3, 4]"):
        m.backward(x, uniform((2, 3, 5, 3, 4), 2))
    m.indices[1, 2, 4, 3, 2] = 120
    with raises_exactly(thnn.THNNError, "VolumetricMaxPooling_updateGradInput: indices[1, 2, 4, 3, 2] = 120 is out "
                                        "of range [0, 120)"):
        m.backward(x, uniform(OUT, 2))
