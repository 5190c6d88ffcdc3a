"""The calling convention every nn_legacy.optim method shares: x updated in
place, state carried in a dict, config checked, opfunc's answers checked,
float32, and training a model through flattenParameters()."""
import copy
import pickle

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy import optim
from optim_checks import quadratic, rosenbrock, run
from layer_checks import raises_exactly

# a config under which each method takes a few sensible steps on Rosenbrock
CONFIGS = {
    "sgd": {"learningRate": 1e-3, "momentum": 0.9},
    "nag": {"learningRate": 1e-3, "momentum": 0.9},
    "adam": {"learningRate": 1e-2},
    "adamax": {"learningRate": 1e-2},
    "adagrad": {"learningRate": 1e-1},
    "adadelta": {"rho": 0.95},
    "rmsprop": {"learningRate": 1e-2},
    "asgd": {"eta0": 1e-3, "t0": 3},
    "rprop": {"stepsize": 1e-2, "niter": 2},
    "cg": {"maxEval": 6},
    "lbfgs": {"maxIter": 3, "tolFun": 0, "tolX": 0},
}
METHODS = sorted(CONFIGS)
# cg starts afresh on every call; the others carry state from call to call
STATEFUL = [m for m in METHODS if m != "cg"]


def method(name):
    return getattr(optim, name)


def test_the_package_lists_every_method():
    assert sorted(optim.__all__) == METHODS
    assert nn.optim is optim


@pytest.mark.parametrize("name", METHODS)
def test_x_is_updated_in_place_and_returned_with_the_losses(name):
    x = np.array([1.5, 1.5])
    buffer = x
    result = method(name)(rosenbrock, x, dict(CONFIGS[name]), {})
    assert result[0] is buffer
    assert not np.array_equal(x, [1.5, 1.5]), "x did not move"
    fx = result[1]
    assert isinstance(fx, list) and all(isinstance(f, float) for f in fx)
    assert fx[0] == rosenbrock(np.array([1.5, 1.5]))[0], "fx[0] must be f at the starting point"
    extra = {"asgd": 3, "cg": 3, "lbfgs": 3}.get(name, 2)
    assert len(result) == extra


@pytest.mark.parametrize("name", METHODS)
def test_defaults_work_without_config_or_state(name):
    x = np.array([1.5, 1.5])
    method(name)(rosenbrock, x)
    assert np.all(np.isfinite(x)) and not np.array_equal(x, [1.5, 1.5])


@pytest.mark.parametrize("name", STATEFUL)
def test_passing_the_same_state_continues(name):
    """Six calls in a row equal three calls, a copy of the state, and three
    more calls with the copy: everything a method carries is in the dict."""
    straight, _, _ = run(method(name), CONFIGS[name], 6)
    x = np.array([1.5, 1.5])
    state = {}
    for _ in range(3):
        method(name)(rosenbrock, x, dict(CONFIGS[name]), state)
    state = pickle.loads(pickle.dumps(state))
    for _ in range(3):
        method(name)(rosenbrock, x, dict(CONFIGS[name]), state)
    np.testing.assert_array_equal(x, straight[-1])
    assert state, f"{name} kept nothing in its state"


@pytest.mark.parametrize("name", STATEFUL)
def test_a_fresh_state_starts_over(name):
    first, _, _ = run(method(name), CONFIGS[name], 1)
    x = np.array([1.5, 1.5])
    state = {}
    for _ in range(3):
        method(name)(rosenbrock, x, dict(CONFIGS[name]), state)
    x = np.array([1.5, 1.5])
    method(name)(rosenbrock, x, dict(CONFIGS[name]), {})
    np.testing.assert_array_equal(x, first[0])


