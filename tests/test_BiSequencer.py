"""nn_legacy.BiSequencer: forward and backward recurrent modules merged step by step."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform

D, H, N, T = 3, 4, 2, 5
X, G = uniform((T, N, D), 1), uniform((T, N, 2 * H), 2)


def test_merges_both_directions():
    nn.manualSeed(0)
    fwd, bwd = nn.FastLSTM(D, H), nn.GRU(D, H)
    m = nn.BiSequencer(fwd.clone(), bwd.clone())
    f = nn.Sequencer(fwd).forward(X)
    b = nn.Sequencer(bwd).forward(X[::-1].copy())[::-1]
    np.testing.assert_allclose(m.forward(X), np.concatenate([f, b], axis=2), rtol=1e-14)
    np.testing.assert_allclose(np.stack(m.forward(list(X))), np.concatenate([f, b], axis=2), rtol=1e-14)


def test_default_backward_module_and_merge():
    nn.manualSeed(1)
    m = nn.BiSequencer(nn.FastLSTM(D, H), merge=nn.CAddTable())
    fw, bw = m.forwardModule, m.backwardModule
    assert type(bw) is nn.FastLSTM and not np.array_equal(fw.i2g.weight, bw.i2g.weight)   # a reset copy
    assert m.forward(X).shape == (T, N, H)
    assert nn.BiSequencer(nn.GRU(D, H), merge=1).mergeModule.nInputDims == 1
    with pytest.raises(TypeError, match="merge must be a Module or a number"):
        nn.BiSequencer(nn.GRU(D, H), merge="join")
    with pytest.raises(RuntimeError, match="accGradParameters needs updateGradInput first"):
        m.accGradParameters(X, np.zeros((T, N, H)))


# ---------------------------------------------------------------- torch/rnn's form (whole sequences merged)
def _seq_lstm_numpy(m, xs):
    """A SeqLSTM's output from its weight [D + H, 4H] (gates i, f, o, z) by
    rnn_reference's LSTM, with torch.nn.LSTM's gate rows (i, f, z, o)."""
    import rnn_reference as R
    cols = R.seq_to_torch_rows(m.outputsize)
    d = xs.shape[-1]
    return R.lstm(m.weight[:d, cols].T, m.weight[d:, cols].T, m.bias[cols], xs)


@pytest.mark.parametrize("merge", ["sum", "join"])
def test_torch_rnn_form_merges_whole_sequences(merge):
    """y = merge([fwd(x), reverse(bwd(reverse(x)))]) over [T, N, D],
    against a numpy LSTM of each direction's weights; the gradients of
    both directions and of x are those of the two directions run apart."""
    nn.manualSeed(2)
    m = nn.BiSequencer(nn.SeqLSTM(D, H), merge=nn.JoinTable(2) if merge == "join" else None, package="torch/rnn")
    fwd, bwd = m.getForward(), m.getBackward()
    assert m.package == "torch/rnn" and type(fwd) is type(bwd) is nn.SeqLSTM
    assert not np.array_equal(fwd.weight, bwd.weight)   # backward: a reset copy of forward
    f, b = _seq_lstm_numpy(fwd, X), _seq_lstm_numpy(bwd, X[::-1])[::-1]
    expected = np.concatenate([f, b], axis=2) if merge == "join" else f + b
    y = m.forward(X)
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-13)

    g = uniform(y.shape, 3)
    gf, gb = (g[..., :H], g[..., H:]) if merge == "join" else (g, g)
    apart = [fwd.clone(), bwd.clone()]
    for a in apart:
        a.zeroGradParameters()
    dx = apart[0].backward(X, gf) + apart[1].backward(X[::-1].copy(), gb[::-1].copy())[::-1]
    m.zeroGradParameters()
    np.testing.assert_allclose(m.backward(X, g), dx, rtol=1e-12, atol=1e-13)
    for a, b in zip(m.parameters()[1], apart[0].parameters()[1] + apart[1].parameters()[1]):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


def test_torch_rnn_form_wraps_what_is_not_a_sequence_module():
    """torch/rnn's isSeq: a recurrent cell goes in a Sequencer, a sequencer
    or a Seq* module (Sequential too, as the Lua pattern 'nn.Seq.+' reads)
    is used as it is; a number for merge is Element-Research's only."""
    nn.manualSeed(4)
    m = nn.BiSequencer(nn.FastLSTM(D, H), nn.Sequencer(nn.GRU(D, H)), package="torch/rnn")
    assert type(m.getForward()) is nn.Sequencer and type(m.getForward().module) is nn.FastLSTM
    assert type(m.getBackward()) is nn.Sequencer and type(m.getBackward().module) is nn.GRU
    assert type(m.modules[0].modules[1]) is nn.CAddTable
    stateless = nn.BiSequencer(nn.Sequential().add(nn.Linear(D, H)), package="torch/rnn")
    lin_f, lin_b = stateless.getForward().modules[0], stateless.getBackward().modules[0]
    x = X[:, 0]   # (a Sequential of a Linear: [T, D], time as its batch; a Sequencer would take [T, N, D])
    np.testing.assert_allclose(stateless.forward(x), x @ lin_f.weight.T + lin_f.bias + x @ lin_b.weight.T
                               + lin_b.bias, rtol=1e-13)
    m.remember()
    assert (m.getForward()._remember, m.getBackward()._remember) == ("both", "neither")
    assert "forward:  nn.Sequencer" in repr(m) and "merge:    nn.CAddTable" in repr(m)
    with pytest.raises(TypeError, match="merge must be a Module \\(torch/rnn's form\\), got int"):
        nn.BiSequencer(nn.GRU(D, H), merge=1, package="torch/rnn")
    with pytest.raises(ValueError, match="package must be 'Element-Research/rnn' or 'torch/rnn'"):
        nn.BiSequencer(nn.GRU(D, H), package="rnn")
    with pytest.raises(ValueError, match="torch/rnn's BiSequencerLM is Element-Research's"):
        nn.BiSequencerLM(nn.GRU(D, H), package="torch/rnn")
    assert nn.BiSequencer(nn.GRU(D, H)).package == "Element-Research/rnn"


