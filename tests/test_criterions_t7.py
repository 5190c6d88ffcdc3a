"""Torch7 criterion objects, as torch.save wrote them before their first use,
load with nn_legacy.load_lua into criteria that compute the same as fresh
nn_legacy ones (each class's _t7_fixup fills what Torch7 made lazily and maps
1-based indices)."""
import struct

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import uniform


class _Writer:
    """The binary torch.save encoding of numbers, strings, booleans, tables
    (dicts), tensors (numpy arrays) and torch objects (class name, fields)."""

    def __init__(self):
        self.index = 0

    def _next(self):
        self.index += 1
        return struct.pack("<i", self.index)

    @staticmethod
    def _str(text):
        raw = text.encode()
        return struct.pack("<i", len(raw)) + raw

    def value(self, v):
        i = lambda n: struct.pack("<i", n)  # noqa: E731
        if v is None:
            return i(0)
        if isinstance(v, bool):
            return i(5) + i(int(v))
        if isinstance(v, (int, float)):
            return i(1) + struct.pack("<d", v)
        if isinstance(v, str):
            return i(2) + self._str(v)
        if isinstance(v, dict):
            return i(3) + self._next() + i(len(v)) + b"".join(self.value(k) + self.value(x) for k, x in v.items())
        if isinstance(v, np.ndarray):
            kind = {np.float64: "Double", np.float32: "Float", np.int64: "Long"}[v.dtype.type]
            head = i(4) + self._next() + self._str("V 1") + self._str(f"torch.{kind}Tensor")
            longs = lambda xs: b"".join(struct.pack("<q", x) for x in xs)  # noqa: E731
            if v.size == 0:  # torch.Tensor(): no dimension, offset 1, no storage
                return head + i(0) + longs([1]) + i(0)
            head += i(v.ndim) + longs(v.shape) + longs(np.array(v.strides) // v.itemsize) + longs([1])
            return head + i(4) + self._next() + self._str("V 1") + self._str(f"torch.{kind}Storage") + \
                longs([v.size]) + np.ascontiguousarray(v).tobytes()
        class_name, fields = v
        return i(4) + self._next() + self._str("V 1") + self._str(class_name) + self.value(fields)


def load(tmp_path, class_name, fields):
    path = tmp_path / "criterion.t7"
    base = {"gradInput": np.zeros(0), "output": 0}  # what nn.Criterion.__init set
    path.write_bytes(_Writer().value((class_name, {**base, **fields})))
    return nn.load_lua(str(path))


W3 = np.array([0.5, 2.0, 1.5])
SCORES = uniform((4, 3), 1, -1.0, 1.0)
PROBS = uniform((4, 3), 2, 0.05, 0.95)
SIGNS = np.where(uniform((4, 3), 3) > 0, 1.0, -1.0)
CLASSES = np.array([0, 2, 1, 2])
LABELS = np.array([[2, 0, -1], [1, -1, 0], [0, 1, 2], [-1, 0, 0]])
MAPS, PIXELS = uniform((2, 3, 2, 2), 4), np.array([[[0, 1], [2, 2]], [[1, 1], [0, 2]]])

CASES = {   # Torch7 fields after the Lua constructor -> the same nn_legacy criterion, input, target
    "Abs": ({"sizeAverage": False}, nn.AbsCriterion(False), SCORES, PROBS),
    "BCE": ({"sizeAverage": True, "weights": W3.astype(np.float32)}, nn.BCECriterion(W3.astype(np.float32)),
            PROBS, (SIGNS > 0).astype(float)),
    "DistKLDiv": ({"sizeAverage": True}, nn.DistKLDivCriterion(), SCORES, PROBS),
    "L1Cost": ({}, nn.L1Cost(), SCORES, None),
    "Margin": ({"sizeAverage": True, "margin": 0.5}, nn.MarginCriterion(0.5), SCORES, SIGNS),
    "MultiLabelMargin": ({"sizeAverage": True, "isTarget": np.zeros(0)}, nn.MultiLabelMarginCriterion(),
                         SCORES, LABELS),
    "MultiMargin": ({"sizeAverage": True, "p": 2, "margin": 0.5, "weights": W3},
                    nn.MultiMarginCriterion(2, W3, 0.5), SCORES, CLASSES),
    "SmoothL1": ({"sizeAverage": True}, nn.SmoothL1Criterion(), SCORES, PROBS),
    "SoftMargin": ({"sizeAverage": False}, nn.SoftMarginCriterion(False), SCORES, SIGNS),
    "SpatialClassNLL": ({"sizeAverage": True, "weights": W3, "output_tensor": np.zeros(1),
                         "total_weight_tensor": np.ones(1), "target": np.zeros(1, dtype=np.int64)},
                        nn.SpatialClassNLLCriterion(W3), MAPS, PIXELS),
}


@pytest.mark.parametrize("name", CASES)
def test_loaded_criterion_computes_as_a_fresh_one(tmp_path, name):
    fields, fresh, x, t = CASES[name]
    loaded = load(tmp_path, f"nn.{name}" if name == "L1Cost" else f"nn.{name}Criterion", fields)
    assert type(loaded) is type(fresh)
    assert loaded.forward(x, t) == fresh.forward(x, t)
    np.testing.assert_array_equal(loaded.backward(x, t), fresh.backward(x, t))


def test_multi_margin_p_is_an_int_after_loading(tmp_path):
    loaded = load(tmp_path, "nn.MultiMarginCriterion", {"sizeAverage": True, "p": 1, "margin": 1})
    assert type(loaded.p) is int and loaded.p == 1
    assert loaded.weights is None


def test_spatial_ignore_index_becomes_0_based(tmp_path):
    """Torch7's ignoreIndex is a 1-based class: ignoreIndex 2 ignores class 1 here."""
    loaded = load(tmp_path, "nn.SpatialClassNLLCriterion", {"sizeAverage": True, "ignoreIndex": 2})
    assert loaded.ignore_index == 1 and not hasattr(loaded, "ignoreIndex")
    expected = nn.SpatialClassNLLCriterion(ignore_index=1)
    assert loaded.forward(MAPS, PIXELS) == expected.forward(MAPS, PIXELS)
