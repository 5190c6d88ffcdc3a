"""tools/gpu_check.sh, the script a session lent a GPU runs (issue 19), stays
runnable between such sessions: it parses, and the tests it hands the
sanitizers still exist (a renamed test would make the device run fail on
"not found" and waste the device time).  The whole script runs here with
GPU_CHECK_DRY_RUN=1 (the same steps on the emulator), by hand: it takes
minutes."""
import os
import re
import subprocess

import pytest

pytestmark = pytest.mark.source_tree   # reads tools/gpu_check.sh and its lists (tests/source_tree_guard.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "gpu_check.sh")


def _text():
    with open(SCRIPT, encoding="utf-8") as f:
        return f.read()


def test_the_scripts_parse():
    for name in ("gpu_check.sh", "gpu_wheels.sh"):
        proc = subprocess.run(["bash", "-n", os.path.join(ROOT, "tools", name)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_the_sanitizer_subsets_name_existing_tests():
    text = _text()
    names = re.findall(r"\btests/(test_\w+\.py)(?:::(\w+))?", text)
    assert len(names) >= 10
    for path, function in names:
        full = os.path.join(ROOT, "tests", path)
        assert os.path.exists(full), f"tools/gpu_check.sh names tests/{path}, which is gone"
        if function:
            with open(full, encoding="utf-8") as f:
                assert re.search(rf"^def {function}\(", f.read(), re.M), \
                    f"tools/gpu_check.sh names tests/{path}::{function}, which is gone"


def test_the_gpu_run_selects_by_the_marker_of_tests_cuda_devices():
    # the device run is `pytest -m gpu`; the marker must stay registered and applied
    text = _text()
    assert "MARK=gpu" in text and "pytest -m $MARK" in text
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        assert '"gpu: ' in f.read()
    with open(os.path.join(ROOT, "tests", "cuda_devices.py"), encoding="utf-8") as f:
        assert "pytest.mark.gpu" in f.read()
