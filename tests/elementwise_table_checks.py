"""What the tests of CAddTable, CSubTable, CMulTable, CDivTable, CMaxTable
and CMinTable share: the table of inputs, the value checks against a numpy
reference, and the checks every elementwise table module passes."""
import numpy as np

from layer_checks import raises_exactly, uniform
from table_module_checks import (assert_table_jacobian, check_table_batch_equals_samples, check_table_buffer_reuse,
                                 check_table_float32, check_table_noncontiguous, check_table_pickle)


def inputs(n, shape=(3, 4), seed=1, low=-2.0):
    return [uniform(shape, seed + i, low=low) for i in range(n)]


def check_against(module, table, output, grads):
    """forward gives output and backward (for a gradOutput drawn here) the
    gradients grads(gradOutput), to the last bit or so."""
    np.testing.assert_allclose(module.forward(table), output, rtol=1e-15, atol=0)
    g = uniform(table[0].shape, 99)
    got = module.backward(table, g)
    assert isinstance(got, list) and len(got) == len(table)
    for i, (a, b) in enumerate(zip(got, grads(g))):
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=0, err_msg=f"gradInput[{i}]")


def check_elementwise_table(make, n, low=-2.0):
    """Jacobians (1D, 2D), batches, float32, strides, buffers, pickling and
    the errors every elementwise table module gives."""
    name = type(make()).__name__
    for shape in [(4,), (3, 4)]:
        assert_table_jacobian(make(), inputs(n, shape, low=low))
    m = make()
    t, g = inputs(n, low=low), uniform((3, 4), 99)
    check_table_batch_equals_samples(m, t, g)
    check_table_float32(m, t, g)
    check_table_noncontiguous(m, t, g)
    check_table_buffer_reuse(m, inputs(n, (5, 4), low=low), uniform((5, 4), 98), t, g)
    check_table_pickle(m, t, g)

    x = uniform((3, 4))
    with raises_exactly(ValueError, f"{name}: input[1] must be of size [3, 4] like input[0], got 2D of size [4, 3]"):
        m.forward([x, x.T] + [x] * (n - 2))
    with raises_exactly(TypeError, f"{name}: input[1] is float32 but the input is float64"):
        m.forward([x, x.astype(np.float32)] + [x] * (n - 2))
    with raises_exactly(TypeError, f"{name}: input[0] must be float32 or float64, got int64"):
        m.forward([np.arange(3)] * n)
    with raises_exactly(TypeError, f"{name}: input must be a table (list), got ndarray"):
        m.forward(x)
    with raises_exactly(TypeError, f"{name}: gradOutput must be float32 or float64, got int64"):
        m.backward([x] * n, np.zeros((3, 4), int))
    with raises_exactly(ValueError, f"{name}: gradOutput must be of size [3, 4] like the output, got 1D of size "
                                    "[12]"):
        m.backward([x] * n, np.zeros(12))
