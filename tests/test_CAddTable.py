"""nn_legacy.CAddTable: input[0] + input[1] + ..."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from elementwise_table_checks import check_against, check_elementwise_table, inputs
from layer_checks import assert_input_jacobian, noncontiguous_views, raises_exactly, torch_or_skip, uniform
from numpy_checks import from_torch7


@pytest.mark.parametrize("n", [1, 2, 4])
def test_matches_numpy(n):
    t = inputs(n)
    expected = t[0].copy()
    for x in t[1:]:
        expected += x
    check_against(nn.CAddTable(), t, expected, lambda g: [g] * n)


def test_matches_torch():
    torch = torch_or_skip()
    t = inputs(3)
    ts = [torch.from_numpy(x.copy()).requires_grad_(True) for x in t]
    out = ts[0] + ts[1] + ts[2]
    np.testing.assert_array_equal(nn.CAddTable().forward(t), out.detach().numpy())


def test_in_place_writes_into_input_0():
    t, g = inputs(3), uniform((3, 4), 9)
    expected = nn.CAddTable().forward(t).copy()
    x0 = t[0]
    m = nn.CAddTable(inplace=True)
    assert m.forward(t) is x0
    np.testing.assert_array_equal(x0, expected)
    gin = m.backward(t, g)
    assert len(gin) == 3 and all(a is g for a in gin)


def test_in_place_needs_a_writeable_input():
    x = uniform((3,))
    x.flags.writeable = False
    with raises_exactly(ValueError, "CAddTable: in-place mode writes into input[0], but it is read-only"):
        nn.CAddTable(True).forward([x, x])


def test_common_checks():
    check_elementwise_table(nn.CAddTable, 3)


def test_from_torch7():
    assert from_torch7("nn.CAddTable", inplace=True).inplace is True
    assert from_torch7("nn.CAddTable").inplace is False


# ---- in place, then an in-place Threshold: one pass in a Sequential ----
def _block(threshold):
    """ConcatTable(Identity, Mul-like Sequential), CAddTable(true), threshold: a ResNet block's tail."""
    branch = nn.Sequential().add(nn.MulConstant(-0.7))
    return nn.Sequential().add(nn.ConcatTable().add(nn.Identity()).add(branch)).add(nn.CAddTable(True)).add(threshold)


def _unfused(monkeypatch, s, x):
    with monkeypatch.context() as patch:
        patch.setattr(nn.CAddTable, "_fuse_next", None)
        return s.forward(x.copy()).copy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1, 3, 5, 7), (8, 4, 6), (3,)])
@pytest.mark.parametrize("threshold", [nn.ReLU(True), nn.Threshold(0.2, -0.1, True)], ids=["ReLU", "Threshold"])
def test_sum_then_an_inplace_threshold_is_one_pass(threshold, shape, dtype, monkeypatch):
    calls, add = [], thnn.backend(dtype).Threshold_addUpdateOutput
    monkeypatch.setattr(thnn.backend(dtype), "Threshold_addUpdateOutput", lambda *a: calls.append(a) or add(*a))
    s = _block(threshold).type(dtype)
    x = uniform(shape, 3).astype(dtype)
    x.flat[1] = np.nan
    want = _unfused(monkeypatch, s, x)
    assert not calls
    for name, view in [("contiguous", x)] + noncontiguous_views(np.nan_to_num(x)):
        want = _unfused(monkeypatch, s, view)
        got = s.forward(view)
        assert len(calls) == 1, name
        calls.clear()
        assert np.array_equal(got, want, equal_nan=True), name
        assert got is view and s.modules[1].output is view and s.modules[2].output is view, name


def test_sum_is_not_fused_out_of_place_with_three_summands_or_another_next_module():
    x = uniform((2, 3), 4)
    for s in (nn.Sequential().add(nn.CAddTable()).add(nn.ReLU(True)),
              nn.Sequential().add(nn.CAddTable(True)).add(nn.ReLU()),
              nn.Sequential().add(nn.CAddTable(True)).add(nn.Tanh())):
        assert s.modules[0]._fuse_next(s.modules[1], [x.copy(), x]) is None
    three = [x.copy(), x, x]
    s = nn.Sequential().add(nn.CAddTable(True)).add(nn.ReLU(True))
    assert s.modules[0]._fuse_next(s.modules[1], three) is None
    np.testing.assert_array_equal(s.forward([x.copy(), x, x]), np.maximum(3 * x, 0))


def test_fused_sum_checks_its_input():
    x = uniform((3,))
    x.flags.writeable = False
    s = nn.Sequential().add(nn.CAddTable(True)).add(nn.ReLU(True))
    with raises_exactly(ValueError, "Sequential (0) -> CAddTable: in-place mode writes into input[0], but it is "
                                    "read-only"):
        s.forward([x, x])


def test_backward_and_jacobian_after_a_fused_sum(monkeypatch):
    s = _block(nn.ReLU(True))
    x, g = uniform((2, 3, 4), 5), uniform((2, 3, 4), 6)
    s.forward(x.copy())
    got = s.backward(x, g).copy()
    _unfused(monkeypatch, s, x)
    np.testing.assert_array_equal(s.backward(x, g), got)
    assert_input_jacobian(s, x)
