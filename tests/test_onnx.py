"""nn_legacy.onnx: every module class exports to ONNX and computes there what
it computes in nn_legacy (onnxruntime, or onnx's reference evaluator where
onnxruntime has no float64 kernel); composite nets, the real Torch7 nets
of the test data, the errors, the CLI and the ONNX guide's pointer to the table."""
import io
import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

from onnx_checks import Exported, check_parity, larger_batch, nn_onnx, onnx, ort  # skips without onnx

import module_table
import nn_legacy as nn
from nn_legacy.serialization.t7 import load_lua, read_t7
from onnx_cases import CASES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guides", "onnx.md")

# ---------------------------------------------------------------- per-class parity
# Per-entry specifics, by entry id; a guard below fails for an id no entry has.

#: entries whose export has a fixed batch, and why (the test fails when one of
#: them becomes dynamic, so the list cannot go stale)
STATIC_BATCH = {
    "SpatialMaxUnpooling": "its pooling ran outside the model: the indices of that run are constants, for its batch",
    "VolumetricMaxUnpooling": "as SpatialMaxUnpooling",
    "Index": "its 4 indices are as many as the batch, so the exporter takes them for a batch too (Index-batch-free "
             "has 4 indices for a batch of 3 and is dynamic)",
    "Transpose": "the batch moves to the last dim, and the exporter follows a batch in the first dim only",
    "Sequencer": "the input is [seqlen, batch, ...]: time steps unrolled, their number fixed (Sequencer-table, a "
                 "table of steps, keeps its batch free)",
    "BiSequencer": "as Sequencer",
    "BiSequencer-torch-rnn": "as Sequencer (its forward direction is one)",
    "BiSequencerLM": "as Sequencer",
    "Sequencer-charlm": "as Sequencer",
    "MuFuRu": "its op weights are transposed to [ops, batch, H] (as in the rnn package), and the exporter follows a "
              "batch in the first dim only",
    "SeqLSTM-states": "the table's first arrays, the states [batch, H], have the batch first but x [seqlen, batch, "
                      "...] second, and the exporter follows a batch in the first dim only",
}

_REFERENCE_MAXUNPOOL = ("onnxruntime has no float64 MaxUnpool, and onnx.reference's MaxUnpool reads the "
                        "indices of a batch as if they counted within each sample (IndexError)")
#: float64 entries no runtime here can run, and why (the test checks that the
#: file is valid ONNX and that onnxruntime still lacks the kernel)
FLOAT64_UNRUNNABLE = {
    "SpatialMaxUnpooling": _REFERENCE_MAXUNPOOL,
    "SpatialMaxUnpooling-paired": _REFERENCE_MAXUNPOOL,
    "VolumetricMaxUnpooling": _REFERENCE_MAXUNPOOL,
    "VolumetricMaxUnpooling-paired": _REFERENCE_MAXUNPOOL,
    "SpatialCrossMapLRN": "onnxruntime has no float64 LRN, and onnx.reference's LRN sums over the batch dim "
                          "instead of the planes (SpatialCrossMapLRN-alpha runs in float64, through a Conv)",
}

_REFERENCE_GRIDSAMPLE = (20, "onnxruntime has no float64 GridSample, and onnx.reference knows its mode only by "
                             "the name opset 20 gave it ('linear')")
#: float64 entries checked at another opset, and why
FLOAT64_OPSET = {
    "SpatialGridSamplerBilinear": _REFERENCE_GRIDSAMPLE,
    "SpatialGridSamplerBilinear-border": _REFERENCE_GRIDSAMPLE,
}

#: tolerances other than onnx_checks.TOLERANCE, by entry id, and why
TOLERANCE = {}


def _module_entries():
    """(pytest id, entry) for every module entry of the module table and of onnx_cases."""
    out = []
    for prefix, entries in (("table", module_table.ENTRIES), ("case", CASES)):
        for e in entries:
            cls = getattr(nn, e.cls, None)
            if isinstance(cls, type) and issubclass(cls, nn.Module):
                out.append((f"{prefix}:{e.id}", e))
    return out


ENTRIES = _module_entries()


def _spec(table, entry):
    return table.get(entry.id)


