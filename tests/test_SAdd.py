"""nn_legacy.SAdd (the rnn package's scalar add): y = x + addend, negated
with negate=True; loaded from the rnn package's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from nn_legacy.serialization.t7 import T7Error, load_lua
from t7_writer import T7Object, t7_bytes


def test_gru_s_one_minus_z_and_its_gradient():
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    m = nn.SAdd(-1, True)
    np.testing.assert_array_equal(m.forward(x), -(x - 1.0))
    np.testing.assert_array_equal(m.backward(x, g), -g)
    plain = nn.SAdd(2.5)
    np.testing.assert_array_equal(plain.forward(x), x + 2.5)
    np.testing.assert_array_equal(plain.backward(x, g), g)
    assert plain.forward(x.astype(np.float32)).dtype == np.float32


def test_bad_arguments():
    with raises_exactly(TypeError, "SAdd: addend must be a number, got str"):
        nn.SAdd("1")
    with raises_exactly(ValueError, "SAdd: gradOutput must be of size [3, 4] like the input, got 1D of size [3]"):
        nn.SAdd(1).backward(uniform((3, 4)), uniform((3,)))


def _file(tmp_path, fields):
    f = tmp_path / "sadd.t7"
    base = {"output": np.zeros(0), "gradInput": np.zeros(0), "_type": "torch.DoubleTensor", "train": True}
    f.write_bytes(t7_bytes(T7Object("nn.SAdd", dict(base, **fields))))
    return str(f)


def test_loaded_from_the_rnn_package_s_fields(tmp_path):
    """SAdd.lua's constructor: addend and negate (false when not given)."""
    x = uniform((2, 3), 3)
    m = load_lua(_file(tmp_path, {"addend": -1.0, "negate": True}))
    assert type(m) is nn.SAdd and (m.addend, m.negate) == (-1.0, True)
    np.testing.assert_array_equal(m.forward(x), 1.0 - x)
    m = load_lua(_file(tmp_path, {"addend": 3.0, "negate": False}))
    np.testing.assert_array_equal(m.forward(x), x + 3.0)
    with pytest.raises(T7Error, match="SAdd: addend in the file must be a number, got str"):
        load_lua(_file(tmp_path, {"addend": "1", "negate": True}))
