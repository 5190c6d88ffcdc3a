"""Models built, run and saved by a real Lua Torch7 (tools/torch7_fixtures.lua, on a CPU-only Torch7 built
from source; tests/data/t7/README.md names the commits): load_lua loads each, and nn_legacy's
forward and backward on Torch7's own input and gradOutput give Torch7's output and gradInput.

A sample across nn's catalogue, nngraph graphs (a char-rnn LSTM step, a skip connection, a table of
outputs), and models of both rnn packages (torch/rnn, Element-Research/rnn); float and double."""
import os
import warnings

import numpy as np
import pytest

from nn_legacy.serialization.t7 import load_lua

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "t7", "torch7_built")
FILES = sorted(f for f in os.listdir(HERE) if f.endswith(".t7"))
# the largest error allowed, relative to the largest magnitude of the values compared (at least 1)
TOL = {"float": 1e-5, "double": 1e-10}
# documented deviations: nn.Euclidean's gradInput divides by the distances y_j where Torch7 divided by
# y_j + 1e-7 (nn_legacy/Euclidean.py), a relative difference of about 1e-7 / y_j (y_j ~ 1 here)
GRAD_DEVIATION = {"nn_CMul_Normalize_Euclidean": 1e-6}


def _flat(value):
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _flat(v)]
    if isinstance(value, dict):
        return [a for k in sorted(value) for a in _flat(value[k])]
    return [np.asarray(value)]


def _max_error(ours, theirs, what):
    a, b = _flat(ours), _flat(theirs)
    assert len(a) == len(b), f"{what}: {len(a)} arrays, Torch7 {len(b)}"
    for x, y in zip(a, b):
        assert x.shape == y.shape, f"{what}: shape {x.shape}, Torch7 {y.shape}"
        assert x.dtype == y.dtype, f"{what}: {x.dtype}, Torch7 {y.dtype}"
    err = max(float(np.max(np.abs(x.astype(np.float64) - y))) if x.size else 0.0 for x, y in zip(a, b))
    scale = max(float(np.max(np.abs(y))) if y.size else 0.0 for y in b)
    return err, max(scale, 1.0)


def _zero_based(value):
    """Torch7's index inputs (LookupTable's LongTensor) count from 1; nn_legacy's from 0."""
    if isinstance(value, list):
        return [_zero_based(v) for v in value]
    return value - 1 if value.dtype == np.int64 else value


def test_the_folder_holds_every_family_and_both_types():
    assert len(FILES) >= 50
    for prefix in ("nn_", "nn_nngraph_", "torch_rnn_", "er_rnn_"):
        for kind in ("float", "double"):
            assert any(f.startswith(prefix) and f.endswith(f"_{kind}.t7") for f in FILES), (prefix, kind)
    assert sum(os.path.getsize(os.path.join(HERE, f)) for f in FILES) < 400 * 1024


@pytest.mark.parametrize("name", FILES)
def test_forward_and_backward_give_torch7s_values(name):
    kind = name[:-3].rsplit("_", 1)[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # (T7Warnings for Lua fields nn_legacy does not use)
        case = load_lua(os.path.join(HERE, name))
    model = case["model"]
    x = _zero_based(case["input"])
    (model.evaluate if case["evaluate"] else model.training)()
    output = model.forward(x)
    err, scale = _max_error(output, case["output"], "output")
    assert err <= TOL[kind] * scale, f"output: max error {err:.3g} (scale {scale:.3g})"
    assert err <= (1e-6 if kind == "float" else 1e-13) * scale     # (what holds: tighter than the bound)
    if "gradInput" not in case:       # (LookupTable: an index input has no gradient)
        return
    gradInput = model.backward(x, case["gradOutput"])
    err, scale = _max_error(gradInput, case["gradInput"], "gradInput")
    deviation = GRAD_DEVIATION.get(name.rsplit("_", 1)[0])
    tol = TOL[kind] if deviation is None else max(TOL[kind], deviation)
    assert err <= tol * scale, f"gradInput: max error {err:.3g} (scale {scale:.3g})"
    if deviation is None:
        assert err <= (1e-6 if kind == "float" else 1e-13) * scale


def test_sha256sums_list_every_file():
    import hashlib
    sums = {}
    with open(os.path.join(HERE, "..", "SHA256SUMS")) as f:
        for line in f:
            digest, path = line.split()
            sums[path] = digest
    for name in FILES:
        with open(os.path.join(HERE, name), "rb") as f:
            assert sums.get(f"torch7_built/{name}") == hashlib.sha256(f.read()).hexdigest(), name
