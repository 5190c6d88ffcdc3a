"""The Module API of nn_legacy (Module.py, Container.py, Sequential.py), on
Linear/Tanh/ReLU stacks: the verbs and how they compose, parameters and
their flattening, state, type conversion, the module tree, copies."""
import copy
import pickle

import numpy as np
import pytest

import nn_legacy as nn


def rand(*shape, seed=0):
    return np.random.default_rng(seed).normal(size=shape)


def mlp(seed=3):
    nn.manualSeed(seed)
    return nn.Sequential().add(nn.Linear(6, 5)).add(nn.Tanh()).add(nn.Linear(5, 4)).add(nn.ReLU())


def nested(seed=4):
    nn.manualSeed(seed)
    inner = nn.Sequential().add(nn.Linear(5, 5)).add(nn.Sigmoid())
    return nn.Sequential().add(nn.Linear(6, 5)).add(inner).add(nn.Tanh()).add(
        nn.Sequential().add(nn.Linear(5, 3)).add(nn.LogSoftMax()))


MODELS = {"Linear": lambda: (nn.manualSeed(1), nn.Linear(6, 4))[1],
          "Linear without bias": lambda: (nn.manualSeed(2), nn.Linear(6, 4, bias=False))[1],
          "mlp": mlp, "nested": nested}
models = pytest.mark.parametrize("make", MODELS.values(), ids=MODELS.keys())


def n_out(m):
    return m.forward(rand(2, 6)).shape[1]


def grads_of(m):
    return [g.copy() for g in m.parameters()[1]]


def params_of(m):
    return [p.copy() for p in m.parameters()[0]]


def assert_all_equal(xs, ys):
    assert len(xs) == len(ys)
    for x, y in zip(xs, ys):
        np.testing.assert_array_equal(x, y)


# ---- the verbs ----

@models
@pytest.mark.parametrize("scale", [1, 0.25, -3])
def test_backward_is_updateGradInput_then_accGradParameters(make, scale):
    a, b = make(), make()
    x = rand(3, 6, seed=1)
    g = rand(3, n_out(a), seed=2)
    a.zeroGradParameters()
    b.zeroGradParameters()
    ya = a.forward(x).copy()
    gia = a.backward(x, g, scale).copy()
    yb = b.updateOutput(x).copy()
    gib = b.updateGradInput(x, g).copy()
    b.accGradParameters(x, g, scale)
    np.testing.assert_array_equal(ya, yb)
    np.testing.assert_array_equal(gia, gib)
    assert_all_equal(grads_of(a), grads_of(b))
    assert any(np.any(gr != 0) for gr in grads_of(a))


def test_linear_gradients_match_their_formula():
    m = MODELS["Linear"]()
    x, g = rand(3, 6, seed=1), rand(3, 4, seed=2)
    m.zeroGradParameters()
    m.forward(x)
    gi = m.backward(x, g, 0.5)
    np.testing.assert_allclose(gi, g @ m.weight, rtol=1e-12)
    np.testing.assert_allclose(m.gradWeight, 0.5 * g.T @ x, rtol=1e-12)
    np.testing.assert_allclose(m.gradBias, 0.5 * g.sum(0), rtol=1e-12)


def one_backward(m):
    """m's gradients zeroed, then one forward and backward pass on a batch of
    3; returns (input, gradOutput)."""
    x = rand(3, 6, seed=1)
    g = rand(3, n_out(m), seed=2)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, g)
    return x, g


@models
def test_gradients_accumulate_until_zeroGradParameters(make):
    m = make()
    x, g = one_backward(m)
    once = grads_of(m)
    for _ in range(2):
        m.forward(x)
        m.backward(x, g)
    for total, single in zip(grads_of(m), once):
        np.testing.assert_allclose(total, 3 * single, rtol=1e-12, atol=1e-15)
    arrays = m.parameters()[1]
    m.zeroGradParameters()
    assert all(np.all(gr == 0) for gr in m.parameters()[1])
    assert all(a is b for a, b in zip(arrays, m.parameters()[1]))   # zeroed in place