def _exportable(cls_name):
    return nn_onnx.support(getattr(nn, cls_name))[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("entry", [e for _, e in ENTRIES], ids=[i for i, _ in ENTRIES])
def test_module_matches_nn_legacy(entry, dtype):
    if not _exportable(entry.cls):
        model = entry.build()
        with pytest.raises(nn_onnx.ExportError, match=f"^{entry.cls}: no ONNX equivalent"):
            nn_onnx.export(model, entry.input(np.random.default_rng(0)), None)
        return
    opset = None
    if np.dtype(dtype) == np.float64:
        if _spec(FLOAT64_UNRUNNABLE, entry):
            check_float64_unrunnable(entry)
            return
        if _spec(FLOAT64_OPSET, entry):
            opset = _spec(FLOAT64_OPSET, entry)[0]
    report = check_parity(entry.build, entry.input, dtype, opset=opset, tolerance=TOLERANCE.get(entry.id))
    if _spec(STATIC_BATCH, entry):
        assert report["static"], f"{entry.id} now keeps a dynamic batch: take it off STATIC_BATCH"
    else:
        assert not report["static"], f"{entry.id}: {report['static']}"
        assert "batches" in report


def check_float64_unrunnable(entry):
    """The float64 export is valid ONNX, and onnxruntime still lacks the kernel (so the exclusion holds)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", nn_onnx.StaticBatchWarning)
        proto = nn_onnx.export(entry.build(), entry.input(np.random.default_rng(0)), None)
    onnx.checker.check_model(proto, full_check=True)
    with pytest.raises(Exception, match="NOT_IMPLEMENTED"):
        ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])


def test_every_module_class_has_an_entry_and_a_verdict():
    """Every module class is exported by some entry or is refused with a reason of its own."""
    classes = {n for n in nn.__all__ if isinstance(getattr(nn, n), type) and issubclass(getattr(nn, n), nn.Module)
               and n not in module_table.ABSTRACT}
    covered = {e.cls for _, e in ENTRIES}
    assert not classes - covered, f"module classes without an ONNX parity entry: {sorted(classes - covered)}"
    for name in classes:
        cls = getattr(nn, name)
        unsupported = getattr(cls, "_onnx_unsupported", None)
        assert (getattr(cls, "_onnx", None) is not None) != bool(unsupported), \
            f"{name} must have either an ONNX mapping (_onnx) or a reason it has none (_onnx_unsupported)"
    ids = [e.id for _, e in ENTRIES]
    assert len(ids) == len(set(ids)), "the module table and onnx_cases give two entries one id"
    for table in (STATIC_BATCH, FLOAT64_UNRUNNABLE, FLOAT64_OPSET, TOLERANCE):
        assert not set(table) - set(ids), f"specifics for entries that do not exist: {sorted(set(table) - set(ids))}"


# ---------------------------------------------------------------- composite nets
def lenet():
    m = nn.Sequential()
    m.add(nn.SpatialConvolution(1, 6, 5, 5)).add(nn.ReLU()).add(nn.SpatialMaxPooling(2, 2, 2, 2))
    m.add(nn.SpatialConvolution(6, 16, 5, 5)).add(nn.ReLU()).add(nn.SpatialMaxPooling(2, 2, 2, 2))
    m.add(nn.View(16 * 5 * 5).setNumInputDims(3))
    m.add(nn.Linear(400, 120)).add(nn.ReLU()).add(nn.Linear(120, 84)).add(nn.ReLU()).add(nn.Dropout(0.5))
    return m.add(nn.Linear(84, 10)).add(nn.LogSoftMax())


def _bn(n):
    bn = nn.SpatialBatchNormalization(n)
    rng = np.random.default_rng(n)
    bn.running_mean[...] = rng.uniform(-0.5, 0.5, n)
    bn.running_var[...] = rng.uniform(0.5, 2, n)
    return bn


def resnet_basic_block(planes=4):
    """conv-bn-relu-conv-bn plus the shortcut (ConcatTable + CAddTable), then relu."""
    residual = nn.Sequential(nn.SpatialConvolution(planes, planes, 3, 3, 1, 1, 1, 1), _bn(planes), nn.ReLU(True),
                             nn.SpatialConvolution(planes, planes, 3, 3, 1, 1, 1, 1), _bn(planes))
    return nn.Sequential(nn.ConcatTable().add(residual).add(nn.Identity()), nn.CAddTable(True), nn.ReLU(True))


def inception_block():
    """GoogLeNet's block: 1x1, 1x1-3x3, 1x1-5x5 and 3x3 pool-1x1 branches in a
    DepthConcat; the 5x5 branch is left unpadded so that DepthConcat centres it."""
    block = nn.DepthConcat(1)
    block.add(nn.Sequential(nn.SpatialConvolution(3, 4, 1, 1), nn.ReLU()))
    block.add(nn.Sequential(nn.SpatialConvolution(3, 2, 1, 1), nn.ReLU(), nn.SpatialConvolution(2, 4, 3, 3, 1, 1, 1, 1),
                            nn.ReLU()))
    block.add(nn.Sequential(nn.SpatialConvolution(3, 2, 1, 1), nn.ReLU(), nn.SpatialConvolution(2, 3, 5, 5),
                            nn.ReLU()))
    block.add(nn.Sequential(nn.SpatialMaxPooling(3, 3, 1, 1, 1, 1), nn.SpatialConvolution(3, 2, 1, 1), nn.ReLU()))
    return block


def style_transformer():
    """Johnson et al.'s fast-neural-style image transformer, small: reflection
    padding, convolutions, instance normalization, residual blocks, full
    convolutions up, tanh scaled to pixels."""
    def conv(n_in, n_out, k, s=1):
        return [nn.SpatialReflectionPadding(k // 2), nn.SpatialConvolution(n_in, n_out, k, k, s, s),
                nn.InstanceNormalization(n_out), nn.ReLU(True)]

    def residual(n):
        body = nn.Sequential(nn.SpatialReflectionPadding(1), nn.SpatialConvolution(n, n, 3, 3),
                             nn.InstanceNormalization(n), nn.ReLU(True), nn.SpatialReflectionPadding(1),
                             nn.SpatialConvolution(n, n, 3, 3), nn.InstanceNormalization(n))
        return nn.Sequential(nn.ConcatTable().add(body).add(nn.Identity()), nn.CAddTable())

    layers = conv(3, 4, 9) + conv(4, 8, 3, 2) + [residual(8), residual(8)]
    layers += [nn.SpatialFullConvolution(8, 4, 3, 3, 2, 2, 1, 1, 1, 1), nn.InstanceNormalization(4), nn.ReLU(True)]
    layers += [nn.SpatialReflectionPadding(4), nn.SpatialConvolution(4, 3, 9, 9), nn.Tanh(), nn.MulConstant(150)]
    return nn.Sequential(*layers)


NETS = {"lenet": (lenet, (2, 1, 32, 32)), "resnet_block": (resnet_basic_block, (2, 4, 6, 5)),
        "inception": (inception_block, (2, 3, 9, 8)), "style_transformer": (style_transformer, (1, 3, 12, 16))}


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(NETS))
def test_composite_net(name, dtype):
    build, shape = NETS[name]
    report = check_parity(build, lambda r: r.uniform(-1, 1, shape), dtype)
    assert not report["static"] and report["batches"] == (shape[0], shape[0] + 1)


# ---------------------------------------------------------------- the Torch7 nets of the test data
def _t7_data():
    for path in (os.path.join(ROOT, "tests", "data", "t7"), os.path.join(ROOT, "..", "shared", "t7data"),
                 os.environ.get("THNN_T7DATA", "")):
        if path and os.path.isdir(path):
            return path
    return None


T7DATA = _t7_data()


def _t7_nets():
    """(name, net file, input file, recorded output file) for every net with a recorded forward."""
    nets = []
    for folder, _, files in sorted(os.walk(T7DATA)) if T7DATA else []:
        for f in sorted(files):
            m = re.match(r"(.*)_net\.(txt|t7)$", f)
            if m and f"{m.group(1)}_input.{m.group(2)}" in files and f"{m.group(1)}_output.{m.group(2)}" in files:
                paths = (f, f"{m.group(1)}_input.{m.group(2)}", f"{m.group(1)}_output.{m.group(2)}")
                nets.append((m.group(1),) + tuple(os.path.join(folder, p) for p in paths))
            elif f == "net.t7" and "x.t7" in files and "y.t7" in files:
                nets.append((os.path.basename(folder),) + tuple(os.path.join(folder, p) for p in (f, "x.t7", "y.t7")))
    return nets


T7_NETS = _t7_nets()


@pytest.mark.skipif(T7DATA is None, reason="the Torch7 test data (tests/data/t7 or ../shared/t7data) is not here")
def test_the_torch7_data_has_nets():
    assert len(T7_NETS) >= 10, [n[0] for n in T7_NETS]


@pytest.mark.filterwarnings("ignore::nn_legacy.onnx.StaticBatchWarning")   # cpptorch's net takes one sample
@pytest.mark.parametrize("name,net_path,x_path,y_path", T7_NETS, ids=[n[0] for n in T7_NETS])
def test_torch7_net_reproduces_its_recorded_output_in_onnx(name, net_path, x_path, y_path):
    """load_lua, export, run: onnxruntime in float32 gives Torch7's recorded
    output (OpenCV's rule: mean |diff| <= 1e-5, max <= 1e-4), and the export
    in the file's own type gives nn_legacy's output, and Torch7's."""
    x = np.ascontiguousarray(read_t7(x_path))
    expected = read_t7(y_path)
    net = load_lua(net_path)
    exported = Exported(net, x)    # the file's own type (onnx.reference where onnxruntime lacks float64)
    assert exported.compare(x) <= (1e-10 if x.dtype == np.float64 else 1e-5)
    diff = np.abs(exported.run(x)[0].astype(np.float64) - expected)
    assert diff.mean() <= 1e-5 and diff.max() <= 1e-4, (diff.mean(), diff.max())
    single = load_lua(net_path).float()
    x32 = x.astype(np.float32)
    session = ort.InferenceSession(nn_onnx.export(single, x32, None).SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    got = session.run(None, {"input": x32})[0]
    diff = np.abs(got.astype(np.float64) - expected)
    assert diff.mean() <= 1e-5 and diff.max() <= 1e-4, (diff.mean(), diff.max())


# ---------------------------------------------------------------- the exporter's contract
def test_error_names_every_module_without_onnx_equivalent_before_writing(tmp_path):
    inner = nn.Sequential(nn.Identity(), nn.SpatialDropout(), nn.SpatialFractionalMaxPooling(2, 2, 3, 3))
    model = nn.Sequential(nn.SpatialConvolution(1, 2, 3, 3), nn.ReLU(), inner,
                          nn.SpatialFractionalMaxPooling(2, 2, 2, 2))
    target = tmp_path / "model.onnx"
    with pytest.raises(nn_onnx.ExportError) as info:
        nn_onnx.export(model, np.zeros((1, 1, 12, 12)), target)
    assert info.value.problems == [
        "Sequential (2) -> Sequential (2) -> SpatialFractionalMaxPooling: no ONNX equivalent (random pooling regions)",
        "Sequential (3) -> SpatialFractionalMaxPooling: no ONNX equivalent (random pooling regions)"]
    assert str(info.value) == "\n".join(info.value.problems)
    assert not target.exists()


def test_a_configuration_without_onnx_equivalent_is_named_too():
    model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5, stochasticInference=True),
                          nn.Sequencer(nn.FastLSTM(3, 2)).remember("both"))
    with pytest.raises(nn_onnx.ExportError) as info:
        nn_onnx.export(model, np.zeros((2, 3)), None)
    assert info.value.problems == [
        "Sequential (1) -> Dropout: it drops elements at random while evaluating too (stochasticInference)",
        "Sequential (2) -> Sequencer: it remembers its state from call to call (remember()), which an ONNX graph "
        "cannot keep; remember('neither') to export it"]


def test_a_view_that_bakes_in_the_batch_fixes_it_and_says_so():
    model = nn.Sequential(nn.Linear(4, 3), nn.View(2 * 3), nn.Linear(6, 2))   # View takes the whole batch of 2
    x = np.random.default_rng(0).standard_normal((2, 4))
    with pytest.warns(nn_onnx.StaticBatchWarning, match=r"fixed at 2.*Sequential \(1\) -> View"):
        proto = nn_onnx.export(model, x, None)
    assert [d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim] == [2, 4]
    out = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"input": x})
    np.testing.assert_allclose(out[0], model.forward(x), rtol=1e-12, atol=1e-14)


