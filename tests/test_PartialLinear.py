"""nn_legacy.PartialLinear: a Linear layer restricted to a subset of its outputs, in numpy."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (raises_exactly, torch_forward_backward, torch_or_skip, uniform)
from numpy_checks import check_bad_arrays_numpy

N_IN, N_OUT = 4, 6
PARTITIONS = [None, [4, 0, 2], [1, 5, 1]]
IDS = ["all", "subset", "repeated"]


def make(partition=None, bias=True):
    m = nn.PartialLinear(N_IN, N_OUT, bias)
    if bias:
        m.bias[...] = uniform((1, N_OUT), 9)  # Torch7 starts the bias at zero: give it values to check
    return m if partition is None else m.setPartition(partition)


def rows(partition):
    return np.arange(N_OUT) if partition is None else np.array(partition)


@pytest.mark.parametrize("partition", PARTITIONS, ids=IDS)
@pytest.mark.parametrize("shape", [(N_IN,), (3, N_IN)], ids=["1D", "2D"])
def test_matches_numpy(shape, partition):
    m = make(partition)
    p = rows(partition)
    x, g = uniform(shape, 1), uniform(shape[:-1] + (p.size,), 2)
    np.testing.assert_allclose(m.forward(x), x @ m.weight[p].T + m.bias[0, p], rtol=1e-14, atol=1e-15)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(x, g, 0.5), g @ m.weight[p], rtol=1e-14, atol=1e-15)
    want_w, want_b = np.zeros((N_OUT, N_IN)), np.zeros((1, N_OUT))
    for r, k in enumerate(p):
        want_w[k] += 0.5 * np.atleast_2d(g)[:, r] @ np.atleast_2d(x)
        want_b[0, k] += 0.5 * np.atleast_2d(g)[:, r].sum()
    np.testing.assert_allclose(m.gradWeight, want_w, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.gradBias, want_b, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("partition", PARTITIONS, ids=IDS)
def test_matches_torch(partition):
    torch = torch_or_skip()
    m = make(partition)
    p = rows(partition)
    x, g = uniform((3, N_IN), 1), uniform((3, p.size), 2)
    w = torch.from_numpy(m.weight.copy()).requires_grad_(True)
    b = torch.from_numpy(m.bias[0].copy()).requires_grad_(True)
    index = torch.from_numpy(p)
    out, gin = torch_forward_backward(lambda t: torch.nn.functional.linear(t, w[index], b[index]), x, g)
    m.zeroGradParameters()
    np.testing.assert_allclose(m.forward(x), out, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.backward(x, g), gin, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.gradWeight, w.grad.numpy(), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(m.gradBias[0], b.grad.numpy(), rtol=1e-14, atol=1e-15)


def test_full_partition_is_a_linear_layer():
    m = make()
    lin = nn.Linear(N_IN, N_OUT)
    lin.weight[...], lin.bias[...] = m.weight, m.bias[0]
    x = uniform((3, N_IN), 1)
    np.testing.assert_allclose(m.forward(x), lin.forward(x), rtol=1e-14, atol=1e-15)


def test_resetPartition_goes_back_to_every_output():
    m = make([3])
    x = uniform((2, N_IN), 1)
    assert m.forward(x).shape == (2, 1)
    assert m.resetPartition() is m
    assert m.forward(x).shape == (2, N_OUT)


def test_rows_outside_the_partition_get_no_gradient():
    m = make([1, 3])
    x, g = uniform((2, N_IN), 1), uniform((2, 2), 2)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g)
    others = [0, 2, 4, 5]
    assert not m.gradWeight[others].any() and not m.gradBias[0, others].any()
    assert m.gradWeight[[1, 3]].all()


def test_initialisation_as_torch7():
    nn.manualSeed(0)
    m = nn.PartialLinear(50, 40)
    assert not m.bias.any()
    assert abs(m.weight.std() - 1) < 0.05 and abs(m.weight.mean()) < 0.05  # N(0, 1), a LookupTable's init
    m.reset(0.1)
    assert abs(m.weight.std() - 0.1) < 0.005


def test_buffer_reuse_across_partitions():
    m = make([4, 0])
    x = uniform((3, N_IN), 1)
    first = m.forward(x)
    kept = first.copy()
    m.setPartition([1, 2, 3])
    assert m.forward(x).shape == (3, 3)
    np.testing.assert_array_equal(first, kept)


def test_bad_arrays():
    check_bad_arrays_numpy(make([4, 0, 2]), uniform((3, N_IN), 1), uniform((3, 3), 2), "the output")


def test_bad_partitions_and_inputs():
    m = make()
    with raises_exactly(ValueError, "PartialLinear: index 6 at position 1 is out of range [0, 6)"):
        m.setPartition([0, 6])
    with raises_exactly(ValueError, "PartialLinear: index -1 at position 0 is out of range [0, 6)"):
        m.setPartition([-1])
    with raises_exactly(ValueError, "PartialLinear: indices must be a 1D array of integers, got 1D of float64"):
        m.setPartition([0.5])
    with raises_exactly(ValueError, "PartialLinear: input must be 1D [4] or 2D [batch, 4], got 2D of size [3, 5]"):
        m.forward(uniform((3, 5)))
    assert m.partition.tolist() == list(range(N_OUT))  # unchanged by the refused calls


def test_repr():
    assert repr(nn.PartialLinear(4, 6)) == "nn.PartialLinear(4 -> 6)"
    assert repr(nn.PartialLinear(4, 6, bias=False)) == "nn.PartialLinear(4 -> 6, without bias)"


def test_bias_is_laid_out_as_torch7():
    assert nn.PartialLinear(N_IN, N_OUT).bias.shape == (1, N_OUT)
    assert nn.PartialLinear(N_IN, N_OUT, bias=False).bias is None


def torch7_partial_linear(weight, bias, partition):
    """The fields Torch7's PartialLinear holds: its weight in a LookupTable
    inside a small network, the bias [1, outputsize], 1-based partition."""
    from t7_writer import T7Object
    n_out, n_in = weight.shape
    empty = {"output": np.zeros(0), "gradInput": np.zeros(0), "train": True}
    lookup = T7Object("nn.LookupTable", dict(empty, weight=weight, gradWeight=np.zeros_like(weight),
                                             paddingValue=0, shouldScaleGradByFreq=False), version=4)
    table = T7Object("nn.ParallelTable", dict(empty, output={}, gradInput={},
                                              modules={1: T7Object("nn.Identity", dict(empty)), 2: lookup}))
    mm = T7Object("nn.MM", dict(empty, transA=False, transB=True, gradInput={}))
    network = T7Object("nn.Sequential", dict(empty, modules={1: table, 2: mm}))
    fields = dict(empty, network=network, inputsize=n_in, outputsize=n_out,
                  allcolumns=np.arange(1.0, n_out + 1), partition=np.asarray(partition, dtype=np.float64) + 1)
    if bias is not None:
        fields.update(bias=bias, gradBias=np.full_like(bias, np.nan), addBuffer=np.ones(3), buffer=np.zeros(2))
    return T7Object("nn.PartialLinear", fields)


@pytest.mark.parametrize("bias", [True, False], ids=["bias", "nobias"])
def test_loads_from_a_torch7_file(tmp_path, bias):
    from t7_writer import t7_bytes
    w = uniform((N_OUT, N_IN), 3)
    b = uniform((1, N_OUT), 4) if bias else None
    (tmp_path / "pl.t7").write_bytes(t7_bytes(torch7_partial_linear(w, b, [4, 0, 2])))
    m = nn.load_lua(str(tmp_path / "pl.t7"))
    assert type(m) is nn.PartialLinear and m.partition.tolist() == [4, 0, 2]
    assert not hasattr(m, "network") and not hasattr(m, "allcolumns")
    x = uniform((3, N_IN), 1)
    want = x @ w[[4, 0, 2]].T + (b[0, [4, 0, 2]] if bias else 0)
    np.testing.assert_allclose(m.forward(x), want, rtol=1e-14, atol=1e-15)
    m.zeroGradParameters()
    m.backward(x, np.ones((3, 3)))
    assert [p.shape for p in m.parameters()[0]] == [(N_OUT, N_IN)] + ([(1, N_OUT)] if bias else [])
    assert np.all(np.isfinite(m.gradWeight)) and m.gradWeight[[1, 3, 5]].sum() == 0
    assert m.resetPartition().forward(x).shape == (3, N_OUT)
