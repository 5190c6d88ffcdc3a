"""benchmarks/bench_gpu.py (the GPU benchmark of tools/gpu_check.sh) runs its
code on the emulator (--emulator --quick: tiny sizes, PyTorch on the CPU; a
few seconds), so a session lent a GPU does not spend device time on a broken
script: every case builds, runs each pass on both sides, and the two sides
agree.  Without a GPU it refuses with the reason.  (Its times are not
tested: benchmarks are not timed tests.)"""
import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.source_tree   # reads benchmarks/ (tests/source_tree_guard.py)

pytest.importorskip("torch")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

import bench_gpu  # noqa: E402


def test_every_case_runs_on_the_emulator_and_agrees_with_torch():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "bench_gpu.py"), "--emulator", "--quick"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "the CUDA emulator" in out.splitlines()[0]
    for case in bench_gpu.CASES:
        row = next((line for line in out.splitlines() if line.startswith(case.name + " ")), None)
        assert row is not None, f"{case.name} missing:\n{out}"
        # the first pass's row ends with the largest difference between the two sides
        diff = float(re.findall(r"\d\.\de[+-]\d\d", row)[-1])
        assert diff < 1e-5, f"{case.name}: ours and torch differ by {diff}"
        for which in case.passes:
            assert re.search(rf"\s{re.escape(which)}\s+\d+\.\d+\s+\d+\.\d+\s+\d+\.\d+", out), (case.name, which)


def test_without_a_gpu_it_says_why(monkeypatch, capsys):
    import thnn.cuda
    monkeypatch.setattr(thnn.cuda, "gpu_unavailable_reason", lambda: "no CUDA device is present")
    assert bench_gpu.main([]) == 2
    err = capsys.readouterr().err
    assert "cannot run on a GPU: no CUDA device is present" in err and "--emulator" in err
