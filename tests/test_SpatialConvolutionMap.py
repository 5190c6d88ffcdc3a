"""nn_legacy.SpatialConvolutionMap, its kernels and Torch7's table builders:
row k = (i, o) of the connection table adds weight[k] (*) input[i] to
output[o] (valid cross-correlation in steps of dW, dH)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from conv_checks import assert_module_matches, check_properties
from layer_checks import check_bad_arrays, raises_exactly, uniform
from volumetric_checks import as_image_batch, check_empty_batch, map_loops, save_and_load, torch7

Map = nn.SpatialConvolutionMap
# an irregular table: output 0 from two inputs, output 1 from one, output 2 from input 2 twice (two kernels)
IRREGULAR = np.array([[0, 0], [2, 0], [1, 1], [2, 2], [2, 2], [0, 2]])
TABLES = {"irregular": IRREGULAR, "full": Map.full(3, 2), "oneToOne": Map.oneToOne(3)}
# (kW, kH, dW, dH)
KERNELS = [(3, 2, 1, 1), (2, 3, 2, 1), (1, 2, 1, 3)]
KERNEL_IDS = ["k32", "k23-d21", "k12-d13"]


def make(table=IRREGULAR, kernel=KERNELS[1]):
    return Map(table, *kernel)


def data(m, batch=2, planes=3, size=(5, 7), seed=1):
    shape = ((batch,) if batch is not None else ()) + (planes,) + size
    x = uniform(shape, seed)
    return x, uniform(m.forward(x).shape, seed + 1)


@pytest.mark.parametrize("kernel", KERNELS, ids=KERNEL_IDS)
@pytest.mark.parametrize("table", TABLES.values(), ids=TABLES.keys())
@pytest.mark.parametrize("batch", [None, 2], ids=["3D", "4D"])
def test_forward_and_backward_match_loops(table, kernel, batch):
    m = make(table, kernel)
    x, g = data(m, batch)
    out, gx, gw, gb = map_loops(as_image_batch(x), table, m.weight, m.bias, as_image_batch(g), *kernel[2:])
    assert_module_matches(m, x, g, out.reshape(g.shape), gx.reshape(x.shape), gw, gb)


def test_a_full_table_is_SpatialConvolution():
    torch = pytest.importorskip("torch")
    m = make(Map.full(3, 2))
    x, _ = data(m)
    weight = m.weight.reshape(2, 3, 3, 2)            # rows o-major: weight[o * 3 + i] connects i to o
    want = torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(weight), torch.from_numpy(m.bias),
                                      stride=(1, 2)).numpy()
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-12, atol=1e-14)


def test_more_input_planes_than_the_table_names():
    """Torch7 takes inputs with more planes than nInputPlane; the others are
    unused.  (Torch7's kernel stepped from sample to sample by nInputPlane
    planes, so a batch of such inputs read the wrong planes; here each
    sample is where it is.)"""
    table = np.array([[0, 0], [1, 1]])
    m = make(table)
    x, g = data(m, 3, planes=4)
    want_out, want_gin, _, _ = map_loops(x, table, m.weight, m.bias, g, 2, 1)
    np.testing.assert_allclose(m.forward(x), want_out, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(m.forward(x)[1], m.forward(x[1]))
    gin = m.backward(x, g)
    np.testing.assert_allclose(gin, want_gin, rtol=1e-12, atol=1e-14)
    assert gin.shape == x.shape and not gin[:, 2:].any()


def test_properties():
    m = make(IRREGULAR, KERNELS[2])
    x, g = data(m, 2, size=(7, 3))
    x_small, g_small = data(m, 1, size=(7, 3), seed=5)
    check_properties(lambda: make(IRREGULAR, KERNELS[2]), x, g, x_small, g_small)


def test_empty_batch():
    assert check_empty_batch(make(), (3, 5, 7)) == (0, 3, 3, 3)


# ---------------------------------------------------------------- tables
def test_full_and_oneToOne_tables():
    np.testing.assert_array_equal(Map.full(2, 3), [[0, 0], [1, 0], [0, 1], [1, 1], [0, 2], [1, 2]])
    np.testing.assert_array_equal(Map.oneToOne(3), [[0, 0], [1, 1], [2, 2]])
    assert Map.full(2, 3).dtype == Map.oneToOne(3).dtype == np.int64
    assert nn.SpatialFullConvolutionMap.full is Map.full


def test_random_table():
    nn.manualSeed(3)
    table = Map.random(7, 5, 3)
    assert table.shape == (15, 2) and table.dtype == np.int64
    np.testing.assert_array_equal(table[:, 1], np.repeat(np.arange(5), 3))
    for o in range(5):                 # nto distinct inputs for each output
        assert len(set(table[table[:, 1] == o, 0])) == 3
    # inputs come in chunks of a permutation: the 2 whole chunks of 3 of each permutation of 7 are disjoint
    assert not set(table[0:3, 0]) & set(table[3:6, 0]) and not set(table[6:9, 0]) & set(table[9:12, 0])
    assert table[:, 0].min() >= 0 and table[:, 0].max() < 7
    nn.manualSeed(3)
    np.testing.assert_array_equal(Map.random(7, 5, 3), table)


@pytest.mark.parametrize("call, message", [
    (lambda: Map.random(3, 2, 4), "random: nto must be at most nin, got nto=4, nin=3"),
    (lambda: Map.random(3, 0, 1), "random: nin, nout, nto must be positive integers, got nin=3, nout=0, nto=1"),
    (lambda: Map.full(0, 2), "full: nin, nout must be positive integers, got nin=0, nout=2"),
    (lambda: Map.oneToOne(1.5), "oneToOne: nfeat must be positive integers, got nfeat=1.5"),
])
def test_table_builders_refuse_bad_sizes(call, message):
    with raises_exactly(ValueError, message):
        call()


# ---------------------------------------------------------------- construction
def test_attributes_and_reset():
    m = make()
    assert (m.nInputPlane, m.nOutputPlane) == (3, 3)
    assert m.weight.shape == (6, 3, 2) and m.bias.shape == (3,) and m.connTable.dtype == np.int64
    m = Map(np.array([[0, 0], [1, 0], [2, 0], [0, 1]] * 10), 3, 2)   # fan-in 30 into plane 0, 10 into plane 1
    bounds = 1 / np.sqrt(3 * 2 * np.array([30, 10]))
    for k, (_, o) in enumerate(m.connTable):
        assert np.all(np.abs(m.weight[k]) <= bounds[o])
    assert np.all(np.abs(m.bias) <= bounds) and np.abs(m.weight[m.connTable[:, 1] == 1]).max() > bounds[0]
    m.reset(0.01)
    assert np.all(np.abs(m.weight) <= 0.01) and np.all(np.abs(m.bias) <= 0.01)


def test_repr():
    assert repr(make()) == "nn.SpatialConvolutionMap(3 -> 3, 2x3, 2,1, 6 connections)"
    assert repr(Map(Map.oneToOne(4), 5, 5)) == "nn.SpatialConvolutionMap(4 -> 4, 5x5, 4 connections)"


@pytest.mark.parametrize("table, message", [
    (np.array([0, 1]), "conMatrix must be a numeric [nConnections, 2] table of (input plane, output plane) rows "
                       "with at least one row, got shape 2 of int64"),
    (np.zeros((0, 2)), "conMatrix must be a numeric [nConnections, 2] table of (input plane, output plane) rows "
                       "with at least one row, got shape 0x2 of float64"),
    (np.array([[0, 1], [-1, 0]]), "conMatrix rows must be non-negative whole numbers (0-based plane indices), got "
                                  "row 1 = [-1, 0]"),
    (np.array([[0, 1.5]]), "conMatrix rows must be non-negative whole numbers (0-based plane indices), got row 0 = "
                           "[0.0, 1.5]"),
])
def test_constructor_refuses_bad_tables(table, message):
    with raises_exactly(ValueError, "SpatialConvolutionMap: " + message):
        Map(table, 3, 3)


def test_a_float_table_of_whole_numbers_is_taken():
    m = Map(IRREGULAR.astype(np.float32), 2, 2)
    assert m.connTable.dtype == np.int64
    np.testing.assert_array_equal(m.connTable, IRREGULAR)


# ---------------------------------------------------------------- bad input
def test_kernel_checks_every_row_of_the_table():
    m = make()
    x, g = data(m)
    m.connTable = m.connTable.copy()
    m.connTable[4] = (3, 1)            # input plane 3 of nInputPlane 3
    for verb, call in [("updateOutput", lambda: m.forward(x)), ("updateGradInput", lambda: m.updateGradInput(x, g)),
                       ("accGradParameters", lambda: m.accGradParameters(x, g))]:
        with raises_exactly(thnn.THNNError, f"SpatialConvolutionMap_{verb}: connTable row 4 is (3, 1): it must "
                                            "connect an input plane in [0, 3) to an output plane in [0, 3)"):
            call()
    m.connTable[4] = (0, -2)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: connTable row 4 is (0, -2): it must "
                                        "connect an input plane in [0, 3) to an output plane in [0, 3)"):
        m.forward(x)


def test_kernel_checks_the_table_against_the_weight():
    m = make()
    x, _ = data(m)
    m.connTable = m.connTable[:5]
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: connTable must be 2D [nConnections, 2] "
                                        "with one row per kernel of the weight (6), got 2D of size [5, 2]"):
        m.forward(x)
    with raises_exactly(TypeError, "SpatialConvolutionMap_updateOutput: connTable must be an integer array (class "
                                   "indices), got float64"):
        thnn.Double.SpatialConvolutionMap_updateOutput(x, None, m.weight, m.bias, IRREGULAR * 1.0, 3, 3, 2, 3, 2, 1)


@pytest.mark.parametrize("shape, message", [
    ((2, 2, 5, 7), "input must be 3D [nInputPlane, iH, iW] or 4D [batch, nInputPlane, iH, iW] with at least 3 "
                   "planes, got 4D of size [2, 2, 5, 7]"),
    ((3, 2, 7), "input must be at least kH=3 high and kW=2 wide, got 3D of size [3, 2, 7]"),
    ((3, 7), "input must be 3D [nInputPlane, iH, iW] or 4D [batch, nInputPlane, iH, iW] with at least 3 planes, "
             "got 2D of size [3, 7]"),
])
def test_bad_inputs(shape, message):
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: " + message):
        make().forward(np.zeros(shape))


def test_kernel_refuses_bad_settings():
    m = make()
    x = np.zeros((3, 5, 7))
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: weight must be 3D [nConnections, kH=2, "
                                        "kW=3], got 3D of size [6, 3, 2]"):
        thnn.Double.SpatialConvolutionMap_updateOutput(x, None, m.weight, m.bias, m.connTable, 3, 3, 3, 2, 1, 1)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: stride must be positive, got dW=2, "
                                        "dH=0"):
        thnn.Double.SpatialConvolutionMap_updateOutput(x, None, m.weight, m.bias, m.connTable, 3, 3, 2, 3, 2, 0)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateOutput: bias must be 1D of size [4], got 1D "
                                        "of size [3]"):
        thnn.Double.SpatialConvolutionMap_updateOutput(x, None, m.weight, m.bias, m.connTable, 3, 4, 2, 3, 2, 1)


def test_mismatched_gradOutput():
    m = make()
    x, _ = data(m)
    with raises_exactly(thnn.THNNError, "SpatialConvolutionMap_updateGradInput: gradOutput must be 4D of size "
                                        "[2, 3, 3, 3], got 4D of size [2, 2, 3, 3]"):
        m.updateGradInput(x, np.zeros((2, 2, 3, 3)))


def test_bad_array_types():
    m = make()
    x, g = data(m)
    check_bad_arrays(m, x, g, "SpatialConvolutionMap")


# ---------------------------------------------------------------- Torch7 files
def test_a_torch7_file_with_a_1_based_table_loads(tmp_path):
    fresh = make()
    saved = torch7("nn.SpatialConvolutionMap", connTable=IRREGULAR + 1.0, nInputPlane=3.0, nOutputPlane=3.0,
                   kW=2.0, kH=3.0, dW=2.0, dH=1.0, weight=fresh.weight, bias=fresh.bias,
                   gradWeight=fresh.weight, gradBias=fresh.bias)
    loaded = save_and_load(tmp_path, saved)
    assert loaded.connTable.dtype == np.int64
    np.testing.assert_array_equal(loaded.connTable, IRREGULAR)
    assert repr(loaded) == repr(fresh)
    x, g = data(fresh)
    np.testing.assert_array_equal(loaded.forward(x), fresh.forward(x))
    np.testing.assert_array_equal(loaded.backward(x, g), fresh.backward(x, g))
