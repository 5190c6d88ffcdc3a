import math

import numpy as np

from ._helpers import random as _random
from ._helpers.arrays import check_float_array, check_like, describe, is_array, reuse, to_host
from ._helpers.namespace import array_namespace
from .Module import Module


class NCEModule(Module):
    """Noise-contrastive estimation's output layer (Mnih & Teh, 2012; the
    rnn package's NCEModule, dpnn's before it): a Linear of ``outputSize``
    classes whose training forward scores only the target class and k noise
    classes drawn from ``unigrams``, for NCECriterion.

    Input ``[x, target]``: x ``[batch, inputSize]``, target ``[batch]``
    class indices (0-based).  Training output ``[Pmt, Pms, Pnt, Pns]``::

        Pmt[b]    = exp(W[t_b] . x_b + bias[t_b]) / Z        (the target's model score)
        Pms[b, j] = exp(W[s_j] . x_b + bias[s_j]) / Z        (the noise samples')
        Pnt[b]    = unigrams[t_b],  Pns[b, j] = unigrams[s_j]

    the k noise classes s drawn (with replacement, from the normalised
    unigrams, nn_legacy's generator) once for the batch (``batchnoise``,
    the default) or for each sample (``batchnoise = False``: Pms, Pns
    ``[batch, k]`` of each sample's draws).  Z is the constructor's, or
    (Z <= 0, the default) ``mean(Pms * Z) * outputSize`` of the first
    training batch, then kept.  Backward takes ``[dPmt, dPms, ...]`` (the
    noise probabilities are constants) and gives ``[gradient of x, zeros
    like target]``; the weight and bias gradients reach only the rows
    scored.  In evaluation with ``normalized = True`` the output is the
    softmax (``logsoftmax = True``: log-softmax) of the full ``x W^T +
    bias``, ``[batch, outputSize]``; otherwise evaluation scores as
    training does.

    ``NCEModule(inputSize, outputSize, k, unigrams, Z=None)``; reset():
    weight U(-1/sqrt(inputSize), 1/sqrt(inputSize)), bias
    ``-log(outputSize)`` (so that Z = 1 fits a fresh module), as there.
    The noise is drawn on the host (for a device input too).
    """

    _onnx_unsupported = "draws noise classes while training (NCE); export the evaluation as a Linear and SoftMax"
    _parameter_names = (("weight", "gradWeight"), ("bias", "gradBias"))
    # torchx's torch.AliasMultinomial (the package's sampler): read raw, and dropped
    _t7_raw_fields = ("aliasmultinomial",)

    def __init__(self, inputSize, outputSize, k, unigrams, Z=None):
        super().__init__()
        for name, v in (("inputSize", inputSize), ("outputSize", outputSize), ("k", k)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"NCEModule: {name} must be a positive integer, got {v!r}")
        self.inputSize, self.outputSize, self.k = int(inputSize), int(outputSize), int(k)
        try:
            self.unigrams = _unigrams(unigrams, self.outputSize)
        except (TypeError, ValueError) as e:
            raise type(e)(f"NCEModule: {e}") from None
        self.Z = np.array([-1.0 if Z is None else float(Z)])
        self.batchnoise = True
        self.normalized = False
        self.logsoftmax = False
        self.weight = np.zeros((self.outputSize, self.inputSize))
        self.bias = np.zeros(self.outputSize)
        self.gradWeight = np.zeros_like(self.weight)
        self.gradBias = np.zeros_like(self.bias)
        self.sampleidx = None
        self._scored = None
        self.reset()

    def reset(self, stdv=None):
        rng = _random.generator()
        if stdv is not None:
            self.weight[...] = rng.uniform(-stdv, stdv, self.weight.shape)
            self.bias[...] = rng.uniform(-stdv, stdv, self.bias.shape)
        else:
            stdv = 1 / math.sqrt(self.inputSize)
            self.weight[...] = rng.uniform(-stdv, stdv, self.weight.shape)
            self.bias[...] = -math.log(self.outputSize)
        return self

    # ---- arguments ----
    def _parts(self, input):
        if not isinstance(input, (list, tuple)) or len(input) != 2:
            got = f"{len(input)} entries" if isinstance(input, (list, tuple)) else type(input).__name__
            raise TypeError(f"NCEModule: input must be the table [x, target], got {got}")
        x, target = input
        check_float_array(self, x, "input[0] (x)", self.weight.dtype)
        if x.ndim != 2 or x.shape[1] != self.inputSize:
            raise ValueError(f"NCEModule: input[0] (x) must be [batch, {self.inputSize}], got {describe(x)}")
        if not is_array(target) or target.dtype.kind not in "iu" or target.shape != (x.shape[0],):
            got = f"{describe(target)} of {target.dtype}" if is_array(target) else type(target).__name__
            raise TypeError(f"NCEModule: input[1] (target) must be {x.shape[0]} integer class indices, got {got}")
        target = np.asarray(to_host(target))
        if target.size and (target.min() < 0 or target.max() >= self.outputSize):
            raise ValueError(f"NCEModule: input[1] (target) holds a class outside 0..{self.outputSize - 1} "
                             f"(0-based)")
        return x, target.astype(np.int64)

    def _noise(self, shape):
        p = np.asarray(to_host(self.unigrams), dtype=np.float64)   # (float64 draws whatever the module's type)
        return _random.generator().choice(self.outputSize, size=shape, p=p / p.sum())

    # ---- the verbs ----
    def _table(self, old, values, avoid):
        """values written into the arrays of the table old while their shapes
        fit (the same list then), else into new ones."""
        old = old if isinstance(old, list) and len(old) == len(values) else [None] * len(values)
        out = [reuse(o, v.shape, v.dtype, *avoid) for o, v in zip(old, values)]
        for o, v in zip(out, values):
            o[...] = v
        return old if all(a is b for a, b in zip(out, old)) else out

    def updateOutput(self, input):
        x, target = self._parts(input)
        xp = array_namespace(x)
        B, k, dtype = x.shape[0], self.k, x.dtype
        if not self.train and self.normalized:
            z = x @ self.weight.T + self.bias
            z = z - z.max(axis=1, keepdims=True)
            e = xp.exp(z)
            total = e.sum(axis=1, keepdims=True)
            value = z - xp.log(total) if self.logsoftmax else e / total
            self.output = reuse(self.output if is_array(self.output) else None, value.shape, dtype, x)
            self.output[...] = value
            self._scored = None
            return self.output
        unigrams = np.asarray(to_host(self.unigrams)).astype(dtype)
        if self.batchnoise:
            noise = self._noise(k)
            self.sampleidx = np.concatenate([noise, target])
            rows = xp.take(self.weight, self.sampleidx, axis=0)      # the rows scored, as of this forward
            sw, tw = rows[:k], rows[k:]
            pmt = xp.exp((x * tw).sum(axis=1) + xp.take(self.bias, target))
            pms = xp.exp(x @ sw.T + xp.take(self.bias, noise).reshape((1, k)))
            pns = np.broadcast_to(unigrams[noise], (B, k))
            exps = pms
        else:
            noise = self._noise((B, k))
            self.sampleidx = np.concatenate([target[:, None], noise], axis=1)
            rows = xp.take(self.weight, self.sampleidx.ravel(), axis=0).reshape((B, k + 1, self.inputSize))
            pm = xp.exp(xp.einsum("bkd,bd->bk", rows, x)
                        + xp.take(self.bias, self.sampleidx.ravel()).reshape((B, k + 1)))
            pmt, pms = pm[:, 0], pm[:, 1:]
            pns = unigrams[noise]
            exps = pm
        Z = float(to_host(self.Z)[0])
        if Z <= 0:   # (the first training batch's estimate, then kept)
            Z = float(exps.mean()) * self.outputSize
            self.Z[...] = Z if xp is np or isinstance(self.Z, np.ndarray) else xp.asarray(np.array([Z], self.Z.dtype))
        values = [pmt / Z, pms / Z, unigrams[target], pns]
        if xp is not np:
            values[2:] = [xp.asarray(np.ascontiguousarray(v)) for v in values[2:]]
        self._scored = (x.shape, noise, target, rows)
        self.output = self._table(self.output, values, (x,))
        return self.output

    def _grads(self, input, gradOutput):
        x, target = self._parts(input)
        if self._scored is None or self._scored[0] != x.shape or not np.array_equal(self._scored[2], target):
            raise RuntimeError("NCEModule: backward needs a training forward of this input first (the normalized "
                               "evaluation output has no backward)")
        if not isinstance(gradOutput, (list, tuple)) or len(gradOutput) < 2:
            raise TypeError("NCEModule: gradOutput must be the table [dPmt, dPms, ...] like the output")
        check_like(self, gradOutput[0], "gradOutput[0] (dPmt)", self.output[0], "Pmt")
        check_like(self, gradOutput[1], "gradOutput[1] (dPms)", self.output[1], "Pms")
        # d exp(s) / Z / ds = P: the gradient w.r.t. each score
        return x, target, gradOutput[0] * self.output[0], gradOutput[1] * self.output[1]

    def updateGradInput(self, input, gradOutput):
        x, target, gt, gs = self._grads(input, gradOutput)
        xp = array_namespace(x)
        rows = self._scored[3]
        if self.batchnoise:
            gx = gt.reshape((-1, 1)) * rows[self.k:] + gs @ rows[:self.k]
        else:
            g = xp.concatenate([gt.reshape((-1, 1)), gs], axis=1)
            gx = xp.einsum("bk,bkd->bd", g, rows)
        zeros = xp.zeros(input[1].shape, input[1].dtype) if not isinstance(input[1], np.ndarray) else \
            np.zeros_like(input[1])
        self.gradInput = self._table(self.gradInput, [gx, zeros], (x,))
        return self.gradInput

    def accGradParameters(self, input, gradOutput, scale=1):
        x, target, gt, gs = self._grads(input, gradOutput)
        xp = array_namespace(x)
        noise = self._scored[1]
        if self.batchnoise:
            xp.add.at(self.gradWeight, target, (gt * scale).reshape((-1, 1)) * x)
            xp.add.at(self.gradWeight, noise, (gs.T @ x) * scale)
            xp.add.at(self.gradBias, target, gt * scale)
            xp.add.at(self.gradBias, noise, gs.sum(axis=0) * scale)
        else:
            g = xp.concatenate([gt.reshape((-1, 1)), gs], axis=1) * scale
            per_row = (g.reshape(g.shape + (1,)) * x.reshape((x.shape[0], 1, x.shape[1])))
            xp.add.at(self.gradWeight, self.sampleidx.ravel(), per_row.reshape((-1, x.shape[1])))
            xp.add.at(self.gradBias, self.sampleidx.ravel(), g.reshape(-1))

    # ---- state, files ----
    def type(self, dtype=None, _memo=None):
        if dtype is not None:   # (the rows scored by the last forward are dropped, not converted)
            self.sampleidx = self._scored = None
        return super().type(dtype, _memo)

    def cuda(self, device=None):
        self.sampleidx = self._scored = None
        return super().cuda(device)

    def clearState(self):
        self.sampleidx = self._scored = None
        return super().clearState()

    def _t7_fixup(self, version):
        from ._helpers.lua import T7Error
        fields = vars(self)
        weight, bias, unigrams = fields.get("weight"), fields.get("bias"), fields.get("unigrams")
        if not (is_array(weight) and weight.ndim == 2 and weight.dtype.kind == "f"):
            raise T7Error("NCEModule: the file holds no 2D float weight")
        if not (is_array(bias) and bias.shape == (weight.shape[0],) and bias.dtype == weight.dtype):
            raise T7Error(f"NCEModule: the file's bias must hold {weight.shape[0]} numbers like the weight's rows")
        self.outputSize, self.inputSize = weight.shape
        try:
            self.unigrams = _unigrams(unigrams, self.outputSize)
        except (TypeError, ValueError) as e:
            raise T7Error(f"NCEModule: unigrams in the file: {e}") from None
        k = fields.get("k")
        if isinstance(k, bool) or not isinstance(k, (int, float)) or k < 1 or k != int(k) or k > 2 ** 31:
            raise T7Error(f"NCEModule: k in the file must be a positive whole number, got {k!r}")
        self.k = int(k)
        Z = fields.get("Z")
        self.Z = np.array([float(np.ravel(Z)[0]) if is_array(Z) and Z.size else -1.0])
        for name in ("batchnoise", "normalized", "logsoftmax"):
            setattr(self, name, bool(fields.get(name, name == "batchnoise")))
        for name in ("aliasmultinomial", "sampleprob", "_noiseidx", "_noiseprob", "_weight", "_bias", "_gradWeight",
                     "_gradOutput", "_tgradOutput", "_pm", "_sampleidx", "linout", "addBuffer", "_metaidx",
                     "testedtargets", "verbose", "dpnn_parameters", "dpnn_mediumEmpty"):
            fields.pop(name, None)
        for name in ("gradWeight", "gradBias"):
            if not (is_array(fields.get(name)) and fields[name].shape == getattr(self, name[4].lower() + name[5:]).shape):
                setattr(self, name, np.zeros_like(getattr(self, name[4].lower() + name[5:])))
        self.sampleidx = self._scored = None
        self.output = self.gradInput = None

    def _t7_unfixup(self, fields):
        """save_lua: the package's fields: sampleidx 1-based (or gone),
        unigrams normalised, the output and gradInput tables, and the
        torch.AliasMultinomial sampler its constructor built (fastNoise),
        which Lua's training forward draws the noise from."""
        from ._helpers.lua import TorchObject
        fields.pop("sampleidx", None)
        sampler = TorchObject("torch.AliasMultinomial", 1)
        J, q = _alias_table(self.unigrams)
        sampler.fields = {"J": J, "q": q, "dpnn_parameters": ["J", "q"]}
        fields["aliasmultinomial"] = sampler
        fields["output"] = [np.zeros(0, self.weight.dtype) for _ in range(4)]
        fields["gradInput"] = [np.zeros(0, self.weight.dtype) for _ in range(2)]

    def __repr__(self):
        return f"nn.NCEModule({self.inputSize} -> {self.outputSize}, k={self.k})"


