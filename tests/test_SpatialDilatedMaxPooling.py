"""nn_legacy.SpatialDilatedMaxPooling and the SpatialDilatedMaxPooling_*
kernels: max pooling whose window taps lie dilationW, dilationH apart."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import distinct, fixed_windows, ref_index_grad, ref_max, torch_module_grad

# (kW, kH, dW, dH, padW, padH, dilationW, dilationH, ceil)
WINDOWS = [(3, 2, 2, 1, 1, 0, 2, 1, False), (2, 3, 1, 2, 0, 1, 1, 3, True), (3, 3, 2, 3, 1, 0, 3, 2, True),
           (2, 2, 2, 2, 0, 0, 2, 2, False)]
SHAPE = (2, 3, 7, 9)
OUT = (2, 3, 6, 4)   # of make() on SHAPE


def make(kW=3, kH=2, dW=2, dH=1, padW=1, padH=0, dilationW=2, dilationH=1, ceil=False):
    m = nn.SpatialDilatedMaxPooling(kW, kH, dW, dH, padW, padH, dilationW, dilationH)
    return m.ceil() if ceil else m


def reference(x, kW, kH, dW, dH, padW, padH, dilW, dilH, ceil):
    H, W = x.shape[-2:]
    return ref_max(x, [fixed_windows(H, kH, dH, padH, dilH, ceil), fixed_windows(W, kW, dW, padW, dilW, ceil)])


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_the_reference_loop(window, dtype):
    x = distinct(SHAPE, 1).astype(dtype)
    out, ind = reference(x, *window)
    g = uniform(out.shape, 2).astype(dtype)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 2, ind, g))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch(window, dtype):
    torch = torch_or_skip()
    kW, kH, dW, dH, padW, padH, dilW, dilH, ceil = window
    x = uniform((2, 3, 11, 10), 1).astype(dtype)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)

    def pool(t):
        return torch.nn.functional.max_pool2d(t, (kH, kW), (dH, dW), (padH, padW), (dilH, dilW), ceil_mode=ceil,
                                              return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_dilation_1_is_SpatialMaxPooling():
    x, g = uniform(SHAPE, 1), uniform((2, 3, 6, 5), 2)
    m, plain = make(dilationW=1, dilationH=1), nn.SpatialMaxPooling(3, 2, 2, 1, 1, 0)
    np.testing.assert_array_equal(m.forward(x), plain.forward(x))
    np.testing.assert_array_equal(m.backward(x, g), plain.backward(x, g))


def test_is_a_SpatialMaxPooling_with_torch7s_defaults():
    m = nn.SpatialDilatedMaxPooling(3, 2)
    assert isinstance(m, nn.SpatialMaxPooling)
    assert (m.dW, m.dH, m.padW, m.padH, m.dilationW, m.dilationH, m.ceil_mode) == (3, 2, 0, 0, 1, 1, False)


def test_repr():
    assert repr(make()) == "nn.SpatialDilatedMaxPooling(3x2, 2,1, 1,0, 2,1)"
    assert repr(nn.SpatialDilatedMaxPooling(3, 2, 1, 1, 0, 0, 2, 3)) == "nn.SpatialDilatedMaxPooling(3x2, 1,1, 2,3)"


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    fields = {"kW": 3.0, "kH": 2.0, "dW": 2.0, "dH": 1.0, "padW": 1.0, "padH": 0.0, "dilationW": 2.0,
              "dilationH": 1.0, "ceil_mode": False, "indices": np.ones((1, 2))}
    (tmp_path / "p.t7").write_bytes(t7_bytes(T7Object("nn.SpatialDilatedMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "p.t7"))
    assert (m.dilationW, m.dilationH, m.indices) == (2, 1, None)
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make().forward(x))


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("dilation, message", [((0, 1), "dilation must be > 0, got dilationW=0"),
                                               ((2, -1), "dilation must be > 0, got dilationH=-1")])
def test_bad_dilation(dilation, message):
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: " + message):
        make(dilationW=dilation[0], dilationH=dilation[1]).forward(uniform(SHAPE, 1))


def test_dilated_window_larger_than_the_input():
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: input (4D of size [2, 3, 7, 9]) is "
                                        "too small along width (9) for the window kW=3, dW=2, padW=1, "
                                        "dilationW=6: the output width would be 0, it must be at least 1"):
        make(dilationW=6).forward(uniform(SHAPE, 1))


def test_window_wholly_in_the_padding_is_refused():
    # W = 1, kW = 2, padW = 1, dilationW = 2: the only window's taps are columns -1 and 1
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateOutput: window 0 along width lies wholly "
                                        "in the padding: input width 1, kW=2, dW=1, padW=1, dilationW=2"):
        nn.SpatialDilatedMaxPooling(2, 1, 1, 1, 1, 0, 2, 1).forward(uniform((1, 3, 1), 1))


def test_tampered_indices_are_refused():
    m = make()
    x, g = uniform(SHAPE, 1), uniform(OUT, 2)
    m.forward(x)
    m.indices[0, 1, 5, 3] = 63
    with raises_exactly(thnn.THNNError, "SpatialDilatedMaxPooling_updateGradInput: indices[0, 1, 5, 3] = 63 is "
                                        "out of range [0, 63)"):
        m.backward(x, g)