def test_one_sample_input_exports_without_a_batch_dim():
    model = nn.Sequential(nn.SpatialConvolution(3, 2, 3, 3), nn.View(2 * 2 * 2), nn.Linear(8, 3))
    x = np.random.default_rng(0).standard_normal((3, 4, 4))
    exported = Exported(model, x)
    assert exported.static == ["nn_legacy.onnx.export: the batch size is fixed at 3 in the exported graph: "
                               "Sequential (0) -> SpatialConvolution: does not take a batch of 4 "
                               "(SpatialConvolutionMM_updateOutput: input must be 3D or 4D with 3 planes, "
                               "got 3D of size [4, 4, 4])"]
    assert not exported.dynamic and exported.compare(x) <= 1e-10


def test_evaluation_mode_and_the_model_left_untouched():
    nn.manualSeed(3)
    bn = nn.BatchNormalization(4)
    model = nn.Sequential(nn.Linear(3, 4), bn, nn.Dropout(0.5), nn.Dropout(0.25, v1=True))
    model.training()
    x = np.random.default_rng(1).standard_normal((5, 3))
    model.forward(x)   # training: batch statistics, the running ones move
    before = [a.copy() for a in (bn.running_mean, bn.running_var, model.get(0).weight)]
    output_before = model.output.copy()
    proto = nn_onnx.export(model, x, None)
    assert model.train and all(m.train for m in model.modules)
    assert all(np.array_equal(a, b) for a, b in zip(before, (bn.running_mean, bn.running_var, model.get(0).weight)))
    assert np.array_equal(model.output, output_before)
    got = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"input": x})
    model.evaluate()
    np.testing.assert_allclose(got[0], model.forward(x), rtol=1e-12, atol=1e-13)
    assert {n.op_type for n in proto.graph.node} == {"Gemm", "BatchNormalization", "Mul"}


