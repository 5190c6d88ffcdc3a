"""What the tests of PairwiseDistance, DotProduct and CosineDistance share:
pairs [a, b] of 1D or 2D arrays, one value per row."""
import numpy as np

from layer_checks import raises_exactly, uniform
from table_module_checks import (assert_table_jacobian, check_table_batch_equals_samples, check_table_buffer_reuse,
                                 check_table_float32, check_table_noncontiguous, check_table_pickle)


def pair(shape=(5, 4), seed=1):
    return [uniform(shape, seed), uniform(shape, seed + 1)]


def check_row_pair(make):
    """Jacobians (1D, 2D), batches, float32, strides, buffers, pickling, and
    the errors of every module on pairs of rows."""
    name = type(make()).__name__
    for shape in [(4,), (3, 4)]:
        assert_table_jacobian(make(), pair(shape))
    m = make()
    t, g = pair(), uniform((5,), 9)
    check_table_batch_equals_samples(m, t, g, lambda i: ([t[0][i], t[1][i]], g[i:i + 1]))
    check_table_float32(m, t, g)
    check_table_noncontiguous(m, t, g)
    check_table_buffer_reuse(m, pair((7, 4)), uniform((7,), 8), t, g)
    check_table_pickle(m, t, g)

    with raises_exactly(ValueError, f"{name}: input[1] must be of size [5, 4] like input[0], got 2D of size [5, 3]"):
        m.forward([t[0], t[1][:, :3]])
    with raises_exactly(ValueError, f"{name}: input[0] must be 1D [n] or 2D [batch, n], got 3D of size [1, 5, 4]"):
        m.forward([t[0][None], t[1][None]])
    with raises_exactly(ValueError, f"{name}: input must be a table of 2 entries [a, b], got 3 entries"):
        m.forward(t + t[:1])
    with raises_exactly(TypeError, f"{name}: input[1] is float32 but the input is float64"):
        m.forward([t[0], t[1].astype(np.float32)])
    with raises_exactly(ValueError, f"{name}: gradOutput must be of size [5] like the output, got 2D of size [5, 1]"):
        m.backward(t, g[:, None])
    with raises_exactly(ValueError, f"{name}: gradOutput must be of size [1] like the output, got 0D of size []"):
        m.backward(pair((4,)), np.array(1.0))


def check_1D_gives_size_1(module, a, b, value):
    out = module.forward([a, b])
    assert out.shape == (1,)
    np.testing.assert_allclose(out[0], value, rtol=1e-14)
