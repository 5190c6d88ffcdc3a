import numpy as np

from ._bases.numpy_criterion import NumpyCriterion, described, reuse
from ._helpers.arrays import is_array
from ._helpers.namespace import array_namespace
from .Criterion import Criterion
from .Module import Module


class VRClassReward(NumpyCriterion):
    """The rnn package's variance-reduced classification reward (the REINFORCE
    criterion of the recurrent attention model): input the table
    ``[prediction, baseline]``, prediction ``[batch, classes]`` (or one
    sample's ``[classes]``), baseline the predicted reward, ``batch``
    numbers (``[batch]`` or ``[batch, 1]``); target the classes (0-based).

    forward: ``reward = scale * (argmax(prediction) == target)``, per
    sample; the loss is ``-sum(reward)``, divided by batch with
    ``sizeAverage`` (True).

    backward: hands ``(reward - baseline)`` (divided by batch with
    sizeAverage) to ``module.reinforce`` (the model's REINFORCE modules keep
    it for their backward), and returns ``[zeros like prediction,
    criterion's gradient of (baseline, reward)]``: the baseline learns the
    reward by ``criterion`` (MSECriterion by default), no gradient reaches
    the prediction.  Call backward after forward with the same input.

    ``VRClassReward(module, scale=1, criterion=None)``.  ``type()``
    converts module too (the package's left it alone; converting a model
    already converted changes nothing).
    """

    def __init__(self, module, scale=1, criterion=None):
        super().__init__()
        if not isinstance(module, Module):
            raise TypeError(f"VRClassReward: module must be the Module to reinforce, got {type(module).__name__}")
        if criterion is None:
            from .MSECriterion import MSECriterion
            criterion = MSECriterion()
        if not isinstance(criterion, Criterion):
            raise TypeError(f"VRClassReward: criterion must be a Criterion, got {type(criterion).__name__}")
        self.module = module
        self.scale = self._number(scale, "scale")
        self.criterion = criterion
        self.sizeAverage = True
        self.reward = None
        self.vrReward = None

    def _parts(self, input, target):
        if not isinstance(input, (list, tuple)) or len(input) != 2:
            got = f"{len(input)} entries" if isinstance(input, (list, tuple)) else type(input).__name__
            raise TypeError(f"VRClassReward: input must be the table [prediction, baseline], got {got}")
        prediction = self._contiguous(input[0], "input[0] (prediction)")
        baseline = self._contiguous(input[1], "input[1] (baseline)")
        if prediction.ndim not in (1, 2) or prediction.shape[-1] == 0:
            raise ValueError(f"VRClassReward: input[0] (prediction) must be [batch, classes] or [classes], got "
                             f"{described(prediction.shape)}")
        batch = prediction.shape[0] if prediction.ndim == 2 else 1
        if batch == 0:
            raise ValueError("VRClassReward: input[0] (prediction) holds no sample: the reward of no sample is "
                             "undefined (its average divides by 0)")
        if baseline.size != batch or baseline.ndim > 2:
            raise ValueError(f"VRClassReward: input[1] (baseline) must hold one number per sample ({batch}), got "
                             f"{described(baseline.shape)}")
        if baseline.dtype != prediction.dtype:
            raise TypeError(f"VRClassReward: input[1] (baseline) must be {prediction.dtype} like the prediction, "
                            f"got {baseline.dtype}")
        xp = array_namespace(prediction)
        classes = self._numeric_target(target, np.int64, xp).reshape(-1)
        if classes.shape != (batch,):
            raise ValueError(f"VRClassReward: target must hold one class per sample ({batch}), got "
                             f"{described(tuple(np.shape(target)))}")
        return prediction.reshape((batch, prediction.shape[-1])), baseline, classes, batch

    def updateOutput(self, input, target):
        prediction, _, classes, batch = self._parts(input, target)
        xp = array_namespace(prediction)
        hit = xp.argmax(prediction, axis=1) == classes
        self.reward = hit.astype(prediction.dtype) * self.scale
        loss = -float(self.reward.sum())
        self.output = loss / batch if self.sizeAverage else loss
        return self.output

    def updateGradInput(self, input, target):
        prediction, baseline, classes, batch = self._parts(input, target)
        if self.reward is None or not is_array(self.reward) or self.reward.shape != (batch,):
            raise RuntimeError("VRClassReward: backward needs the reward of a forward of this input first")
        xp = array_namespace(prediction)
        reward = self.reward.astype(prediction.dtype)
        vr = reward - baseline.reshape(-1)
        self.vrReward = vr / batch if self.sizeAverage else vr
        self.module.reinforce(self.vrReward)
        held = self.gradInput if isinstance(self.gradInput, list) and len(self.gradInput) == 2 else [None, None]
        grad_prediction = reuse(held[0], input[0].shape, prediction.dtype, xp)
        grad_prediction[...] = 0
        target_reward = reward.reshape(baseline.shape)
        self.criterion.forward(baseline, target_reward)
        grad_baseline = self.criterion.backward(baseline, target_reward)
        if not (held[0] is grad_prediction and held[1] is grad_baseline):   # (the same table while shapes stay)
            self.gradInput = [grad_prediction, grad_baseline]
        return self.gradInput

    def clearState(self):
        self.criterion.clearState()
        self.reward = self.vrReward = None
        return super().clearState()

    def _t7_unfixup(self, fields):
        """save_lua: the package's constructor made gradInput the table of
        one tensor, which its backward resizes."""
        if not isinstance(fields.get("gradInput"), list):
            fields["gradInput"] = [np.zeros(0)]

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        fields = vars(self)
        if not isinstance(fields.get("module"), Module):
            raise T7Error("VRClassReward: the file holds no module to reinforce")
        criterion = fields.get("criterion")
        if not isinstance(criterion, Criterion):
            raise T7Error("VRClassReward: the file holds no baseline criterion")
        scale = fields.get("scale", 1)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise T7Error(f"VRClassReward: scale in the file must be a number, got {scale!r}")
        self.scale = float(scale)
        self.sizeAverage = bool(fields.get("sizeAverage", True))
        for name in ("_maxVal", "_maxIdx", "__maxIdx", "_target", "_reward"):
            fields.pop(name, None)
        self.reward = self.vrReward = None
        self.gradInput = None

    def __repr__(self):
        return f"nn.VRClassReward(scale {self.scale:g})"
