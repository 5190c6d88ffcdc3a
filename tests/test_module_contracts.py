"""Every contract check for every entry of tests/module_table.py.

One harness, one entry per module class (and mode): a new layer gets every
check below by adding its entry.  A check that does not apply to an entry is
named in the entry's ``skip`` with the reason; it is then not run (never
skipped at run time).  The checks, by name:

- ``reference``   the output (a criterion's loss) equals the entry's numpy reference
- ``jacobian``    d output / d input (every float array of a table) against central differences
- ``parameters``  d output / d every parameter, through accGradParameters and accUpdateGradParameters
- ``accupdate``   accUpdateGradParameters(lr) = accGradParameters + updateParameters(lr), gradients untouched
- ``float32``     the module converted with float() stays within FLOAT32_RTOL of float64
- ``strides``     transposed, strided and negatively strided arrays give the same bits, and stay unwritten
- ``batch``       a batch gives what its samples give one by one (parameter gradients: their sum)
- ``buffers``     a change of shapes leaves arrays handed out before intact; the same shapes reuse them
- ``pickle``      pickle round trips, fresh and used
- ``save``        nn.save / nn.load round trip
- ``clearState``  drops the buffers and changes no result
- ``type``        type(float32) converts every float array, double() brings it back, other dtypes refused
- ``repr``        "nn.<class>...", unchanged by a clone or a forward
- ``dtype``       an input of a wrong dtype (int64, float16) refused with a TypeError naming the layer
- ``shape``       a gradOutput (a criterion's target) of a wrong shape refused with an error naming the layer
- ``empty``       a batch of no samples gives empty results
- ``order``       backward before any forward: an error naming the layer, or the result forward would give
- ``extremes``    an input holding huge values, inf or NaN: forward and backward without a numpy warning (an
                  overflow gives inf, 0 * inf NaN, as in the C kernels), or an error naming the layer

The tolerances and step are tests/layer_checks.py's.
"""
import pickle
import warnings

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import (BATCH_RTOL, FLOAT32_RTOL, JACOBIAN_TOL, STEP, assert_float32_close,
                          assert_table_criterion_gradient, check_float32_table_criterion,
                          check_noncontiguous_table_criterion, check_table_criterion_buffer_reuse,
                          check_table_criterion_pickle, map_table, relative_error, table_leaves)
from module_table import ENTRIES
from nn_legacy import jacobian
from nn_legacy._helpers import arrays
from table_module_checks import Flattened, assert_same, copies, is_free, leaf_paths, strided, unflat

SEED = 1234            # the module generator's seed before every forward of a stochastic entry
LR = 0.1

MODULE_CHECKS = ("reference", "jacobian", "parameters", "accupdate", "float32", "strides", "batch", "buffers",
                 "pickle", "save", "clearState", "type", "repr", "dtype", "shape", "empty", "order", "extremes")
CRITERION_CHECKS = ("reference", "jacobian", "float32", "strides", "buffers", "pickle", "save", "clearState",
                    "type", "repr", "dtype", "shape", "empty", "extremes")
# (the gradInput layout and flattenParameters order are checked by test_module_table.py)
KNOWN_SKIPS = set(MODULE_CHECKS) | {"gradInput", "flatten"}


def _is_criterion(entry):
    return entry.target is not None


def _cases():
    for entry in ENTRIES:
        for check in (CRITERION_CHECKS if _is_criterion(entry) else MODULE_CHECKS):
            if check in entry.skip or (check == "reference" and entry.reference is None):
                continue
            yield pytest.param(entry, check, id=f"{entry.id}-{check}")


def test_every_skip_names_a_check_and_says_why():
    for entry in ENTRIES:
        for check, reason in entry.skip.items():
            assert check in KNOWN_SKIPS, f"{entry.id}: skip names no check: {check!r}"
            assert isinstance(reason, str) and len(reason) > 10, f"{entry.id}: skip {check!r} needs a reason"


