"""minibatches(): one pass over a data set in batches."""
import numbers

import numpy as np

from .random import generator


def minibatches(inputs, targets, batch_size, shuffle=True):
    """One epoch over (inputs, targets) in batches of batch_size rows.

    Yields ``(input_batch, target_batch)``, the same rows of both arrays
    (the first axis is the sample axis); the last batch holds the rows that
    remain and may be smaller.  With ``shuffle`` the order is a permutation
    drawn, when minibatches() is called, from the generator that
    ``nn_legacy.manualSeed`` seeds, so a seed repeats it; the batches are
    then copies.  Without it the rows come in order and the batches are
    views of the arrays.  ``len()`` of the result is the number of batches.

        for x, y in nn.minibatches(x_train, y_train, 32):
            ...
    """
    name = "minibatches"
    for array, what in ((inputs, "inputs"), (targets, "targets")):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{name}: {what} must be a numpy array, got {type(array).__name__}")
        if array.ndim == 0:
            raise ValueError(f"{name}: {what} must have a sample axis, got a 0-d array")
    if len(inputs) != len(targets):
        raise ValueError(f"{name}: inputs has {len(inputs)} samples but targets has {len(targets)}")
    if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, numbers.Integral) \
            or batch_size < 1:
        raise ValueError(f"{name}: batch_size must be an integer >= 1, got {batch_size!r}")
    if not isinstance(shuffle, (bool, np.bool_)):
        raise TypeError(f"{name}: shuffle must be True or False, got {shuffle!r}")
    order = generator().permutation(len(inputs)) if shuffle else None
    return _Batches(inputs, targets, int(batch_size), order)


class _Batches:
    """The iterator minibatches() returns: one pass, with a length."""

    def __init__(self, inputs, targets, batch_size, order):
        self._inputs, self._targets, self._size, self._order = inputs, targets, batch_size, order
        self._start = 0

    def __len__(self):
        return -(-len(self._inputs) // self._size)

    def __iter__(self):
        return self

    def __next__(self):
        start = self._start
        if start >= len(self._inputs):
            raise StopIteration
        self._start = start + self._size
        if self._order is None:
            rows = slice(start, start + self._size)
        else:
            rows = self._order[start:start + self._size]
        return self._inputs[rows], self._targets[rows]
