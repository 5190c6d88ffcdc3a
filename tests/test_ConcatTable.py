"""nn_legacy.ConcatTable: every child on the same input, the outputs as a table."""
import pickle

import numpy as np

import nn_legacy as nn
from layer_checks import raises_exactly, uniform


def make():
    return nn.ConcatTable(nn.Linear(5, 3), nn.Tanh(), nn.Sequential(nn.Linear(5, 2), nn.Sigmoid()))


def table_input_make():
    """Children that take the table [x5, x4]."""
    return nn.ConcatTable(nn.ParallelTable(nn.Linear(5, 3), nn.Tanh()),
                          nn.ParallelTable(nn.Tanh(), nn.Linear(4, 2)))


# ---------------------------------------------------------------- values
def test_output_is_the_table_of_the_children_outputs():
    m, x = make(), uniform((4, 5), 1)
    out = m.forward(x)
    assert isinstance(out, list) and len(out) == 3
    lin, seq = m.get(0), m.get(2).get(0)
    np.testing.assert_allclose(out[0], x @ lin.weight.T + lin.bias, rtol=1e-14)
    np.testing.assert_allclose(out[1], np.tanh(x), rtol=1e-15)
    np.testing.assert_allclose(out[2], 1 / (1 + np.exp(-(x @ seq.weight.T + seq.bias))), rtol=1e-14)
    assert all(o is c.output for o, c in zip(out, m.modules))


def test_gradient_sums_the_children():
    m, x = make(), uniform((4, 5), 1)
    g = [uniform((4, 3), 2), uniform((4, 5), 3), uniform((4, 2), 4)]
    m.forward(x)
    lin, seq = m.get(0), m.get(2).get(0)
    s = 1 / (1 + np.exp(-(x @ seq.weight.T + seq.bias)))
    expected = g[0] @ lin.weight + g[1] * (1 - np.tanh(x) ** 2) + (g[2] * s * (1 - s)) @ seq.weight
    np.testing.assert_allclose(m.backward(x, g), expected, rtol=1e-12, atol=1e-15)


def test_table_input_gives_a_table_gradient_summed_entry_by_entry():
    m = table_input_make()
    x = [uniform((3, 5), 1), uniform((3, 4), 2)]
    out = m.forward(x)
    assert [o.shape for o in out[0] + out[1]] == [(3, 3), (3, 4), (3, 5), (3, 2)]
    g = [[uniform((3, 3), 3), uniform((3, 4), 4)], [uniform((3, 5), 5), uniform((3, 2), 6)]]
    gin = m.backward(x, g)
    a, b = m.get(0).get(0), m.get(1).get(1)
    np.testing.assert_allclose(gin[0], g[0][0] @ a.weight + g[1][0] * (1 - np.tanh(x[0]) ** 2), rtol=1e-12)
    np.testing.assert_allclose(gin[1], g[0][1] * (1 - np.tanh(x[1]) ** 2) + g[1][1] @ b.weight, rtol=1e-12)
    # the gradInput arrays are the container's, not a child's
    assert not any(gi is c for gi in gin for c in m.get(0).gradInput + m.get(1).gradInput)


def test_accumulates_scaled_parameter_gradients():
    m, x = make(), uniform((4, 5), 1)
    g = [uniform((4, 3), 2), uniform((4, 5), 3), uniform((4, 2), 4)]
    m.forward(x)
    m.zeroGradParameters()
    m.backward(x, g)
    once = [a.copy() for a in m.parameters()[1]]
    m.zeroGradParameters()
    m.updateGradInput(x, g)
    m.accGradParameters(x, g, 0.5)
    m.accGradParameters(x, g, 1.5)
    for a, b in zip(m.parameters()[1], once):
        np.testing.assert_allclose(a, 2 * b, rtol=1e-13)


# ---------------------------------------------------------------- gradients
def grad_for_table_input(batch, seed):
    return [[uniform((batch, 3), seed), uniform((batch, 4), seed + 1)],
            [uniform((batch, 5), seed + 2), uniform((batch, 2), seed + 3)]]


def test_pickle_of_the_container_itself():
    m, x = make(), uniform((2, 5), 1)
    expected = [o.copy() for o in m.forward(x)]
    restored = pickle.loads(pickle.dumps(m))
    for a, b in zip(restored.forward(x), expected):
        np.testing.assert_array_equal(a, b)


def test_tables_are_reused_while_shapes_stay():
    m = make()
    out1 = m.forward(uniform((4, 5), 1))
    kept = [o.copy() for o in out1]
    out2 = m.forward(uniform((2, 5), 2))
    assert out2 is not out1
    for a, b in zip(out1, kept):
        np.testing.assert_array_equal(a, b)   # the first table is as it was
    assert m.forward(uniform((2, 5), 3)) is out2
    g = [uniform((2, 3), 4), uniform((2, 5), 5), uniform((2, 2), 6)]
    gin = m.backward(uniform((2, 5), 3), g)
    assert m.backward(uniform((2, 5), 3), g) is gin


# ---------------------------------------------------------------- errors
def test_grad_output_must_be_a_table_of_one_entry_per_child():
    m, x = make(), uniform((4, 5), 1)
    m.forward(x)
    with raises_exactly(TypeError, "ConcatTable: gradOutput must be a table (list), got ndarray"):
        m.backward(x, uniform((4, 3), 2))
    with raises_exactly(ValueError, "ConcatTable: gradOutput must be a table of 3 entries like the output, got 2 entries"):
        m.backward(x, [uniform((4, 3), 2), uniform((4, 5), 3)])


def test_child_errors_name_their_place():
    m, x = make(), uniform((4, 5), 1)
    with raises_exactly(ValueError, "ConcatTable (0) -> Linear_updateOutput: input must be 1D or 2D with "
                                    "5 features, got 2D of size [4, 6]"):
        m.forward(uniform((4, 6), 1))
    m.forward(x)
    with raises_exactly(ValueError, "ConcatTable (2) -> Sequential (1) -> Sigmoid_updateGradInput: gradOutput "
                                    "must be shaped as output (2D of size [4, 2]), got 2D of size [4, 3]"):
        m.backward(x, [uniform((4, 3), 2), uniform((4, 5), 3), uniform((4, 3), 4)])


def test_children_gradients_that_cannot_be_added():
    class Shrink(nn.Module):   # a (wrong) module whose gradInput is not shaped as its input
        def updateOutput(self, input):
            self.output = input[:, :1].copy()
            return self.output

        def updateGradInput(self, input, gradOutput):
            self.gradInput = gradOutput.copy()
            return self.gradInput

    m, x = nn.ConcatTable(nn.Tanh(), Shrink()), uniform((4, 5), 1)
    m.forward(x)
    with raises_exactly(ValueError, "ConcatTable: gradInput of module (1) is [4, 1], which cannot be added to "
                                    "[4, 5] of module (0)"):
        m.backward(x, [uniform((4, 5), 2), uniform((4, 1), 3)])


def test_backward_before_forward_and_empty():
    with raises_exactly(RuntimeError, "ConcatTable: backward needs the outputs of forward: call forward first"):
        make().backward(uniform((4, 5), 1), [])
    empty = nn.ConcatTable()
    assert empty.forward(uniform((2,), 1)) == []
    with raises_exactly(ValueError, "ConcatTable: the container is empty"):
        empty.backward(uniform((2,), 1), [])


def test_repr():
    assert repr(nn.ConcatTable(nn.Linear(3, 2), nn.Tanh())) == (
        "nn.ConcatTable {\n  input\n    |`-> (0): nn.Linear(3 -> 2)\n     `-> (1): nn.Tanh\n     ... -> output\n}")