@models
def test_updateParameters_is_param_minus_lr_grad(make):
    m = make()
    one_backward(m)
    before, grads = params_of(m), grads_of(m)
    arrays = m.parameters()[0]
    m.updateParameters(0.1)
    for p, p0, g in zip(m.parameters()[0], before, grads):
        np.testing.assert_array_equal(p, p0 - 0.1 * g)
    assert all(a is b for a, b in zip(arrays, m.parameters()[0]))    # updated in place


@models
def test_accUpdateGradParameters_steps_without_touching_the_stored_gradients(make):
    a, b = make(), make()
    x = rand(3, 6, seed=1)
    g = rand(3, n_out(a), seed=2)
    # a: accUpdateGradParameters; stale gradients sit in its gradient arrays
    for gr in a.parameters()[1]:
        gr[...] = 7.0
    grad_arrays = a.parameters()[1]
    a.forward(x)
    a.updateGradInput(x, g)
    a.accUpdateGradParameters(x, g, 0.1)
    # b: the same step through the stored gradients
    b.zeroGradParameters()
    b.forward(x)
    b.backward(x, g)
    b.updateParameters(0.1)
    for pa, pb in zip(a.parameters()[0], b.parameters()[0]):
        # the same sums, rounded in another order (gemm adds into the weight)
        np.testing.assert_allclose(pa, pb, rtol=1e-12, atol=1e-14)
    assert all(gr is kept and np.all(gr == 7.0) for gr, kept in zip(a.parameters()[1], grad_arrays))


def test_backwardUpdate():
    a, b = mlp(), mlp()
    x, g = rand(3, 6, seed=1), rand(3, 4, seed=2)
    a.forward(x)
    gia = a.backwardUpdate(x, g, 0.1).copy()
    b.zeroGradParameters()
    b.forward(x)
    gib = b.backward(x, g)
    b.updateParameters(0.1)
    np.testing.assert_array_equal(gia, gib)
    for pa, pb in zip(a.parameters()[0], b.parameters()[0]):
        np.testing.assert_allclose(pa, pb, rtol=1e-12, atol=1e-14)


def test_sequential_chains_its_modules():
    m = mlp()
    x = rand(3, 6, seed=1)
    y = x
    for child in m.modules:
        y = copy.deepcopy(child).forward(y)
    np.testing.assert_array_equal(m.forward(x), y)
    assert m.output is m.modules[-1].output


def test_container_errors_name_the_child():
    m = nested()
    with pytest.raises(ValueError, match=r"^Sequential \(0\) -> Linear_updateOutput: input must be 1D or 2D "
                                         r"with 6 features, got 2D of size \[2, 7\]$"):
        m.forward(rand(2, 7))
    with pytest.raises(TypeError, match=r"Sequential \(0\) -> Linear: input is float32 but the module is "
                                        r"float64"):
        m.forward(rand(2, 6).astype(np.float32))


# ---- parameters ----

def test_parameters_are_the_arrays_themselves():
    m = mlp()
    params, grads = m.parameters()
    lin0, lin2 = m.modules[0], m.modules[2]
    assert [id(p) for p in params] == [id(lin0.weight), id(lin0.bias), id(lin2.weight), id(lin2.bias)]
    assert [id(g) for g in grads] == [id(lin0.gradWeight), id(lin0.gradBias), id(lin2.gradWeight),
                                      id(lin2.gradBias)]
    params[0][...] = 0
    params[1][...] = 1
    np.testing.assert_array_equal(m.modules[0].forward(rand(2, 6)), np.ones((2, 5)))
    assert nn.Tanh().parameters() == ([], [])
    assert len(nn.Linear(3, 2, bias=False).parameters()[0]) == 1


