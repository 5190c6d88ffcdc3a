"""save_lua writes the rnn package's FastLSTM, LSTM and GRU as that package
built them: the step module a tree of nn modules (its buildModel), the
cell's fields its constructor's, in the layout of torch/rnn or of the
Element-Research package.  Checked against the trees tests/rnn_t7_files.py
transcribes from the Lua sources (class names and fields, node by node),
by running the tree itself, and by loading the file back."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from cuda_devices import emulator_only
from nn_legacy.serialization.t7 import load_lua, read_t7
from t7_writer import t7_bytes

PACKAGES = {"torch/rnn": "tr", "Element-Research/rnn": "er"}
D, H = 3, 4
# fields whose values are work memory or the module's type, not its structure
IGNORED = {"output", "gradInput", "_type", "train", "gradWeight", "gradBias", "noise"}
# fields nn_legacy writes that the Lua constructors left nil (the same meaning there: false)
EXTRA_ALLOWED = {"inplace"}


def _lua_built(m, flavour):
    """What the rnn package's constructor of m's class built, with m's weights."""
    rho = m.rho
    if type(m) is nn.FastLSTM:
        step = m.recurrentModule
        return F.fast_lstm(step.i2g.weight, step.o2g.weight, step.i2g.bias, rho=rho, flavour=flavour)
    if type(m) is nn.LSTM:
        weights = {}
        for gate, (wx, wh, wc) in m.recurrentModule._parts().items():
            weights[gate] = (wx.weight, wx.bias, wh.weight)
            if gate != "z":
                weights[gate] += (None if wc is None else wc.weight,)
        return F.lstm(weights, rho=rho, cell2gate=m.cell2gate, flavour=flavour)
    i2g, o2g, xn, hn = m.recurrentModule.modules
    return F.gru(i2g.weight, i2g.bias, o2g.weight, xn.weight, xn.bias, hn.weight, rho=rho, flavour=flavour)


def _raw(tmp_path, t7object):
    f = tmp_path / "lua.t7"
    f.write_bytes(t7_bytes(t7object))
    return read_t7(str(f))


def _differences(written, expected, path, out, seen):
    """Where the written raw object differs from the expected one: class
    names, and every field the Lua constructor set (numbers, strings,
    booleans, arrays, tables, objects), recursively; fields written that
    Lua left nil."""
    if isinstance(expected, dict) or hasattr(expected, "as_list"):
        if not (isinstance(written, dict) or hasattr(written, "as_list")) or set(written) != set(expected):
            out.append(f"{path}: keys {sorted(map(str, written)) if isinstance(written, dict) else written!r} "
                       f"!= {sorted(map(str, expected))}")
            return
        for k in expected:
            _differences(written[k], expected[k], f"{path}[{k!r}]", out, seen)
    elif hasattr(expected, "class_name"):
        if (id(written), id(expected)) in seen:
            return
        seen.add((id(written), id(expected)))
        if getattr(written, "class_name", None) != expected.class_name:
            out.append(f"{path}: {getattr(written, 'class_name', type(written).__name__)} != {expected.class_name}")
            return
        for k in set(expected.fields) - IGNORED:
            if k not in written.fields:
                out.append(f"{path}.{k} missing")
            else:
                _differences(written.fields[k], expected.fields[k], f"{path}.{k}", out, seen)
        for k in set(written.fields) - set(expected.fields) - IGNORED - EXTRA_ALLOWED:
            out.append(f"{path}.{k} written, not built by Lua")
    elif isinstance(expected, np.ndarray):
        if not (isinstance(written, np.ndarray) and written.size == expected.size
                and np.array_equal(written.ravel(), expected.ravel())):
            out.append(f"{path}: another array")
    elif written != expected or type(written) is not type(expected):
        out.append(f"{path}: {written!r} != {expected!r}")