@pytest.mark.parametrize("name", METHODS)
def test_config_holds_the_state_when_there_is_no_state(name):
    """As in Torch7: method(opfunc, x, config) keeps its state in config."""
    separate, _, _ = run(method(name), CONFIGS[name], 4)
    x = np.array([1.5, 1.5])
    config = copy.deepcopy(CONFIGS[name])
    for _ in range(4):
        method(name)(rosenbrock, x, config)
    np.testing.assert_array_equal(x, separate[-1])
    if name != "cg":
        assert set(config) > set(CONFIGS[name]), "the state did not go into config"


@pytest.mark.parametrize("name", METHODS)
def test_opfunc_may_return_the_same_gradient_array_every_time(name):
    """A model's flat gradient array is one array, overwritten by every
    evaluation; the methods copy what they keep, and never change it."""
    grad = np.zeros(2)
    seen = []

    def opfunc(x):
        f, g = rosenbrock(x)
        grad[...] = g
        seen.append(g.copy())
        return f, grad

    x = np.array([1.5, 1.5])
    state = {}
    for _ in range(3):
        method(name)(opfunc, x, dict(CONFIGS[name]), state)
    reference, _, _ = run(method(name), CONFIGS[name], 3)
    np.testing.assert_array_equal(x, reference[-1])
    np.testing.assert_array_equal(grad, seen[-1])