@models
def test_flattenParameters_makes_views_of_one_array(make):
    m = make()
    originals = params_of(m)
    flat, gflat = m.flattenParameters()
    assert flat.ndim == 1 and gflat.shape == flat.shape and flat.dtype == originals[0].dtype
    assert flat.size == sum(p.size for p in originals)
    np.testing.assert_array_equal(flat, np.concatenate([p.ravel() for p in originals]))
    params, grads = m.parameters()
    for p in params:
        assert np.shares_memory(p, flat)
    for g in grads:
        assert np.shares_memory(g, gflat)
    # updating the flat array updates the module
    x = rand(2, 6, seed=5)
    zeroed = make()
    for p in zeroed.parameters()[0]:
        p[...] = 0
    flat[...] = 0
    assert all(np.all(p == 0) for p in m.parameters()[0])
    np.testing.assert_array_equal(m.forward(x), zeroed.forward(x))
    # and the module's gradients land in the flat gradient
    g = rand(2, n_out(m), seed=6)
    flat[...] = np.linspace(-1, 1, flat.size)
    gflat[...] = 0
    m.forward(x)
    m.backward(x, g)
    np.testing.assert_array_equal(gflat, np.concatenate([g.ravel() for g in m.parameters()[1]]))
    assert np.any(gflat != 0)


def test_flat_training_step_equals_updateParameters():
    a, b = mlp(), mlp()
    flat, gflat = a.flattenParameters()
    x, g = rand(4, 6, seed=1), rand(4, 4, seed=2)
    for m in (a, b):
        m.zeroGradParameters()
        m.forward(x)
        m.backward(x, g)
    flat -= 0.1 * gflat
    b.updateParameters(0.1)
    assert_all_equal(params_of(a), params_of(b))
    np.testing.assert_array_equal(a.forward(x), b.forward(x))


@models
def test_flattenParameters_twice_returns_the_same_arrays(make):
    m = make()
    flat, gflat = m.flattenParameters()
    flat2, gflat2 = m.flattenParameters()
    assert flat2 is flat and gflat2 is gflat
    flat[...] = 3
    assert all(np.all(p == 3) for p in m.parameters()[0])
    m.double()                                   # already float64: keeps its arrays (and so the views)
    flat[...] = 4
    assert all(np.all(p == 4) for p in m.parameters()[0])
    assert m.flattenParameters()[0] is flat


def test_flattenParameters_after_replacing_a_parameter_starts_again():
    m = MODELS["Linear"]()
    flat, _ = m.flattenParameters()
    m.weight = np.full_like(m.weight, 2.0)
    flat2, _ = m.flattenParameters()
    assert flat2 is not flat and np.shares_memory(m.weight, flat2) and not np.shares_memory(m.weight, flat)
    np.testing.assert_array_equal(flat2[:m.weight.size], 2.0)


def test_flattenParameters_after_a_type_change():
    m = mlp()
    flat, _ = m.flattenParameters()
    m.float()
    flat32, gflat32 = m.flattenParameters()
    assert flat32.dtype == np.float32 and gflat32.dtype == np.float32
    np.testing.assert_array_equal(flat32, flat.astype(np.float32))
    flat32[...] = 1
    assert all(p.dtype == np.float32 and np.all(p == 1) for p in m.parameters()[0])


def test_a_shared_parameter_is_listed_and_flattened_once():
    a, b = nn.Linear(3, 3), nn.Linear(3, 3)
    b.weight, b.gradWeight = a.weight, a.gradWeight
    m = nn.Sequential().add(a).add(b)
    params, grads = m.parameters()
    assert len(params) == 3 and len(grads) == 3
    flat, gflat = m.flattenParameters()
    assert flat.size == 9 + 3 + 3
    assert a.weight is b.weight and np.shares_memory(a.weight, flat)
    assert a.gradWeight is b.gradWeight and np.shares_memory(a.gradWeight, gflat)


def test_flattenParameters_of_a_module_without_parameters():
    flat, gflat = nn.Tanh().flattenParameters()
    assert flat.size == 0 and gflat.size == 0
    assert nn.Module.getParameters is nn.Module.flattenParameters


# ---- state ----

def test_training_and_evaluate_recurse():
    m = nested()
    assert all(x.train for x in m.listModules())
    m.evaluate()
    assert not any(x.train for x in m.listModules())
    m.training()
    assert all(x.train for x in m.listModules())


def every_array(m):
    """(module, attribute, array) for every array attribute of every module."""
    return [(x, k, v) for x in m.listModules() for k, v in vars(x).items() if isinstance(v, np.ndarray)]