def _cells():
    return {"FastLSTM": lambda: nn.FastLSTM(D, H, rho=7), "LSTM": lambda: nn.LSTM(D, H, rho=7),
            "LSTM-nopeep": lambda: nn.LSTM(D, H, 7, cell2gate=False), "GRU": lambda: nn.GRU(D, H, rho=7)}


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("name", _cells())
def test_the_file_holds_what_the_rnn_package_built(tmp_path, name, package):
    nn.manualSeed(2)
    m = _cells()[name]()
    m.forward(np.random.default_rng(0).uniform(-1, 1, (2, D)))   # (a used cell: written as a fresh sequence)
    f = tmp_path / "cell.t7"
    nn.save_lua(str(f), m, rnn=package)
    written = read_t7(str(f))
    expected = _raw(tmp_path, _lua_built(m, PACKAGES[package]))
    out = []
    _differences(written, expected, "root", out, set())
    assert not out, out
    step = written.fields["modules"][1.0]
    assert written.fields["sharedClones"][1.0] is step
    if package == "Element-Research/rnn":
        assert written.fields["recurrentModule"] is step and "seqlen" not in written.fields
    else:
        assert "recurrentModule" not in written.fields and "rho" not in written.fields
    classes = {o.class_name for o in _walk(written)}
    assert not any(c.endswith(("Step", "Fused")) for c in classes)   # nothing of nn_legacy's own
    assert ("nn.LinearNoBias" in classes) == (package == "Element-Research/rnn")


def _walk(raw, seen=None):
    seen = set() if seen is None else seen
    if not hasattr(raw, "class_name") or id(raw) in seen:
        return []
    seen.add(id(raw))
    found = [raw]
    for value in (raw.fields.values() if isinstance(raw.fields, dict) else ()):
        items = value.values() if isinstance(value, dict) else [value]
        for v in items:
            found += _walk(v, seen)
    return found


@pytest.mark.parametrize("name", _cells())
def test_the_tree_computes_the_step(name):
    """The nn modules written in place of the step module compute what the
    step computes (forward and backward), over a batch and one sample."""
    nn.manualSeed(3)
    m = _cells()[name]()
    step = m.recurrentModule
    rng = np.random.default_rng(1)
    for batch in ((2,), ()):
        x = rng.uniform(-1, 1, batch + (D,))
        state = [rng.uniform(-1, 1, batch + (H,)) for _ in range(1 if name == "GRU" else 2)]
        inp = [x] + state
        for package in PACKAGES:
            tree, _ = step._t7_lua_tree(package) if name == "GRU" else step._t7_lua_tree(package, False)
            want = step.forward(inp)
            got = tree.forward(inp)
            for a, b in zip(want if isinstance(want, list) else [want], got if isinstance(got, list) else [got]):
                np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-14)
            grad = [rng.uniform(-1, 1, s.shape) for s in state] if name != "GRU" else rng.uniform(-1, 1, x.shape[:-1] + (H,))
            want_g = step.backward(inp, grad)
            got_g = tree.backward(inp, grad)
            for a, b in zip(want_g, got_g):
                np.testing.assert_allclose(b, a, rtol=1e-10, atol=1e-13)


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("name", _cells())
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_loaded_back_it_computes_the_same(tmp_path, name, package, dtype):
    nn.manualSeed(4)
    m = _cells()[name]()
    m = m.float() if dtype == np.float32 else m
    xs = np.random.default_rng(2).uniform(-1, 1, (3, 2, D)).astype(dtype)
    f = tmp_path / "cell.t7"
    nn.save_lua(str(f), m, rnn=package)
    assert read_t7(str(f)).fields["_type"] == ("torch.FloatTensor" if dtype == np.float32 else "torch.DoubleTensor")
    again = load_lua(str(f))
    assert type(again) is type(m) and again.rho == 7
    for x in xs:
        y, y2 = m.forward(x), again.forward(x)
        assert y2.dtype == dtype
        np.testing.assert_array_equal(y2, y)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_masked_cell_is_written_with_its_mask(tmp_path, package):
    nn.manualSeed(5)
    m = nn.Sequencer(nn.FastLSTM(D, H).maskZero(1))
    xs = np.random.default_rng(3).uniform(-1, 1, (3, 2, D))
    xs[0, 1] = 0
    f = tmp_path / "masked.t7"
    nn.save_lua(str(f), m, rnn=package)
    cell = read_t7(str(f)).fields["modules"][1.0]   # (torch/rnn's Sequencer has no module alias)
    mask = cell.fields["modules"][1.0]
    assert mask.class_name == "nn.MaskZero" and mask.fields["nInputDim"] == 1.0
    assert mask.fields["modules"][1.0].class_name == "nn.Sequential"
    assert cell.fields.get("maskzero", False) == (package == "torch/rnn")
    again = load_lua(str(f))
    np.testing.assert_array_equal(np.stack(again.forward(list(xs))), np.stack(m.forward(list(xs))))
    assert not again.forward(list(xs))[0][1].any()


