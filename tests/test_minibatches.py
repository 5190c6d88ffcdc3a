"""nn_legacy.minibatches: one pass over (inputs, targets) in batches."""
import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly


def data(n=10):
    targets = np.arange(n)
    inputs = np.stack([targets * 10.0, targets * -1.0], axis=1)   # row i is (10 i, -i)
    return inputs, targets


def test_every_row_once_in_batches_with_a_short_last_one():
    inputs, targets = data(10)
    batches = list(nn.minibatches(inputs, targets, 4))
    assert [len(t) for _, t in batches] == [4, 4, 2]
    seen = np.concatenate([t for _, t in batches])
    assert sorted(seen) == list(range(10))
    for x, t in batches:
        np.testing.assert_array_equal(x, inputs[t])     # inputs and targets stay paired


def test_in_order_without_shuffle_and_as_views():
    inputs, targets = data(7)
    batches = list(nn.minibatches(inputs, targets, 3, shuffle=False))
    np.testing.assert_array_equal(np.concatenate([t for _, t in batches]), targets)
    assert all(np.shares_memory(x, inputs) for x, _ in batches)


def test_the_shuffle_repeats_under_a_seed():
    inputs, targets = data(50)

    def order(seed):
        nn.manualSeed(seed)
        return np.concatenate([t for _, t in nn.minibatches(inputs, targets, 8)])

    first = order(5)
    np.testing.assert_array_equal(order(5), first)
    assert not np.array_equal(first, targets), "shuffled data came out in order"
    assert not np.array_equal(order(6), first)
    nn.manualSeed(5)
    epoch1 = np.concatenate([t for _, t in nn.minibatches(inputs, targets, 8)])
    epoch2 = np.concatenate([t for _, t in nn.minibatches(inputs, targets, 8)])
    assert not np.array_equal(epoch1, epoch2), "each call must draw a new order"


def test_length_and_a_single_pass():
    inputs, targets = data(10)
    batches = nn.minibatches(inputs, targets, 3)
    assert len(batches) == 4
    assert len(list(batches)) == 4
    assert list(batches) == []
    assert len(nn.minibatches(inputs, targets, 20)) == 1
    assert len(nn.minibatches(inputs, targets, 5)) == 2


def test_any_sample_shape():
    images = np.zeros((5, 3, 4, 4))
    labels = np.zeros((5, 2))
    shapes = [(x.shape, t.shape) for x, t in nn.minibatches(images, labels, 2)]
    assert shapes == [((2, 3, 4, 4), (2, 2))] * 2 + [((1, 3, 4, 4), (1, 2))]


@pytest.mark.parametrize("args, error, message", [
    (([1, 2], np.zeros(2), 1), TypeError, "minibatches: inputs must be a numpy array, got list"),
    ((np.zeros(2), None, 1), TypeError, "minibatches: targets must be a numpy array, got NoneType"),
    ((np.zeros(()), np.zeros(2), 1), ValueError, "minibatches: inputs must have a sample axis, got a 0-d array"),
    ((np.zeros(3), np.zeros(2), 1), ValueError, "minibatches: inputs has 3 samples but targets has 2"),
    ((np.zeros(2), np.zeros(2), 0), ValueError, "minibatches: batch_size must be an integer >= 1, got 0"),
    ((np.zeros(2), np.zeros(2), 2.0), ValueError, "minibatches: batch_size must be an integer >= 1, got 2.0"),
    ((np.zeros(2), np.zeros(2), True), ValueError, "minibatches: batch_size must be an integer >= 1, got True"),
    ((np.zeros(2), np.zeros(2), 1, "yes"), TypeError, "minibatches: shuffle must be True or False, got 'yes'"),
])
def test_bad_arguments(args, error, message):
    with raises_exactly(error, message):
        nn.minibatches(*args)
