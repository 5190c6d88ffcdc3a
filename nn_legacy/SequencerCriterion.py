import copy

from ._helpers.arrays import describe, is_array, reuse
from ._helpers.namespace import array_namespace
from .Criterion import Criterion


class SequencerCriterion(Criterion):
    """A criterion applied to every step of a sequence and summed (the rnn
    package's SequencerCriterion, for the output of a Sequencer)::

        loss = sum over t of criterion(input[t], target[t])      (/ seqlen with sizeAverage)

    input is a table (list) of steps or an array ``[seqlen, ...]`` (time
    first), target the same (a list of as many steps, or an array with
    seqlen first).  gradInput is laid out as the input: a list of the
    steps' gradients, or one array ``[seqlen, ...]``; with ``sizeAverage``
    (default False, as in the rnn package) each is divided by seqlen.  Each
    step has its own clone of the criterion (made on first use, kept in
    ``clones``), so a criterion that keeps buffers between forward and
    backward is used correctly.

    ``setZeroMask(mask)`` hands each step's criterion its row of a
    ``[seqlen, batch]`` mask (torch/rnn's zero masks; the step criterion must
    have ``setZeroMask``, as MaskZeroCriterion does); ``setZeroMask(False)``
    turns masking off in every step.
    """

    def __init__(self, criterion, sizeAverage=False):
        super().__init__()
        from .ModuleCriterion import ModuleCriterion
        if not isinstance(criterion, Criterion):
            raise TypeError(f"SequencerCriterion: criterion must be a Criterion, got {type(criterion).__name__}")
        if isinstance(criterion, ModuleCriterion):
            raise TypeError("SequencerCriterion: it does not decorate a ModuleCriterion; put it the other way "
                            "around (ModuleCriterion(SequencerCriterion(...), Sequencer(module)))")
        self.criterion = criterion
        self.sizeAverage = bool(sizeAverage)
        self.clones = {}

    def _t7_fixup(self, version):
        """Element-Research kept the criterion in ``criterion``; torch/rnn
        (AbstractSequencerCriterion) only as ``clones[1]``."""
        clones = vars(self).get("clones")
        items = clones if isinstance(clones, list) else (
            [clones[k] for k in sorted(clones)] if isinstance(clones, dict) else [])
        criterion = vars(self).get("criterion")
        if not isinstance(criterion, Criterion):
            criterion = items[0] if items and isinstance(items[0], Criterion) else None
        if criterion is None:
            from ._helpers.lua import T7Error
            raise T7Error(f"nn.{type(self).__name__}: the file holds no criterion (criterion or clones[1])")
        self.criterion = criterion
        self.sizeAverage = bool(vars(self).get("sizeAverage", False))
        self.clones = {}
        self.output, self.gradInput = 0.0, None

    _target_per_step = True      # RepeaterCriterion: one target for every step

    def _step_target(self, target, t):
        return target[t]

    def getStepCriterion(self, step):
        """The criterion of step (0-based): a clone of ``criterion`` per step."""
        clones = self.clones
        if step not in clones:
            clones[step] = self.criterion if step == 0 else copy.deepcopy(self.criterion)
        return clones[step]

    def _steps(self, input, target):
        name = type(self).__name__
        if isinstance(input, (list, tuple)):
            if self._target_per_step and not isinstance(target, (list, tuple)):
                raise TypeError(f"{name}: target must be a table (list) of steps like the input, got "
                                f"{type(target).__name__}")
            n = len(input)
        elif is_array(input):
            if input.ndim < 1:
                raise ValueError(f"{name}: input must be an array [seqlen, ...], got a scalar")
            if self._target_per_step and not (is_array(target) or isinstance(target, (list, tuple))):
                raise TypeError(f"{name}: target must be an array [seqlen, ...] or a table of steps like the "
                                f"input, got {type(target).__name__}")
            n = input.shape[0]
        else:
            raise TypeError(f"{name}: input must be a table (list) of steps or an array [seqlen, ...], got "
                            f"{type(input).__name__}")
        if n == 0:
            raise ValueError(f"{name}: input must be a sequence of at least one step")
        if not self._target_per_step:
            return n
        m = len(target) if isinstance(target, (list, tuple)) else (target.shape[0] if target.ndim else -1)
        if m != n:
            what = f"{m} steps" if m >= 0 else "a scalar"
            raise ValueError(f"{name}: target must have as many steps as the input ({n}), got {what}")
        return n

    def updateOutput(self, input, target):
        n = self._steps(input, target)
        total = 0.0
        for t in range(n):
            total += float(self._step(t, "updateOutput", input[t], self._step_target(target, t)))
        self.output = total / n if self.sizeAverage else total
        return self.output

    def _step(self, t, verb, x, y):
        try:
            return getattr(self.getStepCriterion(t), verb)(x, y)
        except (ValueError, TypeError, RuntimeError, IndexError) as e:
            raise type(e)(f"{type(self).__name__} (step {t}): {e}") from e

    def updateGradInput(self, input, target):
        n = self._steps(input, target)
        grads = [self._step(t, "updateGradInput", input[t], self._step_target(target, t)) for t in range(n)]
        if is_array(input):
            first = grads[0]
            if not is_array(first):
                raise TypeError(f"{type(self).__name__}: the step criterion's gradInput must be an array to stack "
                                f"along time, got {type(first).__name__}")
            out = reuse(self.gradInput if is_array(self.gradInput) else None, (n,) + first.shape, first.dtype,
                        *grads)
            for t, g in enumerate(grads):
                if g.shape != first.shape:
                    raise ValueError(f"{type(self).__name__}: step {t}'s gradInput is {describe(g)}, step 0's "
                                     f"{describe(first)}")
                out[t] = g
            if self.sizeAverage:
                out /= n
            self.gradInput = out
        else:
            self.gradInput = [_scaled(g, n) if self.sizeAverage else g for g in grads]
        return self.gradInput

    def setZeroMask(self, zeroMask):
        """zeroMask [seqlen, batch] (True / nonzero: masked), or False for none."""
        if zeroMask is False or zeroMask is None:
            for c in {id(c): c for c in [self.criterion, *self.clones.values()]}.values():
                _set_mask(self, c, zeroMask)
            return
        if not is_array(zeroMask) or zeroMask.ndim < 2:
            raise ValueError(f"{type(self).__name__}: zeroMask must be an array [seqlen, batch], got "
                             f"{describe(zeroMask) if is_array(zeroMask) else type(zeroMask).__name__}")
        for t in range(zeroMask.shape[0]):
            _set_mask(self, self.getStepCriterion(t), zeroMask[t])

    def type(self, dtype=None, _memo=None):
        if dtype is not None:
            self.clones = {}
        return super().type(dtype, _memo)

    def cuda(self, device=None):
        self.clones = {}
        return super().cuda(device)

    def clearState(self):
        self.clones = {}
        self.criterion.clearState()
        return super().clearState()

    def __repr__(self):
        return f"nn.SequencerCriterion({self.criterion!r}{', sizeAverage' if self.sizeAverage else ''})"


def _set_mask(owner, criterion, mask):
    if not hasattr(criterion, "setZeroMask"):
        raise TypeError(f"{type(owner).__name__}: its criterion ({type(criterion).__name__}) takes no zero mask "
                        "(wrap it in a MaskZeroCriterion)")
    criterion.setZeroMask(mask)


def _scaled(value, n):
    """value / n: a new array (or nested list of them); the step criterion's buffer is left as it was."""
    if isinstance(value, list):
        return [_scaled(v, n) for v in value]
    xp = array_namespace(value)
    return xp.divide(value, n)
