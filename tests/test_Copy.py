"""nn_legacy.Copy: the input converted to outtype, gradOutput to intype."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from numpy_checks import from_torch7


def test_converts_both_ways():
    m = nn.Copy(np.int64, np.float32)
    x = np.arange(12).reshape(3, 4)
    out = m.forward(x)
    assert out.dtype == np.float32 and np.array_equal(out, x)
    g = uniform((3, 4), 1) * 10
    gin = m.backward(x, g)
    assert gin.dtype == np.int64 and np.array_equal(gin, g.astype(np.int64))


def test_same_types_pass_through_unless_forced():
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    m = nn.Copy()
    assert m.forward(x) is x and m.backward(x, g) is g
    forced = nn.Copy(np.float64, np.float64, forceCopy=True)
    out = forced.forward(x)
    assert out is not x and not np.shares_memory(out, x) and np.array_equal(out, x)
    gin = forced.backward(x, g)
    assert gin is not g and np.array_equal(gin, g)


def test_type_sets_both_types_unless_dontCast():
    m = nn.Copy(np.float64, np.float64, forceCopy=True).float()
    assert m.intype == np.float32 and m.outtype == np.float32
    assert m.forward(uniform((2,), 1)).dtype == np.float32
    kept = nn.Copy(np.float32, np.float64, dontCast=True).float()
    assert kept.intype == np.float32 and kept.outtype == np.float64


def test_bad_arguments():
    with raises_exactly(TypeError, "Copy: intype must be a numpy dtype, got 'torch.Nonsense'"):
        nn.Copy("torch.Nonsense")
    with raises_exactly(TypeError, "Copy: outtype must be a numeric dtype, got <U3"):
        nn.Copy(np.float64, "U3")
    m = nn.Copy(np.float64, np.float32)
    with raises_exactly(TypeError, "Copy: input must be a numpy array, got list"):
        m.forward([1.0, 2.0])
    m.forward(uniform((3, 4), 1))
    with raises_exactly(ValueError, "Copy: gradOutput must be of size [3, 4] like the output, got 1D of size [12]"):
        m.backward(uniform((3, 4), 1), uniform((12,), 2))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_from_torch7_takes_the_types_of_the_buffers(dtype):
    m = from_torch7("nn.Copy", dontCast=True)
    assert m.intype == np.float64 and m.outtype == np.float64 and m.dontCast and not m.forceCopy
    m = from_torch7("nn.Copy")
    m.__dict__.update(output=np.zeros(1, dtype), gradInput=np.zeros(1, np.int32))
    m._t7_fixup(1)
    assert m.outtype == dtype and m.intype == np.int32