@pytest.mark.parametrize("opset", [19, 20, 21, 22])
def test_opsets(opset):
    model = nn.Sequential(inception_block(), nn.SpatialUpSamplingBilinear(2), nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1)
                          .ceil(), nn.SpatialReflectionPadding(1, 2, -1, 1), nn.View(-1).setNumInputDims(3),
                          nn.SoftMax())
    model.float()
    x = np.random.default_rng(opset).standard_normal((2, 3, 9, 8)).astype(np.float32)
    exported = Exported(model, x, opset=opset)
    assert exported.proto.opset_import[0].version == opset
    assert exported.compare(x) <= 1e-5
    assert exported.compare(larger_batch(x, x)) <= 1e-5
    sampler = nn.SpatialGridSamplerBilinear().float()   # its mode is named anew at opset 20
    table = [x, np.random.default_rng(0).uniform(-1.1, 1.1, (2, 5, 4, 2)).astype(np.float32)]
    assert Exported(sampler, table, opset=opset).compare(table) <= 1e-5


def test_opset_is_checked_and_defaults_to_19():
    model, x = nn.Linear(3, 2), np.zeros((1, 3))
    assert nn_onnx.export(model, x, None).opset_import[0].version == 19
    for bad in (18, 7, onnx.defs.onnx_opset_version() + 1, "19"):
        with pytest.raises(ValueError, match="opset must be an integer from 19"):
            nn_onnx.export(model, x, None, opset=bad)


