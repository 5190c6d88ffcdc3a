"""nn_legacy.VolumetricBatchNormalization: BatchNormalization of [batch, n,
t, h, w] input (statistics over the batch and every voxel)."""
import pytest

import nn_legacy as nn
from batchnorm_checks import (check_bad_input, check_defaults, check_generic, check_jacobians, check_matches_numpy,
                              check_matches_torch, check_nan_stays_in_its_channel, check_one_sample_in_evaluation)

SHAPE = (3, 2, 2, 3, 4)
MODES = [True, False]
MODE_IDS = ["training", "evaluation"]


@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_matches_numpy(affine, train):
    check_matches_numpy(nn.VolumetricBatchNormalization, SHAPE, affine, train)


@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
def test_matches_torch(train):
    check_matches_torch(nn.VolumetricBatchNormalization, SHAPE, True, train)


@pytest.mark.parametrize("train", MODES, ids=MODE_IDS)
def test_jacobians(train):
    check_jacobians(nn.VolumetricBatchNormalization, (2, 2, 2, 1, 3), True, train)


def test_generic_properties():
    check_generic(nn.VolumetricBatchNormalization, SHAPE)


def test_one_sample_in_evaluation():
    check_one_sample_in_evaluation(nn.VolumetricBatchNormalization, SHAPE)


def test_nan_stays_in_its_channel():
    check_nan_stays_in_its_channel(nn.VolumetricBatchNormalization, SHAPE)


def test_defaults():
    check_defaults(nn.VolumetricBatchNormalization)


def test_bad_input():
    check_bad_input(nn.VolumetricBatchNormalization, SHAPE, "5D [batch, 2, t, h, w]")


def test_repr():
    assert repr(nn.VolumetricBatchNormalization(4)) == "nn.VolumetricBatchNormalization (5D) (4)"
