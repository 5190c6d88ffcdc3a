"""nn_legacy.BatchNormalization and the BatchNormalization_* kernels on
[batch, n] input (the spatial and volumetric modules have their own files;
the checks are shared, in batchnorm_checks.py, and run for the three over
FAMILY here)."""
import numpy as np
import pytest

import nn_legacy as nn
import thnn
from batchnorm_checks import (EPS, check_bad_input, check_defaults, check_generic, check_jacobians, check_matches_numpy,
                              check_matches_torch, check_nan_stays_in_its_channel, check_one_sample_in_evaluation,
                              inputs, make)
from layer_checks import raises_exactly, uniform

SHAPE = (6, 3)
MODES = [True, False]
MODE_IDS = ["training", "evaluation"]
# BatchNormalization, SpatialBatchNormalization and VolumetricBatchNormalization
# are one family: the checks they share (batchnorm_checks.py) run here over
# FAMILY, each with its input shape, the smaller shape of its jacobians, how
# its errors name its layout and the affine settings it is compared with torch
# and differentiated in; each file keeps the cases only its layer has.
FAMILY = {
    "BatchNormalization": dict(shape=SHAPE, jacobian=SHAPE, layout="2D [batch, 3]", affine=[True, False]),
    "SpatialBatchNormalization": dict(shape=(4, 3, 2, 5), jacobian=(3, 2, 2, 3), layout="4D [batch, 3, h, w]",
                                      affine=[True, False]),
    "VolumetricBatchNormalization": dict(shape=(3, 2, 2, 3, 4), jacobian=(2, 2, 2, 1, 3),
                                         layout="5D [batch, 2, t, h, w]", affine=[True]),
}
EACH_AFFINE = [(name, affine) for name, case in FAMILY.items() for affine in case["affine"]]
EACH_AFFINE_IDS = [f"{name}-{'affine' if affine else 'plain'}" for name, affine in EACH_AFFINE]


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_matches_numpy(affine, train, name):
    check_matches_numpy(getattr(nn, name), FAMILY[name]["shape"], affine, train)


@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("name, affine", EACH_AFFINE, ids=EACH_AFFINE_IDS)
def test_matches_torch(name, affine, train):
    check_matches_torch(getattr(nn, name), FAMILY[name]["shape"], affine, train)


@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("name, affine", EACH_AFFINE, ids=EACH_AFFINE_IDS)
def test_jacobians(name, affine, train):
    check_jacobians(getattr(nn, name), FAMILY[name]["jacobian"], affine, train)


@pytest.mark.parametrize("name", FAMILY)
def test_generic_properties(name):
    check_generic(getattr(nn, name), FAMILY[name]["shape"])


@pytest.mark.parametrize("name", FAMILY)
def test_one_sample_in_evaluation(name):
    check_one_sample_in_evaluation(getattr(nn, name), FAMILY[name]["shape"])


@pytest.mark.parametrize("name", FAMILY)
def test_nan_stays_in_its_channel(name):
    check_nan_stays_in_its_channel(getattr(nn, name), FAMILY[name]["shape"])


@pytest.mark.parametrize("name", FAMILY)
def test_defaults(name):
    check_defaults(getattr(nn, name))


@pytest.mark.parametrize("name", FAMILY)
def test_bad_input(name):
    check_bad_input(getattr(nn, name), FAMILY[name]["shape"], FAMILY[name]["layout"])


def test_repr():
    assert repr(nn.BatchNormalization(7)) == "nn.BatchNormalization (2D) (7)"


def test_training_needs_two_values_per_channel():
    """Torch7 divided by n - 1 = 0 here (NaN running_var); refuse instead."""
    m = make(nn.BatchNormalization, 3)
    with raises_exactly(thnn.THNNError, "BatchNormalization_updateOutput: input must be more than one value per "
                                        "channel in training, got 2D of size [1, 3]"):
        m.forward(uniform((1, 3)))
    with raises_exactly(ValueError, "BatchNormalization: input must be 2D [batch, 3] (or 1D without the batch dim "
                                    "in evaluation), got 1D of size [3]"):
        m.forward(uniform((3,)))
    m.evaluate()
    assert m.forward(uniform((1, 3))).shape == (1, 3)
    assert m.forward(np.zeros((0, 3))).shape == (0, 3)


def test_an_empty_batch_leaves_the_running_statistics_alone():
    """As PyTorch: nothing to normalise, nothing learnt."""
    m = make(nn.BatchNormalization, 3)
    before = m.running_mean.copy(), m.running_var.copy()
    assert m.forward(np.zeros((0, 3))).shape == (0, 3)
    np.testing.assert_array_equal(m.running_mean, before[0])
    np.testing.assert_array_equal(m.running_var, before[1])
    np.testing.assert_array_equal(m.save_std, np.zeros(3))
    m.zeroGradParameters()
    assert m.backward(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0, 3)
    assert not m.gradWeight.any() and not m.gradBias.any()