@pytest.mark.parametrize("to, method", [(np.float32, "float"), (np.float64, "double")])
def test_type_converts_every_array_and_the_module_still_works(to, method):
    m = nested()
    x = rand(3, 6, seed=1)
    if to == np.float64:
        m.float()
        x = x.astype(np.float32)
    m.forward(x)
    m.backward(x, np.ones((3, 3), x.dtype))
    assert len(every_array(m)) >= 4 * 4 + 2 * 6   # parameters, gradients and the buffers
    assert getattr(m, method)() is m
    for module, name, a in every_array(m):
        assert a.dtype == to, f"{type(module).__name__}.{name} is {a.dtype}"
    assert m.type() == to
    y = m.forward(x.astype(to))
    gi = m.backward(x.astype(to), np.ones((3, 3), to))
    assert y.dtype == to and gi.dtype == to
    wrong = np.float64 if to == np.float32 else np.float32
    with pytest.raises(TypeError, match=f"input is {np.dtype(wrong)} but the module is {np.dtype(to)}"):
        m.forward(x.astype(wrong))


def test_float_results_follow_the_double_ones():
    m = nested()
    x = rand(3, 6, seed=1)
    y64 = m.forward(x).copy()
    y32 = m.float().forward(x.astype(np.float32))
    np.testing.assert_allclose(y32, y64, rtol=1e-4, atol=1e-5)  # float32 rounding of a few layers


def test_type_keeps_shared_arrays_shared():
    a, b = nn.Linear(3, 3), nn.Linear(3, 3)
    b.weight = a.weight
    m = nn.Sequential().add(a).add(b).float()
    assert a.weight is b.weight and a.weight.dtype == np.float32
    assert len(m.parameters()[0]) == 3


def test_type_refuses_other_dtypes():
    for bad in (np.int32, np.float16, np.complex64):
        with pytest.raises(TypeError, match="float32 or float64"):
            mlp().type(bad)
    assert nn.Tanh().type() is None            # no parameters, no dtype of its own


def test_clearState_drops_buffers_and_the_module_still_works():
    m = nested()
    x = rand(3, 6, seed=1)
    y = m.forward(x).copy()
    m.backward(x, np.ones((3, 3)))
    params = params_of(m)
    assert m.clearState() is m
    for x_ in m.listModules():
        assert x_.output is None and x_.gradInput is None
    assert_all_equal(params_of(m), params)     # parameters are kept
    np.testing.assert_array_equal(m.forward(x), y)
    m.backward(x, np.ones((3, 3)))


def test_reset_changes_the_weights_and_follows_manualSeed():
    nn.manualSeed(42)
    a = nn.Linear(10, 5)
    nn.manualSeed(42)
    b = nn.Linear(10, 5)
    assert_all_equal(params_of(a), params_of(b))
    before = params_of(a)
    a.reset()
    assert all(np.all(p != q) for p, q in zip(params_of(a), before))
    bound = 1 / np.sqrt(10)
    assert all(np.all(np.abs(p) <= bound) for p in params_of(a))
    nn.manualSeed(7)
    a.reset()
    nn.manualSeed(7)
    b.reset()
    assert_all_equal(params_of(a), params_of(b))
    a.reset(0.01)
    assert all(np.all(np.abs(p) <= 0.01) for p in params_of(a))
    m1, m2 = nested(seed=9), nested(seed=9)
    assert_all_equal(params_of(m1), params_of(m2))
    nn.manualSeed(1)
    m1.reset()
    assert not np.array_equal(params_of(m1)[0], params_of(m2)[0])


# ---- the module tree ----

def test_listModules_and_apply_walk_the_tree_depth_first():
    m = nested()
    names = [type(x).__name__ for x in m.listModules()]
    assert names == ["Sequential", "Linear", "Sequential", "Linear", "Sigmoid", "Tanh", "Sequential",
                     "Linear", "LogSoftMax"]
    seen = []
    m.apply(seen.append)
    assert seen == m.listModules()
    m.apply(lambda x: setattr(x, "tag", True))
    assert all(x.tag for x in m.listModules())


