"""The ONNX parity harness: export an nn_legacy model, check the file with
onnx's full checker, run it in onnxruntime (or, where onnxruntime has no
kernel for a float64 op, in onnx's reference evaluator) and compare with
nn_legacy's own forward in evaluation mode."""
import io
import warnings

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason='the ONNX tests need the onnx extra: pip install -e ".[onnx]"')
ort = pytest.importorskip("onnxruntime", reason='the ONNX tests need the onnx extra: pip install -e ".[onnx]"')

import nn_legacy as nn  # noqa: E402
from layer_checks import map_table as nested, table_leaves as leaves  # noqa: E402
from nn_legacy import onnx as nn_onnx  # noqa: E402

#: largest |onnx - nn_legacy| allowed, relative to the output's scale (its largest |value|)
TOLERANCE = {np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-10}


def as_dtype(value, dtype):
    """Float arrays of a (nested) input in dtype; others (indices, masks) as they are."""
    return nested(lambda a: a.astype(dtype) if a.dtype.kind == "f" else a, value)


def larger_batch(value, other, batch=None):
    """The input with one sample more: value's samples and the first of
    another draw (for the arrays of a table whose first dim is the batch,
    as the exporter takes them)."""
    batch = leaves(value)[0].shape[0] if batch is None else batch
    if isinstance(value, (list, tuple)):
        return [larger_batch(v, o, batch) for v, o in zip(value, other)]
    return np.concatenate([value, other[:1]]) if value.ndim and value.shape[0] == batch else value


class Exported:
    """A model exported to ONNX, loaded in a runtime."""

    def __init__(self, model, example, opset=None, **check):
        self.model = model
        buffer = io.BytesIO()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", nn_onnx.StaticBatchWarning)
            self.proto = nn_onnx.export(model, example, buffer, opset=opset)
        self.static = [str(w.message) for w in caught if issubclass(w.category, nn_onnx.StaticBatchWarning)]
        self.bytes = buffer.getvalue()
        assert onnx.load_from_string(self.bytes) == self.proto
        onnx.checker.check_model(self.proto, full_check=True)
        self.inputs = [i.name for i in self.proto.graph.input]
        self.runtime = "onnxruntime"
        self.float64 = np.dtype(nn_dtype(example)) == np.float64
        try:
            self.session = ort.InferenceSession(self.bytes, providers=["CPUExecutionProvider"])
        except Exception as e:   # noqa: BLE001  (onnxruntime raises its own exception types)
            self._fall_back(e)

    def _fall_back(self, error):
        """onnx's reference evaluator, where onnxruntime has no float64 kernel."""
        text = str(error)
        if not self.float64 or not ("NOT_IMPLEMENTED" in text or "does not support double" in text):
            raise error
        from onnx.reference import ReferenceEvaluator
        self.session = ReferenceEvaluator(self.proto)
        self.runtime = f"onnx.reference (onnxruntime: {text.split(':')[-1].strip()[:80]})"

    @property
    def dynamic(self):
        dim = self.proto.graph.input[0].type.tensor_type.shape.dim
        return bool(dim) and dim[0].dim_param == "batch"

    def run(self, x):
        feed = dict(zip(self.inputs, leaves(x)))
        try:
            return self.session.run(None, feed)
        except Exception as e:   # noqa: BLE001
            if self.runtime != "onnxruntime":
                raise
            self._fall_back(e)
            return self.session.run(None, feed)

    def compare(self, x, dtype=None):
        """The largest error of the runtime against nn_legacy on x, relative to the output's scale."""
        self.model.evaluate()
        for m in self.model.listModules():   # a recurrent module starts a new sequence, as in the export
            if hasattr(m, "forget"):
                m.forget()
        # a copy of x: an in-place module writes into its input
        want = [np.array(a, copy=True) for a in leaves(self.model.forward(nested(np.copy, x)))]
        got = self.run(x)
        assert len(got) == len(want), (len(got), len(want))
        worst = 0.0
        for g, w in zip(got, want):
            assert g.shape == w.shape, (g.shape, w.shape)
            assert g.dtype == w.dtype, (g.dtype, w.dtype)
            scale = max(float(np.abs(w).max(initial=0)), np.finfo(w.dtype).tiny) if w.dtype.kind == "f" else 1
            worst = max(worst, float(np.abs(g.astype(np.float64) - w.astype(np.float64)).max(initial=0)) / scale)
        return worst


def nn_dtype(value):
    floats = [a.dtype for a in leaves(value) if a.dtype.kind == "f"]
    return floats[0] if floats else np.float64


def build_in(build, dtype):
    nn.manualSeed(1)
    model = build()
    if np.dtype(dtype) == np.float32:
        model.float()
    model.evaluate()
    return model


def check_parity(build, make_input, dtype, seed=0, opset=None, tolerance=None):
    """Export build() in dtype with make_input's example, check the file and
    compare the runtime with nn_legacy at the example's batch, at one sample
    more from the same file, and for one sample (exported on its own)
    where the model takes one.  Returns a dict of what was checked."""
    rng = np.random.default_rng(seed)
    model = build_in(build, dtype)
    x = as_dtype(make_input(rng), dtype)
    exported = Exported(model, x, opset)
    tol = TOLERANCE[np.dtype(dtype)] if tolerance is None else tolerance
    report = {"runtime": exported.runtime, "static": exported.static}
    error = exported.compare(x)
    assert error <= tol, f"{exported.runtime}: error {error:.3g} of the output scale at the example's batch"
    if exported.dynamic:
        bigger = larger_batch(x, as_dtype(make_input(rng), dtype))
        error = exported.compare(bigger)
        assert error <= tol, f"{exported.runtime}: error {error:.3g} of the output scale at one sample more"
        report["batches"] = (leaves(x)[0].shape[0], leaves(bigger)[0].shape[0])
    one = nested(lambda a: np.ascontiguousarray(a[0]), x)
    try:
        model.forward(one)
    except (ValueError, TypeError, IndexError):
        report["single"] = None   # the model takes batches only
    else:
        single = Exported(build_in(build, dtype), one, opset)
        error = single.compare(one)
        assert error <= tol, f"{single.runtime}: error {error:.3g} of the output scale for one sample"
        report["single"] = single.runtime
    return report
