"""The module table itself: every class has an entry, and every entry is
valid (it builds its class, runs forward and backward on its input, matches
its reference, and names its parameters in the order parameters() returns
them)."""
import copy

import numpy as np
import pytest

import nn_legacy as nn
from module_table import ABSTRACT, ENTRIES, entries_of

BY_ID = {e.id: e for e in ENTRIES}


def module_classes():
    """Every Module and Criterion class nn_legacy exports, by name."""
    return {name for name in nn.__all__
            if isinstance(getattr(nn, name), type) and issubclass(getattr(nn, name), (nn.Module, nn.Criterion))}


def test_every_class_has_an_entry():
    missing = sorted(module_classes() - {e.cls for e in ENTRIES} - set(ABSTRACT))
    assert not missing, f"classes without an entry in tests/module_table.py: {missing}"


def test_every_entry_names_an_exported_class():
    assert {e.cls for e in ENTRIES} <= module_classes()
    assert set(ABSTRACT) <= module_classes()
    assert not set(ABSTRACT) & {e.cls for e in ENTRIES}


def test_ids_are_unique_and_sorted():
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert ids == sorted(ids)
    assert entries_of("ReLU") == [BY_ID["ReLU"], BY_ID["ReLU-inplace"]]


def leaves(value):
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in leaves(v)]
    return [value]


def like(rng, value):
    """Random float arrays in the layout of value (a gradOutput for an output)."""
    if isinstance(value, (list, tuple)):
        return [like(rng, v) for v in value]
    return rng.uniform(-1, 1, np.shape(value))


def attribute(module, path):
    """module.modules.0.weight -> module.modules[0].weight"""
    for part in path.split("."):
        module = module[int(part)] if part.isdigit() else getattr(module, part)
    return module


def gradient_path(path):
    head, _, name = path.rpartition(".")
    return f"{head}.grad{name[0].upper()}{name[1:]}" if head else f"grad{name[0].upper()}{name[1:]}"


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_entry_is_valid(entry):
    nn.manualSeed(1)
    rng = np.random.default_rng(0)
    module = entry.build()
    assert type(module).__name__ == entry.cls
    x = entry.input(rng)
    x_before = copy.deepcopy(x)         # (an in-place module may write its input)
    integer_leaves = [a for a in leaves(x) if isinstance(a, np.ndarray) and a.dtype.kind in "iub"]
    assert entry.integer_input or not integer_leaves, "the input holds integers: say integer_input=True"
    if isinstance(module, nn.Criterion):
        assert entry.target is not None, "a criterion's entry needs a target maker"
        t = entry.target(rng)
        loss = module.forward(x, t)
        assert isinstance(loss, float)
        gx = module.backward(x, t)
        assert [np.shape(g) for g in leaves(gx)] == [np.shape(a) for a in leaves(x)]
        if entry.reference is not None:
            want = entry.reference(x_before, t)
            assert abs(loss - want) <= 1e-12 * max(1.0, abs(want)), (loss, want)
        return
    assert entry.target is None, "a module's entry has no target"
    y = module.forward(x)
    if entry.reference is not None:
        want = entry.reference(x_before)
        got_leaves, want_leaves = leaves(y), leaves(want)
        assert len(got_leaves) == len(want_leaves)
        for got, expected in zip(got_leaves, want_leaves):
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-14)
    gx = module.backward(x, like(rng, y))
    if "gradInput" not in entry.skip:
        assert [np.shape(g) for g in leaves(gx)] == [np.shape(a) for a in leaves(x)]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.id)
def test_parameters_come_in_the_documented_order(entry):
    """parameters() returns the module's own arrays, in the order the entry
    documents (WeightedEuclidean: weight, then diagCov), each with its own
    gradient; flattenParameters() lays them out in that order."""
    module = entry.build()
    if isinstance(module, nn.Criterion):
        return
    params, grads = module.parameters()
    assert len(params) == len(entry.params), f"parameters() has {len(params)} arrays, the entry names {entry.params}"
    for param, grad, path in zip(params, grads, entry.params):
        assert param is attribute(module, path), f"parameter {path} is not the module's own array"
        if entry.cls != "IndexLinear":       # (its gradWeight is computed on access: compared by value)
            assert grad is attribute(module, gradient_path(path)), f"gradient of {path}"
        else:
            np.testing.assert_array_equal(grad, attribute(module, gradient_path(path)))
    if not params or "flatten" in entry.skip:
        return
    for i, p in enumerate(params):       # distinct values, so a reordering shows
        p[...] = np.arange(p.size).reshape(p.shape) + 1000 * i
    expected = np.concatenate([p.ravel().copy() for p in params])
    flat, flat_grads = module.flattenParameters()
    np.testing.assert_array_equal(flat, expected, err_msg="flattenParameters() order")
    assert flat_grads.shape == flat.shape