def test_findModules_by_name_or_class():
    m = nested()
    by_name, containers = m.findModules("Linear")
    by_class, containers2 = m.findModules(nn.Linear)
    assert by_name == by_class and len(by_name) == 3 and containers == containers2
    assert by_name[0] is m.modules[0] and containers[0] is m
    assert by_name[1] is m.modules[1].modules[0] and containers[1] is m.modules[1]
    assert by_name[2] is m.modules[3].modules[0] and containers[2] is m.modules[3]
    seqs, parents = m.findModules("Sequential")
    assert seqs == [m, m.modules[1], m.modules[3]] and parents == [None, m, m]
    assert len(m.findModules(nn.Container)[0]) == 3            # subclasses match a class
    assert m.findModules("Nothing") == ([], [])
    relus = mlp().findModules(nn.Threshold)[0]                 # ReLU is a Threshold
    assert len(relus) == 1 and isinstance(relus[0], nn.ReLU)


def test_clone_is_deep():
    m = nested()
    x = rand(3, 6, seed=1)
    y = m.forward(x).copy()
    c = m.clone()
    assert type(c) is type(m) and c is not m
    for (a, name, va), (b, name_b, vb) in zip(every_array(m), every_array(c)):
        assert name == name_b and not np.shares_memory(va, vb)
        np.testing.assert_array_equal(va, vb)
    np.testing.assert_array_equal(c.forward(x), y)
    for p in c.parameters()[0]:
        p[...] = 0
    np.testing.assert_array_equal(m.forward(x), y)
    assert c.modules[1] is not m.modules[1] and c.modules[1].modules[0] is not m.modules[1].modules[0]


def test_repr():
    assert repr(nn.Linear(10, 5)) == "nn.Linear(10 -> 5)"
    assert repr(nn.Linear(10, 5, bias=False)) == "nn.Linear(10 -> 5, without bias)"
    assert repr(nn.Tanh()) == "nn.Tanh"
    assert repr(nested()) == "\n".join([
        "nn.Sequential {",
        "  [input -> (0) -> (1) -> (2) -> (3) -> output]",
        "  (0): nn.Linear(6 -> 5)",
        "  (1): nn.Sequential {",
        "    [input -> (0) -> (1) -> output]",
        "    (0): nn.Linear(5 -> 5)",
        "    (1): nn.Sigmoid",
        "  }",
        "  (2): nn.Tanh",
        "  (3): nn.Sequential {",
        "    [input -> (0) -> (1) -> output]",
        "    (0): nn.Linear(5 -> 3)",
        "    (1): nn.LogSoftMax",
        "  }",
        "}"])


@pytest.mark.parametrize("used", [False, True], ids=["fresh", "after forward and backward"])
def test_pickle_round_trip_of_a_whole_sequential(used):
    m = nested()
    x = rand(3, 6, seed=1)
    if used:
        m.forward(x)
        m.backward(x, np.ones((3, 3)))
    back = pickle.loads(pickle.dumps(m))
    assert repr(back) == repr(m)
    assert_all_equal(params_of(back), params_of(m))
    assert_all_equal(grads_of(back), grads_of(m))
    np.testing.assert_array_equal(back.forward(x), m.forward(x))
    np.testing.assert_array_equal(back.backward(x, np.ones((3, 3))), m.backward(x, np.ones((3, 3))))
    assert not any(np.shares_memory(p, q) for p, q in zip(back.parameters()[0], m.parameters()[0]))


def test_pickle_of_a_float_module_stays_float():
    m = mlp().float()
    back = pickle.loads(pickle.dumps(m))
    assert back.type() == np.float32
    assert back.forward(rand(2, 6).astype(np.float32)).dtype == np.float32


def test_sequential_editing():
    m = nn.Sequential().add(nn.Linear(4, 4)).add(nn.Tanh())
    m.insert(nn.ReLU(), 1)
    assert [type(x).__name__ for x in m.modules] == ["Linear", "ReLU", "Tanh"]
    assert isinstance(m.remove(0), nn.Linear) and len(m) == 2 and m.size() == 2
    assert isinstance(m.get(1), nn.Tanh)
    with pytest.raises(TypeError, match=r"Sequential\.add: expected a Module, got int"):
        m.add(3)
    assert repr(nn.Sequential()) == "nn.Sequential"


