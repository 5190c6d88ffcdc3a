from .BatchNormalization import BatchNormalization


class VolumetricBatchNormalization(BatchNormalization):
    """BatchNormalization of ``[batch, nOutput, t, h, w]`` input (``[nOutput,
    t, h, w]`` in evaluation): the statistics of channel ``c`` are taken over
    the batch and every voxel.  ``VolumetricBatchNormalization(nOutput,
    eps=1e-5, momentum=0.1, affine=True)``; the formulas are
    BatchNormalization's."""

    nDim = 5
