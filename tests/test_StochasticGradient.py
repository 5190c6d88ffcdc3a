"""nn_legacy.StochasticGradient: Torch7's one-example-at-a-time trainer."""
import io
import re

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly


def regression(n=40, seed=0):
    """y = x . (1, -2, 0.5) + 0.3, without noise."""
    x = np.random.default_rng(seed).standard_normal((n, 3))
    return x, x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3


class Dataset:
    """A Torch7-style data set: size() and dataset[i] -> {input, target}."""

    def __init__(self, inputs, targets):
        self.inputs, self.targets = inputs, targets

    def size(self):
        return len(self.inputs)

    def __getitem__(self, i):
        return [self.inputs[i], self.targets[i]]


def trainer_for(model, criterion=None, **fields):
    trainer = nn.StochasticGradient(model, criterion or nn.MSECriterion())
    trainer.verbose = False
    for key, value in fields.items():
        setattr(trainer, key, value)
    return trainer


def test_torch7_defaults():
    trainer = nn.StochasticGradient(nn.Linear(2, 1), nn.MSECriterion())
    assert (trainer.learningRate, trainer.learningRateDecay, trainer.maxIteration, trainer.shuffleIndices) \
        == (0.01, 0, 25, True)
    assert trainer.hookExample is None and trainer.hookIteration is None and trainer.verbose


@pytest.mark.parametrize("as_object", [False, True], ids=["pair-of-arrays", "torch7-dataset"])
def test_a_tiny_regression_converges(as_object):
    inputs, targets = regression()
    model = nn.Sequential().add(nn.Linear(3, 1))
    trainer = trainer_for(model, learningRate=0.05, maxIteration=15)
    error = trainer.train(Dataset(inputs, targets) if as_object else (inputs, targets))
    assert error < 1e-12
    np.testing.assert_allclose(model.modules[0].weight, [[1.0, -2.0, 0.5]], atol=1e-6)
    np.testing.assert_allclose(model.modules[0].bias, [0.3], atol=1e-6)


def test_a_small_classifier_learns():
    """Class targets are plain integers, one per example, as Torch7's."""
    rng = np.random.default_rng(1)
    inputs = rng.standard_normal((60, 2))
    labels = (inputs[:, 0] + inputs[:, 1] > 0).astype(np.int64)
    model = nn.Sequential().add(nn.Linear(2, 2)).add(nn.LogSoftMax())
    trainer_for(model, nn.ClassNLLCriterion(), learningRate=0.1, maxIteration=10).train((inputs, labels))
    predicted = model.forward(inputs).argmax(axis=1)
    assert (predicted == labels).mean() >= 0.95


def test_hooks_get_the_trainer_the_example_the_epoch_and_its_mean_error():
    inputs, targets = regression(6)
    dataset = Dataset(inputs, targets)
    criterion = nn.MSECriterion()
    examples, epochs, losses = [], [], []
    trainer = trainer_for(nn.Linear(3, 1), criterion, maxIteration=3)

    def on_example(t, example):
        assert t is trainer
        examples.append(example)
        losses.append(criterion.output)

    trainer.hookExample = on_example
    trainer.hookIteration = lambda t, epoch, error: epochs.append((t, epoch, error))
    last = trainer.train(dataset)

    assert len(examples) == 18
    assert all(isinstance(e, list) and len(e) == 2 for e in examples)
    assert [(t is trainer, k) for t, k, _ in epochs] == [(True, 1), (True, 2), (True, 3)]
    for k, (_, _, error) in enumerate(epochs):
        assert error == pytest.approx(np.mean(losses[6 * k:6 * k + 6]), rel=1e-14)
    assert last == epochs[-1][2]


def test_one_shuffled_order_kept_for_every_epoch_and_repeated_under_a_seed():
    inputs, targets = regression(12)

    def orders(seed, shuffle=True):
        nn.manualSeed(seed)
        seen = []
        trainer = trainer_for(nn.Linear(3, 1), maxIteration=2, shuffleIndices=shuffle)
        trainer.hookExample = lambda t, example: seen.append(int(np.flatnonzero(inputs[:, 0] == example[0][0])[0]))
        trainer.train((inputs, targets))
        return seen[:12], seen[12:]

    first, second = orders(4)
    assert sorted(first) == list(range(12)) and first != list(range(12))
    assert second == first, "Torch7 draws the order once per train()"
    assert orders(4) == (first, second)
    assert orders(5)[0] != first
    assert orders(4, shuffle=False) == (list(range(12)), list(range(12)))


