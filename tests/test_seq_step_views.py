"""SeqLSTM's and SeqGRU's host forward keeps its work buffers between calls
(once as per-step views, now as the arrays its step kernel writes into):
after type(), a deep copy, pickling or clearState the buffers written must
be the ones the module now has (a stale one would leave the output
unwritten or shared with another module)."""
import copy
import pickle

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

X1, X2 = uniform((4, 2, 3), 1), uniform((4, 2, 3), 2)


def _model(cls):
    nn.manualSeed(0)
    return getattr(nn, cls)(3, 5)


def _fresh(m, x):
    """The output of a copy of m that never ran."""
    return copy.deepcopy(m).clearState().forward(x)


@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
@pytest.mark.parametrize("how", ["deepcopy", "pickle", "clone"])
def test_a_copy_writes_its_own_buffers(cls, how):
    m = _model(cls)
    m.forward(X1)
    m.forward(X1)
    other = {"deepcopy": copy.deepcopy, "pickle": lambda a: pickle.loads(pickle.dumps(a)),
             "clone": lambda a: a.clone()}[how](m)
    y = other.forward(X2)
    assert y is other._h and not np.shares_memory(y, m.output)
    np.testing.assert_array_equal(y, m.forward(X2))
    np.testing.assert_array_equal(other.forward(X1), _fresh(m, X1))


@pytest.mark.parametrize("cls", ["SeqLSTM", "SeqGRU"])
def test_conversion_and_clear_state(cls):
    m = _model(cls)
    m.forward(X1)
    m.float()
    y = m.forward(X2.astype(np.float32))
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, _fresh(m, X2.astype(np.float32)))
    m.double()
    np.testing.assert_array_equal(m.forward(X2), _fresh(m, X2))
    m.clearState()
    np.testing.assert_array_equal(m.forward(X1), _fresh(m, X1))
    np.testing.assert_array_equal(m.forward(X1[:2]), _fresh(m, X1[:2]))     # another length: other buffers
    np.testing.assert_array_equal(m.forward(X1[:, :1]), _fresh(m, X1[:, :1]))  # another batch
