"""Torch7 habits that give wrong answers without an error, caught where a cheap look at a criterion's first
call can tell (docs/guides/torch7-habits.md): 1-based class targets, and probabilities given to
ClassNLLCriterion, which takes log-probabilities.  Each criterion looks once, at its first forward; the calls
after it cost one attribute test."""
import warnings

import numpy as np


class Torch7HabitWarning(UserWarning):
    """The input or target of a first call looks like a Torch7 habit that gives a wrong answer silently."""


def check_first_call(criterion, input, target, ignore_index, log_probabilities):
    """Warn about 1-based targets (those equal to ignore_index left out), and (log_probabilities: the criterion
    takes them) about probabilities."""
    criterion._habits_checked = True
    if not isinstance(input, np.ndarray) or input.ndim not in (1, 2) or not input.size:
        return   # (a CudaTensor, or a shape the kernel will refuse with its own message)
    name = type(criterion).__name__
    n = input.shape[-1]
    targets = np.asarray(target)
    # a batch of 4n or more: 0-based targets of classes about as frequent miss class 0 there with a chance
    # below (1 - 1/n)^(4n) < e^-4 (2 %); a smaller batch says too little
    if input.ndim == 2 and targets.dtype.kind in "iu" and targets.size >= 4 * n:
        kept = targets[targets != ignore_index]
        if kept.size and kept.min() >= 1 and kept.max() <= n:
            _warn(f"{name}: no target of the first batch is 0 (all are in 1..{n}); targets are 0-based class "
                  f"indices here (Torch7's were 1-based): if they come from Torch7 code, subtract 1")
    if log_probabilities and input.dtype.kind == "f" and (input >= 0).all() \
            and np.allclose(input.sum(axis=-1), 1, rtol=0, atol=1e-3):
        _warn(f"{name}: the input looks like probabilities (no value below 0, each row sums to 1); it takes "
              f"log-probabilities: use LogSoftMax rather than SoftMax before it, or CrossEntropyCriterion on "
              f"raw scores")


def _warn(text):
    warnings.warn(text, Torch7HabitWarning, stacklevel=5)   # forward() -> updateOutput -> check_first_call -> here