def test_the_learning_rate_of_each_epoch():
    """Torch7's schedule: the first epoch at learningRate, epoch k >= 2 at
    learningRate / (1 + k * learningRateDecay)."""
    inputs, targets = regression(3)
    model = nn.Linear(3, 1)
    rates = []
    update = model.accUpdateGradParameters

    def spy(input, gradOutput, lr):
        rates.append(lr)
        return update(input, gradOutput, lr)

    model.accUpdateGradParameters = spy
    trainer_for(model, learningRate=0.1, learningRateDecay=0.5, maxIteration=3).train((inputs, targets))
    assert rates == [0.1] * 3 + [0.1 / 2] * 3 + [0.1 / 2.5] * 3


def test_the_stored_gradients_are_left_alone():
    """Each example steps the parameters through accUpdateGradParameters."""
    inputs, targets = regression(5)
    model = nn.Linear(3, 1)
    model.zeroGradParameters()
    trainer_for(model, maxIteration=2).train((inputs, targets))
    assert not model.gradWeight.any() and not model.gradBias.any()


def test_no_limit_runs_until_a_hook_stops_it():
    inputs, targets = regression(3)

    class Enough(Exception):
        pass

    def stop_at_30(trainer, epoch, error):
        if epoch == 30:
            raise Enough

    with pytest.raises(Enough):
        trainer_for(nn.Linear(3, 1), maxIteration=0, hookIteration=stop_at_30).train((inputs, targets))


def test_what_it_prints():
    inputs, targets = regression(4)
    out = io.StringIO()
    trainer = nn.StochasticGradient(nn.Linear(3, 1), nn.MSECriterion())
    trainer.maxIteration, trainer.stream = 2, out
    error = trainer.train((inputs, targets))
    lines = out.getvalue().splitlines()
    assert lines[0] == "# StochasticGradient: training"
    assert re.fullmatch(r"# epoch 1/2 current error = \S+ \(\d+\.\d\d s\)", lines[1])
    assert re.fullmatch(r"# epoch 2/2 current error = \S+ \(\d+\.\d\d s\)", lines[2])
    assert lines[3:] == ["# StochasticGradient: you have reached the maximum number of iterations",
                         f"# training error = {error:.6g}"]
    quiet = io.StringIO()
    trainer.verbose = False
    trainer.stream = quiet
    trainer.train((inputs, targets))
    assert quiet.getvalue() == ""


def test_bad_module_or_criterion():
    with raises_exactly(TypeError, "StochasticGradient: module must be an nn_legacy Module, got MSECriterion"):
        nn.StochasticGradient(nn.MSECriterion(), nn.MSECriterion())
    with raises_exactly(TypeError, "StochasticGradient: criterion must be an nn_legacy Criterion, got Linear"):
        nn.StochasticGradient(nn.Linear(2, 1), nn.Linear(2, 1))


@pytest.mark.parametrize("dataset, error, message", [
    ([1, 2, 3], TypeError, "StochasticGradient.train: dataset must have size() and dataset[i] -> (input, target), "
                           "or be a pair (inputs, targets) of numpy arrays; got list"),
    ((np.zeros((3, 3)), np.zeros((2, 1))), ValueError,
     "StochasticGradient.train: inputs has 3 samples but targets has 2"),
    ((np.zeros((0, 3)), np.zeros((0, 1))), ValueError, "StochasticGradient.train: the dataset is empty"),
    (Dataset(np.zeros((0, 3)), np.zeros((0, 1))), ValueError, "StochasticGradient.train: the dataset is empty"),
])
def test_bad_datasets(dataset, error, message):
    with raises_exactly(error, message):
        trainer_for(nn.Linear(3, 1)).train(dataset)


def test_an_example_that_is_not_a_pair():
    class Broken(Dataset):
        def __getitem__(self, i):
            return 42

    with raises_exactly(TypeError, "StochasticGradient.train: dataset[0] must be an (input, target) pair, got int"):
        trainer_for(nn.Linear(3, 1), shuffleIndices=False).train(Broken(np.zeros((2, 3)), np.zeros((2, 1))))


@pytest.mark.parametrize("field, value, error, message", [
    ("learningRate", -0.01, ValueError, "StochasticGradient.train: learningRate must be a number >= 0, got -0.01"),
    ("learningRateDecay", "0", ValueError,
     "StochasticGradient.train: learningRateDecay must be a number >= 0, got '0'"),
    ("maxIteration", 2.5, ValueError,
     "StochasticGradient.train: maxIteration must be an integer (<= 0 for no limit), got 2.5"),
    ("shuffleIndices", 1, TypeError, "StochasticGradient.train: shuffleIndices must be True or False, got 1"),
    ("hookExample", "print", TypeError, "StochasticGradient.train: hookExample must be a function or None, got str"),
])
def test_bad_fields(field, value, error, message):
    inputs, targets = regression(3)
    with raises_exactly(error, message):
        trainer_for(nn.Linear(3, 1), **{field: value}).train((inputs, targets))
