"""nn_legacy.SpatialLogSoftMax: a log-softmax over the planes at every pixel."""
import numpy as np
import pytest

import nn_legacy as nn
from spatial_softmax_checks import (SHAPE_IDS, SHAPES, check_layer_properties, check_matches_torch,
                                    check_per_pixel, check_refuses_non_spatial_input, check_same_as_base)


def log_softmax(v):
    shifted = v - v.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_log_softmax_at_every_pixel(shape):
    check_per_pixel(nn.SpatialLogSoftMax, log_softmax, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_matches_torch_log_softmax_over_the_plane_dim(shape):
    check_matches_torch(nn.SpatialLogSoftMax, "log_softmax", shape)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_same_as_LogSoftMax(shape):
    check_same_as_base(nn.SpatialLogSoftMax, nn.LogSoftMax, shape)


def test_layer_properties():
    check_layer_properties(nn.SpatialLogSoftMax, "LogSoftMax")


def test_refuses_non_spatial_input():
    check_refuses_non_spatial_input(nn.SpatialLogSoftMax)


def test_repr():
    assert repr(nn.SpatialLogSoftMax()) == "nn.SpatialLogSoftMax"
