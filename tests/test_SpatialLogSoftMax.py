"""nn_legacy.SpatialLogSoftMax: a log-softmax over the planes at every pixel.
Its values against numpy and torch, layer properties and input checks run
with SpatialSoftMax's, over the family table in test_SpatialSoftMax.py."""
import pytest

import nn_legacy as nn
from spatial_softmax_checks import SHAPE_IDS, SHAPES, check_same_as_base


@pytest.mark.parametrize("shape", SHAPES, ids=SHAPE_IDS)
def test_same_as_LogSoftMax(shape):
    check_same_as_base(nn.SpatialLogSoftMax, nn.LogSoftMax, shape)


def test_repr():
    assert repr(nn.SpatialLogSoftMax()) == "nn.SpatialLogSoftMax"