def test_writes_to_a_path_or_a_binary_file(tmp_path):
    model, x = nn.Sequential(nn.Linear(3, 2), nn.Tanh()), np.zeros((1, 3), np.float64)
    proto = nn_onnx.export(model, x, tmp_path / "a.onnx")
    nn_onnx.export(model, x, str(tmp_path / "b.onnx"))
    buffer = io.BytesIO()
    nn_onnx.export(model, x, buffer)
    assert (tmp_path / "a.onnx").read_bytes() == (tmp_path / "b.onnx").read_bytes() == buffer.getvalue() \
        == proto.SerializeToString()


def test_parameters_keep_their_type_and_shared_ones_are_stored_once():
    model = nn.Sequential(nn.MapTable(nn.Linear(3, 2)), nn.JoinTable(1), nn.Linear(6, 2)).float()
    x = [np.zeros((2, 3), np.float32)] * 3
    proto = nn_onnx.export(model, x, None)
    names = [t.name for t in proto.graph.initializer if t.data_type == onnx.TensorProto.FLOAT]
    assert names == ["0.0.weight", "0.0.bias", "2.weight", "2.bias"]
    assert [i.name for i in proto.graph.input] == ["input0", "input1", "input2"]


def test_inputs_and_models_are_checked():
    with pytest.raises(TypeError, match="must be an nn_legacy module"):
        nn_onnx.export(nn.MSECriterion(), np.zeros((2, 3)), None)
    with pytest.raises(TypeError, match="example_input must be a numpy array"):
        nn_onnx.export(nn.Linear(3, 2), [[1.0, 2.0, 3.0]], None)
    with pytest.raises(TypeError, match=r"Linear: input is float32 but the module is float64"):
        nn_onnx.export(nn.Linear(3, 2), np.zeros((2, 3), np.float32), None)
    with pytest.raises(TypeError, match=r"on a CUDA device; bring it to the host first"):
        import thnn.cuda
        nn_onnx.export(nn.Linear(3, 2).float().cuda(thnn.cuda.emulator()), np.zeros((2, 3), np.float32), None)
    with pytest.raises(ValueError, match=r"Sequential \(1\) -> Linear_updateOutput"):
        nn_onnx.export(nn.Sequential(nn.Linear(3, 2), nn.Linear(3, 2)), np.zeros((2, 3)), None)


