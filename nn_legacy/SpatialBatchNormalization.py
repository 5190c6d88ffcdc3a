from .BatchNormalization import BatchNormalization


class SpatialBatchNormalization(BatchNormalization):
    """BatchNormalization of ``[batch, nOutput, h, w]`` input (``[nOutput, h,
    w]`` in evaluation): the statistics of channel ``c`` are taken over the
    batch and every pixel.  ``SpatialBatchNormalization(nOutput, eps=1e-5,
    momentum=0.1, affine=True)``; the formulas are BatchNormalization's."""

    nDim = 4
