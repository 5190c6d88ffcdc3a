"""nn_legacy.TotalDropout (rnn package): the whole input kept or zeroed at
once; loaded from the package's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from nn_legacy.serialization.t7 import T7Error, load_lua
from t7_writer import T7Object, t7_bytes


def test_each_forward_keeps_or_drops_everything_with_probability_p():
    nn.manualSeed(0)
    m = nn.TotalDropout(0.3)
    x, g = uniform((3, 4), 1), uniform((3, 4), 2)
    kept = 0
    for _ in range(2000):
        y = m.forward(x)
        assert m.noise in (0.0, 1.0)
        np.testing.assert_array_equal(y, x * m.noise)     # no rescaling
        np.testing.assert_array_equal(m.backward(x, g), g * m.noise)
        kept += int(m.noise)
    assert abs(kept / 2000 - 0.7) < 0.04   # 4 standard deviations of the binomial


def test_evaluating_passes_the_input_and_refuses_backward():
    m = nn.TotalDropout(0.9)
    m.evaluate()
    x = uniform((2, 3), 3)
    np.testing.assert_array_equal(m.forward(x), x)
    with raises_exactly(RuntimeError, "TotalDropout: backward is only defined while training (as in the rnn "
                                      "package)"):
        m.backward(x, x)
    with raises_exactly(ValueError, "TotalDropout: p must be in [0, 1), got 1"):
        nn.TotalDropout(1)


def _file(tmp_path, **fields):
    f = tmp_path / "td.t7"
    base = {"output": np.zeros(0), "gradInput": np.zeros(0), "_type": "torch.DoubleTensor", "train": True}
    f.write_bytes(t7_bytes(T7Object("nn.TotalDropout", dict(base, **fields))))
    return str(f)


def test_loaded_from_the_rnn_package(tmp_path):
    """TotalDropout.lua: p and train; after a forward noise, a number."""
    m = load_lua(_file(tmp_path, p=0.25, noise=0.0))
    assert type(m) is nn.TotalDropout and m.p == 0.25 and m.noise == 0.0
    x = uniform((2, 3), 4)
    np.testing.assert_array_equal(m.backward(x, x), 0 * x)   # the file's draw, until the next forward
    with pytest.raises(T7Error, match=r"TotalDropout: p in the file must be a number in \[0, 1\), got 1.5"):
        load_lua(_file(tmp_path, p=1.5))