# ---------------------------------------------------------------- torch/rnn's form: the tree's forward without its containers
def _bidirectional(kind, dtype, merge):
    nn.manualSeed(5)
    join = nn.JoinTable(2) if merge == "join" else None
    if kind == "BiSequencer":
        m = nn.BiSequencer(nn.SeqGRU(D, H), merge=join, package="torch/rnn")
    else:
        m = getattr(nn, kind)(D, H, join)
    return m.double() if dtype == np.float64 else m.float()


def _container_forward(m, x):
    """The forward through every container of the tree (what the owner's forward did before)."""
    y = m.modules[0].updateOutput(x)
    return y, _tree_outputs(m)


def _tree_outputs(m):
    tree = m.modules[0]
    both, merge = tree.modules
    ahead, behind = both.modules
    steps = behind.modules[0]
    found = [tree.output, both.output, behind.output, steps.output, merge.output, ahead.output]
    found += [s.output for s in steps.modules]
    return found


@pytest.mark.parametrize("kind", ["BiSequencer", "SeqBGRU", "SeqBLSTM"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("merge", ["sum", "join"])
@pytest.mark.parametrize("T,N", [(1, 1), (3, 2), (5, 1)])
def test_torch_rnn_form_forward_skips_the_containers(monkeypatch, kind, dtype, merge, T, N):
    """torch/rnn's BiSequencer (and SeqBGRU, SeqBLSTM) call the five leaves
    of their tree directly: no container's updateOutput runs, the output
    is the containers' one bit for bit, every container of the tree holds
    the output its own forward gives, and a backward after it gives the
    gradients of the container path, bit for bit."""
    rng = np.random.default_rng(T * 10 + N)
    x = rng.uniform(-1, 1, (T, N, D)).astype(dtype)
    g = rng.uniform(-1, 1, (T, N, 2 * H if merge == "join" else H)).astype(dtype)
    results = []
    for containers in (True, False):
        m = _bidirectional(kind, dtype, merge)
        if containers:
            y, outputs = _container_forward(m, x)
            m.output = y
        else:
            with monkeypatch.context() as patch:
                for cls in (nn.Sequential, nn.ConcatTable, nn.ReverseUnreverse):
                    patch.setattr(cls, "updateOutput", lambda *a: pytest.fail("a container's forward ran"))
                y = m.forward(x)
            outputs = _tree_outputs(m)
            assert m.output is y is m.modules[0].output
        y = y.copy()
        outputs = [[a.copy() for a in o] if isinstance(o, list) else o.copy() for o in outputs]
        m.zeroGradParameters()
        grads = [m.backward(x, g).copy()] + [p.copy() for p in m.parameters()[1]]
        results.append((y, outputs, grads))
    (y0, out0, g0), (y1, out1, g1) = results
    assert y1.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y1, y0)
    for a, b in zip(out1, out0):
        for u, v in zip(a if isinstance(a, list) else [a], b if isinstance(b, list) else [b]):
            np.testing.assert_array_equal(u, v)
    for a, b in zip(g1, g0):
        np.testing.assert_array_equal(a, b)


def test_torch_rnn_form_forward_names_errors_as_its_containers():
    """An error in a leaf is named with the path of containers the
    container forward would put in front of it, the owner's name first."""
    m = _bidirectional("BiSequencer", np.float64, "sum")
    bad = np.zeros((2, 1, D + 1))
    with pytest.raises(ValueError) as fast:
        m.forward(bad)
    with pytest.raises(ValueError) as slow:
        m._child(0, "updateOutput", bad)
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("BiSequencer (0) -> Sequential (0) -> ConcatTable (0) -> SeqGRU: x must be")
    # an error in the backward direction, behind the reversal
    m.modules[0].modules[0].modules[1].getModule().maskzero = None
    m.getBackward().userPrevOutput = np.zeros((5, H))
    with pytest.raises(ValueError) as fast:
        m.forward(np.zeros((2, 1, D)))
    m.getBackward().userPrevOutput = np.zeros((5, H))
    with pytest.raises(ValueError) as slow:
        m._child(0, "updateOutput", np.zeros((2, 1, D)))
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("BiSequencer (0) -> Sequential (0) -> ConcatTable (1) -> ReverseUnreverse (0) "
                                      "-> Sequential (1) -> SeqGRU: userPrevOutput must be")
    # a merge that refuses the two outputs
    m = _bidirectional("SeqBGRU", np.float64, "join")
    m.modules[0].modules[1] = nn.JoinTable(5)
    with pytest.raises(ValueError) as fast:
        m.forward(np.zeros((2, 1, D)))
    with pytest.raises(ValueError) as slow:
        m._child(0, "updateOutput", np.zeros((2, 1, D)))
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("SeqBGRU (0) -> Sequential (1) -> JoinTable")


def test_torch_rnn_form_with_another_tree_goes_through_its_containers():
    """A module added to the tree (or a container subclass in it): the
    containers' forward, as before."""
    m = _bidirectional("BiSequencer", np.float64, "sum")
    m.modules[0].add(nn.Tanh())
    x = np.random.default_rng(3).uniform(-1, 1, (3, 2, D))
    y = m.forward(x)
    np.testing.assert_array_equal(y, nn.Tanh().forward(m.modules[0].modules[1].output))
    assert m.output is y is m.modules[0].modules[2].output
