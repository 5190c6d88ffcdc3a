"""nn_legacy.CopyGrad (rnn package): the identity forward, a copy of
gradOutput backward; loaded from the package's layout."""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform
from nn_legacy.serialization.t7 import load_lua
from t7_writer import T7Object, t7_bytes


def test_forward_passes_the_input_and_backward_copies_the_gradient():
    m = nn.CopyGrad()
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    assert m.forward(x) is x
    gin = m.backward(x, g)
    assert gin is not g and not np.shares_memory(gin, g)
    np.testing.assert_array_equal(gin, g)
    table = [x, [uniform((2,), 3)]]
    gt = [g, [uniform((2,), 4)]]
    got = m.backward(table, gt)
    np.testing.assert_array_equal(got[1][0], gt[1][0])
    assert got[1][0] is not gt[1][0]


def test_loaded_from_the_rnn_package(tmp_path):
    f = tmp_path / "copygrad.t7"
    f.write_bytes(t7_bytes(T7Object("nn.CopyGrad", {"output": np.zeros(0), "gradInput": np.zeros(0),
                                                    "_type": "torch.DoubleTensor", "train": True})))
    assert type(load_lua(str(f))) is nn.CopyGrad
