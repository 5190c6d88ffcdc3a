"""nn_legacy.ZeroGrad: output = input, gradInput = zeros."""
import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def test_output_is_the_input_and_gradient_is_zero():
    m = nn.ZeroGrad()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    assert m.forward(x) is x
    gin = m.backward(x, g)
    assert gin.shape == x.shape and gin.dtype == x.dtype and not gin.any()


def test_tables_get_a_table_of_zeros():
    m = nn.ZeroGrad()
    table = [uniform((2,), 1), [uniform((3, 1), 2).astype(np.float32)]]
    assert m.forward(table) is table
    gin = m.backward(table, [uniform((2,), 3), [uniform((3, 1), 4)]])
    assert gin[0].shape == (2,) and gin[1][0].shape == (3, 1) and gin[1][0].dtype == np.float32
    assert not gin[0].any() and not gin[1][0].any()


def test_bad_gradOutput():
    m = nn.ZeroGrad()
    x = uniform((3, 4))
    with raises_exactly(ValueError, "ZeroGrad: gradOutput must be of size [3, 4] like the output, "
                                    "got 1D of size [3]"):
        m.backward(x, uniform((3,)))
    with raises_exactly(ValueError, "ZeroGrad: gradOutput must be a table of 2 entries like the output, "
                                    "got 1 entry"):
        m.backward([x, x], [x])
    with raises_exactly(TypeError, "ZeroGrad: input[1] must be a numpy array, got str"):
        m.forward([x, "x"])
