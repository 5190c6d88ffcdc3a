"""One entry per nn_legacy module class: how to build it and feed it.

The generic contract harness (tests/test_module_contracts.py), the device
parity test and the ONNX parity test all iterate ENTRIES, so a new class gets
every check by adding its entry here.  An entry needs a class name, a builder
and an input maker (plus a target maker for a criterion); the other fields
have defaults:

- ``kinks``: input values where the function has no derivative (ReLU: 0); the
  input Jacobian leaves the elements next to them out.
- ``integer_input``: the input (or some arrays of a table input) holds
  integers: indices, classes, masks.  Those arrays are held fixed by the
  Jacobian and keep their dtype when the float arrays change precision.
- ``fixed``: the float arrays of a table input that are not differentiated
  (a target inside the input, as CriterionTable's), by path: ``("[1]",)``.
- ``params``: the module's parameters, as the attribute paths of the arrays
  ``parameters()`` must return, in that order (``"modules.0.weight"`` for a
  container's child); the gradient of ``x.weight`` is ``x.gradWeight``.
- ``reference``: an independent numpy transcription, ``f(input) -> output``
  for a module, ``f(input, target) -> loss`` for a criterion.
- ``stochastic``: forward draws random numbers (run it after nn.manualSeed).
- ``skip``: the generic checks that do not apply to this entry, each with the
  reason (the harness names the checks; a key it does not know fails).

Inputs are float64 and drawn from the generator passed in, so they repeat;
their leading dimension is a batch (where the class has a batch form), small
enough for a central-difference Jacobian.
"""
import dataclasses
from typing import Callable, Mapping, Optional

import numpy as np

import nn_legacy as nn


@dataclasses.dataclass(frozen=True)
class Entry:
    cls: str                                              # nn_legacy class name
    build: Callable[[], object]                           # a fresh float64 module or criterion
    input: Callable[[np.random.Generator], object]        # a valid input (batch form where there is one)
    target: Optional[Callable[[np.random.Generator], object]] = None   # criterions: a target for that input
    variant: str = ""                                     # tells entries of one class apart
    kinks: tuple = ()                                     # input values without a derivative
    integer_input: bool = False                           # (some of) the input holds integers
    params: tuple = ()                                    # attribute paths of parameters(), in order
    reference: Optional[Callable] = None                  # numpy reference: output (or loss) of the input
    stochastic: bool = False                              # forward draws random numbers
    fixed: tuple = ()                                     # table paths of float arrays held fixed ("[1]")
    skip: Mapping[str, str] = dataclasses.field(default_factory=dict, compare=False)  # check -> why not

    @property
    def id(self):
        return f"{self.cls}-{self.variant}" if self.variant else self.cls


# Abstract bases: no behaviour of their own to check (every concrete subclass has entries).
ABSTRACT = {
    "Module": "the base class: its forward is the identity of an empty module, run through every entry",
    "Criterion": "the base class of the criterions; forward is abstract",
    "Container": "the base class of the containers; it has no forward of its own",
}


# ---------------------------------------------------------------- input makers
def _u(rng, *shape):
    return rng.uniform(-2, 2, shape)


def _pos(rng, *shape):
    return rng.uniform(0.2, 2.5, shape)


def _prob(rng, *shape):
    return rng.uniform(0.05, 0.95, shape)


def _signs(rng, *shape):
    return rng.choice([-1.0, 1.0], shape)


def _classes(rng, n, k):
    return rng.integers(0, k, n)


def _ints(rng, low, high, *shape):
    return rng.integers(low, high, shape)


def _u_(*shape):
    return lambda r: _u(r, *shape)


def _table(*makers):
    return lambda r: [m(r) for m in makers]


def _pooled_by(pool, shape):
    """An unpooling module over `pool`, which has run forward on a fixed input of `shape`."""
    pool.forward(np.random.default_rng(7).uniform(-2, 2, shape))
    return pool


def _multilabel(rng, n, k):
    """MultiLabelMarginCriterion targets: each row some distinct classes, then -1."""
    t = np.full((n, k), -1, dtype=np.int64)
    for i in range(n):
        labels = rng.permutation(k)[:rng.integers(1, k)]
        t[i, :len(labels)] = labels
    return t


def _sparse_pairs(rng, batch, nnz, n_in):
    """SparseLinear input: [batch, nnz, 2] (feature, value) rows, distinct features per sample."""
    x = np.empty((batch, nnz, 2))
    for i in range(batch):
        x[i, :, 0] = rng.permutation(n_in)[:nnz]
        x[i, :, 1] = rng.uniform(-2, 2, nnz)
    return x


def _index_linear_input(rng, batch, n_in):
    keys = [rng.permutation(n_in)[:rng.integers(1, 4)].astype(np.int64) for _ in range(batch)]
    return [keys, [rng.uniform(-2, 2, len(k)) for k in keys]]


# ---------------------------------------------------------------- references
def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


_X = _u_(4, 5)               # the input of most elementwise entries
_X4 = _u_(2, 3, 5, 4)        # a batch of 3-plane images
_X5 = _u_(2, 2, 4, 5, 3)     # a batch of 2-plane volumes
_P = lambda r: _pos(r, 4, 5)  # positive elements
_NO_FLAT = "its weight gradient is per-key rows with a computed dense view: it cannot be flattened (by design)"
_ANY_DTYPE = "moves or picks elements without arithmetic: every dtype is valid, as for Torch7's tensor types"
_DIM_FROM_FIRST = "counts its dimension from the first: a sample is not a batch of one (the nInputDims entry is)"
_PASSES_GRAD = "hands gradOutput's arrays on unchecked (as Torch7): there is no shape to check against"
_PER_SAMPLE = "a batch is a list of per-sample key arrays: there is no batch dim to slice"
_PER_KEY = "gradWeight is a computed read-only view of the per-key rows: tests/test_IndexLinear.py checks them"
_INDEX_LINEAR_SKIP = {"empty": _PER_SAMPLE, "batch": _PER_SAMPLE, "buffers": _PER_SAMPLE, "parameters": _PER_KEY,
                      "accupdate": _PER_KEY, "flatten": _NO_FLAT, "jacobian": "no gradInput without doGradInput",
                      "gradInput": "no gradInput without doGradInput (an empty list, as Torch7)"}
_W = ("weight",)
_WB = ("weight", "bias")

