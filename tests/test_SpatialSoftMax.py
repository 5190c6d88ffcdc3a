"""nn_legacy.SpatialSoftMax: a softmax over the planes at every pixel."""
import numpy as np
import pytest

import nn_legacy as nn
from spatial_softmax_checks import (SHAPE_IDS, SHAPES, check_layer_properties, check_matches_torch,
                                    check_per_pixel, check_refuses_non_spatial_input, check_same_as_base)


def softmax(v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_softmax_at_every_pixel(shape):
    check_per_pixel(nn.SpatialSoftMax, softmax, shape)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_matches_torch_softmax_over_the_plane_dim(shape):
    check_matches_torch(nn.SpatialSoftMax, "softmax", shape)


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_same_as_SoftMax(shape):
    check_same_as_base(nn.SpatialSoftMax, nn.SoftMax, shape)


def test_layer_properties():
    check_layer_properties(nn.SpatialSoftMax, "SoftMax")


def test_refuses_non_spatial_input():
    check_refuses_non_spatial_input(nn.SpatialSoftMax)


def test_repr():
    assert repr(nn.SpatialSoftMax()) == "nn.SpatialSoftMax"
