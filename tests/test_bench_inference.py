"""benchmarks/inference.py (convolutions against PyTorch CPU, whole models
against onnxruntime on nn_legacy's ONNX export) runs its code on tiny shapes
and narrow models (--tiny), so the benchmark cannot rot: every convolution
kind and every model builds, exports, runs on both sides and agrees with the
other side.  (Its times are not tested: benchmarks are not timed tests.)"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

pytestmark = pytest.mark.source_tree   # reads benchmarks/ (tests/source_tree_guard.py)

pytest.importorskip("torch", reason="the convolution table times PyTorch CPU")
pytest.importorskip("onnx", reason="the model table exports with nn_legacy.onnx")
pytest.importorskip("onnxruntime", reason="the model table times onnxruntime")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

import inference  # noqa: E402

ROW = re.compile(r"^(?P<name>.+?)\s+(?P<batch>\d+)\s+(?P<ours>\d+\.\d+)\s+(?P<theirs>\d+\.\d+)\s+(?P<ratio>\d+\.\d+)"
                 r"\s+(?:\d+ / \d+\s+)?(?P<diff>\d\.\de[+-]\d\d)$")


@pytest.mark.slow
def test_every_case_runs_tiny_and_both_sides_agree():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "inference.py"), "--tiny", "--threads", "1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = {}
    for line in proc.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows[(m["name"].strip(), int(m["batch"]))] = float(m["diff"])
    names = [c.label() for c in inference.TINY_CONVS] + [m.name for m in inference.TINY_MODELS + inference.TINY_LAYERS]
    for name in names:
        for batch in inference.BATCHES:
            assert (name, batch) in rows, f"{name} at batch {batch} missing:\n{proc.stdout}"
            assert rows[(name, batch)] < 1e-5, f"{name}, batch {batch}: the two sides differ by {rows[(name, batch)]}"
    t7 = inference._t7_files()
    for f in t7:   # every Torch7 file runs on both sides (table inputs and outputs too): its batch and 8
        model, x = f.load()
        for batch in (f.batch_of(x), 8):
            assert (f.name, batch) in rows, f"{f.name} at batch {batch} missing:\n{proc.stdout}"
            assert rows[(f.name, batch)] < 1e-5, f"{f.name}, batch {batch}: the sides differ by {rows[(f.name, batch)]}"
    assert "skipped" not in proc.stdout
    assert len(rows) == (len(names) + len(t7)) * len(inference.BATCHES)
    assert re.search(r"geometric mean of the ratios, batch 1: \d+\.\d\d", proc.stdout)
    for batch in ("as in the file", "8"):
        assert re.search(rf"Torch7 files of the test data: per-call cost, geometric mean of the ratios, batch {batch}: "
                         rf"\d+\.\d\d \(worst \d+\.\d\d, .*; {len(t7)} models\)", proc.stdout), proc.stdout
    assert re.search(r"load average after: \d", proc.stdout)


def test_the_tiny_set_covers_every_convolution_kind_and_model():
    kinds = {(c.kind, c.dil != (1, 1)) for c in inference.TINY_CONVS}
    assert kinds >= {("conv", False), ("conv", True), ("dw", False), ("full", False)}
    assert len(inference.TINY_MODELS) == len(inference.MODELS)
    assert [m.name for m in inference.TINY_LAYERS] == [m.name for m in inference.LAYERS]


def test_the_t7_table_holds_every_model_file_of_the_test_data():
    """Every model file of tests/data/t7 is a row of table (b'): each torch7_built case once (its float file,
    else the double one), OpenCV's nets, cpp-torch's net.t7, torchfile's gModule; tables in and out."""
    t7 = inference._t7_files()
    built = os.listdir(os.path.join(ROOT, "tests", "data", "t7", "torch7_built"))
    cases = {n.rsplit("_", 1)[0] for n in built if n.endswith(".t7")}
    paths = [f.path for f in t7]
    assert len(paths) == len(set(paths)) == len(cases) + 9 + 2
    for case in cases:
        assert sum(p.startswith(os.path.join("torch7_built", case + "_")) for p in paths) == 1, case
    assert any(p.endswith("_float.t7") and "torch_rnn_SeqLSTM" in p for p in paths)   # float preferred
    samples = {f.name: f.load()[1] for f in t7}
    assert any(isinstance(x, list) for x in samples.values())                           # table inputs
    lookup = next(f for f in t7 if "LookupTable" in f.name)
    x = samples[lookup.name]
    assert x.dtype.kind == "i" and x.min() >= 0                                         # 0-based indices
    seq = next(f for f in t7 if f.name == "t7 torch_rnn_SeqLSTM")
    x = samples[seq.name]
    assert seq.batch_axis == 1 and seq.batched(x, 8).shape == (x.shape[0], 8, x.shape[2])   # time first
    np.testing.assert_array_equal(seq.batched(x, 8)[:, :x.shape[1]], x)