def test_constant_channel_with_zero_eps_gives_the_bias():
    """Torch7's rule: with eps = 0 a channel without variance has invstd 0."""
    m = nn.BatchNormalization(2, eps=0)
    x = np.array([[5.0, 1.0], [5.0, 2.0], [5.0, 4.0]])
    out = m.forward(x)
    np.testing.assert_array_equal(out[:, 0], m.bias[0])
    assert m.save_std[0] == 0 and np.all(np.isfinite(out))


def test_clearState_and_float():
    m = make(nn.BatchNormalization, 3)
    x, _ = inputs(SHAPE)
    m.forward(x)
    assert m.save_mean is not None
    m.clearState()
    assert m.save_mean is None and m.save_std is None and m.output is None
    m.float()
    assert m.running_mean.dtype == np.float32 and m.running_var.dtype == np.float32
    assert m.forward(x.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("value", [0, -1, True])
def test_nOutput_must_be_a_positive_integer(value):
    with raises_exactly(ValueError, f"BatchNormalization: nOutput must be a positive integer, got {value!r}"):
        nn.BatchNormalization(value)
    with raises_exactly(TypeError, "BatchNormalization: nOutput must be an integer, got 2.5"):
        nn.BatchNormalization(2.5)   # every constructor's rule for sizes: see tests/test_constructors.py


# ---------------------------------------------------------------- the kernels called directly
def test_kernel_checks():
    D = thnn.Double
    x, g = inputs(SHAPE)
    rm, rv, w = np.zeros(3), np.ones(3), np.ones(3)
    with raises_exactly(thnn.THNNError, "BatchNormalization_updateOutput: input must be [batch, 4, ...] "
                                        "(2D or more, 4 channels at dim 1), got 2D of size [6, 3]"):
        D.BatchNormalization_updateOutput(x, None, None, None, np.zeros(4), np.ones(4), None, None, True, 0.1, EPS)
    with raises_exactly(thnn.THNNError, "BatchNormalization_updateOutput: running_mean must be contiguous "
                                        "(it is written in place)"):
        D.BatchNormalization_updateOutput(x, None, w, None, np.zeros(6)[::2], rv, None, None, True, 0.1, EPS)
    with raises_exactly(thnn.THNNError, "BatchNormalization_updateOutput: bias must be 1D of size [3], "
                                        "got 1D of size [2]"):
        D.BatchNormalization_updateOutput(x, None, w, np.zeros(2), rm, rv, None, None, True, 0.1, EPS)
    with raises_exactly(thnn.THNNError, "BatchNormalization_backward: save_std must be 1D of size [3], "
                                        "got 1D of size [4]"):
        D.BatchNormalization_backward(x, g, None, np.zeros(3), None, w, rm, rv, np.zeros(3), np.ones(4), True,
                                      1.0, EPS)
    with raises_exactly(thnn.THNNError, "BatchNormalization_backward: gradInput must be contiguous "
                                        "(it is written in place)"):
        D.BatchNormalization_backward(x, g, np.zeros((3, 6)).T, None, None, w, rm, rv, None, None, False, 1.0, EPS)
    with raises_exactly(thnn.THNNError, "BatchNormalization_backward: gradWeight must be 1D of size [3], "
                                        "got 1D of size [4]"):
        D.BatchNormalization_backward(x, g, None, np.zeros(4), None, w, rm, rv, None, None, False, 1.0, EPS)
    # evaluation: save_mean and save_std are neither needed nor touched
    out, save_mean, save_std = D.BatchNormalization_updateOutput(x, None, w, None, rm, rv, None, None, False,
                                                                 0.1, EPS)
    assert save_mean is None and save_std is None
    np.testing.assert_allclose(out, x / np.sqrt(1 + EPS), rtol=1e-15)


def test_backward_without_saved_statistics_recomputes_them():
    """Training: save_mean/save_std may be left out of the backward kernel;
    it then takes the batch statistics of input, as the forward pass did."""
    D = thnn.Double
    x, g = inputs(SHAPE)
    w, rm, rv = np.array([0.5, 1.0, 2.0]), np.zeros(3), np.ones(3)
    _, save_mean, save_std = D.BatchNormalization_updateOutput(x, None, w, None, rm, rv, None, None, True, 0.1, EPS)
    results = []
    for saved in ((save_mean, save_std), (None, save_std), (save_mean, None), (None, None)):
        gi, gw, gb = np.empty_like(x), np.zeros(3), np.zeros(3)
        D.BatchNormalization_backward(x, g, gi, gw, gb, w, rm, rv, *saved, True, 1.0, EPS)
        results.append((gi, gw, gb))
    for gi, gw, gb in results[1:]:
        np.testing.assert_array_equal(gi, results[0][0])
        np.testing.assert_array_equal(gw, results[0][1])
        np.testing.assert_array_equal(gb, results[0][2])