_ENTRIES = [
    # ---------------------------------------------------------------- activations
    Entry("Abs", lambda: nn.Abs(), _X, kinks=(0,), reference=np.abs),
    Entry("Clamp", lambda: nn.Clamp(-0.5, 0.8), _X, kinks=(-0.5, 0.8), reference=lambda x: np.clip(x, -0.5, 0.8)),
    Entry("Clamp", lambda: nn.Clamp(-0.5, 0.8, inplace=True), _X, variant="inplace", kinks=(-0.5, 0.8),
          reference=lambda x: np.clip(x, -0.5, 0.8)),
    Entry("ELU", lambda: nn.ELU(0.7), _X, kinks=(0,),
          reference=lambda x: np.where(x > 0, x, 0.7 * (np.exp(x) - 1))),
    Entry("ELU", lambda: nn.ELU(0.7, inplace=True), _X, variant="inplace", kinks=(0,),
          reference=lambda x: np.where(x > 0, x, 0.7 * (np.exp(x) - 1))),
    Entry("Exp", lambda: nn.Exp(), _X, reference=np.exp),
    Entry("GatedLinearUnit", lambda: nn.GatedLinearUnit(), _u_(4, 6),
          reference=lambda x: x[:, :3] * _sigmoid(x[:, 3:])),
    Entry("HardShrink", lambda: nn.HardShrink(0.4), _X, kinks=(-0.4, 0.4),
          reference=lambda x: np.where(np.abs(x) > 0.4, x, 0)),
    Entry("HardTanh", lambda: nn.HardTanh(-0.5, 0.8), _X, kinks=(-0.5, 0.8),
          reference=lambda x: np.clip(x, -0.5, 0.8)),
    Entry("HardTanh", lambda: nn.HardTanh(-0.5, 0.8, inplace=True), _X, variant="inplace", kinks=(-0.5, 0.8),
          reference=lambda x: np.clip(x, -0.5, 0.8)),
    Entry("LeakyReLU", lambda: nn.LeakyReLU(0.05), _X, kinks=(0,),
          reference=lambda x: np.where(x > 0, x, 0.05 * x)),
    Entry("LeakyReLU", lambda: nn.LeakyReLU(0.05, inplace=True), _X, variant="inplace", kinks=(0,),
          reference=lambda x: np.where(x > 0, x, 0.05 * x)),
    Entry("Log", lambda: nn.Log(), _P, reference=np.log),
    Entry("LogSigmoid", lambda: nn.LogSigmoid(), _X, reference=lambda x: -np.logaddexp(0, -x)),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(), _X, reference=lambda x: np.log(_softmax(x))),
    Entry("PReLU", lambda: nn.PReLU(), _X, variant="shared", kinks=(0,), params=_W),
    Entry("PReLU", lambda: nn.PReLU(3), _u_(2, 3, 4, 2), kinks=(0,), params=_W),
    Entry("Power", lambda: nn.Power(2.5), _P, reference=lambda x: x ** 2.5),
    Entry("Power", lambda: nn.Power(3), _X, variant="integer", reference=lambda x: x ** 3),
    Entry("RReLU", lambda: nn.RReLU(0.1, 0.4), _X, kinks=(0,), stochastic=True,
          skip={"batch": "each element draws its own slope: the batch draws other numbers than the samples"}),
    Entry("RReLU", lambda: _evaluating(nn.RReLU(0.1, 0.4)), _X, variant="evaluate", kinks=(0,),
          reference=lambda x: np.where(x >= 0, x, 0.25 * x)),
    Entry("RReLU", lambda: nn.RReLU(0.1, 0.4, inplace=True), _X, variant="inplace", kinks=(0,), stochastic=True,
          skip={"batch": "each element draws its own slope: the batch draws other numbers than the samples"}),
    Entry("ReLU", lambda: nn.ReLU(), _X, kinks=(0,), reference=lambda x: np.maximum(x, 0)),
    Entry("ReLU", lambda: nn.ReLU(inplace=True), _X, variant="inplace", kinks=(0,),
          reference=lambda x: np.maximum(x, 0)),
    Entry("ReLU6", lambda: nn.ReLU6(), lambda r: r.uniform(-2, 8, (4, 5)), kinks=(0, 6),
          reference=lambda x: np.clip(x, 0, 6)),
    Entry("ReLU6", lambda: nn.ReLU6(inplace=True), lambda r: r.uniform(-2, 8, (4, 5)), variant="inplace",
          kinks=(0, 6), reference=lambda x: np.clip(x, 0, 6)),
    Entry("Sigmoid", lambda: nn.Sigmoid(), _X, reference=_sigmoid),
    Entry("SoftMax", lambda: nn.SoftMax(), _X, reference=_softmax),
    Entry("SoftMin", lambda: nn.SoftMin(), _X, reference=lambda x: _softmax(-x)),
    Entry("SoftPlus", lambda: nn.SoftPlus(2, 3), _X,
          reference=lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2)),
    Entry("SoftShrink", lambda: nn.SoftShrink(0.3), _X, kinks=(-0.3, 0.3),
          reference=lambda x: np.sign(x) * np.maximum(np.abs(x) - 0.3, 0)),
    Entry("SoftSign", lambda: nn.SoftSign(), _X, reference=lambda x: x / (1 + np.abs(x))),
    Entry("Sqrt", lambda: nn.Sqrt(), _P, reference=np.sqrt),
    Entry("Square", lambda: nn.Square(), _X, reference=np.square),
    Entry("Tanh", lambda: nn.Tanh(), _X, reference=np.tanh),
    Entry("TanhShrink", lambda: nn.TanhShrink(), _X, reference=lambda x: x - np.tanh(x)),
    Entry("Threshold", lambda: nn.Threshold(0.3, -0.2), _X, kinks=(0.3,),
          reference=lambda x: np.where(x > 0.3, x, -0.2)),
    Entry("Threshold", lambda: nn.Threshold(0.3, -0.2, inplace=True), _X, variant="inplace", kinks=(0.3,),
          reference=lambda x: np.where(x > 0.3, x, -0.2)),
    Entry("CReLU", lambda: nn.CReLU(1), _X, kinks=(0,),
          reference=lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], axis=1)),
    Entry("CReLU", lambda: nn.CReLU(1, inplace=True), _X, variant="inplace", kinks=(0,),
          reference=lambda x: np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], axis=1)),
    Entry("SpatialSoftMax", lambda: nn.SpatialSoftMax(), _X4, reference=lambda x: _softmax(x, 1)),
    Entry("SpatialLogSoftMax", lambda: nn.SpatialLogSoftMax(), _X4, reference=lambda x: np.log(_softmax(x, 1))),
    Entry("Normalize", lambda: nn.Normalize(2), _X,
          reference=lambda x: x / np.sqrt((x * x).sum(axis=1, keepdims=True) + 1e-10)),
    Entry("Normalize", lambda: nn.Normalize(1), _X, variant="p1", kinks=(0,),
          reference=lambda x: x / (np.abs(x).sum(axis=1, keepdims=True) + 1e-10)),
    Entry("Normalize", lambda: nn.Normalize(np.inf), _X, variant="inf",
          reference=lambda x: x / (np.abs(x).max(axis=1, keepdims=True) + 1e-10)),

    # ---------------------------------------------------------------- elementwise with constants or parameters
    Entry("Add", lambda: nn.Add(5), _X, params=("bias",)),
    Entry("Add", lambda: nn.Add(5, scalar=True), _X, variant="scalar", params=("bias",)),
    Entry("AddConstant", lambda: nn.AddConstant(2.5), _X, reference=lambda x: x + 2.5),
    Entry("AddConstant", lambda: nn.AddConstant(2.5, inplace=True), _X, variant="inplace",
          reference=lambda x: x + 2.5),
    Entry("MulConstant", lambda: nn.MulConstant(-1.5), _X, reference=lambda x: -1.5 * x),
    Entry("MulConstant", lambda: nn.MulConstant(-1.5, inplace=True), _X, variant="inplace",
          reference=lambda x: -1.5 * x),
    Entry("Mul", lambda: nn.Mul(), _X, params=_W),
    Entry("CAdd", lambda: nn.CAdd(1, 5), _X, params=("bias",)),
    Entry("CAdd", lambda: nn.CAdd(3, 2), _u_(4, 3, 2), variant="full", params=("bias",)),
    Entry("CMul", lambda: nn.CMul(1, 5), _X, params=_W),
    Entry("CMul", lambda: nn.CMul(3, 2), _u_(4, 3, 2), variant="full", params=_W),
    Entry("GradientReversal", lambda: nn.GradientReversal(0.25), _X,
          skip={"jacobian": "backward is -lambda times the gradient by design, not the derivative of forward"}),
    Entry("L1Penalty", lambda: nn.L1Penalty(0.1), _X, kinks=(0,),
          skip={"jacobian": "backward adds the penalty's gradient to the output's: not the derivative of forward"}),
    Entry("L1Penalty", lambda: nn.L1Penalty(0.1, True, provideOutput=False), _X, variant="no-output",
          skip={"dtype": "gradOutput is ignored by design (the L1Penalty entry checks the input's dtype)", "batch": "sizeAverage divides by the element count of the whole batch",
                "shape": "gradOutput is ignored by design (it may be None)",
                "jacobian": "backward is the penalty's gradient alone (gradOutput ignored) by design"}),
    Entry("SAdd", lambda: nn.SAdd(-1, True), _X, reference=lambda x: 1 - x),
    Entry("SAdd", lambda: nn.SAdd(0.25), _X, variant="plain", reference=lambda x: x + 0.25),
    Entry("ArgMax", lambda: nn.ArgMax(), _X, reference=lambda x: np.argmax(x, axis=1),
          skip={"jacobian": "its output is indices: backward is zero by design, not a derivative",
                "dtype": "gradOutput is not read (int64 as the output); tests/test_ArgMax.py refuses bad inputs"}),
    Entry("ArgMax", lambda: nn.ArgMax(1, 2, asLong=False), lambda r: _u(r, 2, 3, 4), variant="float",
          reference=lambda x: np.argmax(x, axis=2).astype(x.dtype),
          skip={"jacobian": "its output is indices: backward is zero by design, not a derivative",
                "dtype": "gradOutput is not read (int64 as the output); tests/test_ArgMax.py refuses bad inputs"}),
    Entry("CopyGrad", lambda: nn.CopyGrad(), _X, reference=lambda x: x, skip={"dtype": _ANY_DTYPE}),
    Entry("TotalDropout", lambda: nn.TotalDropout(0.3), _X, stochastic=True,
          skip={"batch": "one draw for the whole input: sample by sample draws other numbers"}),
    Entry("ZeroGrad", lambda: nn.ZeroGrad(), _X, reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE, "jacobian": "backward is zero by design, not the derivative of forward"}),
    Entry("Identity", lambda: nn.Identity(), _X, reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE, "shape": _PASSES_GRAD}),
    Entry("Identity", lambda: nn.Identity(), _table(_u_(4, 3), _u_(4, 2)), variant="table",
          reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE, "shape": _PASSES_GRAD}),
    Entry("Contiguous", lambda: nn.Contiguous(), _X, reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE}),
    Entry("Copy", lambda: nn.Copy(), _X, reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE}),
    Entry("Copy", lambda: nn.Copy(np.float64, np.float64, forceCopy=True), _X, variant="forceCopy",
          reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE}),
    Entry("Dropout", lambda: nn.Dropout(0.3), _X, stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("Dropout", lambda: _evaluating(nn.Dropout(0.3)), _X, variant="evaluate", reference=lambda x: x),
    Entry("Dropout", lambda: nn.Dropout(0.3, v1=True), _X, variant="v1", stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("Dropout", lambda: nn.Dropout(0.3, inplace=True), _X, variant="inplace", stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("SpatialDropout", lambda: nn.SpatialDropout(0.3), _X4, stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("SpatialDropout", lambda: _evaluating(nn.SpatialDropout(0.3)), _X4, variant="evaluate",
          reference=lambda x: x),
    Entry("VolumetricDropout", lambda: nn.VolumetricDropout(0.3), _X5, stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("VolumetricDropout", lambda: _evaluating(nn.VolumetricDropout(0.3)), _X5, variant="evaluate",
          reference=lambda x: x),

    # ---------------------------------------------------------------- linear and distance layers
    Entry("Linear", lambda: nn.Linear(5, 3), _X, params=_WB),
    Entry("Linear", lambda: nn.Linear(5, 3, bias=False), _X, variant="nobias", params=_W),
    Entry("Bilinear", lambda: nn.Bilinear(3, 4, 2), _table(_u_(5, 3), _u_(5, 4)), params=_WB),
    Entry("Bilinear", lambda: nn.Bilinear(3, 4, 2, bias=False), _table(_u_(5, 3), _u_(5, 4)), variant="nobias",
          params=_W),
    Entry("PartialLinear", lambda: nn.PartialLinear(5, 4), _X, params=_WB),
    Entry("Cosine", lambda: nn.Cosine(5, 3), _X, params=_W),
    Entry("Euclidean", lambda: nn.Euclidean(5, 3), _X, params=_W),
    Entry("WeightedEuclidean", lambda: nn.WeightedEuclidean(5, 3), _X, params=("weight", "diagCov")),
    Entry("Maxout", lambda: nn.Maxout(5, 3, 2), _X, params=("modules.0.weight", "modules.0.bias")),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3), lambda r: _ints(r, 0, 7, 4, 5), integer_input=True,
          params=_W),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3, paddingValue=2), lambda r: _ints(r, 0, 7, 4, 5),
          variant="padding", integer_input=True, params=_W,
          skip={"parameters": "the padding row gets no gradient by design"}),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3).scaleGradByFreq(), lambda r: _ints(r, 0, 7, 4, 5),
          variant="scaleGradByFreq", integer_input=True, params=_W,
          skip={"parameters": "the gradient is scaled by 1 / (count of the index in the batch) by design",
                "batch": "the gradient scale counts an index over the whole batch"}),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3, maxNorm=1.0), lambda r: _ints(r, 0, 7, 4, 5),
          variant="maxNorm", integer_input=True, params=_W,
          skip={"parameters": "forward renormalises the weight rows it reads: not what accGradParameters accumulates "
                              "(as Torch7)",
                "jacobian": "forward renormalises the weight rows it reads: d output / d weight is not what "
                            "accGradParameters accumulates (as Torch7)"}),
    Entry("SparseLinear", lambda: nn.SparseLinear(6, 3), lambda r: _sparse_pairs(r, 3, 2, 6), integer_input=True,
          params=_WB, skip={"gradInput": "no gradInput without doGradInput",
                            "jacobian": "the feature column holds indices (as floats): no derivative"}),
    Entry("SparseLinear", lambda: nn.SparseLinear(6, 3, doGradInput=True), lambda r: _sparse_pairs(r, 3, 2, 6),
          variant="gradInput", integer_input=True, params=_WB,
          skip={"gradInput": "the dense gradient [batch, nIn], not the input's (feature, value) layout",
                "jacobian": "the feature column holds indices (as floats): no derivative"}),
    Entry("IndexLinear", lambda: nn.IndexLinear(6, 3).reset(), lambda r: _index_linear_input(r, 3, 6),
          integer_input=True, params=_WB, skip=_INDEX_LINEAR_SKIP),
    Entry("IndexLinear", lambda: nn.IndexLinear(6, 3, doGradInput=True).reset(),
          lambda r: _index_linear_input(r, 3, 6), variant="gradInput", integer_input=True, params=_WB,
          skip={**_INDEX_LINEAR_SKIP, "jacobian": "gradInput is dense over every key, not laid out as the input",
                "gradInput": "the dense gradient over every key, not the input's (keys, values) layout"}),
    Entry("IndexLinear", lambda: nn.IndexLinear(6, 3, normalize=True).reset(), lambda r: _index_linear_input(r, 3, 6),
          variant="normalize", integer_input=True, params=_WB, skip=_INDEX_LINEAR_SKIP),
    Entry("OneHot", lambda: nn.OneHot(5), lambda r: _ints(r, 0, 5, 4), integer_input=True,
          reference=lambda x: np.eye(5)[x],
          skip={"dtype": "the input is integer classes: no gradient flows back, gradOutput is not read"}),

    # ---------------------------------------------------------------- temporal and recurrent
    Entry("TemporalConvolution", lambda: nn.TemporalConvolution(4, 3, 3, 2), _u_(2, 7, 4), params=_WB),
    Entry("TemporalSubSampling", lambda: nn.TemporalSubSampling(4, 3, 2), _u_(2, 7, 4), params=_WB),
    Entry("TemporalRowConvolution", lambda: nn.TemporalRowConvolution(4, 3, 2), _u_(2, 7, 4), params=_WB),
    Entry("TemporalRowConvolution", lambda: nn.TemporalRowConvolution(4, 3, 2, featFirst=True), _u_(2, 4, 7),
          variant="featFirst", params=_WB),
    Entry("TemporalMaxPooling", lambda: nn.TemporalMaxPooling(3, 2), _u_(2, 7, 4)),
    Entry("GRUCellFused", lambda: nn.GRUCellFused(3), _table(_u_(2, 9), _u_(2, 9), _u_(2, 3)),
          params=("inputBias", "hiddenBias")),
    Entry("GRUCellFused", lambda: nn.GRUCellFused(3, bias=False), _table(_u_(2, 9), _u_(2, 9), _u_(2, 3)),
          variant="nobias"),
    Entry("LSTMCellFused", lambda: nn.LSTMCellFused(3), _table(_u_(2, 12), _u_(2, 12), _u_(2, 3)),
          params=("inputBias", "hiddenBias")),
    Entry("LSTMCellFused", lambda: nn.LSTMCellFused(3, bias=False), _table(_u_(2, 12), _u_(2, 12), _u_(2, 3)),
          variant="nobias"),

    # ---------------------------------------------------------------- batch normalization
    Entry("BatchNormalization", lambda: nn.BatchNormalization(5), _u_(6, 5), params=_WB,
          skip={"batch": "training normalises with the statistics of the whole batch"}),
    Entry("BatchNormalization", lambda: nn.BatchNormalization(5, affine=False), _u_(6, 5), variant="noaffine",
          skip={"batch": "training normalises with the statistics of the whole batch"}),
    Entry("BatchNormalization", lambda: _evaluated(nn.BatchNormalization(5), (6, 5)), _u_(6, 5), variant="evaluate",
          params=_WB),
    Entry("SpatialBatchNormalization", lambda: nn.SpatialBatchNormalization(3), _X4, params=_WB,
          skip={"batch": "training normalises with the statistics of the whole batch"}),
    Entry("SpatialBatchNormalization", lambda: _evaluated(nn.SpatialBatchNormalization(3), (2, 3, 5, 4)), _X4,
          variant="evaluate", params=_WB),
    Entry("VolumetricBatchNormalization", lambda: nn.VolumetricBatchNormalization(2), _X5, params=_WB,
          skip={"batch": "training normalises with the statistics of the whole batch"}),
    Entry("VolumetricBatchNormalization", lambda: _evaluated(nn.VolumetricBatchNormalization(2), (2, 2, 4, 5, 3)),
          _X5, variant="evaluate", params=_WB),

    # ---------------------------------------------------------------- spatial convolutions
    Entry("SpatialConvolution", lambda: nn.SpatialConvolution(3, 2, 3, 2, 2, 1, 1, 0), _X4, params=_WB),
    Entry("SpatialConvolution", lambda: nn.SpatialConvolution(3, 2, 3, 2).noBias(), _X4, variant="nobias",
          params=_W),
    Entry("SpatialConvolutionMM", lambda: nn.SpatialConvolutionMM(3, 2, 2, 3, 1, 2, 0, 1), _X4, params=_WB),
    Entry("SpatialDilatedConvolution", lambda: nn.SpatialDilatedConvolution(3, 2, 2, 2, 1, 1, 1, 0, 2, 1), _X4,
          params=_WB),
    Entry("SpatialFullConvolution", lambda: nn.SpatialFullConvolution(3, 2, 3, 2, 2, 1, 1, 0, 1, 0), _X4,
          params=_WB),
    Entry("SpatialFullDilatedConvolution", lambda: nn.SpatialFullDilatedConvolution(3, 2, 2, 2, 2, 1, 1, 0, 2, 1,
                                                                                    1, 0), _X4, params=_WB),
    Entry("SpatialDepthWiseConvolution", lambda: nn.SpatialDepthWiseConvolution(3, 2, 3, 2, 1, 2, 1, 1), _X4,
          params=_WB),
    Entry("SpatialConvolutionLocal", lambda: nn.SpatialConvolutionLocal(3, 2, 4, 5, 3, 2, 1, 2), _X4, params=_WB),
    Entry("SpatialConvolutionMap", lambda: nn.SpatialConvolutionMap(nn.SpatialConvolutionMap.full(3, 2), 2, 3, 1, 2),
          _X4, params=_WB),
    Entry("SpatialConvolutionMap", lambda: nn.SpatialConvolutionMap(nn.SpatialConvolutionMap.oneToOne(3), 2, 2),
          _X4, variant="oneToOne", params=_WB),
    Entry("SpatialFullConvolutionMap", lambda: nn.SpatialFullConvolutionMap(nn.SpatialConvolutionMap.full(3, 2),
                                                                            2, 3, 2, 1), _X4, params=_WB),
    Entry("SpatialSubSampling", lambda: nn.SpatialSubSampling(3, 2, 2, 2, 1), _X4, params=_WB),

    # ---------------------------------------------------------------- volumetric convolutions
    Entry("VolumetricConvolution", lambda: nn.VolumetricConvolution(2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1), _X5,
          params=_WB),
    Entry("VolumetricConvolutionMM", lambda: nn.VolumetricConvolutionMM(2, 3, 2, 2, 3, 1, 2, 1, 1, 0, 1), _X5,
          params=_WB),
    Entry("VolumetricDilatedConvolution", lambda: nn.VolumetricDilatedConvolution(2, 3, 2, 2, 2, 1, 1, 1, 0, 1, 0,
                                                                                  2, 1, 1), _X5, params=_WB),
    Entry("VolumetricFullConvolution", lambda: nn.VolumetricFullConvolution(2, 3, 2, 2, 3, 1, 2, 1, 1, 0, 1, 0, 1, 0),
          _X5, params=_WB),
    Entry("VolumetricFullDilatedConvolution", lambda: nn.VolumetricFullDilatedConvolution(
        2, 3, 2, 2, 2, 1, 1, 2, 0, 1, 0, 2, 1, 1, 0, 0, 1), _X5, params=_WB),

    # ---------------------------------------------------------------- pooling
    Entry("SpatialMaxPooling", lambda: nn.SpatialMaxPooling(3, 2, 2, 2, 1, 0), _X4),
    Entry("SpatialMaxPooling", lambda: nn.SpatialMaxPooling(3, 2, 2, 2, 1, 0).ceil(), _X4, variant="ceil"),
    Entry("SpatialDilatedMaxPooling", lambda: nn.SpatialDilatedMaxPooling(2, 2, 1, 2, 0, 1, 2, 1), _X4),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 2, 2, 1, 1, 0), _X4),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 2, 2, 1, 1, 0).ceil(), _X4, variant="ceil"),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 2, 2, 1, 1, 1).setCountExcludePad(), _X4,
          variant="exclude-pad"),
    Entry("SpatialAdaptiveMaxPooling", lambda: nn.SpatialAdaptiveMaxPooling(3, 2), _X4),
    Entry("SpatialAdaptiveAveragePooling", lambda: nn.SpatialAdaptiveAveragePooling(3, 2), _X4),
    Entry("SpatialFractionalMaxPooling", lambda: nn.SpatialFractionalMaxPooling(2, 2, 3, 2), _X4, stochastic=True,
          skip={"batch": "each sample draws its pooling regions: a batch draws other numbers than the samples"}),
    Entry("SpatialFractionalMaxPooling", lambda: nn.SpatialFractionalMaxPooling(2, 2, 0.6, 0.5), _X4,
          variant="ratio", stochastic=True,
          skip={"batch": "each sample draws its pooling regions: a batch draws other numbers than the samples"}),
    Entry("SpatialLPPooling", lambda: nn.SpatialLPPooling(3, 2, 2, 2), _X4),
    Entry("SpatialMaxUnpooling", lambda: nn.SpatialMaxUnpooling(_pooled_by(nn.SpatialMaxPooling(2, 2), (2, 3, 6, 4))),
          _u_(2, 3, 3, 2),
          skip={"empty": "the indices come from the pooling module's batch", "buffers": "the indices come from the pooling module's batch: a smaller batch does not fit them",
                "save": "nn.save drops the pooling module's indices (a buffer): the pair must run forward again",
                "batch": "the indices come from the pooling module's batch"}),
    Entry("FeatureLPPooling", lambda: nn.FeatureLPPooling(2, 1, 2, True), _u_(2, 5, 3),
          skip={"batch": "batch_mode fixes the layout: a sample needs a module without batch_mode"}),
    Entry("FeatureLPPooling", lambda: nn.FeatureLPPooling(3, 2, 3, True), lambda r: _pos(r, 2, 7), variant="p3",
          skip={"batch": "batch_mode fixes the layout: a sample needs a module without batch_mode"}),
    Entry("VolumetricMaxPooling", lambda: nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 1), _X5),
    Entry("VolumetricMaxPooling", lambda: nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 1, 1, 0, 1).ceil(), _X5,
          variant="ceil"),
    Entry("VolumetricDilatedMaxPooling", lambda: nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 2, 1, 0, 1, 0, 2, 1, 1),
          _X5),
    Entry("VolumetricAveragePooling", lambda: nn.VolumetricAveragePooling(2, 2, 2, 1, 2, 1), _X5),
    Entry("VolumetricAveragePooling", lambda: nn.VolumetricAveragePooling(2, 3, 2, 1, 2, 1, 1, 1, 0).ceil()
          .setCountExcludePad(), _X5, variant="ceil-exclude-pad"),
    Entry("VolumetricFractionalMaxPooling", lambda: nn.VolumetricFractionalMaxPooling(2, 2, 2, 3, 2, 2), _X5,
          stochastic=True,
          skip={"batch": "each sample draws its pooling regions: a batch draws other numbers than the samples"}),
    Entry("VolumetricMaxUnpooling", lambda: nn.VolumetricMaxUnpooling(
        _pooled_by(nn.VolumetricMaxPooling(2, 2, 2), (2, 2, 4, 4, 6))), _u_(2, 2, 2, 2, 3),
          skip={"empty": "the indices come from the pooling module's batch", "buffers": "the indices come from the pooling module's batch: a smaller batch does not fit them",
                "save": "nn.save drops the pooling module's indices (a buffer): the pair must run forward again",
                "batch": "the indices come from the pooling module's batch"}),

    # ---------------------------------------------------------------- padding and resampling
    Entry("SpatialReflectionPadding", lambda: nn.SpatialReflectionPadding(2, 1, 0, 3), _X4),
    Entry("SpatialReplicationPadding", lambda: nn.SpatialReplicationPadding(2, 1, 0, 3), _X4),
    Entry("SpatialZeroPadding", lambda: nn.SpatialZeroPadding(2, 1, 0, 3), _X4,
          skip={"dtype": _ANY_DTYPE}),
    Entry("SpatialZeroPadding", lambda: nn.SpatialZeroPadding(1, -1, -2, 2), _X4, variant="crop",
          skip={"dtype": _ANY_DTYPE}),
    Entry("VolumetricReplicationPadding", lambda: nn.VolumetricReplicationPadding(1, 2, 0, 1, 2, 0), _X5),
    Entry("SpatialUpSamplingNearest", lambda: nn.SpatialUpSamplingNearest(2), _X4),
    Entry("SpatialUpSamplingBilinear", lambda: nn.SpatialUpSamplingBilinear(oheight=7, owidth=6), _X4),
    Entry("SpatialUpSamplingBilinear", lambda: nn.SpatialUpSamplingBilinear(2), _X4, variant="scale"),
    Entry("VolumetricUpSamplingNearest", lambda: nn.VolumetricUpSamplingNearest(2), _u_(2, 2, 2, 3, 2)),
    Entry("VolumetricUpSamplingTrilinear", lambda: nn.VolumetricUpSamplingTrilinear(odepth=5, oheight=4, owidth=5),
          _u_(2, 2, 3, 2, 3)),
    Entry("SpatialGridSamplerBilinear", lambda: nn.SpatialGridSamplerBilinear(),
          _table(_u_(2, 2, 4, 5), lambda r: r.uniform(-1.2, 1.2, (2, 3, 2, 2))),
          skip={"batch": "takes 4D batches only (as Torch7)"}),
    Entry("SpatialGridSamplerBilinear", lambda: nn.SpatialGridSamplerBilinear("border"),
          _table(_u_(2, 2, 4, 5), lambda r: r.uniform(-1.2, 1.2, (2, 3, 2, 2))), variant="border",
          skip={"batch": "takes 4D batches only (as Torch7)"}),
    Entry("PixelShuffle", lambda: nn.PixelShuffle(2), _u_(2, 8, 2, 3),
          skip={"dtype": _ANY_DTYPE}),

    # ---------------------------------------------------------------- spatial normalization
    Entry("SpatialCrossMapLRN", lambda: nn.SpatialCrossMapLRN(3, 0.5, 0.75, 2), _X4),
    Entry("SpatialSubtractiveNormalization", lambda: nn.SpatialSubtractiveNormalization(3, np.ones((3, 3))), _X4),
    Entry("SpatialSubtractiveNormalization", lambda: nn.SpatialSubtractiveNormalization(3, np.array([1.0, 2, 1])),
          _X4, variant="separable"),
    Entry("SpatialDivisiveNormalization", lambda: nn.SpatialDivisiveNormalization(3, np.ones((3, 3))), _X4),
    Entry("SpatialContrastiveNormalization", lambda: nn.SpatialContrastiveNormalization(3, np.ones((3, 3))), _X4),

    # ---------------------------------------------------------------- shapes
    Entry("Narrow", lambda: nn.Narrow(1, 1, 3), _X, reference=lambda x: x[:, 1:4],
          skip={"batch": _DIM_FROM_FIRST, "dtype": _ANY_DTYPE}),
    Entry("Narrow", lambda: nn.Narrow(-1, -3, 2), _X, variant="negative", reference=lambda x: x[:, 2:4],
          skip={"batch": _DIM_FROM_FIRST, "dtype": _ANY_DTYPE}),
    Entry("Select", lambda: nn.Select(1, 2), _X, reference=lambda x: x[:, 2],
          skip={"batch": _DIM_FROM_FIRST, "dtype": _ANY_DTYPE}),
    Entry("Replicate", lambda: nn.Replicate(3, 0, ndim=1), _X, reference=lambda x: np.repeat(x[:, None], 3, axis=1),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Reshape", lambda: nn.Reshape(3, 2), _u_(4, 6), reference=lambda x: x.reshape(4, 3, 2),
          skip={"dtype": _ANY_DTYPE}),
    Entry("View", lambda: nn.View(-1).setNumInputDims(2), _u_(4, 3, 2), reference=lambda x: x.reshape(4, 6),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Squeeze", lambda: nn.Squeeze(), _u_(4, 1, 5), reference=lambda x: x.reshape(4, 5),
          skip={"dtype": _ANY_DTYPE, "batch": "squeezes every size-1 dim: a sample drops other dims than its batch"}),
    Entry("Squeeze", lambda: nn.Squeeze(0, numInputDims=2), _u_(4, 1, 5), variant="dim",
          reference=lambda x: x.reshape(4, 5),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Unsqueeze", lambda: nn.Unsqueeze(1, 1), _X, reference=lambda x: x[:, :, None],
          skip={"dtype": _ANY_DTYPE}),
    Entry("Transpose", lambda: nn.Transpose((1, 2), (0, 2)), _u_(4, 3, 2),
          reference=lambda x: x.swapaxes(1, 2).swapaxes(0, 2),
          skip={"dtype": _ANY_DTYPE, "batch": "transposes the batch dim"}),
    Entry("Padding", lambda: nn.Padding(0, 2, nInputDim=1, value=-1.5), _X,
          reference=lambda x: np.pad(x, ((0, 0), (0, 2)), constant_values=-1.5),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Padding", lambda: nn.Padding(0, -2, nInputDim=1, index=1), _X, variant="before-index",
          reference=lambda x: np.concatenate([x[:, :1], np.zeros((4, 2)), x[:, 1:]], axis=1),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Collapse", lambda: nn.Collapse(2), _u_(4, 3, 2), reference=lambda x: x.reshape(4, 6),
          skip={"dtype": _ANY_DTYPE}),
    Entry("Constant", lambda: nn.Constant(np.array([1.5, -2.0]), nInputDim=1), _X,
          reference=lambda x: np.tile([1.5, -2.0], (4, 1)),
          skip={"dtype": _ANY_DTYPE,
                "jacobian": "the output does not depend on the input: nothing to compare (a zero gradInput is checked "
                            "by the layer's file)"}),
    Entry("Max", lambda: nn.Max(1), _X, reference=lambda x: x.max(axis=1),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("Max", lambda: nn.Max(0, nInputDims=1), _X, variant="nInputDims", reference=lambda x: x.max(axis=1)),
    Entry("Min", lambda: nn.Min(1), _X, reference=lambda x: x.min(axis=1),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("Min", lambda: nn.Min(0, 1), _X, variant="nInputDims", reference=lambda x: x.min(axis=1)),
    Entry("Mean", lambda: nn.Mean(1), _X, reference=lambda x: x.mean(axis=1),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("Mean", lambda: nn.Mean(0, 1), _X, variant="nInputDims", reference=lambda x: x.mean(axis=1)),
    Entry("Sum", lambda: nn.Sum(1), _X, reference=lambda x: x.sum(axis=1),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("Sum", lambda: nn.Sum(0, 1, sizeAverage=True), _X, variant="average", reference=lambda x: x.mean(axis=1)),
    Entry("MM", lambda: nn.MM(), _table(_u_(2, 3, 4), _u_(2, 4, 2)), reference=lambda t: t[0] @ t[1]),
    Entry("MM", lambda: nn.MM(True, True), _table(_u_(2, 4, 3), _u_(2, 2, 4)), variant="transposed",
          reference=lambda t: t[0].swapaxes(1, 2) @ t[1].swapaxes(1, 2)),
    Entry("MV", lambda: nn.MV(), _table(_u_(2, 3, 4), _u_(2, 4)), reference=lambda t: np.einsum("bij,bj->bi", *t)),
    Entry("MV", lambda: nn.MV(True), _table(_u_(2, 4, 3), _u_(2, 4)), variant="transposed",
          reference=lambda t: np.einsum("bji,bj->bi", *t)),

    # ---------------------------------------------------------------- tables
    Entry("SplitTable", lambda: nn.SplitTable(0, 1), _u_(4, 3), reference=lambda x: list(x.T),
          skip={"dtype": _ANY_DTYPE}),
    Entry("JoinTable", lambda: nn.JoinTable(0, 1), _table(_u_(4, 3), _u_(4, 2)),
          reference=lambda t: np.concatenate(t, axis=1),
          skip={"dtype": _ANY_DTYPE}),
    Entry("SelectTable", lambda: nn.SelectTable(1), _table(_u_(4, 3), _u_(4, 2), _u_(4,)), reference=lambda t: t[1],
          skip={"dtype": _ANY_DTYPE}),
    Entry("SelectTable", lambda: nn.SelectTable(-1), _table(_u_(4, 3), _u_(4, 2)), variant="negative",
          reference=lambda t: t[-1],
          skip={"dtype": _ANY_DTYPE}),
    Entry("NarrowTable", lambda: nn.NarrowTable(1, 2), _table(_u_(4, 3), _u_(4, 2), _u_(4,), _u_(4, 1)),
          reference=lambda t: t[1:3],
          skip={"dtype": _ANY_DTYPE}),
    Entry("FlattenTable", lambda: nn.FlattenTable(), lambda r: [_u(r, 4, 3), [_u(r, 4, 2), [_u(r, 4)]]],
          reference=lambda t: [t[0], t[1][0], t[1][1][0]],
          skip={"dtype": _ANY_DTYPE}),
    Entry("ZipTable", lambda: nn.ZipTable(), lambda r: [[_u(r, 4, 2), _u(r, 4, 3)], [_u(r, 4), _u(r, 4, 1)]],
          reference=lambda t: [[t[0][0], t[1][0]], [t[0][1], t[1][1]]],
          skip={"dtype": _ANY_DTYPE, "shape": _PASSES_GRAD}),
    Entry("ZipTableOneToMany", lambda: nn.ZipTableOneToMany(), lambda r: [_u(r, 4, 2), [_u(r, 4, 3), _u(r, 4)]],
          reference=lambda t: [[t[0], t[1][0]], [t[0], t[1][1]]],
          skip={"dtype": _ANY_DTYPE}),
    Entry("CAddTable", lambda: nn.CAddTable(), _table(_X, _X, _X), reference=lambda t: t[0] + t[1] + t[2]),
    Entry("CAddTable", lambda: nn.CAddTable(inplace=True), _table(_X, _X), variant="inplace",
          reference=lambda t: t[0] + t[1]),
    Entry("CSubTable", lambda: nn.CSubTable(), _table(_X, _X), reference=lambda t: t[0] - t[1]),
    Entry("CMulTable", lambda: nn.CMulTable(), _table(_X, _X, _X), reference=lambda t: t[0] * t[1] * t[2]),
    Entry("CDivTable", lambda: nn.CDivTable(), _table(_X, _P), reference=lambda t: t[0] / t[1]),
    Entry("CMaxTable", lambda: nn.CMaxTable(), _table(_X, _X, _X), reference=lambda t: np.maximum.reduce(t)),
    Entry("CMinTable", lambda: nn.CMinTable(), _table(_X, _X, _X), reference=lambda t: np.minimum.reduce(t)),
    Entry("PairwiseDistance", lambda: nn.PairwiseDistance(2), _table(_X, _X),
          reference=lambda t: np.linalg.norm(t[0] - t[1], axis=1)),
    Entry("PairwiseDistance", lambda: nn.PairwiseDistance(1), _table(_X, _X), variant="p1", kinks=(0,),
          reference=lambda t: np.abs(t[0] - t[1]).sum(axis=1),
          skip={"jacobian": "the kink of |a - b| lies where two table entries meet, which the table "
                            "Jacobian's input kinks cannot name; the p=1 gradient is checked by the layer's file"}),
    Entry("DotProduct", lambda: nn.DotProduct(), _table(_X, _X), reference=lambda t: (t[0] * t[1]).sum(axis=1)),
    Entry("CosineDistance", lambda: nn.CosineDistance(), _table(_X, _X),
          reference=lambda t: (t[0] * t[1]).sum(1) / np.linalg.norm(t[0], axis=1) / np.linalg.norm(t[1], axis=1)),
    Entry("MixtureTable", lambda: nn.MixtureTable(), lambda r: [_prob(r, 4, 3), [_u(r, 4, 2), _u(r, 4, 2),
                                                                                   _u(r, 4, 2)]]),
    Entry("MixtureTable", lambda: nn.MixtureTable(), lambda r: [_prob(r, 4, 3), _u(r, 4, 3, 2)], variant="tensor"),
    Entry("Index", lambda: nn.Index(1), lambda r: [_u(r, 4, 5), np.array([1, 3, 1, 0])], integer_input=True,
          reference=lambda t: np.take(t[0], t[1], axis=1),
          skip={"dtype": _ANY_DTYPE,
                "batch": "indexes dim 1 of the whole tensor"}),
    Entry("MaskedSelect", lambda: nn.MaskedSelect(), lambda r: [_u(r, 4, 5), r.uniform(size=(4, 5)) < 0.5],
          integer_input=True, reference=lambda t: t[0][t[1]],
          skip={"dtype": _ANY_DTYPE, "batch": "the output is one flat array of the whole table's selected entries"}),
    Entry("CriterionTable", lambda: nn.CriterionTable(nn.MSECriterion()), _table(_X, _X), fixed=("[1]",),
          reference=lambda t: np.mean((t[0] - t[1]) ** 2),
          skip={"batch": "the loss averages over the whole batch"}),

    # ---------------------------------------------------------------- containers
    Entry("Sequential", lambda: nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 3)), _X,
          params=("modules.0.weight", "modules.0.bias", "modules.2.weight", "modules.2.bias")),
    Entry("Sequential", lambda: nn.Sequential(), _X, variant="empty", reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE, "shape": _PASSES_GRAD}),
    Entry("Concat", lambda: nn.Concat(1).add(nn.Linear(5, 3)).add(nn.Tanh()), _X,
          params=("modules.0.weight", "modules.0.bias"),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("DepthConcat", lambda: nn.DepthConcat(1).add(nn.SpatialConvolution(3, 2, 3, 3, 1, 1, 1, 1))
          .add(nn.SpatialConvolution(3, 1, 2, 2)), _X4,
          params=("modules.0.weight", "modules.0.bias", "modules.1.weight", "modules.1.bias"),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("Parallel", lambda: nn.Parallel(1, 1).add(nn.Linear(5, 3)).add(nn.Tanh()), _u_(4, 2, 5),
          params=("modules.0.weight", "modules.0.bias"),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("ConcatTable", lambda: nn.ConcatTable(nn.Linear(5, 3), nn.Tanh()), _X,
          params=("modules.0.weight", "modules.0.bias")),
    Entry("ParallelTable", lambda: nn.ParallelTable(nn.Linear(5, 3), nn.Tanh()), _table(_X, _u_(4, 2)),
          params=("modules.0.weight", "modules.0.bias")),
    Entry("MapTable", lambda: nn.MapTable(nn.Linear(5, 3)), _table(_X, _X, _X),
          params=("modules.0.weight", "modules.0.bias")),
    Entry("Bottle", lambda: nn.Bottle(nn.Linear(5, 3)), _u_(2, 3, 5), params=("modules.0.weight", "modules.0.bias")),
    Entry("Decorator", lambda: nn.Decorator(nn.Linear(5, 3)), _X, params=("modules.0.weight", "modules.0.bias")),
    Entry("WeightNorm", lambda: nn.WeightNorm(nn.Linear(5, 3)), _X, params=("v", "g", "modules.0.bias")),

    # ---------------------------------------------------------------- criterions
    Entry("AbsCriterion", lambda: nn.AbsCriterion(), _X, _X, kinks=(0,),
          reference=lambda x, t: np.abs(x - t).mean()),
    Entry("AbsCriterion", lambda: nn.AbsCriterion(sizeAverage=False), _X, _X, variant="sum",
          reference=lambda x, t: np.abs(x - t).sum()),
    Entry("BCECriterion", lambda: nn.BCECriterion(), lambda r: _prob(r, 4, 5), lambda r: _prob(r, 4, 5),
          reference=lambda x, t: -(t * np.log(x) + (1 - t) * np.log(1 - x)).mean()),
    Entry("BCECriterion", lambda: nn.BCECriterion(weights=np.linspace(0.5, 2, 5)), lambda r: _prob(r, 4, 5),
          lambda r: _prob(r, 4, 5), variant="weighted"),
    Entry("ClassNLLCriterion", lambda: nn.ClassNLLCriterion(), _X, lambda r: _classes(r, 4, 5),
          reference=lambda x, t: -x[np.arange(len(t)), t].mean()),
    Entry("ClassNLLCriterion", lambda: nn.ClassNLLCriterion(weights=np.linspace(0.5, 2, 5), ignore_index=1), _X,
          lambda r: _classes(r, 4, 5), variant="weighted"),
    Entry("ClassSimplexCriterion", lambda: nn.ClassSimplexCriterion(5), _X, lambda r: _classes(r, 4, 5)),
    Entry("CosineEmbeddingCriterion", lambda: nn.CosineEmbeddingCriterion(0.1), _table(_X, _X),
          lambda r: _signs(r, 4)),
    Entry("CrossEntropyCriterion", lambda: nn.CrossEntropyCriterion(), _X, lambda r: _classes(r, 4, 5),
          reference=lambda x, t: -np.log(_softmax(x))[np.arange(len(t)), t].mean()),
    Entry("CrossEntropyCriterion", lambda: nn.CrossEntropyCriterion(np.linspace(0.5, 2, 5)), _X,
          lambda r: _classes(r, 4, 5), variant="weighted"),
    Entry("DistKLDivCriterion", lambda: nn.DistKLDivCriterion(), _X, lambda r: _prob(r, 4, 5),
          reference=lambda x, t: (t * (np.log(t) - x)).mean()),
    Entry("DistanceRatioCriterion", lambda: nn.DistanceRatioCriterion(), _table(_u_(4,), _u_(4,)), lambda r: None,
          reference=lambda x, t: np.log1p(np.exp(x[0] - x[1])).sum() / 4),
    Entry("HingeEmbeddingCriterion", lambda: nn.HingeEmbeddingCriterion(1.5), lambda r: _pos(r, 4, 5),
          lambda r: _signs(r, 4, 5), kinks=(1.5,)),
    Entry("L1Cost", lambda: nn.L1Cost(), _X, lambda r: None, kinks=(0,), reference=lambda x, t: np.abs(x).sum()),
    Entry("L1HingeEmbeddingCriterion", lambda: nn.L1HingeEmbeddingCriterion(2.0), _table(_u_(5,), _u_(5,)),
          lambda r: float(_signs(r)),
          skip={"empty": "one pair of vectors, not a batch: two empty vectors lie at distance 0", "batch": "takes one pair of vectors, no batch"}),
    Entry("MSECriterion", lambda: nn.MSECriterion(), _X, _X, reference=lambda x, t: ((x - t) ** 2).mean()),
    Entry("MSECriterion", lambda: nn.MSECriterion(False), _X, _X, variant="sum",
          reference=lambda x, t: ((x - t) ** 2).sum()),
    Entry("MarginCriterion", lambda: nn.MarginCriterion(0.5), _X, lambda r: _signs(r, 4, 5),
          reference=lambda x, t: np.maximum(0, 0.5 - x * t).mean(),
          skip={"jacobian": "the hinge's kink lies at x * target = margin, which depends on the target"}),
    Entry("MarginRankingCriterion", lambda: nn.MarginRankingCriterion(0.3), _table(_u_(4,), _u_(4,)),
          lambda r: _signs(r, 4), reference=lambda x, t: np.maximum(0, -t * (x[0] - x[1]) + 0.3).mean()),
    Entry("ModuleCriterion", lambda: nn.ModuleCriterion(nn.MSECriterion(), nn.Sigmoid(), nn.Tanh()), _X, _X,
          reference=lambda x, t: ((_sigmoid(x) - np.tanh(t)) ** 2).mean()),
    Entry("MultiCriterion", lambda: nn.MultiCriterion().add(nn.MSECriterion(), 0.5).add(nn.AbsCriterion()), _X, _X,
          kinks=(0,), reference=lambda x, t: 0.5 * ((x - t) ** 2).mean() + np.abs(x - t).mean()),
    Entry("MultiLabelMarginCriterion", lambda: nn.MultiLabelMarginCriterion(), _X, lambda r: _multilabel(r, 4, 5)),
    Entry("MultiLabelSoftMarginCriterion", lambda: nn.MultiLabelSoftMarginCriterion(), _X,
          lambda r: _ints(r, 0, 2, 4, 5).astype(np.float64)),
    Entry("MultiLabelSoftMarginCriterion", lambda: nn.MultiLabelSoftMarginCriterion(np.linspace(0.5, 2, 5)), _X,
          lambda r: _ints(r, 0, 2, 4, 5).astype(np.float64), variant="weighted"),
    Entry("MultiMarginCriterion", lambda: nn.MultiMarginCriterion(), _X, lambda r: _classes(r, 4, 5)),
    Entry("MultiMarginCriterion", lambda: nn.MultiMarginCriterion(2, np.linspace(0.5, 2, 5), margin=0.7), _X,
          lambda r: _classes(r, 4, 5), variant="p2-weighted"),
    Entry("ParallelCriterion", lambda: nn.ParallelCriterion().add(nn.ClassNLLCriterion(), 0.5).add(nn.MSECriterion()),
          _table(_X, _u_(4, 3)), lambda r: [_classes(r, 4, 5), _u(r, 4, 3)]),
    Entry("ParallelCriterion", lambda: nn.ParallelCriterion(True).add(nn.MSECriterion(), 2).add(nn.AbsCriterion()),
          _table(_X, _X), _X, variant="repeatTarget", kinks=(0,)),
    Entry("SmoothL1Criterion", lambda: nn.SmoothL1Criterion(), _X, _X),
    Entry("SoftMarginCriterion", lambda: nn.SoftMarginCriterion(), _X, lambda r: _signs(r, 4, 5),
          reference=lambda x, t: np.log1p(np.exp(-x * t)).mean()),
    Entry("SpatialClassNLLCriterion", lambda: nn.SpatialClassNLLCriterion(), _u_(2, 3, 4, 5),
          lambda r: _ints(r, 0, 3, 2, 4, 5)),
    Entry("SpatialClassNLLCriterion", lambda: nn.SpatialClassNLLCriterion(np.array([0.5, 1, 2]), ignore_index=1),
          _u_(2, 3, 4, 5), lambda r: _ints(r, 0, 3, 2, 4, 5), variant="weighted"),
    Entry("WeightedMSECriterion", lambda: nn.WeightedMSECriterion(np.linspace(-1, 2, 5)), _X, _X,
          reference=lambda x, t: ((x - np.linspace(-1, 2, 5) * t) ** 2).mean()),
]


def _evaluating(module):
    module.evaluate()
    return module


def _evaluated(bn, shape):
    """A batch normalization in evaluation mode, its running statistics from one training batch."""
    bn.forward(np.random.default_rng(5).uniform(-2, 2, shape))
    return _evaluating(bn)


ENTRIES = sorted(_ENTRIES, key=lambda e: e.id)


def entries_of(cls_name):
    """The entries of one class."""
    return [e for e in ENTRIES if e.cls == cls_name]


# ---- loader
def _shaved(x, s):
    return x[..., s:x.shape[-2] - s, s:x.shape[-1] - s]


def _instance_normalized(x, eps=1e-5):
    mean = x.mean(axis=(-2, -1), keepdims=True)
    return (x - mean) / np.sqrt(((x - mean) ** 2).mean(axis=(-2, -1), keepdims=True) + eps)


def _inception():
    return nn.Inception(3, [4, 2], [2, 3, 2, 1], kernelSize=[3, 1])


# (the DepthConcat's columns, each a Sequential: its convolutions' weight and bias in order)
_INCEPTION_PARAMS = tuple(f"modules.0.modules.{col}.modules.{i}.{p}"
                          for col, convs in ((0, (0, 2)), (1, (0, 2)), (2, (1,)), (3, (0,)))
                          for i in convs for p in ("weight", "bias"))
_MOVES_ANY = "moves elements without arithmetic: every dtype is valid, as for Torch7's tensor types"
_GAUSS3 = np.array([[1.0, 2.0, 1.0], [2.0, 4.0, 2.0], [1.0, 2.0, 1.0]])

_ENTRIES += [
    Entry("Inception", _inception, _u_(2, 3, 4, 4), params=_INCEPTION_PARAMS),
    Entry("InstanceNormalization", lambda: nn.InstanceNormalization(3), _X4, params=_WB),
    Entry("InstanceNormalization", lambda: nn.InstanceNormalization(3, eps=1e-3, affine=False), _X4,
          variant="noaffine", reference=lambda x: _instance_normalized(x, 1e-3)),
    Entry("ShaveImage", lambda: nn.ShaveImage(1), _X4, reference=lambda x: _shaved(x, 1),
          skip={"dtype": _MOVES_ANY}),
    Entry("SpatialClassifier", lambda: nn.SpatialClassifier(nn.Linear(3, 2)), _X4,
          params=("modules.0.weight", "modules.0.bias")),
    Entry("SpatialClassifier", lambda: _flat_classifier(), _X4, variant="flat",
          params=("modules.0.weight", "modules.0.bias")),
    Entry("SpatialNormalization", lambda: nn.SpatialNormalization(3, _GAUSS3, 0.1), _X4),
    Entry("SpatialNormalization", lambda: nn.SpatialNormalization(3, _GAUSS3), _X4, variant="adaptive",
          skip={"jacobian": "the adaptive threshold moves with the input; backward holds it fixed, as nnx did"}),
    Entry("SpatialPadding", lambda: nn.SpatialPadding(1, -1, 2, 0, val=0.5), _X4,
          reference=lambda x: np.pad(x[..., :-1], ((0, 0), (0, 0), (2, 0), (1, 0)), constant_values=0.5),
          skip={"dtype": _MOVES_ANY}),
    Entry("TotalVariation", lambda: nn.TotalVariation(0.5), _X4, reference=lambda x: x,
          skip={"jacobian": "backward adds the TV penalty's gradient to gradOutput: not the derivative of forward"}),
]


def _flat_classifier():
    m = nn.SpatialClassifier(nn.Linear(3, 2))
    m.spatialOutput = False
    return m


ENTRIES = sorted(_ENTRIES, key=lambda e: e.id)


# ---- rnn
# The rnn package's modules.  FastLSTM, LSTM, GRU and Recurrent take one time
# step per forward and carry their state to the next (forget() starts over):
# their entries feed one step, and the checks that compare repeated forwards
# do not apply.  The sequencers, SeqLSTM and SeqGRU take a whole sequence
# [seqlen, batch, size] (time first: no batch dim to split) and start afresh
# at each forward.  Backpropagation through time is checked against central
# differences in tests/test_rnn_gradients.py.
ABSTRACT.update({
    "AbstractRecurrent": "the base of the recurrent cells: it needs a step module (every cell has entries)",
    "AbstractSequencer": "the base of the sequencers: remember() only (every sequencer has entries)",
})

_RNN_STATEFUL = "each forward is the next time step of one sequence, so repeated forwards differ"
_RNN_SKIP_STATEFUL = {check: _RNN_STATEFUL for check in ("jacobian", "parameters", "strides", "batch", "buffers",
                                                          "pickle", "dtype", "shape")}
_RNN_TIME_FIRST = {"batch": "the input's first dim is time, not a batch of samples"}
_STEPS_LIST = ("a list is a table of steps, a layout its ReverseSequence takes: a list gradOutput for an array "
               "input is refused as a layout mismatch (ValueError naming ReverseSequence), not for its dtype")


# torch/rnn's SeqBLSTM / SeqBGRU: Sequential(ConcatTable(fwd, ReverseUnreverse(Sequential(rev, bwd, rev))), merge)
_SEQ_BIDIRECTIONAL = tuple("modules.0.modules.0.modules." + p for p in (
    "0.weight", "0.bias", "1.modules.0.modules.1.weight", "1.modules.0.modules.1.bias"))


def _rnn_seq(rng):
    return rng.uniform(-2, 2, (4, 2, 3))


def _rnn_padded(rng):
    x = rng.uniform(-2, 2, (4, 3))
    x[1] = 0
    return x


def _rnn_paths(prefix, layout):
    """Parameter paths of modules prefix.0, prefix.1, ...: layout "wb" for
    a Linear, "w" for a LinearNoBias or CMul."""
    return tuple(f"{prefix}.{k}.{name}" for k, kind in enumerate(layout)
                 for name in (("weight", "bias") if kind == "wb" else ("weight",)))


_LSTM_STEP = _rnn_paths("modules", ["wb", "w", "w", "wb", "w", "w", "wb", "w", "wb", "w", "w"])
_GRU_STEP = _rnn_paths("modules", ["wb", "w", "wb", "w"])
_FAST_LSTM = ("i2g.weight", "i2g.bias", "o2g.weight")
# FastLSTMBNStep: i2g, o2g, BN_x, BN_h, the bias (an Add), BN_c
_BN_STEP = _rnn_paths("modules", ["wb", "w", "wb", "wb"]) + ("modules.4.bias", "modules.5.weight", "modules.5.bias")


def _bn_step_evaluated():
    """FastLSTMBNStep in evaluation, normalizing with running averages (made
    up): while training, BN_x's output has no component along i2g's bias,
    whose gradient is then exactly zero and float rounding alone; training
    is checked in tests/test_rnn_package.py (BPTT, device)."""
    step = nn.FastLSTMBNStep(3, 4)
    rng = np.random.default_rng(5)
    for bn in (step.bn_wx, step.bn_wh, step.bn_c):
        bn.running_mean[...] = rng.uniform(-1, 1, bn.running_mean.shape)
        bn.running_var[...] = rng.uniform(0.5, 2, bn.running_var.shape)
        bn.weight[...] = rng.uniform(0.5, 1.5, bn.weight.shape)
    step.evaluate()
    return step


def _prefixed(prefix, paths):
    return tuple(f"{prefix}.{p}" for p in paths)


_ENTRIES_RNN = [
    Entry("LinearNoBias", lambda: nn.LinearNoBias(5, 3), lambda r: _u(r, 4, 5), params=("weight",)),
    Entry("MaskZero", lambda: nn.MaskZero(nn.Linear(3, 4), 1), _rnn_padded, kinks=(0.0,),
          params=("modules.0.weight", "modules.0.bias")),
    Entry("FastLSTMStep", lambda: nn.FastLSTMStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4), _u(r, 2, 4)],
          params=("modules.0.weight", "modules.0.bias", "modules.1.weight")),
    Entry("LSTMStep", lambda: nn.LSTMStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4), _u(r, 2, 4)],
          params=_LSTM_STEP),
    Entry("GRUStep", lambda: nn.GRUStep(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4)], params=_GRU_STEP),
    Entry("FastLSTM", lambda: nn.FastLSTM(3, 4), lambda r: _u(r, 2, 3), params=_FAST_LSTM, skip=_RNN_SKIP_STATEFUL),
    Entry("LSTM", lambda: nn.LSTM(3, 4), lambda r: _u(r, 2, 3), params=_prefixed("recurrentModule", _LSTM_STEP),
          skip=_RNN_SKIP_STATEFUL),
    Entry("GRU", lambda: nn.GRU(3, 4), lambda r: _u(r, 2, 3), params=_prefixed("recurrentModule", _GRU_STEP),
          skip=_RNN_SKIP_STATEFUL),
    Entry("MuFuRu", lambda: nn.MuFuRu(3, 4), lambda r: _u(r, 2, 3),
          params=tuple(f"recurrentModule.modules.{p}.{w}" for p in ("0.modules.2.modules.0.modules.0",
                                                                   "0.modules.2.modules.0.modules.1",
                                                                   "1.modules.1.modules.2", "1.modules.2.modules.2")
                       for w in ("weight", "bias")), skip=_RNN_SKIP_STATEFUL),
    Entry("Recurrent", lambda: nn.Recurrent(4, nn.Linear(3, 4), nn.Linear(4, 4), nn.Tanh()), lambda r: _u(r, 2, 3),
          params=("startModule.bias", "inputModule.weight", "inputModule.bias", "feedbackModule.weight",
                  "feedbackModule.bias"), skip=_RNN_SKIP_STATEFUL),
    Entry("NormStabilizer", lambda: nn.NormStabilizer(0.5), lambda r: _u(r, 2, 3), reference=lambda x: x,
          skip=_RNN_SKIP_STATEFUL),
    Entry("Recursor", lambda: nn.Recursor(nn.Linear(3, 4)), lambda r: _u(r, 2, 3),
          params=("module.weight", "module.bias"),
          skip={"buffers": "each forward is a new time step, on a clone of its own with buffers of its own"}),
    Entry("VariableLength", lambda: nn.VariableLength(nn.SeqLSTM(3, 4)),
          lambda r: [r.uniform(0.1, 2, (n, 3)) for n in (3, 1, 2)], params=("modules.0.weight", "modules.0.bias"),
          skip={"batch": "the input is a list of samples of their own lengths, not a batch dim"}),
    Entry("VariableLength", lambda: nn.VariableLength(nn.SeqGRU(3, 4), True), variant="lastOnly",
          input=lambda r: [r.uniform(0.1, 2, (n, 3)) for n in (2, 3)], params=("modules.0.weight", "modules.0.bias"),
          skip={"batch": "the input is a list of samples of their own lengths, not a batch dim"}),
    Entry("SeqLSTM", lambda: nn.SeqLSTM(3, 4), _rnn_seq, params=("weight", "bias"), skip=_RNN_TIME_FIRST),
    Entry("SeqGRU", lambda: nn.SeqGRU(3, 4), _rnn_seq, params=("weight", "bias"), skip=_RNN_TIME_FIRST),
    Entry("Sequencer", lambda: nn.Sequencer(nn.FastLSTM(3, 4)), _rnn_seq, params=_prefixed("module", _FAST_LSTM),
          skip=_RNN_TIME_FIRST),
    Entry("Repeater", lambda: nn.Repeater(nn.GRU(3, 4), 3), lambda r: _u(r, 2, 3),
          params=_prefixed("module.recurrentModule", _GRU_STEP)),
    Entry("BiSequencer", lambda: nn.BiSequencer(nn.FastLSTM(3, 4), nn.GRU(3, 2)), _rnn_seq,
          params=_prefixed("fwdSeq.module", _FAST_LSTM) + _prefixed("bwdSeq.module.recurrentModule", _GRU_STEP),
          skip=_RNN_TIME_FIRST),
    # torch/rnn's form: Sequential(ConcatTable(Sequencer(fwd), ReverseUnreverse(Sequencer(bwd))), CAddTable)
    Entry("BiSequencer", lambda: nn.BiSequencer(nn.FastLSTM(3, 4), nn.GRU(3, 4), package="torch/rnn"), _rnn_seq,
          variant="torch-rnn", params=_prefixed("modules.0.modules.0.modules.0.module", _FAST_LSTM)
          + _prefixed("modules.0.modules.0.modules.1.modules.0.modules.1.module.recurrentModule", _GRU_STEP),
          skip=_RNN_TIME_FIRST),
    Entry("BiSequencerLM", lambda: nn.BiSequencerLM(nn.GRU(3, 4)), _rnn_seq,
          params=_prefixed("fwdSeq.module.recurrentModule", _GRU_STEP)
          + _prefixed("bwdSeq.module.recurrentModule", _GRU_STEP), skip=_RNN_TIME_FIRST),
    Entry("SeqReverseSequence", lambda: nn.SeqReverseSequence(0), _rnn_seq,
          reference=lambda x: np.flip(x, 0).copy(), skip=_RNN_TIME_FIRST),
    # issue 27: the rest of the rnn package (tests/test_rnn_package.py: BPTT, references)
    Entry("FastLSTMBNStep", _bn_step_evaluated, lambda r: [_u(r, 4, 3), _u(r, 4, 4), _u(r, 4, 4)],
          params=_BN_STEP),
    Entry("StepLSTM", lambda: nn.StepLSTM(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4), _u(r, 2, 4)],
          params=("weight", "bias")),
    Entry("StepGRU", lambda: nn.StepGRU(3, 4), lambda r: [_u(r, 2, 3), _u(r, 2, 4)], params=("weight", "bias")),
    Entry("RecLSTM", lambda: nn.RecLSTM(3, 4), lambda r: _u(r, 2, 3), params=("recurrentModule.weight",
                                                                            "recurrentModule.bias"),
          skip=_RNN_SKIP_STATEFUL),
    Entry("RecGRU", lambda: nn.RecGRU(3, 4), lambda r: _u(r, 2, 3), params=("recurrentModule.weight",
                                                                          "recurrentModule.bias"),
          skip=_RNN_SKIP_STATEFUL),
    Entry("Recurrence", lambda: nn.Recurrence(nn.Sequential().add(nn.ParallelTable().add(nn.Linear(3, 4))
                                                                 .add(nn.Linear(4, 4))).add(nn.CAddTable()), 4, 1),
          lambda r: _u(r, 2, 3), params=_rnn_paths("module.modules.0.modules", ["wb", "wb"]),
          skip=_RNN_SKIP_STATEFUL),
    Entry("LinearRNN", lambda: nn.LinearRNN(3, 4), lambda r: _u(r, 2, 3),
          params=("module.modules.1.weight", "module.modules.1.bias"), skip=_RNN_SKIP_STATEFUL),
    Entry("LookupRNN", lambda: nn.LookupRNN(6, 4), lambda r: _ints(r, -1, 6, 3), integer_input=True,
          params=("module.modules.0.modules.0.weight", "module.modules.0.modules.1.weight",
                  "module.modules.0.modules.1.bias"), skip=_RNN_SKIP_STATEFUL),
    Entry("SeqBRNN", lambda: nn.SeqBRNN(3, 4), _rnn_seq, params=("forwardModule.weight", "forwardModule.bias",
                                                                 "backwardModule.weight", "backwardModule.bias"),
          skip=_RNN_TIME_FIRST),
    Entry("SeqBLSTM", lambda: nn.SeqBLSTM(3, 4), _rnn_seq, params=_SEQ_BIDIRECTIONAL, skip=_RNN_TIME_FIRST),
    Entry("SeqBGRU", lambda: nn.SeqBGRU(3, 4), _rnn_seq, params=_SEQ_BIDIRECTIONAL, skip=_RNN_TIME_FIRST),
    Entry("SeqBGRU", lambda: nn.SeqBGRU(3, 4, nn.JoinTable(2)), _rnn_seq, variant="join",
          params=_SEQ_BIDIRECTIONAL, skip=_RNN_TIME_FIRST),
    Entry("ReverseUnreverse", lambda: nn.ReverseUnreverse(nn.SeqGRU(3, 4)), _rnn_seq,
          params=("modules.0.modules.1.weight", "modules.0.modules.1.bias"),
          skip={**_RNN_TIME_FIRST, "dtype": _STEPS_LIST}),
    Entry("ReverseUnreverse", lambda: nn.ReverseUnreverse(nn.Tanh()), _rnn_seq, variant="pointwise",
          reference=np.tanh, skip={**_RNN_TIME_FIRST, "dtype": _STEPS_LIST}),
    Entry("ReverseSequence", lambda: nn.ReverseSequence(), _rnn_seq, reference=lambda x: np.flip(x, 0).copy(),
          skip={**_RNN_TIME_FIRST, "dtype": _MOVES_ANY}),
    Entry("ReverseTable", lambda: nn.ReverseTable(), lambda r: [_u(r, 2, 3), _u(r, 2, 3), _u(r, 2, 3)],
          reference=lambda x: x[::-1], skip={"dtype": _MOVES_ANY, "shape": _PASSES_GRAD}),
    Entry("LookupTableMaskZero", lambda: nn.LookupTableMaskZero(6, 3), lambda r: _ints(r, -1, 6, 4, 5),
          integer_input=True, params=("weight",)),
    Entry("SequencerCriterion", lambda: nn.SequencerCriterion(nn.MSECriterion()), _rnn_seq, _rnn_seq,
          reference=lambda x, t: float(sum(((x[k] - t[k]) ** 2).mean() for k in range(len(x)))),
          skip=_RNN_TIME_FIRST),
    Entry("SequencerCriterion", lambda: nn.SequencerCriterion(nn.ClassNLLCriterion(), True), _rnn_seq,
          lambda r: r.integers(0, 3, (4, 2)), variant="mean",
          reference=lambda x, t: float(np.mean([-x[k][np.arange(2), t[k]].mean() for k in range(len(x))])),
          skip=_RNN_TIME_FIRST),
    Entry("RepeaterCriterion", lambda: nn.RepeaterCriterion(nn.MSECriterion()), _rnn_seq, lambda r: _u(r, 2, 3),
          reference=lambda x, t: float(sum(((x[k] - t) ** 2).mean() for k in range(len(x)))),
          skip={**_RNN_TIME_FIRST, "buffers": "the input's first dim is time, the target's the batch: the "
                                              "check's smaller input and target do not fit together"}),
    Entry("MaskZeroCriterion", lambda: nn.MaskZeroCriterion(nn.MSECriterion(), 1), lambda r: _u(r, 4, 5), _X,
          reference=lambda x, t: float(((x - t) ** 2).mean())),
]
ENTRIES = sorted(_ENTRIES + _ENTRIES_RNN, key=lambda e: e.id)