def test_without_torch_or_onnxruntime_it_says_what_is_missing():
    script = ("import sys; sys.modules['onnxruntime'] = None; sys.path.insert(0, 'benchmarks'); "
              "import inference; sys.exit(inference.main(['--tiny']))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "needs onnxruntime" in proc.stderr


@pytest.mark.slow
def test_the_profiles_run_tiny():
    """--pieces (our convolutions split into the product and the rest) and --layers (each model's time by
    layer against onnxruntime's profiler) run on the tiny set and print their rows; --pieces times our
    convolutions whatever --part names (with --part models it once closed a PyTorch worker it never started)."""
    run = [sys.executable, os.path.join(ROOT, "benchmarks", "inference.py"), "--tiny", "--threads", "2"]
    proc = subprocess.run(run + ["--pieces", "--part", "models"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    plain = [c for c in inference.TINY_CONVS if c.kind == "conv"]
    for conv in plain:
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(conv.label() + " ")]
        assert len(lines) == len(inference.BATCHES), (conv.label(), proc.stdout)
    proc = subprocess.run(run + ["--part", "models", "--layers", "--only", "ResNet"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ours = [ln for ln in proc.stdout.splitlines() if ln.startswith("    ours ")]
    theirs = [ln for ln in proc.stdout.splitlines() if ln.startswith("    onnxruntime ")]
    assert len(ours) == len(theirs) == len(inference.BATCHES), proc.stdout
    assert all("SpatialConvolution" in ln for ln in ours) and all("Conv" in ln for ln in theirs), proc.stdout


def _models_agree_with_onnxruntime(*flags):
    """Run the tiny models table with flags on 1 thread: every model, every batch agrees with onnxruntime
    (max rel diff < 1e-5).  Returns the command line without the flags."""
    run = [sys.executable, os.path.join(ROOT, "benchmarks", "inference.py"), "--tiny", "--threads", "1"]
    proc = subprocess.run(run + ["--part", "models", *flags], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    names = {m.name for m in inference.TINY_MODELS}
    rows = {(m["name"].strip(), int(m["batch"])): float(m["diff"])
            for m in map(ROW.match, proc.stdout.splitlines()) if m and m["name"].strip() in names}
    assert len(rows) == len(names) * len(inference.BATCHES), proc.stdout
    assert all(diff < 1e-5 for diff in rows.values()), proc.stdout
    return run


@pytest.mark.slow
def test_folded_models_agree_with_onnxruntime_on_the_models_as_they_were():
    """--fold times nn.fold_batchnorm(model) against onnxruntime on the export of the model itself: every
    model (ResNet's, VGG's and ENet's batch normalizations folded) agrees with it."""
    run = _models_agree_with_onnxruntime("--fold")
    proc = subprocess.run(run + ["--part", "models", "--fold", "--layers", "--only", "ResNet"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ours = [ln for ln in proc.stdout.splitlines() if ln.startswith("    ours ")]
    assert ours and not any("BatchNormalization" in ln for ln in ours), proc.stdout


@pytest.mark.slow
def test_frozen_models_agree_with_onnxruntime():
    """--freeze (with --fold) times nn.freeze(nn.fold_batchnorm(model)), its convolutions' weights packed once:
    every model still agrees with onnxruntime, and the layer table still runs."""
    run = _models_agree_with_onnxruntime("--fold", "--freeze")
    proc = subprocess.run(run + ["--part", "models", "--freeze", "--layers", "--only", "ResNet"], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [ln for ln in proc.stdout.splitlines() if ln.startswith("    ours ")], proc.stdout
