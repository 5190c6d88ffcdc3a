"""nn_legacy.SpatialGridSamplerBilinear and its kernels: bilinear sampling
of input [batch, nPlane, h, w] at grid [batch, oh, ow, 2] (x, y in [-1, 1],
corners aligned), zeros padding as in Torch7, or border."""
import pickle

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (assert_float32_close, assert_input_jacobian, noncontiguous_views, raises_exactly,
                          torch_or_skip, uniform)
from resampling_checks import grid_sample_sample, linear_matrix

MODES = ["zeros", "border"]


def sample_input(batch=2, planes=3, h=4, w=5, oh=3, ow=2, seed=1):
    """input and a grid reaching a little beyond [-1, 1] on every side
    (non-square input and output)."""
    return uniform((batch, planes, h, w), seed), uniform((batch, oh, ow, 2), seed + 1, -1.3, 1.3)


def reference(x, grid, mode):
    return np.stack([grid_sample_sample(x[n], grid[n], mode) for n in range(x.shape[0])])


class FlatTable(nn.Module):
    """The sampler as a module of one flat vector holding input then grid,
    so jacobian.testJacobian perturbs every entry of both."""

    def __init__(self, sampler, x, grid):
        super().__init__()
        self.sampler, self.shapes = sampler, (x.shape, grid.shape)

    def split(self, flat):
        n = int(np.prod(self.shapes[0]))
        return [flat[:n].reshape(self.shapes[0]), flat[n:].reshape(self.shapes[1])]

    def updateOutput(self, flat):
        self.output = self.sampler.forward(self.split(flat))
        return self.output

    def updateGradInput(self, flat, gradOutput):
        gin, ggrid = self.sampler.backward(self.split(flat), gradOutput)
        self.gradInput = np.concatenate([gin.ravel(), ggrid.ravel()])
        return self.gradInput


# ---------------------------------------------------------------- values
@pytest.mark.parametrize("mode", MODES)
def test_matches_the_definition(mode):
    x, grid = sample_input()
    m = nn.SpatialGridSamplerBilinear(mode)
    np.testing.assert_allclose(m.forward([x, grid]), reference(x, grid, mode), rtol=1e-13, atol=1e-14)
    # linear in the input: gradInput is the transposed map applied to gradOutput
    matrix, out_shape = linear_matrix(lambda a: reference(a, grid, mode), x.shape)
    g = uniform(out_shape, 3)
    gin, _ = m.backward([x, grid], g)
    np.testing.assert_allclose(gin, (matrix.T @ g.ravel()).reshape(x.shape), rtol=1e-13, atol=1e-14)


def test_corner_coordinates_read_the_corner_pixels():
    x = uniform((1, 2, 3, 4), 1)
    grid = np.array([[[[-1.0, -1.0], [1.0, -1.0]], [[-1.0, 1.0], [1.0, 1.0]]]])
    out = nn.SpatialGridSamplerBilinear().forward([x, grid])
    np.testing.assert_array_equal(out, x[:, :, [[0, 0], [2, 2]], [[0, 3], [0, 3]]])


def test_outside_reads_zero_or_the_border():
    x = np.arange(1.0, 7.0).reshape(1, 1, 2, 3)
    grid = np.array([[[[-3.0, 0.0], [0.0, 5.0], [np.inf, -1.0], [-1e300, 1.0]]]])
    zeros = nn.SpatialGridSamplerBilinear("zeros").forward([x, grid])
    border = nn.SpatialGridSamplerBilinear("border").forward([x, grid])
    np.testing.assert_array_equal(zeros, [[[[0, 0, 0, 0]]]])
    np.testing.assert_array_equal(border, [[[[2.5, 5, 3, 4]]]])