# ---- newcomer
# The modules of issue 13 (the rest of Lua nn) and the new modes of older classes
# (the softmax family's dim, Add's shape).  Notes for the harnesses: Kmeans's
# output is a nearest-centre index (piecewise constant: its input Jacobian is 0)
# and its gradWeight is the k-means step, not a derivative of the output (its
# test checks it against the loss instead); PrintSize and Profile print; GPU runs
# its module on a CUDA device after cuda().
_LINEAR_IN = ("modules.0.weight", "modules.0.bias")
_ENTRIES += [
    Entry("CAddTensorTable", lambda: nn.CAddTensorTable(), lambda r: [_u(r, 3, 4), [_u(r, 3, 4), _u(r, 3, 4)]],
          reference=lambda x: [t + x[0] for t in x[1]]),
    Entry("Convert", lambda: nn.Convert("bchw", "bf"), lambda r: _u(r, 2, 3, 4, 5),
          reference=lambda x: x.reshape(len(x), -1),
          skip={"dtype": "converts a numeric input of any dtype to its own type (dpnn's Convert): no dtype is wrong"}),
    Entry("Convert", lambda: nn.Convert("bhwc", "bchw"), lambda r: _u(r, 2, 4, 5, 3), variant="transpose",
          reference=lambda x: x.transpose(0, 3, 1, 2),
          skip={"dtype": "converts a numeric input of any dtype to its own type (dpnn's Convert): no dtype is wrong"}),
    Entry("DontCast", lambda: nn.DontCast(nn.Linear(5, 3), True), lambda r: _u(r, 4, 5), params=_LINEAR_IN,
          skip={"type": "keeps its module's dtype under type() and casts the input to it by design (dpnn's DontCast)", "float32": "keeps its module's dtype under type() and casts the input to it by design (dpnn's DontCast)", "dtype": "keeps its module's dtype under type() and casts the input to it by design (dpnn's DontCast)"}),
    Entry("GPU", lambda: nn.GPU(nn.Linear(5, 3), 1), lambda r: _u(r, 4, 5), params=_LINEAR_IN),
    Entry("Kmeans", lambda: nn.Kmeans(3, 5), lambda r: _u(r, 8, 5), params=("weight",),
          skip={"parameters": "gradWeight is the k-means step, not a derivative of the output", "dtype": "the output is a centre index: gradInput is zero and gradOutput is not read", "shape": "the output is a centre index: gradInput is zero and gradOutput is not read", "jacobian": "gradWeight is the k-means step, not a derivative of the output (tests/test_Kmeans.py "
                            "checks it against the loss)",
                "batch": "the k-means step averages each centre's samples over the whole batch"}),
    Entry("LayerNormalization", lambda: nn.LayerNormalization(5), lambda r: _u(r, 4, 5), params=("weight", "bias")),
    Entry("LayerNormalization", lambda: nn.LayerNormalization(5, affine=False), lambda r: _u(r, 4, 5),
          variant="plain",
          reference=lambda x: (x - x.mean(1, keepdims=True)) * np.sqrt(5)
          / np.sqrt(((x - x.mean(1, keepdims=True)) ** 2).sum(1, keepdims=True) + 1e-10)),
    Entry("LinearWeightNorm", lambda: nn.LinearWeightNorm(5, 3), lambda r: _u(r, 4, 5), params=("v", "g", "bias")),
    Entry("NaN", lambda: nn.NaN(nn.Linear(5, 3)), lambda r: _u(r, 4, 5), params=_LINEAR_IN),
    Entry("PrintSize", lambda: nn.PrintSize(), lambda r: _u(r, 4, 5), reference=lambda x: x,
          skip={"dtype": _ANY_DTYPE, "shape": _PASSES_GRAD}),
    Entry("Profile", lambda: nn.Profile(nn.Linear(5, 3), 10 ** 9), lambda r: _u(r, 4, 5), params=_LINEAR_IN),
    Entry("SpatialAutoCropMSECriterion", lambda: nn.SpatialAutoCropMSECriterion(), lambda r: _u(r, 2, 3, 4, 5),
          lambda r: _u(r, 2, 3, 6, 7), reference=lambda x, t: float(((x - t[..., 1:5, 1:6]) ** 2).mean()),
          skip={"shape": "a larger target is cropped to the input by design: no size is wrong"}),
    Entry("TemporalDynamicKMaxPooling", lambda: nn.TemporalDynamicKMaxPooling(2, 0.5), lambda r: _u(r, 3, 7, 4)),
    Entry("WhiteNoise", lambda: nn.WhiteNoise(0.1, 0.2), lambda r: _u(r, 4, 5), stochastic=True,
          skip={"batch": "the noise of a batch is drawn in one go: other numbers than sample by sample"}),
    Entry("SoftMax", lambda: nn.SoftMax(2), lambda r: _u(r, 2, 3, 4), variant="dim",
          reference=lambda x: _softmax(x, axis=2),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(0), lambda r: _u(r, 3, 4), variant="dim",
          reference=lambda x: np.log(_softmax(x, axis=0)),
          skip={"batch": _DIM_FROM_FIRST}),
    Entry("SoftMin", lambda: nn.SoftMin(-1), lambda r: _u(r, 2, 3, 4), variant="dim",
          reference=lambda x: _softmax(-x, axis=-1)),
    Entry("Add", lambda: nn.Add((3, 4)), lambda r: _u(r, 2, 3, 4), variant="shape", params=("bias",)),
]
ENTRIES = sorted(_ENTRIES + _ENTRIES_RNN, key=lambda e: e.id)


