"""Without the onnx extra the library works, and the exporter says what to install."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# onnx and onnxruntime made unimportable in a fresh interpreter
WITHOUT_ONNX = """
import sys
sys.modules["onnx"] = None
sys.modules["onnxruntime"] = None
import numpy as np
import nn_legacy as nn
model = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
assert model.forward(np.zeros((4, 3))).shape == (4, 2)
try:
    nn.onnx.export(model, np.zeros((4, 3)), "never.onnx")
except ImportError as e:
    print(e)
else:
    raise SystemExit("export worked without onnx")
"""


def test_without_onnx_the_library_works_and_export_says_what_to_install(tmp_path):
    r = subprocess.run([sys.executable, "-c", WITHOUT_ONNX], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ('nn_legacy.onnx.export needs the onnx package: pip install -e ".[onnx]" in a '
                                'clone of thnn (or: pip install onnx onnxruntime)')
    assert not (tmp_path / "never.onnx").exists()


def test_without_onnx_the_cli_says_what_to_install(tmp_path):
    script = ("import sys; sys.modules['onnx'] = None; sys.modules['onnxruntime'] = None; import numpy as np; "
              "import nn_legacy as nn; nn.save(nn.Linear(3, 2), sys.argv[1]); "
              "from nn_legacy.onnx.__main__ import main; sys.exit(main([sys.argv[1], sys.argv[2], '--input-shape', '1,3']))")
    r = subprocess.run([sys.executable, "-c", script, str(tmp_path / "m.thnn"), str(tmp_path / "m.onnx")],
                       cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 2
    assert 'pip install -e ".[onnx]" in a clone of thnn' in r.stderr and "thnn[onnx]" not in r.stderr
