"""nn_legacy.MuFuRu (rnn package): forward against a numpy transcription of
the unit's formula, BPTT against central differences, the package's tree
and fields in the file, loaded from the package's layout."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly
from nn_legacy.serialization.t7 import T7Error, load_lua, read_t7
from rnn_checks import TOL, check_steps

D, H, B = 3, 4, 2


def _sigmoid(a):
    return 1 / (1 + np.exp(-a))


def _reference(m, xs, s=None):
    """numpy: the MuFuRu formula (the class doc) over the steps xs."""
    (Wr, br), (Ur, cr), (Wv, bv), (Wp, bp) = [(lin.weight, lin.bias) for lin in m._linears()]
    N = len(m.ops)
    s = np.zeros((xs[0].shape[0], H)) if s is None else s
    ops = {"keep": lambda s, v: s, "replace": lambda s, v: v, "mul": lambda s, v: s * v,
           "diff": lambda s, v: s - v, "forget": lambda s, v: 0 * s,
           "sqrt_diff": lambda s, v: 0.25 * np.sqrt(np.abs(s - v)),
           "max": np.maximum, "min": np.minimum}
    out = []
    for x in xs:
        r = _sigmoid(x @ Wr.T + br + s @ Ur.T + cr)
        v = _sigmoid(np.concatenate([x, r * s], 1) @ Wv.T + bv)
        a = (np.concatenate([x, s], 1) @ Wp.T + bp).reshape(-1, N, H)
        p = np.exp(a - a.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        s = sum(p[:, k] * ops[op](s, v) for k, op in enumerate(m.ops))
        out.append(s)
    return out


@pytest.mark.parametrize("ops", [None, ["keep", "replace"], ["sqrt_diff", "max", "min", "forget"]],
                         ids=["all", "gru-like", "some"])
def test_forward_is_the_formula(ops):
    nn.manualSeed(1)
    m = nn.MuFuRu(D, H, ops)
    xs = [np.random.default_rng(t).uniform(-1, 1, (B, D)) for t in range(3)]
    for y, want in zip([m.forward(x).copy() for x in xs], _reference(m, xs)):
        np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("window, ops", [(None, ["keep", "replace", "mul", "diff", "forget", "max", "min"]),
                                         (2, ["mul", "diff", "max"])], ids=["whole", "truncated"])
def test_bptt_against_central_differences(window, ops):
    """(Small sizes: the numeric gradient runs the tree twice per element.)"""
    nn.manualSeed(2)
    m = nn.MuFuRu(2, 2, ops, rho=100 if window is None else 2)
    xs = [np.random.default_rng(10 + t).uniform(-1, 1, (B, 2)) for t in range(3)]
    start = np.random.default_rng(5).uniform(-1, 1, (B, 2))
    assert check_steps(m, xs, start, window=window) < TOL


def test_sqrt_diff_s_gradient_where_s_and_v_differ():
    nn.manualSeed(3)
    m = nn.MuFuRu(D, H, ["sqrt_diff", "keep"], rho=100)
    xs = [np.random.default_rng(20 + t).uniform(-1, 1, (B, D)) for t in range(3)]
    assert check_steps(m, xs, np.random.default_rng(6).uniform(-1, 1, (B, H))) < TOL


def test_bad_arguments():
    with raises_exactly(ValueError, "MuFuRu: ops must be a non-empty list of keep, replace, mul, diff, forget, "
                                    "sqrt_diff, max, min, got ['keep', 'add']"):
        nn.MuFuRu(D, H, ["keep", "add"])
    with raises_exactly(ValueError, "MuFuRu: input must be a batch, 2D [batch, 3] (as in the rnn package), got 1D "
                                    "of size [3]"):
        nn.MuFuRu(D, H).forward(np.zeros(D))


@pytest.mark.parametrize("package", ["torch/rnn", "Element-Research/rnn"])
def test_the_file_holds_the_package_s_tree_and_loads_back(tmp_path, package):
    nn.manualSeed(4)
    m = nn.MuFuRu(D, H, ["keep", "max", "sqrt_diff"])
    f = tmp_path / "mufuru.t7"
    nn.save_lua(str(f), m, rnn=package)
    raw = read_t7(str(f))
    assert raw.class_name == "nn.MuFuRu" and raw.fields["ops"].as_list() == ["keep", "max", "sqrt_diff"]
    assert raw.fields["num_ops"] == 3.0 and ("seqlen" in raw.fields) == (package == "torch/rnn")
    step = raw.fields["modules"][1.0]
    ops = raw.fields["operations"].as_list()
    assert [o.class_name for o in ops] == ["nn.SelectTable", "nn.Sequential", "nn.Sequential"]
    assert [o.class_name for o in ops[2].fields["modules"].as_list()] == ["nn.CSubTable", "nn.Abs", "nn.Sqrt",
                                                                          "nn.MulConstant"]
    weights = step.fields["modules"][2.0].fields["modules"][3.0].fields["modules"]   # opWeights
    assert [w.class_name for w in weights.as_list()] == ["nn.NarrowTable", "nn.JoinTable", "nn.Linear", "nn.View",
                                                         "nn.Transpose", "nn.SoftMax"]
    assert weights[2.0].fields["dimension"] == 2.0 and weights[4.0].fields["numInputDims"] == 1.0
    again = load_lua(str(f))
    xs = [np.random.default_rng(30 + t).uniform(-1, 1, (B, D)) for t in range(3)]
    for x in xs:
        np.testing.assert_array_equal(again.forward(x), m.forward(x))
    raw.fields["ops"] = {1.0: "keep", 2.0: "add"}
    nn.save_lua(str(f), raw)
    with pytest.raises(T7Error, match="MuFuRu: ops in the file must be a list of"):
        load_lua(str(f))
    raw.fields["ops"] = {1.0: "keep", 2.0: "max", 3.0: "sqrt_diff"}
    raw.fields["outputSize"] = 1e6   # sizes past the file's weights: refused before anything of that size is made
    nn.save_lua(str(f), raw)
    with pytest.raises(T7Error, match="MuFuRu: the file's step module must hold 4 Linears of"):
        load_lua(str(f))