# ---------------------------------------------------------------- the command line
def _convert(*args, env=None):
    return subprocess.run([sys.executable, "-m", "nn_legacy.onnx", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, env=env)


def test_cli_converts_an_nn_legacy_file_and_checks_it(tmp_path):
    model = lenet().float()
    nn.save(model, tmp_path / "lenet.thnn")
    out = tmp_path / "lenet.onnx"
    r = _convert(tmp_path / "lenet.thnn", out, "--input-shape", "1,1,32,32")
    assert r.returncode == 0, r.stderr
    assert "nn.Sequential {" in r.stdout and "(13): nn.LogSoftMax" in r.stdout
    assert re.search(r"ONNX graph: 13 nodes, 11 initializers \(61708 values\), opset 19", r.stdout)
    assert "inputs:  input [batch, 1, 32, 32]" in r.stdout
    diff = float(re.search(r"largest difference nn_legacy vs onnxruntime on a random input: (\S+)", r.stdout)[1])
    assert diff <= 1e-5
    x = np.random.default_rng(0).standard_normal((3, 1, 32, 32)).astype(np.float32)
    got = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"]).run(None, {"input": x})[0]
    model.evaluate()
    np.testing.assert_allclose(got, model.forward(x), rtol=1e-4, atol=1e-5)


@pytest.mark.skipif(T7DATA is None, reason="the Torch7 test data (tests/data/t7 or ../shared/t7data) is not here")
def test_cli_converts_a_torch7_file(tmp_path):
    net = next(n for n in T7_NETS if n[0] == "net_deconv")
    r = _convert(net[1], tmp_path / "deconv.onnx", "--input-shape", "2,3,4,3", "--float32")
    assert r.returncode == 0, r.stderr
    assert "nn.SpatialFullConvolution(3 -> 9, 4x5, 1,2, 0,1, 0,1)" in r.stdout and "ConvTranspose" in r.stdout
    r = _convert(net[1], tmp_path / "deconv64.onnx", "--input-shape", "2,3,4,3")
    assert r.returncode == 0 and "onnxruntime cannot run the graph" in r.stdout and "--float32" in r.stdout


def test_cli_names_every_module_it_cannot_export(tmp_path):
    nn.save(nn.Sequential(nn.Linear(4, 4), nn.View(1, 2, 2), nn.SpatialFractionalMaxPooling(2, 2, 1, 1)),
            tmp_path / "m.thnn")
    r = _convert(tmp_path / "m.thnn", tmp_path / "m.onnx", "--input-shape", "2,4")
    assert r.returncode == 1
    assert "Sequential (2) -> SpatialFractionalMaxPooling: no ONNX equivalent (random pooling regions)" in r.stderr
    assert not (tmp_path / "m.onnx").exists()
    r = _convert(tmp_path / "m.thnn", tmp_path / "m.onnx", "--input-shape", "2,x")
    assert r.returncode == 2 and "sizes separated by commas" in r.stderr


def test_cli_exports_a_float64_model_onnxruntime_cannot_run_in_float32(tmp_path):
    """A float64 Conv (a Torch7 DoubleTensor model) has no onnxruntime kernel: the converter exports float32,
    says so and checks that; --float64 keeps float64 and fails, rather than exiting 0 unchecked."""
    nn.save(nn.Sequential(nn.SpatialConvolution(1, 2, 3, 3), nn.Tanh()), tmp_path / "conv.thnn")
    out = tmp_path / "conv.onnx"
    r = _convert(tmp_path / "conv.thnn", out, "--input-shape", "2,1,5,5")
    assert r.returncode == 0, r.stderr
    assert "exporting the model in float32 instead (--float32, the default for such a model" in r.stdout
    assert re.search(r"largest difference nn_legacy vs onnxruntime on a random input: \S+", r.stdout)
    assert onnx.load(str(out)).graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    r = _convert(tmp_path / "conv.thnn", out, "--input-shape", "2,1,5,5", "--float64")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1] == f"error: {out} is written, but onnxruntime cannot run it, so it is " \
                                                "not checked"
    assert onnx.load(str(out)).graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.DOUBLE


