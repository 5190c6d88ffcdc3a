"""nn_legacy.PrintSize: prints the sizes going through, passes values on unchanged."""
import numpy as np

import nn_legacy as nn
from layer_checks import assert_input_jacobian, uniform
from numpy_checks import from_torch7


def test_prints_and_passes_through(capsys):
    m = nn.PrintSize("conv1")
    x, g = uniform((2, 3), 1), uniform((2, 3), 2)
    assert m.forward(x) is x
    assert m.backward(x, g) is g
    assert capsys.readouterr().out == "conv1:input\n\t[2, 3]\nconv1:gradOutput\n\t[2, 3]\n"


def test_tables_and_missing_values(capsys):
    m = nn.PrintSize()
    m.forward([np.ones(3), [np.ones((2, 2)), np.ones(0)]])
    m.updateGradInput(None, None)
    assert capsys.readouterr().out == "PrintSize:input\n\t{[3], {[2, 2], [0]}}\nPrintSize:gradOutput\n\tmissing size\n"


def test_jacobian_is_the_identity():
    assert_input_jacobian(nn.PrintSize(), uniform((2, 3), 1))


def test_loads_from_torch7_fields(capsys):
    m = from_torch7("nn.PrintSize", prefix="p")
    m.forward(np.ones(4))
    assert capsys.readouterr().out == "p:input\n\t[4]\n" and repr(m) == "nn.PrintSize('p')"
