"""nn_legacy.Profile: times a module's forward and backward passes."""
import re

import numpy as np

import nn_legacy as nn
from layer_checks import assert_input_jacobian, assert_parameter_jacobians, raises_exactly, uniform
from t7_writer import NO_PAYLOAD, T7Object, t7_bytes


def test_prints_every_interval(capsys):
    m = nn.Profile(nn.Linear(3, 2), 2)
    x, g = uniform((4, 3), 1), uniform((4, 2), 2)
    for _ in range(3):
        m.forward(x)
        m.backward(x, g)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r"nn\.Linear took \d+\.\d{3} seconds for 2 forward passes", lines[0])
    assert re.fullmatch(r"nn\.Linear took \d+\.\d{3} seconds for 2 backward passes", lines[1])
    assert (m.numFwds, m.numBwds) == (1, 1) and m.summedFwdTime > 0
    np.testing.assert_array_equal(m.output, m.modules[0].output)


def test_gradients_pass_through():
    m = nn.Profile(nn.Linear(3, 2), 10 ** 6, "lin")
    x = uniform((2, 3), 1)
    assert_input_jacobian(m, x)
    assert_parameter_jacobians(m, x)
    assert repr(m) == "nn.Profile('lin') @ nn.Linear(3 -> 2)"
    with raises_exactly(ValueError, "Profile: print_interval must be a positive integer, got 0"):
        nn.Profile(nn.Tanh(), 0)


def test_loads_from_a_torch7_file(tmp_path, capsys):
    """Torch7 saves the profiler's torch.Timer with nothing in it."""
    empty = {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True}
    tanh = T7Object("nn.Tanh", dict(empty))
    fields = dict(empty, modules={1: tanh}, module=tanh, print_interval=1, name="nn.Tanh", numFwds=0, numBwds=0,
                  summedFwdTime=0, summedBwdTime=0, timer=T7Object("torch.Timer", NO_PAYLOAD))
    path = tmp_path / "profile.t7"
    path.write_bytes(t7_bytes(T7Object("nn.Profile", fields)))
    m = nn.load_lua(str(path))
    assert "timer" not in vars(m) and "module" not in vars(m)
    np.testing.assert_allclose(m.forward(np.zeros(3)), 0)
    assert capsys.readouterr().out.startswith("nn.Tanh took ")
