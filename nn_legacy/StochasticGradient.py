import numbers
import sys

import numpy as np

from ._helpers.progress import ProgressBar
from ._helpers.random import generator
from .Criterion import Criterion
from .Module import Module


class StochasticGradient:
    """Torch7's ``nn.StochasticGradient``: plain online gradient descent, one
    example at a time, over a data set.

        trainer = nn.StochasticGradient(model, nn.MSECriterion())
        trainer.learningRate = 0.01
        trainer.train((inputs, targets))        # or a Torch7-style dataset

    Fields to set before ``train`` (Torch7's defaults):

    - ``learningRate`` (0.01); ``learningRateDecay`` (0): epoch ``k`` >= 2
      uses ``learningRate / (1 + k * learningRateDecay)`` (the first epoch
      uses learningRate itself; Torch7 counts this way);
    - ``maxIteration`` (25): the number of epochs, or ``<= 0`` to go on
      until interrupted;
    - ``shuffleIndices`` (True): visit the examples in a random order, drawn
      once per ``train`` call from the generator of ``nn_legacy.manualSeed``
      and kept for every epoch, as Torch7 does; False visits them in order;
    - ``hookExample(trainer, example)``: called after each example;
    - ``hookIteration(trainer, epoch, mean_error)``: called after each
      epoch (epochs count from 1);
    - ``verbose`` (True): a progress bar and the mean error of each epoch,
      written to ``stream`` (standard output when None).

    Each example goes ``forward``, through the criterion, then
    ``updateGradInput`` and ``accUpdateGradParameters(input, gradOutput,
    rate)``, which steps the parameters directly without touching the
    stored gradients.  ``train`` returns the mean error of the last epoch.
    """

    def __init__(self, module, criterion):
        if not isinstance(module, Module):
            raise TypeError(f"StochasticGradient: module must be an nn_legacy Module, got {type(module).__name__}")
        if not isinstance(criterion, Criterion):
            raise TypeError(f"StochasticGradient: criterion must be an nn_legacy Criterion, "
                            f"got {type(criterion).__name__}")
        self.learningRate = 0.01
        self.learningRateDecay = 0
        self.maxIteration = 25
        self.shuffleIndices = True
        self.module = module
        self.criterion = criterion
        self.hookExample = None
        self.hookIteration = None
        self.verbose = True
        self.stream = None

    def train(self, dataset):
        """Train the module on dataset: an object with ``size()`` whose
        ``dataset[i]`` (i from 0) is an ``(input, target)`` pair, or a pair
        ``(inputs, targets)`` of numpy arrays whose rows are the examples."""
        self._check_fields()
        size, example_at = _examples(dataset)
        module, criterion = self.module, self.criterion
        stream = sys.stdout if self.stream is None else self.stream
        order = generator().permutation(size) if self.shuffleIndices else np.arange(size)
        epochs = f"/{self.maxIteration}" if self.maxIteration > 0 else ""

        self._say(stream, "# StochasticGradient: training")
        iteration = 1
        rate = self.learningRate
        while True:
            bar = ProgressBar(size, f"# epoch {iteration}{epochs}", stream) if self.verbose else None
            total = 0.0
            for t in range(size):
                example = example_at(int(order[t]))
                input, target = example[0], example[1]
                total += criterion.forward(module.forward(input), target)
                module.updateGradInput(input, criterion.updateGradInput(module.output, target))
                module.accUpdateGradParameters(input, criterion.gradInput, rate)
                if self.hookExample is not None:
                    self.hookExample(self, example)
                if bar is not None:
                    bar.update(t + 1)
            error = total / size
            if bar is not None:
                bar.finish(f"current error = {error:.6g}")
            if self.hookIteration is not None:
                self.hookIteration(self, iteration, error)
            iteration += 1
            rate = self.learningRate / (1 + iteration * self.learningRateDecay)
            if 0 < self.maxIteration < iteration:
                self._say(stream, "# StochasticGradient: you have reached the maximum number of iterations")
                self._say(stream, f"# training error = {error:.6g}")
                return error

    def _say(self, stream, line):
        if self.verbose:
            stream.write(line + "\n")
            stream.flush()

    def _check_fields(self):
        name = "StochasticGradient.train"
        for field in ("learningRate", "learningRateDecay"):
            value = getattr(self, field)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
                    or not np.isfinite(value) or value < 0:
                raise ValueError(f"{name}: {field} must be a number >= 0, got {value!r}")
        if isinstance(self.maxIteration, (bool, np.bool_)) or not isinstance(self.maxIteration, numbers.Integral):
            raise ValueError(f"{name}: maxIteration must be an integer (<= 0 for no limit), "
                             f"got {self.maxIteration!r}")
        for field in ("shuffleIndices", "verbose"):
            if not isinstance(getattr(self, field), (bool, np.bool_)):
                raise TypeError(f"{name}: {field} must be True or False, got {getattr(self, field)!r}")
        for field in ("hookExample", "hookIteration"):
            hook = getattr(self, field)
            if hook is not None and not callable(hook):
                raise TypeError(f"{name}: {field} must be a function or None, got {type(hook).__name__}")


def _what(dataset):
    """What a data set that is neither kind is, and what to do about it."""
    kind = type(dataset).__name__
    if isinstance(dataset, (tuple, list)) and len(dataset) == 2:
        wrong = [f"{part} is a {type(v).__name__}" for part, v in zip(("inputs", "targets"), dataset)
                 if not isinstance(v, np.ndarray)]
        return (f"a {kind} (inputs, targets) where {' and '.join(wrong)}: make them arrays, e.g. "
                f"(np.asarray(inputs), np.asarray(targets))")
    if isinstance(dataset, (tuple, list)) and dataset and all(
            isinstance(e, (tuple, list)) and len(e) == 2 for e in dataset):
        return (f"a {kind} of {len(dataset)} (input, target) pairs: stack them into (inputs, targets) arrays, "
                f"e.g. (np.stack([x for x, _ in data]), np.stack([t for _, t in data]))")
    if isinstance(dataset, np.ndarray):
        return "one numpy array: pass the targets with it, (inputs, targets)"
    return kind


def _examples(dataset):
    """(number of examples, function i -> example) for either kind of data set."""
    name = "StochasticGradient.train"
    if isinstance(dataset, (tuple, list)) and len(dataset) == 2 \
            and all(isinstance(a, np.ndarray) for a in dataset):
        inputs, targets = dataset
        if inputs.ndim == 0 or targets.ndim == 0:
            raise ValueError(f"{name}: inputs and targets need a sample axis, got 0-d arrays")
        if len(inputs) != len(targets):
            raise ValueError(f"{name}: inputs has {len(inputs)} samples but targets has {len(targets)}")
        size = len(inputs)
        example_at = lambda i: (inputs[i], targets[i])  # noqa: E731
    elif callable(getattr(dataset, "size", None)) and hasattr(dataset, "__getitem__"):
        size = dataset.size()
        if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Integral) or size < 0:
            raise ValueError(f"{name}: dataset.size() must return a count, got {size!r}")

        def example_at(i):
            example = dataset[i]
            try:
                example[0], example[1]
            except (TypeError, IndexError, KeyError):
                raise TypeError(f"{name}: dataset[{i}] must be an (input, target) pair, "
                                f"got {type(example).__name__}") from None
            return example
    else:
        raise TypeError(f"{name}: dataset must have size() and dataset[i] -> (input, target), "
                        f"or be a pair (inputs, targets) of numpy arrays; got {_what(dataset)}")
    if size == 0:
        raise ValueError(f"{name}: the dataset is empty")
    return int(size), example_at