# ---------------------------------------------------------------- running an entry
class Case:
    """An entry's module (built after seeding, so its weights repeat), input and gradOutput."""

    def __init__(self, entry):
        self.entry = entry
        nn.manualSeed(0)
        self.module = entry.build()
        rng = np.random.default_rng(0)
        self.input = entry.input(rng)
        self.target = entry.target(rng) if entry.target is not None else None
        self.rng = rng

    def forward(self, module, x):
        if self.entry.stochastic:
            nn.manualSeed(SEED)
        return module.forward(x)

    def forward_backward(self, module, x, g):
        """Copies of (output, gradInput) of module on fresh copies of x and g
        (an in-place module writes into them)."""
        x, g = copies(x), copies(g)
        out = copies(self.forward(module, x))
        return out, copies(module.backward(x, g))

    def grad_output(self, module=None, x=None):
        """A gradOutput laid out as the output for x (the entry's input by default)."""
        out = self.forward(module or self.module.clone(), copies(self.input if x is None else x))
        rng = np.random.default_rng(1)
        return map_table(lambda a: rng.uniform(-1, 1, np.shape(a)).astype(np.asarray(a).dtype)
                         if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a, out)

    def module_names(self):
        """The class and kernel names of the module and of every module or
        criterion inside it: the names an error may give."""
        names, todo, seen = set(), [self.module], set()
        while todo:
            obj = todo.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, (nn.Module, nn.Criterion)):
                names |= {type(obj).__name__, type(obj)._kernel or type(obj).__name__}
                todo.extend(vars(obj).values())
            elif isinstance(obj, (list, tuple)):
                todo.extend(obj)
        return names


def _batch_size(value):
    sizes = {leaf.shape[0] for leaf in table_leaves(value) if isinstance(leaf, np.ndarray) and leaf.ndim}
    assert len(sizes) == 1, f"the arrays of the input have no common batch dim: {sizes}"
    return sizes.pop()


def _sample(value, i):
    return map_table(lambda a: a[i, ...] if isinstance(a, np.ndarray) and a.ndim else a, value)


def _smaller(value):
    """value with every array one row shorter: the input of a smaller batch."""
    return map_table(lambda a: a[:-1] if isinstance(a, np.ndarray) and a.ndim else a, value)


def _to32(value):
    return map_table(lambda a: a.astype(np.float32) if is_free(a) else a, value)


