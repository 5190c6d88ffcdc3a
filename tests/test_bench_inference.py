"""benchmarks/inference.py (convolutions against PyTorch CPU, whole models
against onnxruntime on nn_legacy's ONNX export) runs its code on tiny shapes
and narrow models (--tiny), so the benchmark cannot rot: every convolution
kind and every model builds, exports, runs on both sides and agrees with the
other side.  (Its times are not tested: benchmarks are not timed tests.)"""
import os
import re
import subprocess
import sys

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
    names = [c.label() for c in inference.TINY_CONVS] + [m.name for m in inference.TINY_MODELS]
    for name in names:
        for batch in inference.BATCHES:
            assert (name, batch) in rows, f"{name} at batch {batch} missing:\n{proc.stdout}"
            assert rows[(name, batch)] < 1e-5, f"{name}, batch {batch}: the two sides differ by {rows[(name, batch)]}"
    assert len(rows) == len(names) * len(inference.BATCHES)
    assert re.search(r"geometric mean of the ratios, batch 1: \d+\.\d\d", proc.stdout)
    assert re.search(r"load average after: \d", proc.stdout)


def test_the_tiny_set_covers_every_convolution_kind_and_model():
    kinds = {(c.kind, c.dil != (1, 1)) for c in inference.TINY_CONVS}
    assert kinds >= {("conv", False), ("conv", True), ("dw", False), ("full", False)}
    assert len(inference.TINY_MODELS) == len(inference.MODELS)


def test_without_torch_or_onnxruntime_it_says_what_is_missing():
    script = ("import sys; sys.modules['onnxruntime'] = None; sys.path.insert(0, 'benchmarks'); "
              "import inference; sys.exit(inference.main(['--tiny']))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "needs onnxruntime" in proc.stderr


@pytest.mark.slow
def test_the_profiles_run_tiny():
    """--pieces (our convolutions split into the product and the rest) and --layers (each model's time by
    layer against onnxruntime's profiler) run on the tiny set and print their rows."""
    run = [sys.executable, os.path.join(ROOT, "benchmarks", "inference.py"), "--tiny", "--threads", "2"]
    proc = subprocess.run(run + ["--pieces"], capture_output=True, text=True, cwd=ROOT, timeout=300)
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
