"""nn_legacy.VolumetricBatchNormalization: BatchNormalization of [batch, n,
t, h, w] input (statistics over the batch and every voxel).
Its checks shared with BatchNormalization run over the family table in
test_BatchNormalization.py."""
import nn_legacy as nn


def test_repr():
    assert repr(nn.VolumetricBatchNormalization(4)) == "nn.VolumetricBatchNormalization (5D) (4)"