def _float_arrays(obj, seen=None):
    """Every float array an object holds (recursively through modules, lists, dicts)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return [obj] if obj.dtype.kind == "f" else []
    if isinstance(obj, (list, tuple)):
        return [a for v in obj for a in _float_arrays(v, seen)]
    if isinstance(obj, dict):
        return [a for v in obj.values() for a in _float_arrays(v, seen)]
    if isinstance(obj, (nn.Module, nn.Criterion)):
        return [a for v in vars(obj).values() for a in _float_arrays(v, seen)]
    return []


# ---------------------------------------------------------------- module checks
def module_reference(c):
    x = copies(c.input)
    want = c.entry.reference(copies(x))
    got = c.forward(c.module, x)
    assert len(table_leaves(got)) == len(table_leaves(want))
    for path, a, b in zip(leaf_paths(want), table_leaves(got), table_leaves(want)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14, err_msg=f"output{path}")


def module_jacobian(c):
    wrapped = Flattened(c.module, c.input, c.entry.fixed)
    report = jacobian.testJacobian(wrapped, wrapped.vector(), perturbation=STEP, kinks=c.entry.kinks,
                                   seed=SEED if c.entry.stochastic else None)
    assert report < JACOBIAN_TOL, report


class _ParametersOnly(Flattened):
    """Flattened for a module whose gradInput is not laid out as its input
    (entry.skip names "gradInput"): the parameter checks do not read it."""

    def updateGradInput(self, x, g):
        self.module.updateGradInput(self.input_for(x), unflat(g, self.out_like))
        self.gradInput = np.zeros_like(x)
        return self.gradInput


def module_parameters(c):
    wrapped = (_ParametersOnly if "gradInput" in c.entry.skip else Flattened)(c.module, c.input, c.entry.fixed)
    seed = SEED if c.entry.stochastic else None
    if not c.entry.params:
        assert not c.module.parameters()[0], "the entry names no parameters"
        return
    pairs = jacobian.testEachParameter(wrapped, wrapped.vector(), STEP, seed)
    assert len(pairs) == len(c.module.parameters()[0]) == len(c.entry.params)
    for name, reports in zip(c.entry.params, pairs):
        for report in reports:
            assert report < JACOBIAN_TOL, f"parameter {name}: {report}"


def module_accupdate(c):
    g = c.grad_output()
    reference = c.module.clone()
    reference.zeroGradParameters()
    c.forward_backward(reference, c.input, g)
    reference.updateParameters(LR)
    m = c.module
    for grad in m.parameters()[1]:
        grad.fill(7.0)   # a sentinel the update must leave alone
    x, gx = copies(c.input), copies(g)
    c.forward(m, x)
    m.updateGradInput(x, gx)
    m.accUpdateGradParameters(x, gx, LR)
    for path, p, want, grad in zip(c.entry.params, m.parameters()[0], reference.parameters()[0], m.parameters()[1]):
        np.testing.assert_allclose(p, want, rtol=1e-12, atol=1e-14, err_msg=f"{path} after accUpdateGradParameters")
        assert np.all(grad == 7.0), f"accUpdateGradParameters changed the gradient of {path}"


def module_float32(c):
    g = c.grad_output()
    m32 = c.module.clone().float()
    for p in m32.parameters()[0] + m32.parameters()[1]:
        assert p.dtype == np.float32
    c.module.zeroGradParameters()
    m32.zeroGradParameters()
    out64, gin64 = c.forward_backward(c.module, c.input, g)
    out32, gin32 = c.forward_backward(m32, _to32(c.input), _to32(g))
    for what, got, want in (("output", out32, out64), ("gradInput", gin32, gin64)):
        for path, a, b in zip(leaf_paths(want), table_leaves(got), table_leaves(want)):
            if is_free(b):
                assert_float32_close(a, b, f"{what}{path}")
            elif isinstance(b, float):
                assert relative_error(a, b) < FLOAT32_RTOL, (what, a, b)
            else:
                np.testing.assert_array_equal(a, b, err_msg=f"{what}{path}")
    for path, a, b in zip(c.entry.params, m32.parameters()[1], c.module.parameters()[1]):
        assert_float32_close(a, b, f"gradient of {path}")


def module_strides(c):
    _strides(c, c.input, c.grad_output())
    if "batch" not in c.entry.skip:     # and one sample (a 1D sample's layouts: a column, every other element)
        x = _sample(c.input, 0)
        shapes = iter([np.shape(a) for a in table_leaves(c.forward(c.module.clone(), copies(x)))])
        _strides(c, x, map_table(lambda a: np.reshape(a, next(shapes)), _sample(c.grad_output(), 0)))


def _strides(c, input, g):
    m = c.module
    inplace = getattr(m, "inplace", False)
    m.zeroGradParameters()
    out, gin = c.forward_backward(m, input, g)
    grads = copies(m.parameters()[1])
    for k in range(3):
        x, gk = strided(copies(input), k), strided(copies(g), k)
        x_before, g_before = copies(x), copies(gk)
        m.zeroGradParameters()
        assert_same(c.forward(m, x), out, f"output, layout {k}: output")
        assert_same(m.backward(x, gk), gin, f"gradInput, layout {k}: gradInput")
        assert_same(m.parameters()[1], grads, f"parameter gradients, layout {k}: ")
        if not inplace:   # (an in-place module writes its input and gradOutput by design)
            assert_same(x, x_before, f"layout {k}: the input was written to: input")
            assert_same(gk, g_before, f"layout {k}: gradOutput was written to: gradOutput")


def module_batch(c):
    g = c.grad_output()
    m = c.module
    n = _batch_size(c.input)
    m.zeroGradParameters()
    out, gin = c.forward_backward(m, c.input, g)
    batch_grads = copies(m.parameters()[1])
    m.zeroGradParameters()
    for i in range(n):
        x = _sample(c.input, i)
        shapes = iter([np.shape(a) for a in table_leaves(c.forward(m.clone(), copies(x)))])
        gi = map_table(lambda a: np.reshape(a, next(shapes)), _sample(g, i))   # ([1] for a sample's 1-element output)
        got_out, got_gin = c.forward_backward(m, x, gi)
        for path, a, b in zip(leaf_paths(out), table_leaves(out), table_leaves(got_out)):
            np.testing.assert_allclose(np.ravel(a[i]), np.ravel(b), rtol=BATCH_RTOL, atol=1e-15,
                                       err_msg=f"output{path}, sample {i}")
        for path, x, a, b in zip(leaf_paths(c.input), table_leaves(c.input), table_leaves(gin),
                                 table_leaves(got_gin)):
            if is_free(x):
                np.testing.assert_allclose(np.ravel(a[i]), np.ravel(b), rtol=BATCH_RTOL, atol=1e-15,
                                           err_msg=f"gradInput{path}, sample {i}")
    for path, a, b in zip(c.entry.params, batch_grads, m.parameters()[1]):
        np.testing.assert_allclose(a, b, rtol=BATCH_RTOL, atol=1e-14, err_msg=f"gradient of {path}")


def module_buffers(c):
    """The buffer contract of nn_legacy/Module.py: see tests/table_module_checks.py."""
    m = c.module
    fresh = m.clone()
    big, small = c.input, _smaller(c.input)
    g_big, g_small = c.grad_output(), c.grad_output(x=small)

    def owned(result, *sources):   # arrays of result that are the module's own (not views of what came in)
        return [not any(np.shares_memory(a, s) for s in table_leaves(sources) if isinstance(s, np.ndarray))
                if isinstance(a, np.ndarray) else False for a in table_leaves(result)]

    x1, gx1 = copies(big), copies(g_big)
    out1_ref = c.forward(m, x1)
    gin1_ref = m.backward(x1, gx1)
    out1, gin1 = copies(out1_ref), copies(gin1_ref)   # (an in-place backward may restore its input)
    x2, gx2 = copies(small), copies(g_small)
    out2_ref = c.forward(m, x2)
    assert_same(out2_ref, c.forward_backward(fresh, small, g_small)[0], "output after a change of shapes: output")
    out2_leaves, out2_owned = table_leaves(out2_ref), owned(out2_ref, x2)
    gin2_ref = m.backward(x2, gx2)
    assert_same(gin2_ref, c.forward_backward(fresh, small, g_small)[1], "gradInput after a change of shapes: ")
    gin2_leaves, gin2_owned = table_leaves(gin2_ref), owned(gin2_ref, x2, gx2)
    assert_same(out1_ref, out1, "the first output changed after a change of shapes: output")
    assert_same(gin1_ref, gin1, "the first gradInput changed after a change of shapes: gradInput")

    def other_values(a):
        return (a[::-1].copy() if a.ndim else a.copy()) if is_free(a) else a

    small_again, g_again = map_table(other_values, small), map_table(other_values, g_small)
    x3, gx3 = copies(small_again), copies(g_again)
    out3 = c.forward(m, x3)
    for path, a, b, own in zip(leaf_paths(out3), table_leaves(out3), out2_leaves, out2_owned):
        assert a is b or not own, f"a second forward of the same shapes did not reuse output{path}"
    want_out, want_gin = c.forward_backward(fresh, small_again, g_again)
    assert_same(out3, want_out, "output: output")
    gin3 = m.backward(x3, gx3)
    for path, a, b, own in zip(leaf_paths(gin3), table_leaves(gin3), gin2_leaves, gin2_owned):
        assert a is b or not own, f"a second backward of the same shapes did not reuse gradInput{path}"
    assert_same(gin3, want_gin, "gradInput: gradInput")
    assert_same(out1_ref, out1, "output: output")
    assert_same(gin1_ref, gin1, "gradInput: gradInput")


def module_pickle(c):
    g = c.grad_output()
    restored = pickle.loads(pickle.dumps(c.module))
    out, gin = c.forward_backward(c.module, c.input, g)
    assert_same(c.forward_backward(restored, c.input, g), (out, gin), "after pickling: ")
    for path, a, b in zip(c.entry.params, restored.parameters()[1], c.module.parameters()[1]):
        np.testing.assert_array_equal(a, b, err_msg=f"gradient of {path} after pickling")
    used = pickle.loads(pickle.dumps(c.module))   # holding its output/gradInput buffers now
    assert repr(used) == repr(c.module)
    for a, b in zip(used.parameters()[0], c.module.parameters()[0]):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    assert_same(c.forward_backward(used, c.input, g), (out, gin), "after pickling a used module: ")


def _save_load(obj, tmp_path):
    path = tmp_path / "saved.nnl"
    nn.save(obj, str(path))
    return nn.load(str(path))


def module_save(c, tmp_path):
    g = c.grad_output()
    out, gin = c.forward_backward(c.module, c.input, g)     # used: holding buffers
    loaded = _save_load(c.module, tmp_path)
    assert type(loaded) is type(c.module) and repr(loaded) == repr(c.module)
    for path, a, b in zip(c.entry.params, loaded.parameters()[0], c.module.parameters()[0]):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b, err_msg=f"{path} after nn.save / nn.load")
    assert_same(c.forward_backward(loaded, c.input, g), (out, gin), "after nn.save / nn.load: ")


def module_clearState(c):
    g = c.grad_output()
    m = c.module
    out, gin = c.forward_backward(m, c.input, g)
    assert m.clearState() is m
    for name in ("output", "gradInput") + tuple(type(m)._buffer_names):
        value = getattr(m, name, None)
        assert value is None or (isinstance(value, (list, np.ndarray)) and len(value) == 0), \
            f"clearState left {name} holding {type(value).__name__}"
    assert_same(c.forward_backward(m, c.input, g), (out, gin), "after clearState: ")


def module_type(c):
    m = c.module
    params = m.parameters()[0]
    assert m.type() == (params[0].dtype if params else None)
    g = c.grad_output()
    c.forward_backward(m, c.input, g)          # buffers too must follow the type
    assert m.type(np.float32) is m
    arrays = _float_arrays(m)
    assert all(a.dtype == np.float32 for a in arrays), \
        f"type(float32) left {sorted({str(a.dtype) for a in arrays})} arrays"
    if params:
        assert m.type() == np.float32
    out = c.forward(m, _to32(copies(c.input)))
    assert all(a.dtype == np.float32 for a in table_leaves(out) if is_free(a))
    rounded = [p.copy() for p in m.parameters()[0]]
    assert m.double() is m
    assert all(a.dtype == np.float64 for a in _float_arrays(m))
    for path, p, want in zip(c.entry.params, m.parameters()[0], rounded):
        np.testing.assert_array_equal(p, want, err_msg=f"{path} after float() and double()")
    kept = m.parameters()[0]
    m.double()
    assert all(a is b for a, b in zip(kept, m.parameters()[0])), "double() copied arrays already float64"
    with pytest.raises(TypeError, match=type(m).__name__):
        m.type(np.int64)


def module_repr(c):
    m = c.module
    text = repr(m)
    assert isinstance(text, str) and text.startswith(f"nn.{c.entry.cls}"), text
    assert repr(m.clone()) == text
    c.forward_backward(m, c.input, c.grad_output())
    assert repr(m) == text


def _names_the_layer(c, error):
    message = str(error)
    assert any(name in message for name in c.module_names()), \
        f"the error does not name the layer ({sorted(c.module_names())}): {type(error).__name__}: {message}"
    assert message.strip(), "an empty error message"


def _change_first(value, eligible, fn):
    """A copy of value with fn applied to its first array for which eligible(array) holds;
    None when there is none."""
    leaves = table_leaves(value)
    index = next((i for i, leaf in enumerate(leaves) if eligible(leaf)), None)
    if index is None:
        return None
    count = iter(range(len(leaves)))
    return map_table(lambda a: fn(a) if next(count) == index else a, copies(value))


def _bad_dtypes(value):
    """(what, value) pairs: the input with its first float array made int64 or float16."""
    bad = [(what, _change_first(value, is_free, fn)) for what, fn in
           (("int64", lambda a: (a * 4).astype(np.int64)), ("float16", lambda a: a.astype(np.float16)))]
    return [(what, v) for what, v in bad if v is not None]


def _longer(a):
    """a with one more element in its last dim."""
    return np.concatenate([a, a[..., :1]], axis=-1)


def module_dtype(c):
    """An input (one float array of a table input) of int64 or float16, or
    as a list (array inputs), refused; so is a gradOutput of int64, as a
    list, or of the other float precision; and a module with parameters
    refuses an input of the other precision."""
    m = c.module
    bad_inputs = _bad_dtypes(c.input)
    if m.parameters()[0] and isinstance(c.input, np.ndarray) and is_free(c.input):
        bad_inputs.append(("float32 for a float64 module", c.input.astype(np.float32)))
    for what, bad in bad_inputs:
        with pytest.raises(TypeError) as info:
            c.forward(m, bad)
        _names_the_layer(c, info.value)
    if isinstance(c.input, np.ndarray):   # (a ValueError where a list is a table the module takes: a sequence)
        with pytest.raises((TypeError, ValueError)) as info:
            c.forward(m, c.input.tolist())
        _names_the_layer(c, info.value)
    g = c.grad_output()
    if isinstance(g, np.ndarray) and is_free(g) and g.ndim:
        x = copies(c.input)
        c.forward(m, x)
        for what, bad in (("list", g.tolist()), ("int64", (g * 4).astype(np.int64)),
                          ("float32", g.astype(np.float32))):
            with pytest.raises(TypeError) as info:
                m.backward(x, bad)
            _names_the_layer(c, info.value)
        m32, x32 = m.clone().float(), _to32(copies(c.input))   # and a float32 module given a float64 gradOutput
        c.forward(m32, x32)
        with pytest.raises(TypeError) as info:
            m32.backward(x32, g)
        _names_the_layer(c, info.value)
    assert_same(c.forward_backward(m, c.input, g), c.forward_backward(m.clone(), c.input, g), "after the errors: ")


def module_shape(c):
    """gradOutput of the wrong shape: its first float array one element longer in its last dim."""
    m = c.module
    g = c.grad_output()
    bad = _change_first(g, lambda a: is_free(a) and a.ndim, _longer)
    if bad is not None:
        x = copies(c.input)
        c.forward(m, x)
        with pytest.raises((ValueError, TypeError, IndexError)) as info:
            m.backward(x, bad)
        _names_the_layer(c, info.value)
    assert_same(c.forward_backward(m, c.input, g), c.forward_backward(m.clone(), c.input, g), "after the errors: ")


def module_empty(c):
    """Every array of the input with no rows: a batch of no samples."""
    m = c.module
    x = map_table(lambda a: a[:0] if isinstance(a, np.ndarray) and a.ndim else a, c.input)
    try:
        out = c.forward(m, copies(x))
    except (TypeError, ValueError) as error:   # refused, as the layer's error contract says
        _names_the_layer(c, error)
        return
    assert all(np.size(a) == 0 for a in table_leaves(out) if isinstance(a, np.ndarray)), \
        f"output of an empty batch: {[np.shape(a) for a in table_leaves(out)]}"
    g = map_table(lambda a: np.zeros_like(a) if isinstance(a, np.ndarray) else a, out)
    gin = m.backward(copies(x), g)
    if "gradInput" not in c.entry.skip:
        assert [np.shape(a) for a in table_leaves(gin)] == [np.shape(a) for a in table_leaves(x)]


def module_order(c):
    """backward on a module that never ran forward: an error that names the
    layer (nothing to go back through), or the gradients forward then backward give."""
    fresh, g = c.module.clone(), c.grad_output()
    want = c.forward_backward(c.module, c.input, g)[1]
    try:
        got = fresh.backward(copies(c.input), copies(g))
    except (TypeError, ValueError, RuntimeError) as error:
        _names_the_layer(c, error)
    else:
        assert_same(got, want, "backward without forward: gradInput")


def _extreme_inputs(value):
    """The input with its first float array scaled to near the top of float64's range, and with inf, and NaN,
    in every third element."""
    def every_third(special):
        return lambda a: np.where(np.arange(a.size).reshape(a.shape) % 3 == 0, special, a)

    for fn in (lambda a: a * 1e300, every_third(np.inf), every_third(np.nan)):
        changed = _change_first(value, is_free, fn)
        if changed is not None:
            yield changed


def _quietly_or_refused(c, run):
    """run() with numpy's floating-point warnings made errors: it must raise none, and any error it raises
    must name the layer."""
    if arrays._extobj_contextvar is None:   # pragma: no cover
        pytest.skip("numpy 1.x keeps its floating-point state per thread, where the verbs do not set it")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            run()
        except (TypeError, ValueError, RuntimeError, ArithmeticError) as error:   # (a refusal: data it cannot take)
            _names_the_layer(c, error)


def module_extremes(c):
    m = c.module
    for x in _extreme_inputs(c.input):
        def run():
            out = c.forward(m, copies(x))
            g = map_table(lambda a: np.ones_like(a) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a, out)
            m.backward(copies(x), g)
        _quietly_or_refused(c, run)


def criterion_extremes(c):
    for x in _extreme_inputs(c.input):
        _quietly_or_refused(c, lambda: (c.module.forward(copies(x), c.target), c.module.backward(copies(x), c.target)))


# ---------------------------------------------------------------- criterion checks
def criterion_reference(c):
    want = c.entry.reference(copies(c.input), c.target)
    got = c.module.forward(copies(c.input), c.target)
    assert abs(got - want) <= 1e-12 * max(1.0, abs(want)), (got, want)


def criterion_jacobian(c):
    assert_table_criterion_gradient(c.module, c.input, c.target)


def criterion_float32(c):
    check_float32_table_criterion(c.module, c.input, c.target)


def criterion_strides(c):
    check_noncontiguous_table_criterion(c.module, copies(c.input), copies(c.target))


def criterion_buffers(c):
    check_table_criterion_buffer_reuse(c.module, c.input, c.target, _smaller(c.input), _smaller(c.target))


def criterion_pickle(c):
    check_table_criterion_pickle(c.module, c.input, c.target)


def criterion_save(c, tmp_path):
    loss = c.module.forward(c.input, c.target)
    gin = copies(c.module.backward(c.input, c.target))
    loaded = _save_load(c.module, tmp_path)
    assert type(loaded) is type(c.module) and repr(loaded) == repr(c.module)
    assert loaded.forward(c.input, c.target) == loss
    assert_same(loaded.backward(c.input, c.target), gin, "gradInput after nn.save / nn.load: ")


def criterion_clearState(c):
    crit = c.module
    loss = crit.forward(c.input, c.target)
    gin = copies(crit.backward(c.input, c.target))
    assert crit.clearState() is crit
    assert crit.gradInput is None or len(crit.gradInput) == 0
    assert crit.forward(c.input, c.target) == loss
    assert_same(crit.backward(c.input, c.target), gin, "gradInput after clearState: ")


def criterion_type(c):
    crit = c.module
    crit.forward(c.input, c.target)
    crit.backward(c.input, c.target)
    assert crit.type(np.float32) is crit
    arrays = _float_arrays(crit)
    assert all(a.dtype == np.float32 for a in arrays), sorted({str(a.dtype) for a in arrays})
    loss = crit.forward(_to32(c.input), c.target)
    assert isinstance(loss, float)
    assert all(a.dtype == np.float32 for a in table_leaves(crit.backward(_to32(c.input), c.target)) if is_free(a))
    assert crit.double() is crit
    assert all(a.dtype == np.float64 for a in _float_arrays(crit))
    with pytest.raises(TypeError, match=type(crit).__name__):
        crit.type(np.int64)


def criterion_repr(c):
    text = repr(c.module)
    assert isinstance(text, str) and text.startswith(f"nn.{c.entry.cls}"), text
    assert repr(c.module.clone()) == text
    c.module.forward(c.input, c.target)
    assert repr(c.module) == text


def criterion_dtype(c):
    crit = c.module
    bad_inputs = _bad_dtypes(c.input)
    if isinstance(c.input, np.ndarray):
        bad_inputs.append(("list", c.input.tolist()))
    for what, bad in bad_inputs:
        with pytest.raises(TypeError) as info:
            crit.forward(bad, c.target)
        _names_the_layer(c, info.value)
    assert crit.forward(c.input, c.target) == crit.clone().forward(c.input, c.target)


def criterion_shape(c):
    """A target of the wrong shape: its first array one element longer in its last dim."""
    crit = c.module
    bad = _change_first(c.target, lambda a: isinstance(a, np.ndarray) and a.ndim, _longer)
    if bad is not None:
        for verb in (crit.forward, crit.backward):
            with pytest.raises((ValueError, TypeError, IndexError)) as info:
                verb(copies(c.input), bad)
            _names_the_layer(c, info.value)
    assert crit.forward(c.input, c.target) == crit.clone().forward(c.input, c.target)


def criterion_empty(c):
    """No samples: a loss of 0 (an empty sum) and a gradient shaped as the
    input, or an error naming the criterion."""
    def empty(value):
        return map_table(lambda a: a[:0] if isinstance(a, np.ndarray) and a.ndim else a, value)

    x, t = empty(c.input), empty(c.target)
    try:
        loss = c.module.forward(copies(x), t)
    except (TypeError, ValueError) as error:
        _names_the_layer(c, error)
        return
    assert loss == 0.0, f"the loss of no samples is {loss}"
    gin = c.module.backward(copies(x), t)
    assert [np.shape(a) for a in table_leaves(gin)] == [np.shape(a) for a in table_leaves(x)]


CHECKS = {name[len("module_"):]: fn for name, fn in globals().items() if name.startswith("module_")}
CRITERION = {name[len("criterion_"):]: fn for name, fn in globals().items() if name.startswith("criterion_")}
assert set(CHECKS) == set(MODULE_CHECKS) and set(CRITERION) == set(CRITERION_CHECKS)


@pytest.mark.parametrize("entry, check", list(_cases()))
def test_contract(entry, check, request):
    c = Case(entry)
    fn = (CRITERION if _is_criterion(entry) else CHECKS)[check]
    if check == "save":   # tmp_path only where it is used: a directory per case costs more than most checks
        fn(c, request.getfixturevalue("tmp_path"))
    else:
        fn(c)