def _alias_table(p):
    """Walker's alias method, in Vose's construction, for the K outcomes of
    probabilities p: outcome k is kept with probability q[k], else J[k]
    (1-based, as torch.AliasMultinomial of torchx holds them) is taken
    instead.  Drawing k uniformly, then keeping it or taking its alias, draws
    from p.  An outcome given no alias (rounding) keeps itself: q = 1."""
    K = len(p)
    q = K * np.asarray(p, dtype=np.float64)
    J = np.zeros(K, np.int64)
    small, large = [k for k in range(K) if q[k] < 1], [k for k in range(K) if q[k] >= 1]
    while small and large:
        s, g = small.pop(), large.pop()
        J[s] = g + 1
        q[g] -= 1 - q[s]
        (small if q[g] < 1 else large).append(g)
    q[J == 0] = 1
    return J, np.clip(q, 0, 1)


def _unigrams(unigrams, n):
    """The noise distribution: n non-negative numbers, normalised (float64)."""
    if not is_array(unigrams):
        unigrams = np.asarray(unigrams, dtype=np.float64) if isinstance(unigrams, (list, tuple)) else unigrams
    if not is_array(unigrams) or unigrams.dtype.kind not in "fiu":
        raise TypeError(f"unigrams must be an array of {n} counts or probabilities, got {type(unigrams).__name__}")
    u = np.asarray(unigrams, dtype=np.float64).ravel()
    if u.size != n or not np.isfinite(u).all() or (u < 0).any() or u.sum() <= 0:
        raise ValueError(f"unigrams must hold {n} non-negative finite numbers (one per class), not all zero; got "
                         f"{u.size} numbers")
    return u / u.sum()
