"""nn_legacy.Contiguous: the input itself when C-contiguous, else a contiguous copy."""
import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from table_module_checks import check_table_pickle


def test_contiguous_arrays_pass_through():
    m = nn.Contiguous()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    assert m.forward(x) is x and m.backward(x, g) is g


def test_strided_arrays_are_copied_into_reused_buffers():
    m = nn.Contiguous()
    x = uniform((4, 3), 1).T
    out = m.forward(x)
    assert out.flags.c_contiguous and np.array_equal(out, x) and not np.shares_memory(out, x)
    g = uniform((4, 3), 2).T
    gin = m.backward(x, g)
    assert gin.flags.c_contiguous and np.array_equal(gin, g)
    assert m.forward(uniform((4, 3), 3).T) is out   # the same shape again: the same buffer
    assert m.backward(x, uniform((4, 3), 4).T) is gin


def test_a_buffer_never_overwrites_an_array_passed_through():
    m = nn.Contiguous()
    x = uniform((3, 4), 1)
    kept = x.copy()
    assert m.forward(x) is x
    m.forward(uniform((4, 3), 2).T)   # same shape, strided: copied into the module's own buffer
    np.testing.assert_array_equal(x, kept)


def test_pickle_and_clearState():
    m = nn.Contiguous()
    check_table_pickle(m, uniform((4, 3), 1).T, uniform((4, 3), 2).T)
    m.clearState()
    assert m.contiguousOutput is None and m.output is None


def test_bad_input():
    with raises_exactly(TypeError, "Contiguous: input must be a numpy array, got list"):
        nn.Contiguous().forward([1.0])
    with raises_exactly(ValueError, "Contiguous: gradOutput must be of size [3, 4] like the output, "
                                    "got 2D of size [4, 3]"):
        nn.Contiguous().backward(uniform((3, 4)), uniform((4, 3)))
