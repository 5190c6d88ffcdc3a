"""Module cases for the ONNX parity test (tests/test_onnx.py), beyond the
entries of tests/module_table.py (which the test runs too): configurations
that take other paths of a mapping (a ceil-mode window that would start in
the padding, negative pads, an even LRN window, float64 constants float32
does not hold, an unpooling after its pooling in the graph, ...).  Shaped as
the table's entries, with variants of their own, so ids never clash."""
import numpy as np

import nn_legacy as nn
from module_table import Entry


def _u(r, *shape):
    return r.uniform(-2, 2, shape)


def _pos(r, *shape):
    return r.uniform(0.5, 2, shape)


def _unpool(pool_cls, unpool_cls, *args):
    pool = pool_cls(*args)
    return nn.Sequential(pool, unpool_cls(pool))


def _pairs(r, *shape):
    """(feature, value) rows of a sparse input, shape [..., nnz] of the last size features."""
    *shape, n = shape
    out = np.empty(tuple(shape) + (2,))
    out[..., 0] = r.integers(0, n, shape)
    out[..., 1] = _u(r, *shape)
    return out


def _tiny_variance(bn):
    bn.running_var[...] = np.geomspace(1e-9, 1e-6, bn.running_var.size)
    return bn


CASES = [
    Entry("DepthConcat", lambda: nn.DepthConcat(1).add(nn.SpatialConvolution(2, 3, 3, 3))
          .add(nn.SpatialConvolution(2, 2, 1, 1)).add(nn.SpatialConvolution(2, 1, 2, 2)), lambda r: _u(r, 3, 2, 7, 6),
          variant="uneven"),
    Entry("SpatialLPPooling", lambda: nn.SpatialLPPooling(2, 3, 2, 2, 1, 1), lambda r: _pos(r, 3, 2, 5, 5),
          variant="p3"),
    Entry("Normalize", lambda: nn.Normalize(1.5), lambda r: _u(r, 3, 5), variant="p1.5"),
    Entry("CAdd", lambda: nn.CAdd(1, 4, 1), lambda r: _u(r, 3, 4, 5), variant="expand"),
    Entry("CMul", lambda: nn.CMul(4, 5), lambda r: _u(r, 3, 4, 5), variant="per-sample"),
    Entry("Threshold", lambda: nn.Threshold(0.3, -0.5), lambda r: _u(r, 3, 5), variant="value"),
    Entry("ELU", lambda: nn.ELU(0.7), lambda r: _u(r, 3, 5), variant="alpha"),
    Entry("LeakyReLU", lambda: nn.LeakyReLU(0.2), lambda r: _u(r, 3, 5), variant="slope"),
    Entry("SoftPlus", lambda: nn.SoftPlus(2, 5), lambda r: 4 * _u(r, 3, 5), variant="threshold"),
    Entry("SoftShrink", lambda: nn.SoftShrink(0.7), lambda r: _u(r, 3, 5), variant="lambda"),
    Entry("HardShrink", lambda: nn.HardShrink(0.7), lambda r: _u(r, 3, 5), variant="lambda"),
    Entry("Sqrt", lambda: nn.Sqrt(0.5), lambda r: _pos(r, 3, 5), variant="eps"),
    Entry("SoftMax", lambda: nn.SoftMax(), lambda r: _u(r, 2, 5, 3, 4), variant="spatial"),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(), lambda r: _u(r, 2, 5, 3, 4), variant="spatial"),
    Entry("SpatialDropout", lambda: nn.SpatialDropout(0.3, v1=True), lambda r: _u(r, 2, 3, 4, 4), variant="v1"),
    Entry("VolumetricDropout", lambda: nn.VolumetricDropout(0.3, v1=True), lambda r: _u(r, 2, 3, 2, 4, 4),
          variant="v1"),
    Entry("BatchNormalization", lambda: _tiny_variance(nn.BatchNormalization(5)), lambda r: _u(r, 3, 5),
          variant="tiny-variance"),   # float64: eps (a float32 in ONNX) must not shift the variance
    Entry("SpatialConvolution", lambda: nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0), lambda r: _u(r, 2, 3, 7, 6),
          variant="strided"),
    # ceil mode with a last window that would start in the padding (Torch7 drops it, ONNX's formula keeps it)
    Entry("SpatialMaxPooling", lambda: nn.SpatialMaxPooling(2, 2, 2, 2, 1, 1).ceil(), lambda r: _u(r, 2, 3, 4, 6),
          variant="ceil-padded"),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(2, 2, 2, 2, 1, 1).ceil(),
          lambda r: _u(r, 2, 3, 4, 6), variant="ceil-padded"),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).ceil().setCountExcludePad(),
          lambda r: _u(r, 2, 3, 6, 6), variant="ceil-exclude-pad"),
    Entry("VolumetricMaxPooling", lambda: nn.VolumetricMaxPooling(2, 3, 2, 2, 2, 2, 1, 1, 1).ceil(),
          lambda r: _u(r, 2, 2, 4, 5, 5), variant="ceil-padded"),
    Entry("VolumetricAveragePooling", lambda: nn.VolumetricAveragePooling(3, 3, 3, 2, 2, 2, 1, 1, 1).ceil(),
          lambda r: _u(r, 2, 2, 6, 6, 6), variant="ceil-padded"),
    # the unpoolings after their pooling in the graph (the table's take a pooling run elsewhere)
    Entry("SpatialMaxUnpooling", lambda: _unpool(nn.SpatialMaxPooling, nn.SpatialMaxUnpooling, 2, 2),
          lambda r: _u(r, 2, 3, 5, 6), variant="paired"),
    Entry("VolumetricMaxUnpooling", lambda: _unpool(nn.VolumetricMaxPooling, nn.VolumetricMaxUnpooling, 2, 2, 2),
          lambda r: _u(r, 2, 2, 4, 5, 5), variant="paired"),
    Entry("SpatialCrossMapLRN", lambda: nn.SpatialCrossMapLRN(4, 0.01, 0.75, 2), lambda r: _u(r, 2, 7, 3, 3),
          variant="even"),
    Entry("SpatialCrossMapLRN", lambda: nn.SpatialCrossMapLRN(5, 0.01, 0.75, 2), lambda r: _u(r, 2, 7, 3, 3),
          variant="alpha"),
    # negative pads crop
    Entry("SpatialReflectionPadding", lambda: nn.SpatialReflectionPadding(2, 1, -1, 3), lambda r: _u(r, 2, 3, 5, 4),
          variant="crop"),
    Entry("SpatialReplicationPadding", lambda: nn.SpatialReplicationPadding(2, -1, 1, 3), lambda r: _u(r, 2, 3, 5, 4),
          variant="crop"),
    Entry("VolumetricReplicationPadding", lambda: nn.VolumetricReplicationPadding(1, 2, -1, 1, 2, 0),
          lambda r: _u(r, 2, 2, 3, 4, 4), variant="crop"),
    Entry("Padding", lambda: nn.Padding(1, -2, 2, index=1), lambda r: _u(r, 3, 4, 5), variant="inside"),
    Entry("SpatialUpSamplingBilinear", lambda: nn.SpatialUpSamplingBilinear(oheight=7, owidth=3),
          lambda r: _u(r, 2, 3, 4, 5), variant="size"),
    Entry("View", lambda: nn.View(6).setNumInputDims(2), lambda r: _u(r, 3, 2, 3), variant="numInputDims"),
    Entry("Transpose", lambda: nn.Transpose((1, 2), (2, 3)), lambda r: _u(r, 3, 2, 4, 5), variant="batch-kept"),
    Entry("Narrow", lambda: nn.Narrow(0, -2, -1), lambda r: _u(r, 3, 5), variant="batch-end"),
    Entry("Select", lambda: nn.Select(0, -1), lambda r: _u(r, 3, 5), variant="batch-last"),
    Entry("Min", lambda: nn.Min(1, 1), lambda r: _u(r, 3, 5, 2), variant="nInputDims"),
    Entry("Constant", lambda: nn.Constant(np.arange(6.0).reshape(2, 3)), lambda r: _u(r, 3, 5), variant="fixed"),
    Entry("Index", lambda: nn.Index(1), lambda r: [_u(r, 3, 5), np.array([4, 0, 4, 2])], variant="batch-free"),
    Entry("SparseLinear", lambda: nn.SparseLinear(6, 3), lambda r: [_pairs(r, 2, 6), _pairs(r, 4, 6)],
          variant="ragged"),
    # the rnn package: a table of steps keeps the batch free; a char-rnn (indices, a Recursor around a
    # Sequential with a FastLSTM inside); masked samples; the initial states in the input
    Entry("Sequencer", lambda: nn.Sequencer(nn.LSTM(3, 4)), lambda r: [_u(r, 2, 3) for _ in range(3)],
          variant="table"),
    Entry("Sequencer", lambda: nn.Sequencer(nn.Sequential(nn.LookupTable(7, 3), nn.FastLSTM(3, 4),
                                                          nn.Linear(4, 7), nn.LogSoftMax())),
          lambda r: r.integers(0, 7, (5, 2)), variant="charlm"),
    Entry("MaskZero", lambda: nn.MaskZero(nn.Sequential(nn.Linear(3, 4), nn.Tanh()), 1),
          lambda r: _u(r, 4, 3) * np.array([[1], [0], [1], [0]]), variant="masked"),
    Entry("SeqLSTM", lambda: nn.SeqLSTM(3, 4), lambda r: [_u(r, 2, 4), _u(r, 2, 4), _u(r, 5, 2, 3)],
          variant="states"),
    Entry("SeqGRU", lambda: _batchfirst(nn.SeqGRU(3, 4)), lambda r: _u(r, 2, 5, 3), variant="batchfirst"),
    Entry("SpatialNormalization", lambda: nn.SpatialNormalization(2, (np.ones((1, 3)), np.array([[1.0], [2], [1]]))),
          lambda r: _u(r, 2, 2, 5, 6), variant="separable"),
]


def _batchfirst(module):
    module.batchfirst = True
    return module