# ---- torch-rnn
# jcjohnson/torch-rnn's layers: batch-first whole sequences [N, T, D] (the
# batch check applies).  remember_states is off in these entries (every
# forward a function of its input); tests/test_torch_rnn.py checks it, the
# numpy transcription of torch-rnn's math and its checkpoints.
def _torch_rnn_lm(kind):
    m = nn.LanguageModel(list("abcdefg"), model_type=kind, wordvec_size=3, rnn_size=4, num_layers=2)
    for rnn in m.rnns:
        rnn.remember_states = False
    return m


def _torch_rnn_lm_params():
    net = ["modules.0.modules.0.weight"] + [f"modules.0.modules.{k}.{p}" for k in (1, 2) for p in ("weight", "bias")]
    return tuple(net) + ("modules.0.modules.4.weight", "modules.0.modules.4.bias")


_TORCH_RNN_BATCHES = {"batch": "torch-rnn's layers take batches only ([N, T, ...], no single-sample form), as "
                               "torch-rnn's did; tests/test_torch_rnn.py checks a batch against its rows"}
_TORCH_RNN_VIEWS = {**_TORCH_RNN_BATCHES,
                    "repr": "torch-rnn resizes its Views to each input (resetSize), and a View's repr shows its sizes",
                    "buffers": "the output is a View of the inner Linear's reused buffer, made anew by each forward "
                               "as Torch7's View:forward did (the memory is reused, the array object is not)"}
