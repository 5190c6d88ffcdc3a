"""nn_legacy.SpatialSoftMax: a softmax over the planes at every pixel.

SpatialSoftMax and SpatialLogSoftMax are one family: the checks they share
run here over FAMILY, each with its own numpy reference, torch function and
base kernel; each file keeps its comparison with its base module."""
import numpy as np
import pytest

import nn_legacy as nn
from spatial_softmax_checks import (SHAPE_IDS, SHAPES, check_layer_properties, check_matches_torch,
                                    check_per_pixel, check_refuses_non_spatial_input, check_same_as_base)


def softmax(v):
    e = np.exp(v - v.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(v):
    shifted = v - v.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


# name -> (numpy reference along the last axis, torch function, the kernel it runs on)
FAMILY = {
    "SpatialSoftMax": (softmax, "softmax", "SoftMax"),
    "SpatialLogSoftMax": (log_softmax, "log_softmax", "LogSoftMax"),
}


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_reference_at_every_pixel(shape, name):
    check_per_pixel(getattr(nn, name), FAMILY[name][0], shape)


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_matches_torch_over_the_plane_dim(shape, name):
    check_matches_torch(getattr(nn, name), FAMILY[name][1], shape)


@pytest.mark.parametrize("name", FAMILY)
def test_layer_properties(name):
    check_layer_properties(getattr(nn, name), FAMILY[name][2])


@pytest.mark.parametrize("name", FAMILY)
def test_refuses_non_spatial_input(name):
    check_refuses_non_spatial_input(getattr(nn, name))


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_same_as_SoftMax(shape):
    check_same_as_base(nn.SpatialSoftMax, nn.SoftMax, shape)


def test_repr():
    assert repr(nn.SpatialSoftMax()) == "nn.SpatialSoftMax"