@pytest.mark.parametrize("package", PACKAGES)
def test_a_batch_normalized_fast_lstm_is_written_with_the_package_s_nngraph_step(tmp_path, package):
    """FastLSTM.bn: the rnn package's FastLSTM:nngraphModel built the step as
    an nngraph gModule; save_lua writes that graph around the step's modules
    (nngraph_writer), with the package's fields (those of the transcription
    in rnn_t7_files), and it loads back computing the same, BPTT included
    (tools/nngraph_lua_check.py runs it in Lua's rnn too)."""
    nn.manualSeed(6)
    m = nn.Sequencer(nn.FastLSTM(D, H, bn=True))
    cell, step = m.modules[0], m.modules[0].recurrentModule
    step.bias_module.bias[...] = np.random.default_rng(5).uniform(-1, 1, 4 * H)
    f = tmp_path / "bn.t7"
    nn.save_lua(str(f), m, rnn=package)
    raw = read_t7(str(f)).fields["modules"][1.0]
    flavour = PACKAGES[package]
    bns = tuple(F.obj("BatchNormalization") for _ in range(3))
    expected = _raw(tmp_path, F.fast_lstm_bn(step.i2g.weight, step.o2g.weight, step.i2g.bias,
                                             step.bias_module.bias, bns, rho=cell.rho, flavour=flavour))
    assert raw.class_name == "nn.FastLSTM"
    assert set(raw.fields) - {"eps", "momentum"} == set(expected.fields)
    graph = raw.fields["modules"][1.0]
    assert graph.class_name == "nn.gModule" and graph.fields["nInputs"] == 3.0
    if flavour == "er":
        assert raw.fields["recurrentModule"] is graph
    modules = graph.fields["modules"]
    classes = sorted(modules[float(i)].class_name for i in range(1, len(modules) + 1))
    want = expected.fields["modules"][1.0].fields["modules"]
    assert classes == sorted(want[float(i)].class_name for i in range(1, len(want) + 1))
    assert raw.fields["i2g"] in modules.values() and raw.fields["o2g"] in modules.values()
    xs = list(np.random.default_rng(4).uniform(-1, 1, (3, 5, D)))
    gos = list(np.random.default_rng(5).uniform(-1, 1, (3, 5, H)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = load_lua(str(f))
    assert type(again.modules[0].recurrentModule) is nn.FastLSTMBNStep
    for model in (m, again):
        model.zeroGradParameters()
    np.testing.assert_array_equal(np.stack(again.forward(xs)), np.stack(m.forward(xs)))
    np.testing.assert_array_equal(np.stack(again.backward(xs, gos)), np.stack(m.backward(xs, gos)))
    for a, b in zip(again.parameters()[1], m.parameters()[1]):
        np.testing.assert_array_equal(a, b)
    for model in (m, again):
        model.evaluate()
    np.testing.assert_array_equal(np.stack(again.forward(xs)), np.stack(m.forward(xs)))


def test_an_unknown_package_is_refused(tmp_path):
    with pytest.raises(ValueError, match="rnn must be 'torch/rnn' or 'Element-Research/rnn', got 'rnn'"):
        nn.save_lua(str(tmp_path / "f.t7"), nn.GRU(2, 2), rnn="rnn")


@emulator_only
def test_a_cell_on_the_device_is_written_from_its_host_copy(tmp_path):
    m = nn.FastLSTM(D, H).float()
    x = np.random.default_rng(6).uniform(-1, 1, (2, D)).astype(np.float32)
    y = m.forward(x).copy()
    m.forget()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # (the CPU emulator when thnn has no nvcc library)
        m.cuda()
    f = tmp_path / "cuda.t7"
    nn.save_lua(str(f), m)
    raw = read_t7(str(f))
    assert raw.fields["_type"] == "torch.FloatTensor" and raw.fields["i2g"].fields["weight"].dtype == np.float32
    np.testing.assert_array_equal(load_lua(str(f)).forward(x), y)


# ---------------------------------------------------------------- the other rnn classes' layouts
def _lin(m):
    return F.linear(m.weight, m.bias)


def _record(name, step, rho, flavour, **more):
    fields = F._recurrent_fields(step, rho, flavour, False, {})
    fields.update(more)
    return F.obj(name, fields)


def _layouts():
    """name -> (make the module, the raw object the package's constructor
    built for it given the flavour, 'er' or 'tr'; None where the package
    has no such class)."""
    def recursor():
        return nn.Recursor(nn.Linear(D, H), rho=6)

    def recursor_lua(m, fl):
        return F.recursor(_lin(m.module), rho=6, flavour=fl)

    def recurrence():
        return nn.Recurrence(nn.Sequential().add(nn.JoinTable(0, 1)).add(nn.Linear(D + H, H)).add(nn.Tanh()), H, 1,
                             rho=5)

    def recurrence_lua(m, fl):
        join, lin, _ = m.module.modules
        step = F.seq(F.join_table(1.0, 1.0), _lin(lin), F.obj("Tanh"))
        return F.recurrence(step, F.table(float(H)), 1, rho=5, flavour=fl)

    def norm_stabilizer():
        return nn.NormStabilizer(0.5)

    def norm_stabilizer_lua(m, fl):
        return _record("NormStabilizer", F.obj("CopyGrad"), m.rho, fl, beta=0.5)

    def sequencer():
        return nn.Sequencer(nn.Linear(D, H)).remember("both")

    def sequencer_lua(m, fl):
        return F.sequencer(_lin(m.module.module), flavour=fl, remember="both")

    def repeater():
        return nn.Repeater(nn.Linear(D, H), 5)

    def repeater_lua(m, fl):
        return F.repeater(F.recursor(_lin(m.module.module), rho=5, flavour=fl), 5, flavour=fl)

    def seq_lstm():
        return nn.SeqLSTM(D, H)

    def seq_lstm_lua(m, fl):
        return F.seq_lstm(m.weight, m.bias, flavour=fl)

    def seq_gru():
        return nn.SeqGRU(D, H)

    def seq_gru_lua(m, fl):
        return F.seq_gru(m.weight, m.bias, flavour=fl)

    def rec_lstm():
        return nn.RecLSTM(D, H)

    def rec_lstm_lua(m, fl):
        return F.rec_lstm(F.step_lstm(m.recurrentModule.weight, m.recurrentModule.bias), seqlen=m.rho)

    def rec_gru():
        return nn.RecGRU(D, H)

    def rec_gru_lua(m, fl):
        return F.rec_gru(F.step_gru(m.recurrentModule.weight, m.recurrentModule.bias), seqlen=m.rho)

    def linear_rnn():
        return nn.LinearRNN(D, H)

    def linear_rnn_lua(m, fl):
        lin = m.module.modules[1]
        return F.linear_rnn(lin.weight, lin.bias)

    def recurrent():
        return nn.Recurrent(H, nn.Linear(D, H), nn.Linear(H, H), nn.Tanh(), 5)

    def recurrent_lua(m, fl):
        return F.recurrent(m.startModule.bias, m.inputModule.weight, m.inputModule.bias, m.feedbackModule.weight,
                           m.feedbackModule.bias, rho=5)

    return {"Recursor": (recursor, recursor_lua), "Recurrence": (recurrence, recurrence_lua),
            "NormStabilizer": (norm_stabilizer, norm_stabilizer_lua), "Sequencer": (sequencer, sequencer_lua),
            "Repeater": (repeater, repeater_lua), "SeqLSTM": (seq_lstm, seq_lstm_lua),
            "SeqGRU": (seq_gru, seq_gru_lua),
            # classes of one package alone: that package's layout whatever rnn= says
            "RecLSTM": (rec_lstm, rec_lstm_lua), "RecGRU": (rec_gru, rec_gru_lua),
            "LinearRNN": (linear_rnn, linear_rnn_lua), "Recurrent": (recurrent, recurrent_lua)}


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("name", _layouts())
def test_the_other_rnn_classes_are_written_in_the_package_s_layout(tmp_path, name, package):
    """Recursor, Recurrence... with the fields the package's constructor set:
    rho and recurrentModule (Element-Research) or seqlen and modules[1]
    (torch/rnn), a fresh sequence's empty records, the flags and buffers
    Lua's forward needs; checked field by field against the transcriptions
    of the constructors in tests/rnn_t7_files.py."""
    nn.manualSeed(6)
    make, lua = _layouts()[name]
    m = make()
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, rnn=package)
    written = read_t7(str(f))
    expected = _raw(tmp_path, lua(m, PACKAGES[package]))
    out = []
    _differences(written, expected, "root", out, set())
    assert not out, out


@pytest.mark.parametrize("package", PACKAGES)
def test_recursor_and_recurrence_say_seqlen_for_torch_rnn(tmp_path, package):
    for m in (nn.Recursor(nn.Linear(D, H), rho=6), nn.Recurrence(nn.CAddTable(), H, 1, rho=6)):
        f = tmp_path / "m.t7"
        nn.save_lua(str(f), m, rnn=package)
        fields = read_t7(str(f)).fields
        if package == "torch/rnn":
            assert fields["seqlen"] == 6.0 and not {"rho", "recurrentModule", "module"} & set(fields)
        else:
            assert fields["rho"] == 6.0 and "seqlen" not in fields
            assert fields["recurrentModule"] is fields["module"] is fields["modules"][1.0]
        assert fields["sharedClones"][1.0] is fields["modules"][1.0] and fields["step"] == 1.0
        assert load_lua(str(f)).rho == 6


def _sequence(m, xs):
    if isinstance(m, (nn.SeqLSTM, nn.SeqGRU)):
        return [m.forward(xs)]
    if isinstance(m, (nn.Sequencer, nn.Repeater)):
        return m.forward(list(xs) if isinstance(m, nn.Sequencer) else xs[0])
    return [m.forward(x) for x in xs]


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("name", _layouts())
def test_the_other_rnn_classes_load_back_and_compute_the_same(tmp_path, name, package):
    nn.manualSeed(7)
    m = _layouts()[name][0]()
    xs = np.random.default_rng(5).uniform(-1, 1, (3, 2, D))
    if name == "NormStabilizer":
        xs = xs[..., :1].repeat(H, axis=-1)
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, rnn=package)
    again = load_lua(str(f))
    assert type(again) is type(m)
    for a, b in zip(_sequence(m, xs), _sequence(again, xs)):
        np.testing.assert_array_equal(b, a)
    if name == "Sequencer":
        assert again._remember == "both"   # (a private attribute here, a field in Lua)


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("cls", [nn.RecLSTM, nn.RecGRU])
def test_a_masked_rec_cell_is_written_as_torch_rnn_masks_it(tmp_path, cls, package):
    """torch/rnn's RecLSTM / RecGRU maskZero sets maskzero on the step
    module (v2 false: the mask comes from the zero inputs), no MaskZero."""
    nn.manualSeed(8)
    m = cls(D, H).maskZero(1)
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, rnn=package)
    step = read_t7(str(f)).fields["modules"][1.0]
    assert step.class_name == f"nn.Step{cls.__name__[3:]}"
    assert step.fields["maskzero"] is True and step.fields["v2"] is False
    xs = np.random.default_rng(6).uniform(-1, 1, (3, 2, D))
    xs[1, 0] = 0
    again = load_lua(str(f))
    for t, x in enumerate(xs):
        y = again.forward(x)
        np.testing.assert_array_equal(y, m.forward(x))
        assert (not y[0].any()) == (t == 1) and y[1].any()   # (the zero step of sample 0 masked)
    assert type(again.recurrentModule).__name__ == "MaskZero"


