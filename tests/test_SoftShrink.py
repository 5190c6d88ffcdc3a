"""nn_legacy.SoftShrink and the SoftShrink_* kernels: shrink x towards 0 by lambda.
Its values against numpy and torch, jacobian, NaN, layouts, repr and Torch7
loading run with HardShrink's, over the family table in test_HardShrink.py."""
import numpy as np

import nn_legacy as nn
import thnn
from layer_checks import raises_exactly, uniform


def test_default_is_torch7s():
    m = nn.SoftShrink()
    assert m.lambd == 0.5
    np.testing.assert_array_equal(m.forward(np.array([-1.5, -0.5, 0.25, 0.5, 2.0])), [-1, 0, 0, 0, 1.5])


def test_negative_lambda_is_refused():
    with raises_exactly(ValueError, "SoftShrink: lambda must be >= 0, got -0.5"):
        nn.SoftShrink(-0.5)
    with raises_exactly(thnn.THNNError, "SoftShrink_updateOutput: lambda must be >= 0, got -0.5"):
        thnn.Double.SoftShrink_updateOutput(uniform((3,)), None, -0.5)