_ENTRIES_TORCH_RNN = [
    Entry("TorchRNNLSTM", lambda: nn.TorchRNNLSTM(3, 4), lambda r: _u(r, 2, 5, 3), params=("weight", "bias"),
          skip=_TORCH_RNN_BATCHES),
    Entry("VanillaRNN", lambda: nn.VanillaRNN(3, 4), lambda r: _u(r, 2, 5, 3), params=("weight", "bias"),
          skip=_TORCH_RNN_BATCHES),
    Entry("TemporalAdapter", lambda: nn.TemporalAdapter(nn.Linear(3, 2)), lambda r: _u(r, 2, 5, 3),
          params=("modules.0.modules.1.weight", "modules.0.modules.1.bias"), skip=_TORCH_RNN_VIEWS),
    Entry("LanguageModel", lambda: _torch_rnn_lm("lstm"), lambda r: _ints(r, 0, 7, 2, 5), integer_input=True,
          params=_torch_rnn_lm_params(), skip=_TORCH_RNN_VIEWS),
    Entry("LanguageModel", lambda: _torch_rnn_lm("rnn"), lambda r: _ints(r, 0, 7, 2, 5), integer_input=True,
          variant="rnn", params=_torch_rnn_lm_params(), skip=_TORCH_RNN_VIEWS),
]