# ---- skipGradInput: backward without the input's gradient ----

def lenet_like(seed=5):
    nn.manualSeed(seed)
    return nn.Sequential(nn.SpatialConvolution(1, 3, 3, 3), nn.ReLU(), nn.SpatialMaxPooling(2, 2, 2, 2),
                         nn.View(3 * 3 * 3), nn.Linear(27, 4), nn.LogSoftMax())


@pytest.mark.parametrize("make", [lambda: mlp(), lambda: lenet_like(), lambda: (nn.manualSeed(1), nn.Linear(6, 4))[1]],
                         ids=["mlp", "conv net", "Linear"])
@pytest.mark.parametrize("verb", ["backward", "backwardUpdate"])
def test_skipGradInput_gives_the_same_parameters_without_gradInput(make, verb):
    full, skipping = make(), make()
    assert skipping.skipGradInput() is skipping and skipping.gradInputSkipped
    x = rand(2, 1, 8, 8) if isinstance(full, nn.Sequential) and len(full.modules) == 6 else rand(2, 6)
    g = rand(*full.forward(x).shape, seed=1)
    for _ in range(2):   # twice: accumulated gradients, reused buffers
        skipping.forward(x)
        full.forward(x)
        args = (x, g, 0.5) if verb == "backward" else (x, g, 0.1)
        assert getattr(skipping, verb)(*args) is None and skipping.gradInput is None
        assert getattr(full, verb)(*args) is full.gradInput and full.gradInput.shape == x.shape
    for a, b in zip(*(m.parameters()[0] + m.parameters()[1] for m in (full, skipping))):
        np.testing.assert_array_equal(a, b)
    if isinstance(skipping, nn.Sequential):   # the other modules' gradInputs are still there
        for m_full, m_skip in zip(full.modules[1:], skipping.modules[1:]):
            np.testing.assert_array_equal(m_full.gradInput, m_skip.gradInput)
        assert skipping.modules[0].gradInput is None
    # on again: Torch7 behaviour
    skipping.skipGradInput(False)
    for m in (skipping, full):
        m.forward(x)
    np.testing.assert_array_equal(skipping.backward(x, g), full.backward(x, g))


def test_skipGradInput_leaves_explicit_updateGradInput_alone():
    m = nn.Linear(6, 4).skipGradInput()
    x = rand(3, 6)
    m.forward(x)
    gi = m.updateGradInput(x, rand(3, 4, seed=1))
    assert gi is not None and gi.shape == (3, 6)


def test_skipGradInput_survives_clone_and_pickle():
    m = lenet_like().skipGradInput()
    for copy_ in (m.clone(), pickle.loads(pickle.dumps(m))):
        assert copy_.gradInputSkipped


@pytest.mark.parametrize("make", [lambda: nn.BatchNormalization(4), lambda: nn.Concat(1).add(nn.Linear(3, 2))])
def test_skipGradInput_is_refused_where_backward_computes_both(make):
    m = make()
    with pytest.raises(TypeError, match=rf"^{type(m).__name__}.skipGradInput: its backward computes gradInput"):
        m.skipGradInput()
    m.skipGradInput(False)   # (turning it off is always fine)


def test_big_endian_input_gets_a_clear_error():
    # (the kernels themselves read big-endian inputs from native copies: tests/test_binding.py)
    x = rand(3, 6).astype(">f8")
    for m, call in ((nn.Linear(6, 4), lambda m: m.forward(x)),
                    (nn.ClassNLLCriterion(), lambda m: m.forward(x, np.zeros(3, np.int64)))):
        with pytest.raises(TypeError, match=r"^\w+: input is float64 in non-native \(big-endian\) byte order "
                                            r"\(>f8\); convert it first: input.astype\(np.float64\)$"):
            call(m)
    np.testing.assert_array_equal(nn.Linear(6, 4).forward(x.astype(np.float64)).shape, (3, 4))