@pytest.mark.parametrize("mode", MODES)
def test_one_pixel_wide_input(mode):
    x = uniform((1, 2, 3, 1), 1)
    grid = np.array([[[[0.3, -1.0], [-0.7, 1.0], [5.0, 0.0]]]])
    out = nn.SpatialGridSamplerBilinear(mode).forward([x, grid])
    np.testing.assert_allclose(out, reference(x, grid, mode), rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("mode", MODES)
def test_matches_torch(mode):
    torch = torch_or_skip()
    x, grid = sample_input(h=5, w=3, oh=4, ow=6)
    g = uniform((2, 3, 4, 6), 3)
    tx = torch.from_numpy(x.copy()).requires_grad_(True)
    tgrid = torch.from_numpy(grid.copy()).requires_grad_(True)
    out = torch.nn.functional.grid_sample(tx, tgrid, mode="bilinear", padding_mode=mode, align_corners=True)
    out.backward(torch.from_numpy(g))
    m = nn.SpatialGridSamplerBilinear(mode)
    np.testing.assert_allclose(m.forward([x, grid]), out.detach().numpy(), rtol=1e-13, atol=1e-14)
    gin, ggrid = m.backward([x, grid], g)
    np.testing.assert_allclose(gin, tx.grad.numpy(), rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(ggrid, tgrid.grad.numpy(), rtol=1e-12, atol=1e-13)


# ---------------------------------------------------------------- gradients
@pytest.mark.parametrize("mode", MODES)
def test_jacobian_wrt_input_and_grid(mode):
    x, grid = sample_input(batch=2, planes=2, h=3, w=4, oh=2, ow=3)
    flat = np.concatenate([x.ravel(), grid.ravel()])
    report = assert_input_jacobian(FlatTable(nn.SpatialGridSamplerBilinear(mode), x, grid), flat)
    assert report.where is not None


def test_border_mode_gives_clamped_coordinates_no_gradient():
    x = uniform((1, 2, 3, 4), 1)
    grid = np.array([[[[-1.5, 0.2], [0.1, 1.7], [0.3, -0.4]]]])
    _, ggrid = nn.SpatialGridSamplerBilinear("border").backward([x, grid], uniform((1, 2, 1, 3), 2))
    assert ggrid[0, 0, 0, 0] == 0 and ggrid[0, 0, 1, 1] == 0
    assert ggrid[0, 0, 0, 1] != 0 and np.all(ggrid[0, 0, 2] != 0)


# ---------------------------------------------------------------- generic properties
def test_float32_matches_float64():
    x, grid = sample_input()
    g = uniform((2, 3, 3, 2), 3)
    m64, m32 = nn.SpatialGridSamplerBilinear(), nn.SpatialGridSamplerBilinear().float()
    table32 = [x.astype(np.float32), grid.astype(np.float32)]
    assert_float32_close(m32.forward(table32), m64.forward([x, grid]), "output")
    for name, a, b in zip(("gradInput", "gradGrid"), m32.backward(table32, g.astype(np.float32)),
                          m64.backward([x, grid], g)):
        assert_float32_close(a, b, name)


def test_noncontiguous_input_grid_and_gradOutput():
    x, grid = sample_input()
    g = uniform((2, 3, 3, 2), 3)
    m = nn.SpatialGridSamplerBilinear()
    out = m.forward([x, grid]).copy()
    gin, ggrid = (a.copy() for a in m.backward([x, grid], g))
    for (name, xv), (_, gv), (_, dv) in zip(noncontiguous_views(x), noncontiguous_views(grid),
                                          noncontiguous_views(g)):
        np.testing.assert_array_equal(m.forward([xv, gv]), out, err_msg=name)
        got = m.backward([xv, gv], dv)
        np.testing.assert_array_equal(got[0], gin, err_msg=name)
        np.testing.assert_array_equal(got[1], ggrid, err_msg=name)


def test_batch_equals_samples():
    x, grid = sample_input(batch=3)
    g = uniform((3, 3, 3, 2), 3)
    m = nn.SpatialGridSamplerBilinear()
    out = m.forward([x, grid]).copy()
    gin, ggrid = (a.copy() for a in m.backward([x, grid], g))
    for n in range(3):
        np.testing.assert_array_equal(m.forward([x[n:n + 1], grid[n:n + 1]]), out[n:n + 1])
        got = m.backward([x[n:n + 1], grid[n:n + 1]], g[n:n + 1])
        np.testing.assert_array_equal(got[0], gin[n:n + 1])
        np.testing.assert_array_equal(got[1], ggrid[n:n + 1])


def test_buffer_reuse_across_batch_sizes():
    m = nn.SpatialGridSamplerBilinear()
    fresh = m.clone()
    x, grid = sample_input(batch=4)
    g = uniform((4, 3, 3, 2), 3)
    out1 = m.forward([x, grid])
    kept_out = out1.copy()
    table1 = m.backward([x, grid], g)
    kept = [a.copy() for a in table1]
    small = [x[:2].copy(), grid[:2].copy()]
    out2 = m.forward(small)
    table2 = m.backward(small, g[:2].copy())
    np.testing.assert_array_equal(out1, kept_out)
    for a, b in zip(table1, kept):
        np.testing.assert_array_equal(a, b)
    again = [small[0][::-1].copy(), small[1][::-1].copy()]
    assert m.forward(again) is out2
    np.testing.assert_array_equal(out2, fresh.forward(again))
    table3 = m.backward(again, g[:2].copy())
    assert table3 is table2 and table3[0] is table2[0] and table3[1] is table2[1]
    for a, b in zip(table3, fresh.backward(again, g[:2].copy())):
        np.testing.assert_array_equal(a, b)


def test_pickle_round_trip():
    x, grid = sample_input()
    g = uniform((2, 3, 3, 2), 3)
    m = nn.SpatialGridSamplerBilinear("border")
    m.forward([x, grid])
    m.backward([x, grid], g)
    restored = pickle.loads(pickle.dumps(m))
    assert repr(restored) == "nn.SpatialGridSamplerBilinear('border')"
    np.testing.assert_array_equal(restored.forward([x, grid]), m.forward([x, grid]))
    for a, b in zip(restored.backward([x, grid], g), m.backward([x, grid], g)):
        np.testing.assert_array_equal(a, b)


def test_nan_in_the_grid_reaches_only_its_pixel():
    x, grid = sample_input()
    g = uniform((2, 3, 3, 2), 3)
    m = nn.SpatialGridSamplerBilinear()
    clean = m.forward([x, grid]).copy()
    clean_gin, clean_ggrid = (a.copy() for a in m.backward([x, grid], g))
    grid[1, 2, 0, 1] = np.nan
    out = m.forward([x, grid])
    mask = np.zeros(out.shape, dtype=bool)
    mask[1, :, 2, 0] = True
    np.testing.assert_array_equal(np.isnan(out), mask)
    np.testing.assert_array_equal(out[~mask], clean[~mask])
    gin, ggrid = m.backward([x, grid], g)
    assert np.all(np.isnan(ggrid[1, 2, 0])) and np.isnan(ggrid).sum() == 2
    np.testing.assert_array_equal(gin[0], clean_gin[0])
    np.testing.assert_array_equal(ggrid[0], clean_ggrid[0])


def test_empty_batch_and_output():
    m = nn.SpatialGridSamplerBilinear()
    assert m.forward([np.zeros((0, 2, 3, 3)), np.zeros((0, 4, 5, 2))]).shape == (0, 2, 4, 5)
    x = uniform((1, 2, 3, 3))
    assert m.forward([x, np.zeros((1, 0, 5, 2))]).shape == (1, 2, 0, 5)
    gin, ggrid = m.backward([x, np.zeros((1, 0, 5, 2))], np.zeros((1, 2, 0, 5)))
    np.testing.assert_array_equal(gin, np.zeros_like(x))
    assert ggrid.shape == (1, 0, 5, 2)


# ---------------------------------------------------------------- bad input
def test_padding_mode_is_checked():
    with raises_exactly(ValueError, "SpatialGridSamplerBilinear: padding_mode must be 'zeros' or 'border', "
                                    "got 'reflection'"):
        nn.SpatialGridSamplerBilinear("reflection")
    with raises_exactly(thnn.THNNError, "SpatialGridSamplerBilinear_updateOutput: padding_mode must be 0 (zeros) "
                                        "or 1 (border), got 2"):
        thnn.Double.SpatialGridSamplerBilinear_updateOutput(*sample_input(), None, 2)


@pytest.mark.parametrize("table, got", [
    (np.zeros((1, 2, 3, 3)), "a ndarray"),
    ([np.zeros((1, 2, 3, 3))], "a table of 1: ndarray"),
    ([np.zeros((1, 2, 3, 3)), [1.0]], "a table of 2: ndarray, list")])
def test_input_must_be_a_table_of_two_arrays(table, got):
    with raises_exactly(TypeError, "SpatialGridSamplerBilinear: input must be a table [input, grid] of two "
                                   f"arrays, got {got}"):
        nn.SpatialGridSamplerBilinear().forward(table)


@pytest.mark.parametrize("x_shape, grid_shape, message", [
    ((2, 3, 4), (2, 3, 3, 2), "input must be 4D [batch, nPlane, h, w] with h, w >= 1, got 3D of size [2, 3, 4]"),
    ((2, 3, 0, 4), (2, 3, 3, 2), "input must be 4D [batch, nPlane, h, w] with h, w >= 1, "
                                 "got 4D of size [2, 3, 0, 4]"),
    ((2, 3, 4, 5), (1, 3, 3, 2), "grid must be 4D [2, oh, ow, 2] (batch of input, (x, y) last), "
                                 "got 4D of size [1, 3, 3, 2]"),
    ((2, 3, 4, 5), (2, 3, 3, 3), "grid must be 4D [2, oh, ow, 2] (batch of input, (x, y) last), "
                                 "got 4D of size [2, 3, 3, 3]")])
def test_wrong_shapes(x_shape, grid_shape, message):
    with raises_exactly(thnn.THNNError, "SpatialGridSamplerBilinear_updateOutput: " + message):
        nn.SpatialGridSamplerBilinear().forward([np.zeros(x_shape), np.zeros(grid_shape)])


def test_mixed_precision_is_refused():
    x, grid = sample_input()
    with raises_exactly(TypeError, "SpatialGridSamplerBilinear_updateOutput: grid must be float64 like the "
                                   "other tensors, got float32"):
        nn.SpatialGridSamplerBilinear().forward([x, grid.astype(np.float32)])
    with raises_exactly(TypeError, "SpatialGridSamplerBilinear: input[0] must be float32 or float64, got int64"):
        nn.SpatialGridSamplerBilinear().forward([x.astype(np.int64), grid])
