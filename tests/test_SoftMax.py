"""nn_legacy.SoftMax and the SoftMax_* kernels: y_i = exp(x_i) / sum_j exp(x_j)
over the feature dim (dim 0 of 1D and 3D input, dim 1 of 2D and 4D).
The checks SoftMax and LogSoftMax share run here over FAMILY."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from layer_checks import (arbitrary_views, assert_close_or_equal, assert_input_jacobian, check_buffer_reuse,
                          check_float32, check_forward_backward, check_matches_torch, check_nan_propagates,
                          check_noncontiguous, check_pickle, draw_shape, raises_exactly, run_hypothesis, torch_or_skip,
                          uniform)
from cuda_devices import emulator_only

# shape -> the feature dim
LAYOUTS = {(6,): 0, (4, 5): 1, (5, 3, 2): 0, (2, 4, 3, 2): 1}
LAYOUT_IDS = ["1D", "2D", "3D", "4D"]


def feature_dim(x):
    return {1: 0, 2: 1, 3: 0, 4: 1}[x.ndim]


def softmax(x):
    d = feature_dim(x)
    e = np.exp(x - x.max(axis=d, keepdims=True))
    return e / e.sum(axis=d, keepdims=True)


def softmax_grad(y, g):
    return y * (g - (y * g).sum(axis=feature_dim(y), keepdims=True))


def _log_softmax(x, d):
    m = x.max(axis=d, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=d, keepdims=True))


def log_softmax_grad(y, g):
    return g - np.exp(y) * g.sum(axis=feature_dim(y), keepdims=True)


# ---------------------------------------------------------------- the family
# SoftMax and LogSoftMax share these checks; each row gives the layer's numpy
# (output, gradInput), torch function, output and gradInput tolerances (numpy
# and torch alike), and the tolerance of a spatial form against its pixels
# one by one.  Both layers' 1D path sums exp in vector lanes (with the vector
# exp), the spatial path in order with the scalar exp: the same sum rounded
# differently, equal to a few ulps, not bit for bit.  Which lanes and which
# exp depend on the CPU (AVX-512 or AVX2): on an Intel AVX-512 machine the
# log-sum of these 5-feature pixels came out equal, on an AMD AVX2 one it
# differs in its last bit.  SoftMax divides by the sum, so its error is
# relative; LogSoftMax subtracts the log-sum (here between 0.8 and 2.7), so
# its error is absolute: a few ulps of numbers below 4.
FAMILY = {
    "SoftMax": (lambda x, g: (softmax(x), softmax_grad(softmax(x), g)), "softmax", (1e-14, 0), (1e-12, 1e-15),
                (4 * np.finfo(np.float64).eps, 0)),
    "LogSoftMax": (lambda x, g: (_log_softmax(x, feature_dim(x)), log_softmax_grad(_log_softmax(x, feature_dim(x)), g)),
                   "log_softmax", (1e-14, 1e-15), (1e-12, 1e-15), (0, 4 * np.finfo(np.float64).eps * 4)),
}
# (layer, input shape, where the NaN goes, what turns NaN): its sample, or its pixel
NAN_CASES = [("SoftMax", (3, 4), (1, 2), (1, slice(None))),
             ("SoftMax", (2, 3, 2, 2), (1, 2, 0, 1), (1, slice(None), 0, 1)),
             ("LogSoftMax", (3, 4), (2, 0), (2, slice(None))),
             ("LogSoftMax", (3, 2, 2), (0, 1, 0), (slice(None), 1, 0))]
FIVE_D = {"SoftMax": (1, 2, 3, 4, 5), "LogSoftMax": (1, 2, 1, 2, 1)}


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_numpy(shape, name):
    reference, _, out_tol, grad_tol, _ = FAMILY[name]
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_forward_backward(getattr(nn, name)(), x, g, *reference(x, g), out_tol, grad_tol)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_matches_torch(shape, name):
    torch = torch_or_skip()
    _, fn, out_tol, grad_tol, _ = FAMILY[name]
    x, g = uniform(shape, 1), uniform(shape, 2)
    check_matches_torch(getattr(nn, name)(), lambda t: getattr(torch, fn)(t, dim=LAYOUTS[shape]), x, g, out_tol,
                        grad_tol)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", [(5, 3, 2), (2, 4, 3, 2)], ids=["3D", "4D"])
def test_spatial_forms_work_at_every_pixel(shape, name):
    x = uniform(shape, 1)
    out = getattr(nn, name)().forward(x)
    per_pixel = getattr(nn, name)()
    lead = (slice(None),) * (x.ndim - 2)
    for index in np.ndindex(*shape[-2:]):
        assert_close_or_equal(out[lead + index], per_pixel.forward(x[lead + index]), FAMILY[name][4])


@pytest.mark.parametrize("name, shape, index, spread", NAN_CASES)
def test_nan_spreads_over_its_sample_or_pixel_only(name, shape, index, spread):
    x = uniform(shape, 1)
    mask = np.zeros(x.shape, dtype=bool)
    mask[spread] = True
    check_nan_propagates(getattr(nn, name)(), x, index, mask, uniform(shape, 2))


@pytest.mark.parametrize("name", FAMILY)
def test_empty_batch_gives_empty_output(name):
    m = getattr(nn, name)()
    assert m.forward(np.zeros((0, 5))).shape == (0, 5)
    assert m.backward(np.zeros((0, 5)), np.zeros((0, 5))).shape == (0, 5)


@pytest.mark.parametrize("name", FAMILY)
def test_repr(name):
    assert repr(getattr(nn, name)()) == f"nn.{name}"


@pytest.mark.slow
@pytest.mark.parametrize("name", FAMILY)
def test_any_shape_and_layout(name):
    """1D to 4D inputs of any sizes (0 and 1 included) in any memory layout:
    identical to the contiguous copy, and the numpy formula."""

    def check(data):
        x = data.draw(arbitrary_views(draw_shape(data)), label="x")
        g = data.draw(arbitrary_views(x.shape), label="gradOutput")
        xc, gc = np.ascontiguousarray(x), np.ascontiguousarray(g)
        m, ref = getattr(nn, name)(), getattr(nn, name)()
        out = m.forward(x)
        np.testing.assert_array_equal(out, ref.forward(xc))
        np.testing.assert_array_equal(m.backward(x, g), ref.backward(xc, gc))
        if x.size:
            np.testing.assert_allclose(out, FAMILY[name][0](xc, gc)[0], rtol=1e-13, atol=1e-15)
    run_hypothesis(check)


@pytest.mark.parametrize("name", FAMILY)
def test_more_than_four_dimensions(name):
    shape = FIVE_D[name]
    with raises_exactly(thnn.THNNError, f"{name}_updateOutput: input must be 1D, 2D, 3D or 4D, got 5D of size "
                                        f"[{', '.join(map(str, shape))}]"):
        getattr(nn, name)().forward(np.zeros(shape))


@pytest.mark.parametrize("shape", LAYOUTS, ids=LAYOUT_IDS)
def test_probabilities_sum_to_one(shape):
    out = nn.SoftMax().forward(uniform(shape, 1, -30, 30))
    assert np.all(out >= 0)
    np.testing.assert_allclose(out.sum(axis=LAYOUTS[shape]), 1, rtol=1e-14)


def test_large_inputs_do_not_overflow():
    m = nn.SoftMax()
    x = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1001.0, -999.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = m.forward(x)
    np.testing.assert_allclose(out[0], softmax(np.array([1.0, 2.0, 0.0])), rtol=1e-14)
    np.testing.assert_allclose(out[1], softmax(np.array([-1.0, -2.0, 0.0])), rtol=1e-14)


def test_minus_infinity_gets_probability_zero():
    m = nn.SoftMax()
    out = m.forward(np.array([[-np.inf, 0.0, 0.0]]))
    np.testing.assert_array_equal(out, [[0.0, 0.5, 0.5]])
    np.testing.assert_array_equal(m.backward(np.array([[-np.inf, 0.0, 0.0]]), np.array([[1.0, 1.0, 0.0]])),
                                  [[0.0, 0.25, -0.25]])


# ---------------------------------------------------------------- bad input
def test_zero_dimensions():
    with raises_exactly(thnn.THNNError, f"SoftMax_updateOutput: input must have 1 to {thnn.MAX_DIM} "
                                        f"dimensions, got 0"):
        nn.SoftMax().forward(np.array(1.0))


def test_input_not_matching_the_forward_output():
    m = nn.SoftMax()
    m.forward(uniform((2, 3)))
    with raises_exactly(thnn.THNNError, "SoftMax_updateGradInput: output must be shaped as input "
                                        "(2D of size [3, 3]), got 2D of size [2, 3]"):
        m.backward(uniform((3, 3)), uniform((3, 3)))


DIM_FAMILY = {"SoftMax": lambda x, d: np.exp(_log_softmax(x, d)), "LogSoftMax": _log_softmax,
              "SoftMin": lambda x, d: np.exp(_log_softmax(-x, d))}


@pytest.mark.parametrize("name", sorted(DIM_FAMILY))
@pytest.mark.parametrize("shape, dim", [((5,), 0), ((3, 4), 0), ((3, 4), -1), ((2, 3, 4), 2), ((2, 3, 4), 1),
                                        ((2, 3, 2, 3), 3), ((2, 3, 2, 3), 0), ((2, 1, 3, 2, 2), 2)], ids=str)
def test_dim_takes_the_softmax_over_that_dim(name, shape, dim):
    """torch.legacy.nn's optional dim: any dim of any input (Torch7's rule without it)."""
    m = getattr(nn, name)(dim)
    x, g = uniform(shape, 1), uniform(shape, 2)
    np.testing.assert_allclose(m.forward(x), DIM_FAMILY[name](x, dim), rtol=1e-13, atol=1e-15)
    assert_input_jacobian(m, x)
    check_noncontiguous(m, x, g)
    check_float32(m, x, g)
    assert repr(m) == f"nn.{name}(dim={dim})"


@pytest.mark.parametrize("name", sorted(DIM_FAMILY))
def test_dim_keeps_the_buffer_contract(name):
    m = getattr(nn, name)(2)
    check_buffer_reuse(m, uniform((4, 3, 5), 1), uniform((4, 3, 5), 2), uniform((2, 3, 5), 3),
                       uniform((2, 3, 5), 4))
    check_pickle(m, uniform((2, 3, 5), 1), uniform((2, 3, 5), 2))


@pytest.mark.parametrize("name", sorted(DIM_FAMILY))
def test_dim_matches_torch(name):
    torch = torch_or_skip()
    fn = {"SoftMax": torch.softmax, "LogSoftMax": torch.log_softmax,
          "SoftMin": lambda t, dim: torch.softmax(-t, dim)}[name]
    x, g = uniform((2, 3, 4), 1), uniform((2, 3, 4), 2)
    check_matches_torch(getattr(nn, name)(2), lambda t: fn(t, 2), x, g, (1e-13, 1e-15), (1e-12, 1e-15))


def test_dim_errors():
    with raises_exactly(ValueError, "SoftMax: dim 3 is out of range for input 3D of size [2, 3, 4]"):
        nn.SoftMax(3).forward(uniform((2, 3, 4)))
    with raises_exactly(TypeError, "LogSoftMax: dim must be an integer or None, got '1'"):
        nn.LogSoftMax("1")
    m = nn.SoftMin(1)
    x = uniform((2, 3, 4))
    m.forward(x)
    with raises_exactly(ValueError, "SoftMin: gradOutput must be of size [2, 3, 4] like the input, got 2D of size "
                                    "[6, 4]"):
        m.backward(x, uniform((6, 4)))
    with pytest.raises(TypeError):
        nn.SpatialSoftMax(1)   # always over the planes


@emulator_only
def test_dim_on_the_device():
    import thnn.cuda as cuda
    dev = cuda.emulator()
    x, g = uniform((2, 3, 4), 1), uniform((2, 3, 4), 2)
    host = nn.SoftMax(2)
    m = nn.SoftMax(2).cuda(dev)
    np.testing.assert_allclose(m.forward(dev.to_device(x)).numpy(), host.forward(x), rtol=1e-13)
    np.testing.assert_allclose(m.backward(dev.to_device(x), dev.to_device(g)).numpy(), host.backward(x, g),
                               rtol=1e-12, atol=1e-15)
