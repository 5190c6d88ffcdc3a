"""nn_legacy.ArgMax (torch/rnn): the 0-based position of the maximum along
dim, against numpy; loaded from torch/rnn's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from nn_legacy.serialization.t7 import T7Error, load_lua
from t7_writer import T7Object, Tensor, t7_bytes


def test_positions_along_dim_counted_past_the_batch():
    x = uniform((3, 4, 5), 1)
    x[0, 1, :] = 7.0   # ties: the first
    out = nn.ArgMax(0, 2).forward(x)      # 3 dims > nInputDim 2: dim 0 is the array's dim 1
    np.testing.assert_array_equal(out, np.argmax(x, axis=1))
    assert out.dtype == np.int64 and out[0, 0] == 1
    np.testing.assert_array_equal(nn.ArgMax(1, 3).forward(x), np.argmax(x, axis=1))   # not a batch
    one = nn.ArgMax(0, 1, asLong=False).forward(np.array([0.5, 3.0, -1.0, 3.0], np.float32))
    assert one.shape == (1,) and one.dtype == np.float32 and one[0] == 1.0
    gin = nn.ArgMax(0, 2).backward(x, np.ones((3, 5), np.int64))
    assert gin.shape == x.shape and gin.dtype == x.dtype and not gin.any()


def test_bad_input():
    with raises_exactly(TypeError, "ArgMax: input must be float32 or float64, got int64"):
        nn.ArgMax().forward(np.arange(4))
    with raises_exactly(ValueError, "ArgMax: dim 1 (nInputDim 1) is out of range for input 1D of size [4]"):
        nn.ArgMax(1).forward(uniform((4,)))
    with raises_exactly(ValueError, "ArgMax: gradOutput must be of size [4] like the output, got 1D of size [3]"):
        nn.ArgMax().backward(uniform((4, 5)), np.zeros(3))


def _file(tmp_path, **fields):
    f = tmp_path / "argmax.t7"
    base = {"output": Tensor(np.zeros(0), "torch.LongTensor"), "gradInput": np.zeros(0),
            "_type": "torch.DoubleTensor", "train": True}
    f.write_bytes(t7_bytes(T7Object("nn.ArgMax", dict(base, **fields))))
    return str(f)


def test_loaded_from_torch_rnn_s_fields(tmp_path):
    """ArgMax.lua's constructor: dim and nInputDim counted from 1, asLong;
    after a forward its _value and _indices buffers too."""
    x = uniform((2, 3, 4), 2)
    m = load_lua(_file(tmp_path, dim=2.0, nInputDim=2.0, asLong=True,
                       _value=np.zeros((2, 3, 1)), _indices=Tensor(np.ones((2, 3, 1)), "torch.LongTensor")))
    assert type(m) is nn.ArgMax and (m.dim, m.nInputDim, m.asLong) == (1, 2, True)
    assert "_indices" not in vars(m)
    np.testing.assert_array_equal(m.forward(x), np.argmax(x, axis=2))
    again = tmp_path / "again.t7"
    nn.save_lua(str(again), m)
    assert load_lua(str(again)).dim == 1
    with pytest.raises(T7Error, match="ArgMax: dim and nInputDim in the file must be whole numbers from 1"):
        load_lua(_file(tmp_path, dim=0.0, nInputDim=1.0))