@pytest.mark.parametrize("package", PACKAGES)
def test_seq_modules_keep_remember_and_maskzero(tmp_path, package):
    m = nn.SeqLSTM(D, H).remember("eval")
    m.maskZero()
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, rnn=package)
    fields = read_t7(str(f)).fields
    assert fields["_remember"] == "eval" and fields["maskzero"] is True
    assert fields.get("v2", False) is False
    again = load_lua(str(f))
    assert again._remember == "eval" and again.maskzero


def test_batchfirst_seq_modules_are_refused_for_torch_rnn(tmp_path):
    m = nn.SeqGRU(D, H)
    m.batchfirst = True
    with pytest.raises(ValueError, match="batchfirst.*Element-Research"):
        nn.save_lua(str(tmp_path / "m.t7"), m)
    nn.save_lua(str(tmp_path / "m.t7"), m, rnn="Element-Research/rnn")
    assert load_lua(str(tmp_path / "m.t7")).batchfirst is True


@pytest.mark.parametrize("merge", ["sum", "join"])
def test_torch_rnn_bisequencer_is_written_as_torch_rnn_built_it(tmp_path, merge):
    """torch/rnn's form: modules[1] alone, the directions in Sequencers of
    torch/rnn's layout and the backward one inside a ReverseUnreverse, field
    by field as rnn_t7_files transcribes its constructor; loaded back, it
    computes what it did."""
    nn.manualSeed(17)
    fwd, bwd = nn.Recursor(nn.Linear(D, H)), nn.Recursor(nn.Linear(D, H))
    m = nn.BiSequencer(fwd, bwd, nn.JoinTable(2) if merge == "join" else None, package="torch/rnn")
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m)
    joined = F.join_table(3.0, None)
    del joined.fields["nInputDims"]   # (nil: JoinTable(3) was given no nInputDims)
    expected = F.bisequencer_whole(*(F.recursor(_lin(r.module), flavour="tr") for r in (fwd, bwd)),
                                   joined if merge == "join" else None)
    out = []
    _differences(read_t7(str(f)), _raw(tmp_path, expected), "root", out, set())
    assert not out, out
    again = load_lua(str(f))
    assert type(again) is nn.BiSequencer and again.package == "torch/rnn"
    x = np.random.default_rng(8).uniform(-1, 1, (3, 2, D))
    np.testing.assert_array_equal(again.forward(x), m.forward(x))


