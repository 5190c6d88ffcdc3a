"""Every constructor, table-driven: sizes given as integral floats (``Linear(4.0, 3)``, a Lua ``/`` habit) build
the same module as integers, other floats are refused naming the layer and the argument (one rule, in
nn_legacy/_helpers/checks.py); every named argument can be given by keyword; and where Lua Torch7 and torch.legacy.nn
ordered a constructor's arguments differently, Torch7's order holds and a call in the other order that would read
differently is refused naming both."""
import inspect
import pickle

import numpy as np
import pytest

import nn_legacy as nn
from layer_checks import raises_exactly, uniform
from nn_legacy._helpers import checks as _checks


class Inner:
    """A module argument, built afresh for every call (after the same seed)."""

    def __init__(self, make):
        self.make = make


TANH, LINEAR = Inner(lambda: nn.Tanh()), Inner(lambda: nn.Linear(4, 3))
LINEAR34, LINEAR44 = Inner(lambda: nn.Linear(3, 4)), Inner(lambda: nn.Linear(4, 4))
CON = np.array([[0, 0], [1, 0], [1, 1]])   # a connection table (0-based)

# class -> (positional arguments, keyword arguments): a valid call whose integer arguments are integers
CALLS = {
    "Add": ((5,), {}), "BatchNormalization": ((4,), {}), "Bilinear": ((3, 4, 2), {}), "Bottle": ((TANH, 2, 2), {}),
    "CAdd": ((3, 4), {}), "CMul": ((3, 4), {}), "CReLU": ((2,), {}), "ClassNLLCriterion": ((None, True, 3), {}),
    "ClassSimplexCriterion": ((4,), {}), "Collapse": ((2,), {}), "Concat": ((1,), {}), "Constant": ((1.5, 2), {}),
    "Cosine": ((4, 3), {}), "CrossEntropyCriterion": ((None, True, 2), {}), "DepthConcat": ((1,), {}),
    "Euclidean": ((4, 3), {}), "FeatureLPPooling": ((2, 1, 2.0), {}), "GPU": ((TANH, 1, 2), {}),
    "GRUCellFused": ((3,), {}), "GatedLinearUnit": ((1,), {}), "Index": ((0,), {}),
    "IndexLinear": ((5, 3), {"keysOffset": 1}), "JoinTable": ((1, 2), {}), "Kmeans": ((3, 4), {}),
    "LSTMCellFused": ((3,), {}), "LayerNormalization": ((4,), {}), "Linear": ((4, 3), {}),
    "LinearWeightNorm": ((4, 3), {}), "LogSoftMax": ((1,), {}), "LookupTable": ((6, 3, 2), {}), "Max": ((1, 2), {}),
    "Maxout": ((4, 3, 2), {}), "Mean": ((1, 2), {}), "Min": ((1, 2), {}), "MixtureTable": ((1,), {}),
    "Narrow": ((1, 2, 3), {}), "NarrowTable": ((1, 2), {}), "OneHot": ((5,), {}), "PReLU": ((3,), {}),
    "Padding": ((1, 2), {"index": 1}), "Parallel": ((1, 0), {}), "PartialLinear": ((4, 3), {}),
    "PixelShuffle": ((2,), {}), "Profile": ((TANH, 5), {}), "Replicate": ((3, 1, 2), {}), "Reshape": ((3, 4), {}),
    "Select": ((1, 2), {}), "SelectTable": ((1,), {}), "SoftMax": ((1,), {}), "SoftMin": ((1,), {}),
    "SparseLinear": ((6, 3), {}), "SpatialAdaptiveAveragePooling": ((3, 2), {}),
    "SpatialAdaptiveMaxPooling": ((3, 2), {}), "SpatialAveragePooling": ((3, 2, 2, 1, 1, 0), {}),
    "SpatialBatchNormalization": ((4,), {}), "SpatialClassNLLCriterion": ((None, True, 1), {}),
    "SpatialContrastiveNormalization": ((2,), {}), "SpatialConvolution": ((2, 3, 3, 2, 2, 1, 1, 0), {}),
    "SpatialConvolutionLocal": ((2, 3, 6, 5, 3, 2, 1, 1, 1, 0), {}),
    "SpatialConvolutionMM": ((2, 3, 3, 2, 2, 1, 1, 0), {}),
    "SpatialConvolutionMap": ((CON, 3, 2, 2, 1), {}), "SpatialCrossMapLRN": ((3,), {}),
    "SpatialDepthWiseConvolution": ((2, 2, 3, 2, 2, 1, 1, 0), {}),
    "SpatialDilatedConvolution": ((2, 3, 3, 2, 2, 1, 1, 0, 2, 1), {}),
    "SpatialDilatedMaxPooling": ((3, 2, 2, 1, 1, 0, 2, 1), {}), "SpatialDivisiveNormalization": ((2,), {}),
    "SpatialFractionalMaxPooling": ((2, 2, 4, 4), {}), "SpatialFullConvolution": ((2, 3, 3, 2, 2, 1, 1, 0, 1, 0), {}),
    "SpatialFullConvolutionMap": ((CON, 3, 2, 2, 1), {}),
    "SpatialFullDilatedConvolution": ((2, 3, 3, 2, 2, 1, 1, 0, 2, 1, 1, 0), {}),
    "SpatialLPPooling": ((2, 2.0, 3, 2, 2, 1), {}), "SpatialMaxPooling": ((3, 2, 2, 1, 1, 0), {}),
    "SpatialReflectionPadding": ((1, 2, 0, 1), {}), "SpatialReplicationPadding": ((1, 2, 0, 1), {}),
    "SpatialSubSampling": ((2, 3, 2, 2, 1), {}), "SpatialSubtractiveNormalization": ((2,), {}),
    "SpatialUpSamplingBilinear": ((2,), {}), "SpatialUpSamplingNearest": ((2,), {}),
    "SpatialZeroPadding": ((1, 2, 0, 1), {}), "SplitTable": ((1, 2), {}), "Squeeze": ((1, 2), {}),
    "Sum": ((1, 2), {}), "TemporalConvolution": ((4, 3, 2, 1), {}), "TemporalDynamicKMaxPooling": ((2,), {}),
    "TemporalMaxPooling": ((2, 1), {}), "TemporalRowConvolution": ((4, 3, 2), {}),
    "TemporalSubSampling": ((4, 3, 2), {}), "Transpose": (((0, 1), (1, 2)), {}), "Unsqueeze": ((1, 2), {}),
    "View": ((3, 4), {}), "VolumetricAveragePooling": ((2, 3, 2, 1, 2, 1, 1, 0, 1), {}),
    "VolumetricBatchNormalization": ((4,), {}), "VolumetricConvolution": ((2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1), {}),
    "VolumetricDilatedConvolution": ((2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1, 2, 1, 2), {}),
    "VolumetricDilatedMaxPooling": ((2, 3, 2, 1, 2, 1, 1, 0, 1, 2, 1, 1), {}),
    "VolumetricFractionalMaxPooling": ((2, 2, 2, 4, 4, 4), {}),
    "VolumetricFullConvolution": ((2, 3, 2, 3, 2, 2, 2, 1, 1, 0, 1, 1, 0, 0), {}),
    "VolumetricFullDilatedConvolution": ((2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1, 2, 1, 2, 0, 1, 0), {}),
    "VolumetricMaxPooling": ((2, 3, 2, 1, 2, 1, 1, 0, 1), {}),
    "VolumetricReplicationPadding": ((1, 2, 0, 1, 2, 0), {}), "VolumetricUpSamplingNearest": ((2,), {}),
    "VolumetricUpSamplingTrilinear": ((2,), {}), "WeightNorm": ((LINEAR, 1), {}), "WeightedEuclidean": ((4, 3), {}),
    # the rnn package
    "AbstractRecurrent": ((LINEAR, 5), {}), "FastLSTM": ((3, 4, 5), {}), "FastLSTMStep": ((3, 4), {}),
    "GRU": ((3, 4, 5), {}), "GRUStep": ((3, 4), {}), "LSTM": ((3, 4, 5), {}), "LSTMStep": ((3, 4), {}),
    "LinearNoBias": ((3, 4), {}), "MaskZero": ((LINEAR, 1), {}),
    "Recurrent": ((4, LINEAR34, LINEAR44, TANH, 5), {}), "Recursor": ((LINEAR, 5), {}), "Repeater": ((LINEAR, 5), {}),
    "LinearRNN": ((3, 4), {}), "LookupRNN": ((6, 4), {}), "SeqBGRU": ((3, 4), {}), "SeqBLSTM": ((3, 4, 4), {}), "SeqGRU": ((3, 4), {}), "SeqLSTM": ((3, 4, 4), {}),
    "SeqReverseSequence": ((1,), {}),
    "FastLSTMBNStep": ((3, 4), {}), "LookupTableMaskZero": ((6, 3), {}),
    "MaskZeroCriterion": ((Inner(lambda: nn.MSECriterion()), 1), {}), "RecGRU": ((3, 4, 5), {}),
    "RecLSTM": ((3, 4, 4, 5), {}), "Recurrence": ((TANH, 4, 1, 5), {}), "StepGRU": ((3, 4), {}),
    "StepLSTM": ((3, 4, 4), {}), "ArgMax": ((1, 2), {}), "MuFuRu": ((3, 4, None, 5), {}),
    "NCEModule": ((4, 3, 2, np.ones(3)), {}), "RecurrentAttention": ((LINEAR44, LINEAR34, 2, 4), {}),
    # Torch7-era classes of other packages
    "Inception": ((3, [4, 2], [2, 3, 2, 1]), {"kernelSize": [3, 1]}), "InstanceNormalization": ((3,), {}),
    "ShaveImage": ((1,), {}), "SpatialNormalization": ((3, np.ones((3, 3)) / 9), {}),
    "SpatialPadding": ((1, 2, 0, 1), {}),
}