# ---- graphs (issue 26): nngraph's way of building, lowered into containers
def _graph_residual():
    """y = Linear(Tanh(Linear(x))) + x"""
    x = nn.Identity()()
    y = nn.CAddTable()([nn.Linear(5, 5)(nn.Tanh()(nn.Linear(5, 5)(x))), x])
    return nn.gModule([x], [y])


def _graph_tables():
    """{x1, x2} -> {a * b, s}: s = Linear(x1) + Linear(x2) (read inside and
    given out), split into halves a, b"""
    x1, x2 = nn.Identity()(), nn.Identity()()
    s = nn.CAddTable()([nn.Linear(5, 4)(x1), nn.Linear(3, 4)(x2)])
    a, b = nn.SplitTable(0, 2)(nn.Reshape(2, 2)(s)).split(2)
    return nn.gModule([x1, x2], [nn.CMulTable()([a, b]), s])


def _graph_paths(*indices):
    return tuple(f"graph_modules.{i}.{p}" for i in indices for p in ("weight", "bias"))


_ENTRIES += [
    Entry("gModule", _graph_residual, _X, params=_graph_paths(1, 3)),
    Entry("gModule", _graph_tables, _table(_X, _u_(4, 3)), variant="tables", params=_graph_paths(1, 3)),
]
ENTRIES = sorted(_ENTRIES + _ENTRIES_RNN + _ENTRIES_TORCH_RNN, key=lambda e: e.id)