@pytest.mark.parametrize("name", METHODS)
def test_float32_stays_float32_and_follows_float64(name):
    x64, _, _ = run(method(name), CONFIGS[name], 3)
    x32, _, _ = run(method(name), CONFIGS[name], 3, dtype=np.float32)
    assert x32.dtype == np.float32
    np.testing.assert_allclose(x32[-1], x64[-1], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", METHODS)
def test_x_of_any_shape(name):
    """x need not be flat: a (2, 3) array is six numbers."""
    f = quadratic([1, 2, 3, 4, 5, 6], [1, -1, 2, -2, 0.5, 0])
    flat = np.linspace(-1, 1, 6)
    grid = flat.reshape(2, 3).copy()

    def f2(x):
        value, g = f(x.ravel())
        return value, g.reshape(x.shape)

    method(name)(f, flat, dict(CONFIGS[name]), {})
    method(name)(f2, grid, dict(CONFIGS[name]), {})
    np.testing.assert_allclose(grid.ravel(), flat, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", METHODS)
def test_unknown_config_key(name):
    config = dict(CONFIGS[name], learningrate=0.1)
    with pytest.raises(ValueError, match=f"^{name}: unknown config key 'learningrate'; {name} reads "):
        method(name)(rosenbrock, np.array([1.5, 1.5]), config, {})


@pytest.mark.parametrize("name", METHODS)
def test_bad_x(name):
    m = method(name)
    with raises_exactly(TypeError, f"{name}: x must be a numpy array or a CudaTensor (it is updated in place), "
                                   f"got list"):
        m(rosenbrock, [1.5, 1.5])
    with raises_exactly(TypeError, f"{name}: x must be float32 or float64, got int64"):
        m(rosenbrock, np.array([1, 2]))
    with raises_exactly(ValueError, f"{name}: x is empty, there is nothing to optimise"):
        m(rosenbrock, np.zeros(0))
    frozen = np.array([1.5, 1.5])
    frozen.flags.writeable = False
    with raises_exactly(ValueError, f"{name}: x is read-only, but it is updated in place"):
        m(rosenbrock, frozen)


@pytest.mark.parametrize("name", METHODS)
def test_bad_arguments_around_x(name):
    m, x = method(name), np.array([1.5, 1.5])
    with raises_exactly(TypeError, f"{name}: opfunc must be a function x -> (loss, gradient), got str"):
        m("rosenbrock", x)
    with raises_exactly(TypeError, f"{name}: config must be a dict, got list"):
        m(rosenbrock, x, [])
    with raises_exactly(TypeError, f"{name}: state must be a dict, got tuple"):
        m(rosenbrock, x, {}, ())
    np.testing.assert_array_equal(x, [1.5, 1.5])


@pytest.mark.parametrize("name", METHODS)
def test_bad_opfunc_results(name):
    m = method(name)
    cases = [
        (lambda x: 1.0, TypeError, f"{name}: opfunc must return (loss, gradient), got float"),
        (lambda x: (1.0, x, 2), TypeError, f"{name}: opfunc must return (loss, gradient), got tuple of length 3"),
        (lambda x: ("1", x.copy()), TypeError, f"{name}: the loss opfunc returns must be a number, got str"),
        (lambda x: (1.0, [1.0, 2.0]), TypeError,
         f"{name}: the gradient opfunc returns must be a numpy array, got list"),
        (lambda x: (1.0, np.zeros(3)), ValueError,
         f"{name}: the gradient opfunc returns has shape [3] but x has shape [2]"),
        (lambda x: (1.0, np.zeros(2, dtype=complex)), TypeError,
         f"{name}: the gradient opfunc returns must be real numbers, got complex128"),
    ]
    for opfunc, error, message in cases:
        with raises_exactly(error, message):
            m(opfunc, np.array([1.5, 1.5]), dict(CONFIGS[name]), {})


@pytest.mark.parametrize("name", METHODS)
def test_a_loss_may_be_a_one_element_array(name):
    x = np.array([1.5, 1.5])
    _, fx, *_ = method(name)(lambda v: (np.array([rosenbrock(v)[0]]), rosenbrock(v)[1]), x,
                             dict(CONFIGS[name]), {})
    assert fx[0] == rosenbrock(np.array([1.5, 1.5]))[0]


@pytest.mark.parametrize("name", STATEFUL)
def test_a_state_for_another_x_is_refused(name):
    state = {}
    method(name)(rosenbrock, np.array([1.5, 1.5]), dict(CONFIGS[name]), state)
    x = np.array([1.5, 1.5, 1.5])
    with pytest.raises(ValueError, match=rf"^{name}: state\['\w+'\] is shape \[2\] but x has shape \[3\]; "
                                         r"use a fresh state dict for a different x$"):
        method(name)(rosenbrock, x, dict(CONFIGS[name]), state)
    np.testing.assert_array_equal(x, [1.5, 1.5, 1.5])


@pytest.mark.parametrize("name", ["sgd", "adam", "lbfgs"])
def test_training_a_model_through_flattened_parameters(name):
    """The usual use: x is the model's flat parameter array, so every step
    moves the model; a linear regression without noise is solved."""
    nn.manualSeed(3)
    rng = np.random.default_rng(3)
    inputs = rng.standard_normal((40, 3))
    targets = inputs @ np.array([[0.5], [-1.0], [2.0]]) + 0.25
    model = nn.Sequential().add(nn.Linear(3, 1))
    criterion = nn.MSECriterion()
    params, grads = model.flattenParameters()

    def feval(x):
        assert x is params
        model.zeroGradParameters()
        output = model.forward(inputs)
        loss = criterion.forward(output, targets)
        model.backward(inputs, criterion.backward(output, targets))
        return loss, grads

    config = {"sgd": {"learningRate": 0.3, "momentum": 0.5}, "adam": {"learningRate": 0.05},
              "lbfgs": {"maxIter": 50}}[name]
    state = {}
    for _ in range({"sgd": 200, "adam": 600, "lbfgs": 3}[name]):
        method(name)(feval, params, config, state)
    linear = model.modules[0]
    np.testing.assert_allclose(linear.weight, [[0.5, -1.0, 2.0]], atol=1e-5)
    np.testing.assert_allclose(linear.bias, [0.25], atol=1e-5)
    assert model.modules[0].weight.base is params, "the model must still view the flat array"


def test_opfunc_sees_x_itself():
    """opfunc gets the array being optimised (not a copy), as in Torch7."""
    x = np.array([1.5, 1.5])
    seen = []

    def opfunc(v):
        seen.append(v)
        return rosenbrock(v)

    optim.sgd(opfunc, x)
    assert seen[0] is x