def integer_argument_names(cls):
    wanted = (_checks.INTEGER_ARGUMENTS | set(getattr(cls, "_integer_arguments", ()))) \
        - set(getattr(cls, "_exact_integer_arguments", ()))
    return [p for p in inspect.signature(cls.__init__).parameters if p in wanted]


def sized_classes():
    return sorted(name for name in nn.__all__ if isinstance(getattr(nn, name), type)
                  and issubclass(getattr(nn, name), (nn.Module, nn.Criterion))
                  and integer_argument_names(getattr(nn, name)))


def test_every_class_with_integer_arguments_is_in_the_table():
    assert sorted(CALLS) == sized_classes()


def build(name, args, kwargs):
    def real(v):
        return v.make() if isinstance(v, Inner) else v
    nn.manualSeed(0)
    return getattr(nn, name)(*[real(a) for a in args], **{k: real(v) for k, v in kwargs.items()})


def integer_slots(name):
    """(where, argument name) of every integer given in the table's call: a position, a keyword, or a
    (position, element) inside a tuple of sizes."""
    cls = getattr(nn, name)
    args, kwargs = CALLS[name]
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    names = set(integer_argument_names(cls))
    slots = []
    for i, value in enumerate(args):
        p = params[min(i, len(params) - 1)]
        if p.name not in names:
            continue
        if isinstance(value, tuple):
            slots += [((i, j), p.name) for j, v in enumerate(value) if isinstance(v, int)]
        elif isinstance(value, int) and not isinstance(value, bool):
            slots.append((i, p.name))
    slots += [(k, k) for k, v in kwargs.items() if k in names and isinstance(v, int)]
    return slots