def test_cli_refuses_an_input_shape_without_the_batch(tmp_path):
    nn.save(nn.Sequential(nn.Linear(784, 10), nn.LogSoftMax()), tmp_path / "m.thnn")
    r = _convert(tmp_path / "m.thnn", tmp_path / "m.onnx", "--input-shape", "784")
    assert r.returncode == 2
    assert r.stderr.strip() == ("error: --input-shape 784 has no batch size: the shape is batch first; give a batch "
                                "of 2 or more: --input-shape 2,784")
    assert not (tmp_path / "m.onnx").exists()
    r = _convert(tmp_path / "m.thnn", tmp_path / "m.onnx", "--input-shape", "2,784")
    assert r.returncode == 0, r.stderr
    assert "inputs:  input [batch, 784]" in r.stdout


def test_cli_says_a_missing_or_unwritable_path_in_one_line(tmp_path):
    nn.save(nn.Linear(3, 2), tmp_path / "m.thnn")
    cases = [((tmp_path / "absent.thnn", tmp_path / "m.onnx"), f"error: cannot read {tmp_path / 'absent.thnn'}: "
              "No such file or directory"),
             ((tmp_path, tmp_path / "m.onnx"), f"error: cannot read {tmp_path}: Is a directory"),
             ((tmp_path / "m.thnn", tmp_path / "no" / "m.onnx"), f"error: cannot write {tmp_path / 'no' / 'm.onnx'}: "
              "No such file or directory")]
    for (source, target), says in cases:
        r = _convert(source, target, "--input-shape", "2,3")
        assert r.returncode == 2 and r.stderr.strip() == says, r.stderr


def test_cli_names_a_damaged_nngraph_file_once(tmp_path):
    from t7_writer import T7Object, t7_bytes
    path = tmp_path / "graph.t7"
    path.write_bytes(t7_bytes(T7Object("nn.gModule", {"modules": {}})))
    r = _convert(path, tmp_path / "g.onnx", "--input-shape", "2,3")
    assert r.returncode == 2
    assert r.stderr.startswith(f"error: cannot read {path}: nn.gModule: the file holds no forwardnodes")
    assert r.stderr.count(str(path)) == 1 and "\n" not in r.stderr.strip()


# ---------------------------------------------------------------- the guide
@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_guide_says_where_the_export_table_is():
    """docs/guides/onnx.md keeps no per-module table (a new layer would need a
    row): it points to support_table(), which lists every module class."""
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    assert "o.support_table()" in text and "python -m nn_legacy --layers" in text
    assert "<!-- onnx-table-begin -->" not in text
    table = nn_onnx.support_table().splitlines()
    listed = [row.split(" | ")[0].lstrip("| ") for row in table[2:] if row.startswith("| ")]
    modules = sorted(n for n in nn.__all__ if isinstance(getattr(nn, n), type) and issubclass(getattr(nn, n), nn.Module)
                     and n not in nn_onnx.exporter._BASES)
    assert listed == modules
    exported = sum(nn_onnx.support(getattr(nn, n))[0] for n in modules)
    assert table[-1] == f"{exported} of {len(modules)} module classes export."


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_guide_shows_the_cli():
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    assert "## From the shell" in text and "python -m nn_legacy.onnx" in text


def test_cli_without_onnxruntime_exports_and_says_it_did_not_check(tmp_path):
    nn.save(nn.Sequential(nn.Linear(3, 2), nn.SoftMax()), tmp_path / "m.thnn")
    script = ("import sys; sys.modules['onnxruntime'] = None; from nn_legacy.onnx.__main__ import main; "
              "sys.exit(main(sys.argv[1:]))")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "m.thnn"), str(tmp_path / "m.onnx"),
                        "--input-shape", "2,3"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert 'onnxruntime is not installed, no numerical check (pip install -e ".[onnx]" in a clone' in r.stdout
    assert onnx.load(str(tmp_path / "m.onnx")).graph.node[0].op_type == "Gemm"
