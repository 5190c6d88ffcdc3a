"""nn_legacy.VolumetricAveragePooling and the VolumetricAveragePooling_*
kernels: the mean of every kT x kW x kH window, padding counted or not."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import fixed_windows, ref_avg, ref_avg_grad, torch_module_grad

# (kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil, count_include_pad)
WINDOWS = [(2, 3, 2, 1, 2, 1, 1, 1, 0, False, True), (3, 2, 2, 2, 1, 2, 1, 0, 1, True, False),
           (2, 3, 2, 1, 2, 1, 1, 1, 0, True, True), (1, 2, 2, 1, 2, 2, 0, 0, 0, False, True)]
SHAPE = (2, 3, 4, 5, 6)
OUT = (2, 3, 5, 4, 3)      # of make() on SHAPE


def make(kT=2, kW=3, kH=2, dT=1, dW=2, dH=1, padT=1, padW=1, padH=0, ceil=False, count_include_pad=True):
    m = nn.VolumetricAveragePooling(kT, kW, kH, dT, dW, dH, padT, padW, padH)
    if ceil:
        m.ceil()
    return m if count_include_pad else m.setCountExcludePad()


def windows(shape, kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil, cip):
    T, H, W = shape[-3:]
    return [fixed_windows(T, kT, dT, padT, 1, ceil), fixed_windows(H, kH, dH, padH, 1, ceil),
            fixed_windows(W, kW, dW, padW, 1, ceil)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_matches_the_reference_loop(window):
    x = uniform(SHAPE, 1)
    w = windows(SHAPE, *window)
    mode = "include" if window[-1] else "exclude"
    out = ref_avg(x, w, mode)
    g = uniform(out.shape, 2)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.backward(x, g), ref_avg_grad(x.shape, w, mode, g))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_matches_torch(window):
    torch = torch_or_skip()
    kT, kW, kH, dT, dW, dH, padT, padW, padH, ceil, cip = window
    x = uniform((2, 3, 5, 7, 6), 1)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2)

    def pool(t):
        return torch.nn.functional.avg_pool3d(t, (kT, kH, kW), (dT, dH, dW), (padT, padH, padW), ceil_mode=ceil,
                                              count_include_pad=cip)
    t_out, t_grad = torch_module_grad(torch, pool, x, g)
    np.testing.assert_array_equal(out, t_out)
    np.testing.assert_array_equal(m.backward(x, g), t_grad)


def test_defaults_and_repr():
    m = nn.VolumetricAveragePooling(2, 3, 2)
    assert (m.dT, m.dW, m.dH, m.padT, m.padW, m.padH, m.ceil_mode, m.count_include_pad) == \
        (2, 3, 2, 0, 0, 0, False, True)
    assert m.setCountExcludePad() is m and not m.count_include_pad and m.setCountIncludePad() is m
    assert repr(m) == "nn.VolumetricAveragePooling(2x3x2, 2,3,2)"
    assert repr(make()) == "nn.VolumetricAveragePooling(2x3x2, 1,2,1, 1,1,0)"


def test_a_torch7_module_without_padding_fields_loads(tmp_path):
    """Torch7's VolumetricAveragePooling had no padding before 2017."""
    from t7_writer import T7Object, t7_bytes
    fields = {"kT": 2.0, "kW": 3.0, "kH": 2.0, "dT": 1.0, "dW": 2.0, "dH": 1.0}
    (tmp_path / "v.t7").write_bytes(t7_bytes(T7Object("nn.VolumetricAveragePooling", fields)))
    m = nn.load_lua(str(tmp_path / "v.t7"))
    assert (m.padT, m.padW, m.padH, m.ceil_mode, m.count_include_pad) == (0, 0, 0, False, True)
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make(padT=0, padW=0).forward(x))


def test_bad_padding():
    with raises_exactly(thnn.THNNError, "VolumetricAveragePooling_updateOutput: padding must be >= 0 and at most "
                                        "half the kernel size, got padW=2 for kW=3"):
        make(padW=2).forward(uniform(SHAPE, 1))


def test_mismatched_gradOutput():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    with raises_exactly(thnn.THNNError, "VolumetricAveragePooling_updateGradInput: gradOutput must be 5D of size "
                                        "[2, 3, 5, 4, 3], got 4D of size [3, 5, 4, 3]"):
        m.backward(x, uniform(OUT[1:], 2))
