"""nn_legacy.SpatialFullConvolutionMap and its kernels, the transpose of
SpatialConvolutionMap: row k = (i, o) of the connection table adds
weight[k, a, b] * input[i, y, x] to output[o, y*dH + a, x*dW + b]."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import assert_module_matches, check_properties
from layer_checks import check_bad_arrays, raises_exactly, uniform
from volumetric_checks import as_image_batch, check_empty_batch, map_loops, save_and_load, torch7

FullMap = nn.SpatialFullConvolutionMap
IRREGULAR = np.array([[0, 0], [2, 0], [1, 1], [2, 2], [2, 2], [0, 2]])
TABLES = {"irregular": IRREGULAR, "full": FullMap.full(3, 2), "oneToOne": FullMap.oneToOne(3)}
KERNELS = [(3, 2, 1, 1), (2, 3, 2, 1), (1, 2, 1, 3)]      # (kW, kH, dW, dH)
KERNEL_IDS = ["k32", "k23-d21", "k12-d13"]


def make(table=IRREGULAR, kernel=KERNELS[1]):
    return FullMap(table, *kernel)


def data(m, batch=2, planes=3, size=(3, 4), seed=1):
    shape = ((batch,) if batch is not None else ()) + (planes,) + size
    x = uniform(shape, seed)
    return x, uniform(m.forward(x).shape, seed + 1)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize("batch", [None, 2], ids=["3D", "4D"])
def test_forward_and_backward_match_loops(table, kernel, batch):
    m = make(table, kernel)
    x, g = data(m, batch)
    out, gx, gw, gb = map_loops(as_image_batch(x), table, m.weight, m.bias, as_image_batch(g), *kernel[2:],
                                full=True)
    assert_module_matches(m, x, g, out.reshape(g.shape), gx.reshape(x.shape), gw, gb)


def test_output_size():
    m = make()                     # kW 2, kH 3, dW 2, dH 1
    assert m.forward(np.zeros((3, 3, 4))).shape == (3, (3 - 1) * 1 + 3, (4 - 1) * 2 + 2)


def test_a_full_table_is_SpatialFullConvolution():
    torch = pytest.importorskip("torch")
    m = make(FullMap.full(3, 2))
    x, _ = data(m)
    weight = m.weight.reshape(2, 3, 3, 2).transpose(1, 0, 2, 3)      # [in, out, kH, kW]
    want = torch.nn.functional.conv_transpose2d(torch.from_numpy(x), torch.from_numpy(weight.copy()),
                                                torch.from_numpy(m.bias), stride=(1, 2)).numpy()
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-12, atol=1e-14)


def test_is_the_transpose_of_SpatialConvolutionMap():
    """<map(y), x> = <y, fullmap(x)> with the same weights, no bias, and the
    table's columns swapped: row (i, o) of the full map spreads plane i into
    plane o, the row (o, i) of the map collects plane o back into plane i."""
    full, conv = make(), nn.SpatialConvolutionMap(IRREGULAR[:, ::-1], *KERNELS[1])
    conv.weight[...] = full.weight
    full.bias[...] = conv.bias[...] = 0
    x = uniform((2, 3, 3, 4), 3)
    y = uniform(full.forward(x).shape, 4)
    np.testing.assert_allclose(np.vdot(conv.forward(y), x), np.vdot(y, full.forward(x)), rtol=1e-12)


def test_properties():
    m = make(IRREGULAR, KERNELS[2])
    x, g = data(m, 2, size=(2, 3))
    x_small, g_small = data(m, 1, size=(2, 3), seed=5)
    check_properties(lambda: make(IRREGULAR, KERNELS[2]), x, g, x_small, g_small)


def test_empty_batch():
    assert check_empty_batch(make(), (3, 3, 4)) == (0, 3, 5, 8)


def test_more_input_planes_than_the_table_names():
    table = np.array([[0, 1], [1, 0]])
    m = make(table)
    x, g = data(m, 2, planes=4)
    want_out, want_gin, _, _ = map_loops(x, table, m.weight, m.bias, g, 2, 1, full=True)
    np.testing.assert_allclose(m.forward(x), want_out, rtol=1e-12, atol=1e-14)
    gin = m.backward(x, g)
    np.testing.assert_allclose(gin, want_gin, rtol=1e-12, atol=1e-14)
    assert not gin[:, 2:].any()


def test_reset_and_repr():
    m = FullMap(np.array([[0, 0], [1, 0], [2, 0], [0, 1]] * 10), 3, 2)
    bounds = 1 / np.sqrt(3 * 2 * np.array([30, 10]))
    for k, (_, o) in enumerate(m.connTable):
        assert np.all(np.abs(m.weight[k]) <= bounds[o])
    assert repr(make()) == "nn.SpatialFullConvolutionMap(3 -> 3, 2x3, 2,1, 6 connections)"
    assert not isinstance(m, nn.SpatialConvolutionMap)


def test_kernel_checks_every_row_of_the_table():
    m = make()
    x, g = data(m)
    m.connTable = m.connTable.copy()
    m.connTable[0] = (0, 7)
    for verb, call in [("updateOutput", lambda: m.forward(x)), ("updateGradInput", lambda: m.updateGradInput(x, g)),
                       ("accGradParameters", lambda: m.accGradParameters(x, g))]:
        with raises_exactly(thnn.THNNError, f"SpatialFullConvolutionMap_{verb}: connTable row 0 is (0, 7): it must "
                                            "connect an input plane in [0, 3) to an output plane in [0, 3)"):
            call()


@pytest.mark.parametrize("shape, message", [
    ((2, 2, 3, 4), "input must be 3D [nInputPlane, iH, iW] or 4D [batch, nInputPlane, iH, iW] with at least 3 "
                   "planes, got 4D of size [2, 2, 3, 4]"),
    ((3, 0, 4), "input must be at least 1 high and 1 wide, got 3D of size [3, 0, 4]"),
])
def test_bad_inputs(shape, message):
    with raises_exactly(thnn.THNNError, "SpatialFullConvolutionMap_updateOutput: " + message):
        make().forward(np.zeros(shape))


def test_mismatched_gradOutput():
    m = make()
    x, _ = data(m)
    with raises_exactly(thnn.THNNError, "SpatialFullConvolutionMap_accGradParameters: gradOutput must be 4D of size "
                                        "[2, 3, 5, 8], got 4D of size [2, 3, 8, 5]"):
        m.accGradParameters(x, np.zeros((2, 3, 8, 5)))


def test_bad_array_types():
    m = make()
    x, g = data(m)
    check_bad_arrays(m, x, g, "SpatialFullConvolutionMap")


def test_a_torch7_file_with_a_1_based_table_loads(tmp_path):
    fresh = make()
    saved = torch7("nn.SpatialFullConvolutionMap", connTable=IRREGULAR + 1.0, nInputPlane=3.0, nOutputPlane=3.0,
                   kW=2.0, kH=3.0, dW=2.0, dH=1.0, weight=fresh.weight, bias=fresh.bias,
                   gradWeight=fresh.weight, gradBias=fresh.bias)
    loaded = save_and_load(tmp_path, saved)
    np.testing.assert_array_equal(loaded.connTable, IRREGULAR)
    x, g = data(fresh)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))
