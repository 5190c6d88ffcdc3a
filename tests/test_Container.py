"""nn_legacy.Container: what every container does for its children."""
import numpy as np

import nn_legacy as nn
from layer_checks import uniform


class Recorder(nn.Linear):
    """A Linear that records the parameter verbs a container calls on it."""

    def __init__(self, *args):
        super().__init__(*args)
        self.calls = []

    def zeroGradParameters(self):
        self.calls.append("zero")
        super().zeroGradParameters()

    def updateParameters(self, learningRate):
        self.calls.append(("update", learningRate))
        super().updateParameters(learningRate)


def test_children_zero_and_update_themselves():
    a, b = Recorder(3, 2), Recorder(2, 2)
    net = nn.Sequential().add(a).add(nn.Tanh()).add(b)
    net.zeroGradParameters()
    net.updateParameters(0.5)
    assert a.calls == b.calls == ["zero", ("update", 0.5)]


def test_a_shared_parameter_steps_once_per_owner():
    first, second = nn.Linear(3, 3), nn.Linear(3, 3)
    second.weight, second.gradWeight = first.weight, first.gradWeight   # shared, as Torch7's share()
    net = nn.Sequential().add(first).add(second)
    x = uniform((4, 3), 1)
    net.zeroGradParameters()
    net.forward(x)
    net.backward(x, uniform((4, 3), 2))
    before, grad = first.weight.copy(), first.gradWeight.copy()
    net.updateParameters(0.1)
    np.testing.assert_allclose(first.weight, before - 2 * 0.1 * grad, rtol=1e-14)
    assert second.weight is first.weight
