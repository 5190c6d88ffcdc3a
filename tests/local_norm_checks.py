"""References and shared checks for the spatial normalizations
(SpatialSubtractive-, SpatialDivisive- and SpatialContrastiveNormalization):
the local mean over a kernel window and all planes, written out tap by
tap in numpy, and the same formulas in torch (conv2d) for the gradients."""
import numpy as np

from layer_checks import (assert_input_jacobian, check_batch_equals_samples, check_buffer_reuse, check_float32,
                          check_noncontiguous, check_pickle, raises_exactly, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

# kernels of odd, unequal sizes: a 2D one, a 1D one (standing for outer(k, k)), Torch7's default
KERNELS = {
    "2D 3x5": np.array([[1.0, 2.0, 3.0, 2.0, 1.0], [2.0, 4.0, 5.0, 4.0, 2.0], [1.0, 2.0, 3.0, 2.0, 1.0]]),
    "1D 5": np.array([1.0, 3.0, 4.0, 3.0, 1.0]),
    "default 9x9": None,
}
# non-square planes, with and without a batch dim
SHAPES = {"3D": (3, 6, 4), "4D": (2, 2, 5, 7)}


def weights(kernel, planes):
    k = np.ones((9, 9)) if kernel is None else kernel
    k2 = k if k.ndim == 2 else np.outer(k, k)
    return k2 / (k2.sum() * planes)


def local_mean(x, kernel):
    """E(x) for x [batch, planes, H, W]: [batch, 1, H, W], tap by tap, zeros outside the image."""
    w = weights(kernel, x.shape[1])
    kh, kw = w.shape
    h, wd = x.shape[-2:]
    out = np.zeros((x.shape[0], 1, h, wd))
    plane_sums = x.sum(axis=1)
    for y, col, i, j in np.ndindex(h, wd, kh, kw):
        yy, xx = y + i - kh // 2, col + j - kw // 2
        if 0 <= yy < h and 0 <= xx < wd:
            out[:, 0, y, col] += w[i, j] * plane_sums[:, yy, xx]
    return out


def batched(fn):
    """fn of a batch applied to a 3D sample or a 4D batch."""
    return lambda x, *args: fn(x, *args) if x.ndim == 4 else fn(x[None], *args)[0]


@batched
def subtractive(x, kernel):
    return x - local_mean(x, kernel) / local_mean(np.ones_like(x), kernel)


@batched
def divisive(x, kernel, threshold=1e-4, thresval=1e-4):
    std = np.sqrt(local_mean(x * x, kernel)) / local_mean(np.ones_like(x), kernel)
    return x / np.where(std > threshold, std, thresval)


def torch_reference(kind, x, gradOutput, kernel, threshold=1e-4, thresval=1e-4):
    """(output, gradInput) of the normalization written with torch's conv2d, by autograd."""
    torch = torch_or_skip()
    planes = x.shape[-3]
    w = weights(kernel, planes)
    conv_weight = torch.from_numpy(np.broadcast_to(w, (1, planes) + w.shape).copy())

    def mean(v):
        return torch.nn.functional.conv2d(v, conv_weight, padding=(w.shape[0] // 2, w.shape[1] // 2))

    def sub(b):
        return b - mean(b) / mean(torch.ones_like(b))

    def div(b):
        std = torch.sqrt(mean(b * b)) / mean(torch.ones_like(b))
        return b / torch.where(std > threshold, std, torch.full_like(std, thresval))

    fn = {"subtractive": sub, "divisive": div, "contrastive": lambda b: div(sub(b))}[kind]
    t = torch.from_numpy(np.array(x)).requires_grad_(True)
    y = fn(t if x.ndim == 4 else t[None])
    y = y if x.ndim == 4 else y[0]
    y.backward(torch.from_numpy(np.array(gradOutput)))
    return y.detach().numpy(), t.grad.numpy()


def check_layer_properties(make):
    """make(planes) -> a module: Jacobian, float32, strides, batch vs samples
    (each sample normalised on its own), buffers, pickle, no parameters."""
    for shape in SHAPES.values():
        x, g = uniform(shape, 1), uniform(shape, 2)
        assert_input_jacobian(make(shape[-3]), uniform(shape, 3))
        check_float32(make(shape[-3]), x, g)
        check_noncontiguous(make(shape[-3]), x, g)
        check_pickle(make(shape[-3]), x, g)
    x, g = uniform((3, 2, 4, 5), 1), uniform((3, 2, 4, 5), 2)
    check_batch_equals_samples(make(2), x, g)
    check_buffer_reuse(make(2), x, g, uniform((2, 2, 4, 5), 3), uniform((2, 2, 4, 5), 4))
    assert make(2).parameters() == ([], [])


def check_samples_do_not_mix(make):
    """Changing one sample of a batch leaves the output of the others as it was."""
    x = uniform((3, 2, 4, 5), 1)
    m = make(2)
    before = m.forward(x).copy()
    x[1] = uniform((2, 4, 5), 9, -10, 10)
    after = m.forward(x)
    np.testing.assert_array_equal(after[[0, 2]], before[[0, 2]])
    assert not np.allclose(after[1], before[1])


def check_precision_follows_the_input(make):
    """A float32 input on a module built in float64 is computed in float32 (the fixed weights follow)."""
    x = uniform((2, 2, 4, 5), 1)
    m = make(2)
    out64 = m.forward(x).copy()
    out32 = m.forward(x.astype(np.float32))
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32, out64, rtol=0, atol=1e-5 * np.abs(out64).max())
    np.testing.assert_array_equal(m.forward(x), out64)


def check_bad_input(cls, make):
    name = cls.__name__
    check_bad_arrays_numpy(make(2), uniform((2, 4, 5), 1), uniform((2, 4, 5), 2))
    with raises_exactly(ValueError, f"{name}: input must have nInputPlane = 2 planes (dim 1), "
                                    f"got 4D of size [2, 3, 4, 5]"):
        make(2).forward(uniform((2, 3, 4, 5)))
    with raises_exactly(ValueError, f"{name}: input must have nInputPlane = 2 planes (dim 0), "
                                    f"got 3D of size [1, 4, 5]"):
        make(2).updateGradInput(uniform((1, 4, 5)), uniform((1, 4, 5)))
    with raises_exactly(ValueError, f"{name}: input must be 3D [planes, height, width] or "
                                    f"4D [batch, planes, height, width], got 2D of size [4, 5]"):
        make(1).forward(uniform((4, 5)))
    with raises_exactly(ValueError, f"{name}: kernel must be 1D or 2D with odd sizes, got 2D of size [3, 4]"):
        cls(1, np.ones((3, 4)))
    with raises_exactly(ValueError, f"{name}: kernel must be 1D or 2D with odd sizes, got 3D of size [3, 3, 3]"):
        cls(1, np.ones((3, 3, 3)))
    with raises_exactly(ValueError, f"{name}: kernel must be finite with a nonzero sum, got sum 0.0"):
        cls(1, np.array([1.0, -2.0, 1.0]))
    with raises_exactly(ValueError, f"{name}: kernel must be finite with a nonzero sum, got sum nan"):
        cls(1, np.array([1.0, np.nan, 1.0]))
    with raises_exactly(TypeError, f"{name}: kernel must be a numpy array of numbers, got list"):
        cls(1, [1.0, 1.0, 1.0])
    with raises_exactly(ValueError, f"{name}: nInputPlane must be at least 1, got 0"):
        cls(0)
