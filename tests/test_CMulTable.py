"""nn_legacy.CMulTable: input[0] * input[1] * ... elementwise."""
import numpy as np
import pytest

import nn_legacy as nn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import torch_or_skip, uniform


@pytest.mark.parametrize("n", [1, 2, 4])
def test_matches_numpy(n):
    t = inputs(n)
    others = [np.prod([x for j, x in enumerate(t) if j != i], axis=0) if n > 1 else np.ones((3, 4))
              for i in range(n)]
    check_against(nn.CMulTable(), t, np.prod(t, axis=0), lambda g: [g * o for o in others])


def test_matches_torch():
    torch = torch_or_skip()
    t = inputs(3)
    ts = [torch.from_numpy(x.copy()).requires_grad_(True) for x in t]
    out = ts[0] * ts[1] * ts[2]
    g = uniform((3, 4), 9)
    out.backward(torch.from_numpy(g))
    m = nn.CMulTable()
    np.testing.assert_allclose(m.forward(t), out.detach().numpy(), rtol=1e-15)
    for got, x in zip(m.backward(t, g), ts):
        np.testing.assert_allclose(got, x.grad.numpy(), rtol=1e-14)


def test_zeros_do_not_break_the_gradient():
    a, b, c = np.array([0.0, 2.0]), np.array([3.0, 0.0]), np.array([5.0, 7.0])
    gin = nn.CMulTable().backward([a, b, c], np.ones(2))
    np.testing.assert_array_equal(gin[0], [15.0, 0.0])
    np.testing.assert_array_equal(gin[1], [0.0, 14.0])
    np.testing.assert_array_equal(gin[2], [0.0, 0.0])


def test_common_checks():
    check_elementwise_table(nn.CMulTable, 3)
