"""The Module API over trees of containers: parameters, sharing, clone,
type conversion, clearState, apply / listModules / findModules / replace,
training / evaluate, repr and the error paths through nested containers."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from table_module_checks import assert_same, copies


def tree():
    """Sequential -> ConcatTable -> (Sequential, Concat), then a ParallelTable
    and a JoinTable-free ending: input [b, 5] -> table of two [b, 2]."""
    return nn.Sequential(
        nn.Linear(5, 4),
        nn.ConcatTable(nn.Sequential(nn.Linear(4, 3), nn.Tanh()),
                       nn.Concat(1).add(nn.Linear(4, 2)).add(nn.WeightNorm(nn.Linear(4, 1)))),
        nn.ParallelTable(nn.Linear(3, 2), nn.Bottle(nn.Linear(3, 2))))


def every_container():
    """One of each container, each holding parameters, with an input."""
    x2 = uniform((2, 4), 1)
    return [
        (nn.Sequential(nn.Linear(4, 3), nn.Tanh()), x2),
        (nn.Concat(1).add(nn.Linear(4, 3)).add(nn.Linear(4, 2)), x2),
        (nn.DepthConcat(0).add(nn.Linear(4, 3)).add(nn.Linear(4, 2)), x2),
        (nn.Parallel(0, 0).add(nn.Linear(4, 3)).add(nn.Linear(4, 2)), x2),
        (nn.ConcatTable(nn.Linear(4, 3), nn.Linear(4, 2)), x2),
        (nn.ParallelTable(nn.Linear(4, 3), nn.Linear(4, 2)), [x2, x2]),
        (nn.MapTable(nn.Linear(4, 3)), [x2, x2, x2]),
        (nn.Bottle(nn.Linear(4, 3)), uniform((2, 2, 4), 2)),
        (nn.Decorator(nn.Linear(4, 3)), x2),
        (nn.WeightNorm(nn.Linear(4, 3)), x2),
    ]


IDS = [type(m).__name__ for m, _ in every_container()]


# ---------------------------------------------------------------- parameters
@pytest.mark.parametrize("case", range(len(IDS)), ids=IDS)
def test_getParameters_twice_gives_the_same_arrays(case):
    m, x = every_container()[case]
    out = copies(m.forward(x))
    flat, grads = m.getParameters()
    assert flat.size == grads.size == sum(p.size for p in m.parameters()[0])
    again = m.getParameters()
    assert again[0] is flat and again[1] is grads
    for p, g in zip(*m.parameters()):
        assert p.base is flat and g.base is grads
    assert_same(m.forward(x), out, "output after flattening")
    flat[:] = 0
    assert not any(p.any() for p in m.parameters()[0])


def test_getParameters_with_shared_parameters():
    a = nn.Linear(4, 4)
    b = a.clone("weight", "bias", "gradWeight", "gradBias")
    m = nn.Sequential(a, nn.Tanh(), b, nn.Linear(4, 2))
    flat, grads = m.getParameters()
    assert flat.size == 20 + 10 == grads.size   # the shared pair counted once
    assert b.weight is a.weight and b.gradWeight is a.gradWeight
    assert m.getParameters()[0] is flat
    flat[:] = 1
    np.testing.assert_array_equal(b.weight, 1)


def test_getParameters_refuses_parameters_shared_without_their_gradients():
    a = nn.Linear(4, 4)
    m = nn.Sequential(a, a.clone("weight"))
    with raises_exactly(ValueError, "Sequential.flattenParameters: Linear.weight is shared with another module "
                                    "but gradWeight is not (or the other way round); share both, e.g. "
                                    "clone('weight', 'bias', 'gradWeight', 'gradBias')"):
        m.getParameters()


# ---------------------------------------------------------------- share and clone
def test_clone_shares_the_named_arrays_only():
    a = nn.Sequential(nn.Linear(4, 3), nn.Tanh(), nn.Concat(1).add(nn.Linear(3, 2)).add(nn.Linear(3, 1)))
    b = a.clone("weight", "gradWeight")
    for la, lb in zip(a.findModules(nn.Linear)[0], b.findModules(nn.Linear)[0]):
        assert lb.weight is la.weight and lb.gradWeight is la.gradWeight
        assert lb.bias is not la.bias and np.array_equal(lb.bias, la.bias)
    plain = a.clone()
    assert plain.get(0).weight is not a.get(0).weight


def test_share_between_trees():
    a = nn.Sequential(nn.Linear(4, 3), nn.ConcatTable(nn.Linear(3, 2)))
    b = nn.Sequential(nn.Linear(4, 3), nn.ConcatTable(nn.Linear(3, 2)))
    assert b.share(a, "bias", "weight") is b
    assert b.get(1).get(0).weight is a.get(1).get(0).weight and b.get(0).bias is a.get(0).bias
    x = uniform((2, 4), 1)
    np.testing.assert_array_equal(b.forward(x)[0], a.forward(x)[0])


def test_share_errors():
    with raises_exactly(ValueError, "Sequential.share: expected a container of 2 modules like this one, got "
                                    "Sequential of 1 modules"):
        nn.Sequential(nn.Linear(2, 2), nn.Tanh()).share(nn.Sequential(nn.Linear(2, 2)), "weight")
    with raises_exactly(TypeError, "Sequential (0) -> Linear.share: 'weight' must be an array in both modules, "
                                   "got ndarray here and NoneType in Tanh"):
        nn.Sequential(nn.Linear(2, 2)).share(nn.Sequential(nn.Tanh()), "weight")
    with raises_exactly(TypeError, "Linear.share: expected a Module to share with, got int"):
        nn.Linear(2, 2).share(3, "weight")
    m = nn.Linear(2, 2, bias=False)
    assert m.share(nn.Linear(2, 2), "bias").bias is None   # absent here: skipped, as Torch7


def test_updates_through_shared_parameters_step_once_per_owner():
    a = nn.Linear(3, 3)
    m = nn.Sequential(a, nn.Tanh(), a.clone("weight", "bias", "gradWeight", "gradBias"))
    x = uniform((4, 3), 1)
    m.zeroGradParameters()
    m.forward(x)
    m.backward(x, uniform((4, 3), 2))
    before, grad = a.weight.copy(), a.gradWeight.copy()
    m.updateParameters(0.1)
    np.testing.assert_allclose(a.weight, before - 2 * 0.1 * grad, rtol=1e-14)   # Torch7: once per owner


# ---------------------------------------------------------------- type
def test_type_keeps_shared_arrays_shared_in_a_tree():
    a = nn.Linear(4, 4)
    m = nn.Sequential(a, nn.ConcatTable(a.clone("weight", "bias", "gradWeight", "gradBias"),
                                        nn.MapTable(nn.Linear(4, 2))))
    m.get(1).get(1).forward([uniform((2, 4))] * 3)   # the MapTable makes two clones
    m.float()
    b, mt = m.get(1).get(0), m.get(1).get(1)
    assert a.weight.dtype == np.float32 and b.weight is a.weight and b.gradBias is a.gradBias
    assert mt.modules[2].weight is mt.module.weight and mt.module.weight.dtype == np.float32
    m.double()
    assert b.weight is a.weight and a.weight.dtype == np.float64


def test_type_keeps_arrays_shared_across_trees_with_one_cache():
    a = nn.Linear(4, 4)
    b = a.clone("weight", "gradWeight")
    cache = {}
    nn.Sequential(a).type(np.float32, cache)
    nn.Sequential(b).type(np.float32, cache)
    assert b.weight is a.weight and b.weight.dtype == np.float32
    assert b.bias is not a.bias


def test_type_to_the_same_dtype_keeps_the_arrays():
    m = nn.Linear(3, 2)
    w = m.weight
    m.double()
    assert m.weight is w   # as Torch7: already of that type, nothing to convert


# ---------------------------------------------------------------- state
def test_clearState_reaches_every_container():
    m = tree()
    x = uniform((2, 5), 1)
    m.forward(x)
    m.backward(x, [uniform((2, 2)), uniform((2, 2))])
    assert m.clearState() is m
    for module in m.listModules():
        assert module.output is None and module.gradInput is None, type(module).__name__
    assert len(m.forward(x)) == 2


@pytest.mark.parametrize("case", range(len(IDS)), ids=IDS)
def test_clearState_of_every_container(case):
    m, x = every_container()[case]
    out = copies(m.forward(x))
    assert m.clearState() is m
    for module in m.listModules():
        assert module.output is None and module.gradInput is None, type(module).__name__
    assert_same(m.forward(x), out, "output after clearState")


@pytest.mark.parametrize("case", range(len(IDS)), ids=IDS)
def test_training_and_evaluate_recurse(case):
    m, _ = every_container()[case]
    m.evaluate()
    assert not any(module.train for module in m.listModules())
    m.training()
    assert all(module.train for module in m.listModules())


def test_training_and_evaluate_recurse_three_levels():
    m = tree()
    m.evaluate()
    assert [module.train for module in m.listModules()] == [False] * 14
    m.training()
    assert all(module.train for module in m.listModules())


# ---------------------------------------------------------------- the module tree
NAMES = ["Sequential", "Linear", "ConcatTable", "Sequential", "Linear", "Tanh", "Concat", "Linear", "WeightNorm",
         "Linear", "ParallelTable", "Linear", "Bottle", "Linear"]


def test_listModules_and_apply_go_parents_first():
    m = tree()
    assert [type(x).__name__ for x in m.listModules()] == NAMES
    seen = []
    m.apply(lambda x: seen.append(x))
    assert seen == m.listModules()


def test_findModules_by_class_or_name():
    m = tree()
    found, containers = m.findModules("Linear")
    assert len(found) == 6
    assert found[0] is m.get(0) and containers[0] is m
    assert found[2] is m.get(1).get(1).get(0) and containers[2] is m.get(1).get(1)
    assert found[3] is m.get(1).get(1).get(1).get(0) and containers[3] is m.get(1).get(1).get(1)
    assert m.findModules("nn.Linear")[0] == found
    assert m.findModules(nn.Linear)[0] == found
    # a class finds its subclasses too; the top module has no container
    nodes, containers = m.findModules(nn.Container)
    assert nodes[0] is m and containers[0] is None and len(nodes) == 7
    assert containers[1:] == [m, m.get(1), m.get(1), m.get(1).get(1), m, m.get(2)]
    assert m.findModules("Dropout") == ([], [])
    with raises_exactly(TypeError, "Sequential.findModules: a class or a class name, got int"):
        m.findModules(3)


def test_replace_swaps_modules_everywhere():
    m = tree()
    x = uniform((2, 5), 1)
    out = m.replace(lambda module: nn.Sigmoid() if isinstance(module, nn.Tanh) else module)
    assert out is m
    assert [type(x).__name__ for x in m.listModules()] == [n if n != "Tanh" else "Sigmoid" for n in NAMES]
    lin = m.get(1).get(0).get(0)
    h = m.get(0).forward(x)
    np.testing.assert_allclose(m.forward(x)[0], m.get(2).get(0).forward(1 / (1 + np.exp(-(h @ lin.weight.T
                                                                                             + lin.bias)))))
    # fn sees the top module first and what it returns is returned
    wrapped = m.replace(lambda module: nn.Decorator(module) if module is m else module)
    assert isinstance(wrapped, nn.Decorator) and wrapped.get(0) is m


# ---------------------------------------------------------------- repr
def test_repr_of_a_three_level_tree():
    assert repr(tree()) == (
        "nn.Sequential {\n"
        "  [input -> (0) -> (1) -> (2) -> output]\n"
        "  (0): nn.Linear(5 -> 4)\n"
        "  (1): nn.ConcatTable {\n"
        "    input\n"
        "      |`-> (0): nn.Sequential {\n"
        "      |      [input -> (0) -> (1) -> output]\n"
        "      |      (0): nn.Linear(4 -> 3)\n"
        "      |      (1): nn.Tanh\n"
        "      |    }\n"
        "       `-> (1): nn.Concat(1) {\n"
        "             input\n"
        "               |`-> (0): nn.Linear(4 -> 2)\n"
        "                `-> (1): nn.WeightNorm [nn.Linear(4 -> 1)]\n"
        "                ... -> output\n"
        "           }\n"
        "       ... -> output\n"
        "  }\n"
        "  (2): nn.ParallelTable {\n"
        "    input\n"
        "      |`-> (0): nn.Linear(3 -> 2)\n"
        "       `-> (1): nn.Bottle(2 -> 2) @ nn.Linear(3 -> 2)\n"
        "       ... -> output\n"
        "  }\n"
        "}")


# ---------------------------------------------------------------- errors name their path
def test_error_paths_through_three_levels():
    m = tree()
    m.get(1).get(1).get(1).get(0).weight = np.zeros((1, 3))
    m.get(1).get(1).get(1).v = np.zeros((1, 3))
    m.get(1).get(1).get(1).g = np.zeros(1)
    with raises_exactly(ValueError, "Sequential (1) -> ConcatTable (1) -> Concat (1) -> WeightNorm (0) -> "
                                    "Linear_updateOutput: input must be 1D or 2D with 3 features, got 2D of "
                                    "size [2, 4]"):
        m.forward(uniform((2, 5), 1))


def test_error_paths_in_backward_and_through_table_containers():
    m = tree()
    x = uniform((2, 5), 1)
    m.forward(x)
    with raises_exactly(ValueError, "Sequential (2) -> ParallelTable (1) -> Bottle (0) -> Linear_updateGradInput: "
                                    "gradOutput must be 2D of size [2, 2], got 2D of size [2, 3]"):
        m.backward(x, [uniform((2, 2)), uniform((2, 3))])
    with raises_exactly(ValueError, "Sequential (2) -> ParallelTable: gradOutput must be a table of 2 entries "
                                    "like its modules, got 1 entry"):
        m.backward(x, [uniform((2, 2))])
    with raises_exactly(TypeError, "Sequential (1) -> ConcatTable (0) -> Sequential (0) -> Linear: input is "
                                   "float32 but the module is float64; convert the input or call module.float()"):
        nn.Sequential(nn.Tanh(), tree().get(1)).forward(uniform((2, 4)).astype(np.float32))