def replaced(name, where, new):
    args, kwargs = CALLS[name]
    args, kwargs = list(args), dict(kwargs)
    if isinstance(where, str):
        kwargs[where] = new
    elif isinstance(where, tuple):
        i, j = where
        args[i] = tuple(new if k == j else v for k, v in enumerate(args[i]))
    else:
        args[where] = new
    return args, kwargs


@pytest.mark.parametrize("name", sorted(CALLS))
def test_integral_floats_build_the_same_module(name):
    reference = pickle.dumps(build(name, *CALLS[name]))
    slots = integer_slots(name)
    assert slots, f"the table's call of {name} gives none of its integer arguments"
    for where, arg in slots:
        value = CALLS[name][0][where] if isinstance(where, int) else (
            CALLS[name][1][where] if isinstance(where, str) else CALLS[name][0][where[0]][where[1]])
        m = build(name, *replaced(name, where, float(value)))
        assert pickle.dumps(m) == reference, f"{name}: {arg}={float(value)} built another module than {arg}={value}"
        with raises_exactly(TypeError, f"{name}: {arg} must be an integer, got {value + 0.5!r}"):
            build(name, *replaced(name, where, value + 0.5))


def test_numpy_floats_and_infinity():
    assert nn.Linear(np.float32(4.0), np.float64(3)).weight.shape == (3, 4)
    with raises_exactly(TypeError, "Linear: outputSize must be an integer, got inf"):
        nn.Linear(4, float("inf"))


def test_user_classes_are_left_alone():
    class Mine(nn.Module):
        def __init__(self, inputSize):
            super().__init__()
            self.inputSize = inputSize
    assert Mine(4.0).inputSize == 4.0


# ---------------------------------------------------------------- keyword arguments
def test_every_named_argument_can_be_given_by_keyword():
    for name in nn.__all__:
        cls = getattr(nn, name)
        if not (isinstance(cls, type) and issubclass(cls, (nn.Module, nn.Criterion))):
            continue
        for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
            assert p.kind != p.POSITIONAL_ONLY, f"{name}: {p.name} cannot be given by keyword"


def test_keywords_build_what_positions_build():
    for name, (args, kwargs) in CALLS.items():
        cls = getattr(nn, name)
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            continue
        by_name = dict(kwargs, **{p.name: a for p, a in zip(params, args)})
        assert pickle.dumps(build(name, (), by_name)) == pickle.dumps(build(name, args, kwargs)), name