# ---- the REINFORCE family (issue 27): stochastic forward, backward from a reward given by reinforce()
_REINFORCE_JACOBIAN = "backward is REINFORCE's estimate from the reward (reinforce()), not the derivative of forward"
_REINFORCE_BATCH = "the reward holds one value per sample of the batch it was given for: a sample alone has none"
_REINFORCE_SKIP = {"jacobian": _REINFORCE_JACOBIAN, "batch": _REINFORCE_BATCH, "buffers": _REINFORCE_BATCH,
                   "empty": _REINFORCE_BATCH}
_REWARD = np.array([1.0, -0.5, 2.0, 0.25])     # one per sample of the (4, 5) inputs


def _rewarded(module, evaluate=False):
    module.reinforce(_REWARD.copy())
    if evaluate:
        module.evaluate()
    return module


def _probabilities(r):
    return _softmax(_u(r, 4, 5))


def _vr_input(r):
    return [_u(r, 4, 5), _u(r, 4, 1)]


def _vr_reference(x, t):
    return -2.0 * (np.argmax(x[0], axis=1) == t).sum() / 4


_ENTRIES_REINFORCE = [
    Entry("Reinforce", lambda: _rewarded(nn.Reinforce()), _X, reference=lambda x: x,
          skip=dict(_REINFORCE_SKIP, dtype=_ANY_DTYPE)),
    Entry("ReinforceBernoulli", lambda: _rewarded(nn.ReinforceBernoulli()), lambda r: _prob(r, 4, 5),
          stochastic=True, skip=_REINFORCE_SKIP),
    Entry("ReinforceBernoulli", lambda: _rewarded(nn.ReinforceBernoulli(), True), lambda r: _prob(r, 4, 5),
          variant="evaluate", reference=lambda x: x, skip=_REINFORCE_SKIP),
    Entry("ReinforceNormal", lambda: _rewarded(nn.ReinforceNormal(0.3)), _X, stochastic=True, skip=_REINFORCE_SKIP),
    Entry("ReinforceNormal", lambda: _rewarded(nn.ReinforceNormal(0.3), True), _X, variant="evaluate",
          reference=lambda x: x, skip=_REINFORCE_SKIP),
    Entry("ReinforceNormal", lambda: _rewarded(nn.ReinforceNormal()), _table(_X, _P), variant="table",
          stochastic=True, skip=_REINFORCE_SKIP),
    Entry("ReinforceCategorical", lambda: _rewarded(nn.ReinforceCategorical()), _probabilities, stochastic=True,
          skip=_REINFORCE_SKIP),
    Entry("ReinforceCategorical", lambda: _rewarded(nn.ReinforceCategorical(), True), _probabilities,
          variant="evaluate", reference=lambda x: x, skip=_REINFORCE_SKIP),
    Entry("ReinforceGamma", lambda: _rewarded(nn.ReinforceGamma(0.7)), _P, stochastic=True, skip=_REINFORCE_SKIP),
    Entry("ReinforceGamma", lambda: _rewarded(nn.ReinforceGamma(0.7), True), _P, variant="evaluate",
          reference=lambda x: 0.7 * x, skip=_REINFORCE_SKIP),
    Entry("ReinforceGamma", lambda: _rewarded(nn.ReinforceGamma()), _table(_P, _P), variant="table",
          stochastic=True, skip=_REINFORCE_SKIP),
    Entry("VRClassReward", lambda: nn.VRClassReward(_rewarded(nn.ReinforceNormal(0.3)), 2.0), _vr_input,
          lambda r: _classes(r, 4, 5), reference=_vr_reference,
          skip={"jacobian": "the loss counts correct classes (flat in the prediction) and does not read the "
                            "baseline: its gradient w.r.t. the baseline is the baseline criterion's"}),
]
ENTRIES = sorted(ENTRIES + _ENTRIES_REINFORCE, key=lambda e: e.id)