@pytest.mark.parametrize("name, package", [("BiSequencer", "Element-Research/rnn"),
                                           ("BiSequencerLM", "Element-Research/rnn"), ("BiSequencerLM", "torch/rnn")])
def test_bisequencers_are_written_as_the_element_research_package_built_them(tmp_path, name, package):
    """The Sequential around the three sequencers with dpnn's ReverseTable
    and ZipTable, as the Element-Research constructor built it.  torch/rnn
    has no BiSequencerLM (the file says Element-Research's layout whatever
    rnn= says, and comes back the same here); its BiSequencer merges whole
    sequences, another module, so a BiSequencer is refused for it
    (tests/test_save_lua_torch7_fields.py)."""
    nn.manualSeed(13)
    fwd, bwd = nn.Recursor(nn.Linear(D, H)), nn.Recursor(nn.Linear(D, H))
    m = getattr(nn, name)(fwd, bwd)
    f = tmp_path / "m.t7"
    nn.save_lua(str(f), m, rnn=package)
    written = read_t7(str(f))
    if package == "Element-Research/rnn":
        raw = [F.recursor(_lin(r.module)) for r in (fwd, bwd)]
        expected = (F.bisequencer if name == "BiSequencer" else F.bisequencer_lm)(*raw)
        out = []
        _differences(written, _raw(tmp_path, expected), "root", out, set())
        assert not out, out
    else:
        assert {"fwdSeq", "bwdSeq", "mergeSeq"} <= set(written.fields)
    again = load_lua(str(f))
    xs = list(np.random.default_rng(7).uniform(-1, 1, (3, 2, D)))
    for a, b in zip(again.forward(xs), m.forward(xs)):
        np.testing.assert_array_equal(a, b)