# ---------------------------------------------------------------- Torch7's order, and torch.legacy.nn's
def test_sum_keeps_torch7s_order():
    x = uniform((2, 3, 4), 1)
    np.testing.assert_allclose(nn.Sum(1, 2, True).forward(x), x.mean(axis=2))   # nInputDims=2: a batch
    np.testing.assert_allclose(nn.Sum(0, sizeAverage=True).forward(x), x.mean(axis=0))
    assert nn.Sum(1, None, False, False).forward(x).shape == (2, 1, 4)            # Torch7's squeeze
    with raises_exactly(TypeError, "Sum: Sum(0, True) reads as torch.legacy.nn's Sum(dimension, sizeAverage), but "
                                   "the arguments follow Torch7's Sum(dimension, nInputDims, sizeAverage, squeeze); "
                                   "name the argument: Sum(0, sizeAverage=True)"):
        nn.Sum(0, True)
    with pytest.raises(TypeError, match=r"^Mean: Mean\(1, False\) reads as torch.legacy.nn's"):
        nn.Mean(1, False)


def test_padding_keeps_torch7s_order():
    x = uniform((2, 3), 1)
    assert nn.Padding(0, 2, 1).forward(x).shape == (2, 5)        # nInputDim=1: dim 0 after the batch dim
    np.testing.assert_array_equal(nn.Padding(0, 1, value=0.5).forward(x)[2], [0.5] * 3)
    with raises_exactly(TypeError, "Padding: Padding(0, 1, 0.5) reads as torch.legacy.nn's Padding(dim, pad, value, "
                                   "index), but the arguments follow Torch7's Padding(dim, pad, nInputDim, value, "
                                   "index); name the argument: Padding(0, 1, value=0.5)"):
        nn.Padding(0, 1, 0.5)


def test_dropout_keeps_torch7s_order():
    assert nn.Dropout(0.5, False, True).inplace and not nn.Dropout(0.5, False, True).v1
    assert nn.Dropout(0.5, True, False).v1
    assert nn.Dropout(0.5, False).inplace is False
    assert nn.Dropout(0.5, inplace=True).inplace and nn.Dropout(0.5, v1=True).v1
    assert nn.Dropout(0.5, False, False, True).stochastic_inference
    with raises_exactly(TypeError, "Dropout: a second positional argument (True) is ambiguous: Torch7's order is "
                                   "Dropout(p, v1, inplace, stochasticInference), torch.legacy.nn's was "
                                   "Dropout(p, inplace); give it by name"):
        nn.Dropout(0.5, True)
    with raises_exactly(TypeError, "Dropout: v1 given twice, by position and by name"):
        nn.Dropout(0.5, False, True, v1=True)


@pytest.mark.parametrize("name", ["Dropout", "SpatialDropout", "VolumetricDropout"])
def test_stochastic_inference_drops_while_evaluating(name):
    shape = {"Dropout": (50, 40), "SpatialDropout": (8, 50, 2, 2), "VolumetricDropout": (8, 50, 1, 2, 2)}[name]
    m = getattr(nn, name)(0.5, stochasticInference=True)
    m.evaluate()
    x = np.ones(shape)
    y = m.forward(x)
    assert 0.3 < (y == 0).mean() < 0.7
    np.testing.assert_array_equal(m.backward(x, np.ones(shape)), m.noise * np.ones(shape))
    if name != "Dropout":   # Torch7's second positional argument of the plane dropouts
        assert getattr(nn, name)(0.5, True).stochastic_inference


def test_prelu_says_how_to_pass_pytorchs_3d_layout():
    with raises_exactly(ValueError, "PReLU: input 3D of size [2, 4, 5] is read as Torch7's one sample [4, h, w], and "
                                    "its dim 0 is not 4; for a batch [batch, 4, length] (PyTorch's layout) pass it as "
                                    "4D, input[..., None]"):
        nn.PReLU(4).forward(uniform((2, 4, 5)))
    assert nn.PReLU(4).forward(uniform((2, 4, 5))[..., None]).shape == (2, 4, 5, 1)
    assert nn.PReLU(4).forward(uniform((4, 2, 5))).shape == (4, 2, 5)


@pytest.mark.parametrize("name", ["Sum", "Padding", "Dropout", "PReLU", "SoftMax", "LogSoftMax", "SoftMin"])
def test_docstrings_say_where_torch7_and_torch_legacy_nn_differ(name):
    doc = getattr(nn, name).__doc__
    assert "Torch7" in doc and ("torch.legacy.nn" in doc or "PyTorch" in doc), name