def _recurrent_attention():
    step = nn.Sequential().add(nn.FlattenTable()).add(nn.JoinTable(0, 1)).add(nn.Linear(3 + 2 + 4, 4)).add(nn.Tanh())
    action = nn.Sequential().add(nn.Linear(4, 2)).add(nn.Tanh())
    return nn.RecurrentAttention(nn.Recurrence(step, 4, 1), action, 3, [4])


ENTRIES = sorted(ENTRIES + [
    Entry("RecurrentAttention", _recurrent_attention, _u_(2, 3),
          params=("modules.0.modules.0.modules.2.weight", "modules.0.modules.0.modules.2.bias",
                  "modules.1.modules.0.modules.0.weight", "modules.1.modules.0.modules.0.bias"),
          skip={"jacobian": "the rnn's gradient w.r.t. the action it took is dropped, as in the package (REINFORCE "
                            "trains the action): tests/test_RecurrentAttention.py checks the package's backward",
                "parameters": "as jacobian: the parameters' gradients follow the package's backward, which "
                              "tests/test_RecurrentAttention.py checks against numpy",
                "buffers": "each step's output is the buffer of its step clone, and the clones are taken again in "
                           "another order at the next forward (as Recursor's)",
                "batch": "the input is a batch: the first action's zeros take their rows from it, as in the package"}),
], key=lambda e: e.id)


# ---- noise-contrastive estimation (issue 27)
def _nce_input(r):
    return [_u(r, 4, 5), _ints(r, 0, 7, 4)]


def _nce_criterion_input(r):
    return [_pos(r, 4), _pos(r, 4, 3), _prob(r, 4), _prob(r, 4, 3)]


def _nce_loss(p, t):
    pmt, pms, pnt, pns = p
    return -(np.log(pmt / (pmt + 3 * pnt + 1e-7)).sum() + np.log(3 * pns / (pms + 3 * pns + 1e-7)).sum()) / 4


_NCE_BATCH = "the input is a batch [batch, inputSize], as in the package; the noise is drawn for the whole batch"
ENTRIES = sorted(ENTRIES + [
    Entry("NCEModule", lambda: nn.NCEModule(5, 7, 3, np.arange(1.0, 8.0), Z=1.5), _nce_input, integer_input=True,
          params=("weight", "bias"), stochastic=True, skip={"batch": _NCE_BATCH}),
    Entry("NCECriterion", lambda: nn.NCECriterion(), _nce_criterion_input, lambda r: _ints(r, 0, 7, 4),
          reference=_nce_loss,
          skip={"jacobian": "the noise probabilities Pnt, Pns are constants whose gradient the package sets to zero: "
                            "tests/test_NCE.py checks dPmt and dPms by central differences"}),
], key=lambda e: e.id)
