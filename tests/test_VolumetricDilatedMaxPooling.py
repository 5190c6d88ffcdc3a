"""nn_legacy.VolumetricDilatedMaxPooling and the VolumetricDilatedMaxPooling_*
kernels: 3D max pooling whose window taps lie dilation apart."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (raises_exactly, torch_or_skip, uniform)
from pooling_checks import (check_values_without_indices, distinct, fixed_windows, hostile_values, ref_index_grad, ref_max,
                            torch_module_grad)

# (kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH, ceil)
WINDOWS = [(2, 3, 2, 1, 2, 1, 1, 1, 0, 2, 1, 2, False), (3, 2, 2, 2, 1, 2, 1, 0, 1, 1, 3, 2, True),
           (2, 2, 3, 1, 2, 3, 0, 1, 1, 3, 2, 1, True)]
SHAPE = (2, 2, 6, 7, 8)
OUT = (2, 2, 6, 5, 4)      # of make() on SHAPE


def make(*window):
    args = window or WINDOWS[0]
    m = nn.VolumetricDilatedMaxPooling(*args[:12])
    return m.ceil() if args[12] else m


def reference(x, kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH, ceil):
    T, H, W = x.shape[-3:]
    return ref_max(x, [fixed_windows(T, kT, dT, padT, dilT, ceil), fixed_windows(H, kH, dH, padH, dilH, ceil),
                       fixed_windows(W, kW, dW, padW, dilW, ceil)])


@pytest.mark.parametrize("window", WINDOWS, ids=str)
def test_matches_the_reference_loop(window):
    x = distinct(SHAPE, 1)
    out, ind = reference(x, *window)
    g = uniform(out.shape, 2)
    m = make(*window)
    np.testing.assert_array_equal(m.forward(x), out)
    np.testing.assert_array_equal(m.indices, ind)
    np.testing.assert_array_equal(m.backward(x, g), ref_index_grad(x.shape, 3, ind, g))


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_matches_torch(window, dtype):
    torch = torch_or_skip()
    kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH, ceil = window
    x = uniform((2, 2, 7, 8, 9), 1).astype(dtype)
    m = make(*window)
    out = m.forward(x)
    g = uniform(out.shape, 2).astype(dtype)

    def pool(t):
        return torch.nn.functional.max_pool3d(t, (kT, kH, kW), (dT, dH, dW), (padT, padH, padW), (dilT, dilH, dilW),
                                              ceil_mode=ceil, return_indices=True)
    t_out, t_ind = pool(torch.from_numpy(x))
    np.testing.assert_array_equal(out, t_out.numpy())
    np.testing.assert_array_equal(m.indices, t_ind.numpy())
    np.testing.assert_array_equal(m.backward(x, g), torch_module_grad(torch, pool, x, g)[1])


def test_is_a_VolumetricMaxPooling_with_torch7s_defaults():
    m = nn.VolumetricDilatedMaxPooling(2, 3, 2)
    assert isinstance(m, nn.VolumetricMaxPooling)
    assert (m.dT, m.dW, m.dH, m.dilationT, m.dilationW, m.dilationH) == (2, 3, 2, 1, 1, 1)
    assert repr(make()) == "nn.VolumetricDilatedMaxPooling(2x3x2, 1,2,1, 1,1,0, 2,1,2)"


def test_dilation_1_is_VolumetricMaxPooling():
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(nn.VolumetricDilatedMaxPooling(2, 3, 2, 1, 2, 1, 1, 1, 0).forward(x),
                                  nn.VolumetricMaxPooling(2, 3, 2, 1, 2, 1, 1, 1, 0).forward(x))


def test_a_torch7_module_loads(tmp_path):
    from t7_writer import T7Object, t7_bytes
    names = ("kT", "kW", "kH", "dT", "dW", "dH", "padT", "padW", "padH", "dilationT", "dilationW", "dilationH")
    fields = {n: float(v) for n, v in zip(names, WINDOWS[0])}
    (tmp_path / "v.t7").write_bytes(t7_bytes(T7Object("nn.VolumetricDilatedMaxPooling", fields)))
    m = nn.load_lua(str(tmp_path / "v.t7"))
    x = uniform(SHAPE, 1)
    np.testing.assert_array_equal(m.forward(x), make().forward(x))


def test_bad_dilation():
    with raises_exactly(thnn.THNNError, "VolumetricDilatedMaxPooling_updateOutput: dilation must be > 0, got "
                                        "dilationT=0"):
        nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 1, 1).forward(uniform(SHAPE, 1))


def test_tampered_indices_are_refused():
    m = make()
    x = uniform(SHAPE, 1)
    m.forward(x)
    m.indices[0, 0, 0, 0, 0] = -5
    with raises_exactly(thnn.THNNError, "VolumetricDilatedMaxPooling_updateGradInput: indices[0, 0, 0, 0, 0] = -5 "
                                        "is out of range [0, 336)"):
        m.backward(x, uniform(OUT, 2))


# ---------------------------------------------------------------- evaluation mode: values without indices
# (kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH, ceil); widths whose rows of full
# columns take two vectors and a moved-back block (37), one vector (13; double: also 7), one window at a time (4)
EVAL_WINDOWS = [(2, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, False),     # a 3D ResNet-like 3x3x2/2 with padding
                (3, 3, 2, 1, 1, 2, 1, 0, 1, 2, 1, 1, True),      # step 1 along W, time dilated, ceil
                (2, 2, 2, 1, 3, 1, 0, 1, 0, 1, 2, 2, False)]     # step 3: the general gather


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("width", [37, 13, 7, 4])
@pytest.mark.parametrize("window", EVAL_WINDOWS, ids=str)
def test_evaluation_mode_computes_the_same_values_without_indices(window, width, dtype, threads):
    # against the reference loop (see check_values_without_indices)
    x = hostile_values((2, 2, 5, 6, width), dtype, width + sum(window))
    m = make(*window)
    check_values_without_indices(m, x, 3, *reference(x, *window), threads)
    assert (m.itime, m.iheight, m.iwidth) == x.shape[-3:]


def test_evaluation_mode_of_the_plain_layer_and_its_kernel_errors():
    # VolumetricMaxPooling (dilation 1) takes the same path; the kernel checks its arguments
    x = distinct((1, 2, 4, 6, 9), 5).astype(np.float32)
    m = nn.VolumetricMaxPooling(2, 3, 2, 2, 2, 2, 1, 1, 1)
    want = m.forward(x).copy()
    m.evaluate()
    np.testing.assert_array_equal(m.forward(x), want)
    assert m.indices is None
    with raises_exactly(thnn.THNNError, "VolumetricDilatedMaxPooling_updateOutputValues: dilation must be > 0, "
                                        "got dilationT=0"):
        thnn.Float.VolumetricDilatedMaxPooling_updateOutputValues(np.zeros((1, 4, 5, 5), np.float32), None,
                                                                  2, 2, 2, 1, 1, 1, 0, 0, 0, 0, 1, 1, False)
    with pytest.raises(thnn.THNNError, match="VolumetricMaxPooling_updateOutputValues: "):
        thnn.Float.VolumetricMaxPooling_updateOutputValues(np.zeros((5, 5), np.float32), None,
                                                           2, 2, 2, 1, 1, 1, 0, 0, 0, False)
