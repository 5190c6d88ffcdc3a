"""Module cases for the ONNX parity test (tests/test_onnx.py), shaped as
the entries of tests/module_table.py: a builder and an input maker (float64,
batch form), per class and mode.  They cover configurations the parity test
needs beyond the module table's own entries (ceil mode and padding of
pooling, count_include_pad, negative pads, the paired unpoolings, ...)."""
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


def _conv_map():
    table = np.array([[0, 0], [1, 0], [1, 1], [2, 1], [0, 2], [2, 2], [1, 2]])
    return table


CASES = [
    # ---- containers
    Entry("Sequential", lambda: nn.Sequential(nn.Linear(5, 4), nn.Tanh(), nn.Linear(4, 3)), lambda r: _u(r, 3, 5)),
    Entry("Concat", lambda: nn.Concat(1).add(nn.Linear(5, 4)).add(nn.Linear(5, 2)), lambda r: _u(r, 3, 5)),
    Entry("DepthConcat", lambda: nn.DepthConcat(1).add(nn.SpatialConvolution(2, 3, 3, 3))
          .add(nn.SpatialConvolution(2, 2, 1, 1)).add(nn.SpatialConvolution(2, 1, 2, 2)), lambda r: _u(r, 3, 2, 7, 6)),
    Entry("ConcatTable", lambda: nn.ConcatTable().add(nn.Linear(5, 4)).add(nn.Identity()), lambda r: _u(r, 3, 5)),
    Entry("ParallelTable", lambda: nn.ParallelTable().add(nn.Linear(5, 4)).add(nn.Tanh()),
          lambda r: [_u(r, 3, 5), _u(r, 3, 2)]),
    Entry("Parallel", lambda: nn.Parallel(1, 1).add(nn.Linear(4, 2)).add(nn.Linear(4, 3)), lambda r: _u(r, 3, 2, 4)),
    Entry("Bottle", lambda: nn.Bottle(nn.Linear(4, 3)), lambda r: _u(r, 3, 5, 4)),
    Entry("Decorator", lambda: nn.Decorator(nn.Linear(4, 3)), lambda r: _u(r, 3, 4)),
    Entry("MapTable", lambda: nn.MapTable(nn.Linear(4, 3)), lambda r: [_u(r, 3, 4), _u(r, 3, 4), _u(r, 3, 4)]),
    Entry("WeightNorm", lambda: nn.WeightNorm(nn.Linear(4, 3)), lambda r: _u(r, 3, 4)),
    Entry("Maxout", lambda: nn.Maxout(5, 3, 4), lambda r: _u(r, 3, 5)),
    Entry("SpatialLPPooling", lambda: nn.SpatialLPPooling(2, 2, 2, 2), lambda r: _u(r, 3, 2, 6, 6)),
    Entry("SpatialLPPooling", lambda: nn.SpatialLPPooling(2, 3, 2, 2, 1, 1), lambda r: _pos(r, 3, 2, 5, 5),
          variant="p3"),
    # ---- linear and friends
    Entry("Linear", lambda: nn.Linear(5, 3), lambda r: _u(r, 4, 5)),
    Entry("Linear", lambda: nn.Linear(5, 3, bias=False), lambda r: _u(r, 4, 5), variant="nobias"),
    Entry("Bilinear", lambda: nn.Bilinear(4, 3, 2), lambda r: [_u(r, 3, 4), _u(r, 3, 3)]),
    Entry("PartialLinear", lambda: nn.PartialLinear(5, 6).setPartition(np.array([4, 1, 1, 3])), lambda r: _u(r, 3, 5)),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3), lambda r: r.integers(0, 7, (3, 4))),
    Entry("LookupTable", lambda: nn.LookupTable(7, 3, maxNorm=1.0), lambda r: r.integers(0, 7, (3, 4)),
          variant="maxNorm"),
    Entry("Cosine", lambda: nn.Cosine(4, 3), lambda r: _u(r, 3, 4)),
    Entry("Euclidean", lambda: nn.Euclidean(4, 3), lambda r: _u(r, 3, 4)),
    Entry("WeightedEuclidean", lambda: nn.WeightedEuclidean(4, 3), lambda r: _u(r, 3, 4)),
    Entry("Normalize", lambda: nn.Normalize(2), lambda r: _u(r, 3, 5)),
    Entry("Normalize", lambda: nn.Normalize(1.5), lambda r: _u(r, 3, 5), variant="p1.5"),
    Entry("Normalize", lambda: nn.Normalize(np.inf), lambda r: _u(r, 3, 5), variant="inf"),
    Entry("Add", lambda: nn.Add(5), lambda r: _u(r, 3, 5)),
    Entry("Add", lambda: nn.Add(1, True), lambda r: _u(r, 3, 5), variant="scalar"),
    Entry("CAdd", lambda: nn.CAdd(1, 4, 1), lambda r: _u(r, 3, 4, 5)),
    Entry("CMul", lambda: nn.CMul(4, 5), lambda r: _u(r, 3, 4, 5)),
    Entry("Mul", lambda: nn.Mul(), lambda r: _u(r, 3, 5)),
    # ---- activations and pointwise
    Entry("Sigmoid", lambda: nn.Sigmoid(), lambda r: _u(r, 3, 5)),
    Entry("Tanh", lambda: nn.Tanh(), lambda r: _u(r, 3, 5)),
    Entry("ReLU", lambda: nn.ReLU(), lambda r: _u(r, 3, 5)),
    Entry("Threshold", lambda: nn.Threshold(0.3, -0.5), lambda r: _u(r, 3, 5)),
    Entry("HardTanh", lambda: nn.HardTanh(-0.5, 1.5), lambda r: _u(r, 3, 5)),
    Entry("ReLU6", lambda: nn.ReLU6(), lambda r: 5 * _u(r, 3, 5)),
    Entry("Clamp", lambda: nn.Clamp(-0.3, 0.7), lambda r: _u(r, 3, 5)),
    Entry("ELU", lambda: nn.ELU(0.7), lambda r: _u(r, 3, 5)),
    Entry("LeakyReLU", lambda: nn.LeakyReLU(0.2), lambda r: _u(r, 3, 5)),
    Entry("PReLU", lambda: nn.PReLU(), lambda r: _u(r, 3, 5)),
    Entry("PReLU", lambda: nn.PReLU(3), lambda r: _u(r, 2, 3, 4, 5), variant="planes"),
    Entry("RReLU", lambda: nn.RReLU(), lambda r: _u(r, 3, 5)),
    Entry("SoftPlus", lambda: nn.SoftPlus(2, 5), lambda r: 4 * _u(r, 3, 5)),
    Entry("SoftShrink", lambda: nn.SoftShrink(0.7), lambda r: _u(r, 3, 5)),
    Entry("HardShrink", lambda: nn.HardShrink(0.7), lambda r: _u(r, 3, 5)),
    Entry("LogSigmoid", lambda: nn.LogSigmoid(), lambda r: 10 * _u(r, 3, 5)),
    Entry("SoftSign", lambda: nn.SoftSign(), lambda r: _u(r, 3, 5)),
    Entry("TanhShrink", lambda: nn.TanhShrink(), lambda r: _u(r, 3, 5)),
    Entry("GatedLinearUnit", lambda: nn.GatedLinearUnit(), lambda r: _u(r, 3, 6)),
    Entry("CReLU", lambda: nn.CReLU(3), lambda r: _u(r, 2, 3, 4, 4)),
    Entry("Abs", lambda: nn.Abs(), lambda r: _u(r, 3, 5)),
    Entry("Exp", lambda: nn.Exp(), lambda r: _u(r, 3, 5)),
    Entry("Log", lambda: nn.Log(), lambda r: _pos(r, 3, 5)),
    Entry("Sqrt", lambda: nn.Sqrt(), lambda r: _pos(r, 3, 5)),
    Entry("Sqrt", lambda: nn.Sqrt(0.5), lambda r: _pos(r, 3, 5), variant="eps"),
    Entry("Square", lambda: nn.Square(), lambda r: _u(r, 3, 5)),
    Entry("Power", lambda: nn.Power(2.5), lambda r: _pos(r, 3, 5)),
    Entry("AddConstant", lambda: nn.AddConstant(1.5), lambda r: _u(r, 3, 5)),
    Entry("MulConstant", lambda: nn.MulConstant(-1.5), lambda r: _u(r, 3, 5)),
    Entry("SoftMax", lambda: nn.SoftMax(), lambda r: _u(r, 3, 5)),
    Entry("SoftMax", lambda: nn.SoftMax(), lambda r: _u(r, 2, 5, 3, 4), variant="spatial"),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(), lambda r: _u(r, 3, 5)),
    Entry("LogSoftMax", lambda: nn.LogSoftMax(), lambda r: _u(r, 2, 5, 3, 4), variant="spatial"),
    Entry("SoftMin", lambda: nn.SoftMin(), lambda r: _u(r, 3, 5)),
    Entry("SpatialSoftMax", lambda: nn.SpatialSoftMax(), lambda r: _u(r, 2, 5, 3, 4)),
    Entry("SpatialLogSoftMax", lambda: nn.SpatialLogSoftMax(), lambda r: _u(r, 2, 5, 3, 4)),
    Entry("Dropout", lambda: nn.Dropout(0.3), lambda r: _u(r, 3, 5)),
    Entry("Dropout", lambda: nn.Dropout(0.3, v1=True), lambda r: _u(r, 3, 5), variant="v1"),
    Entry("SpatialDropout", lambda: nn.SpatialDropout(0.3), lambda r: _u(r, 2, 3, 4, 4)),
    Entry("SpatialDropout", lambda: nn.SpatialDropout(0.3, v1=True), lambda r: _u(r, 2, 3, 4, 4), variant="v1"),
    Entry("VolumetricDropout", lambda: nn.VolumetricDropout(0.3, v1=True), lambda r: _u(r, 2, 3, 2, 4, 4)),
    Entry("Identity", lambda: nn.Identity(), lambda r: _u(r, 3, 5)),
    Entry("Contiguous", lambda: nn.Contiguous(), lambda r: _u(r, 3, 5)),
    Entry("Copy", lambda: nn.Copy(), lambda r: _u(r, 3, 5)),
    Entry("ZeroGrad", lambda: nn.ZeroGrad(), lambda r: _u(r, 3, 5)),
    Entry("L1Penalty", lambda: nn.L1Penalty(0.1), lambda r: _u(r, 3, 5)),
    Entry("GradientReversal", lambda: nn.GradientReversal(), lambda r: _u(r, 3, 5)),
    # ---- convolutions
    Entry("SpatialConvolution", lambda: nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0), lambda r: _u(r, 2, 3, 7, 6)),
    Entry("SpatialConvolution", lambda: nn.SpatialConvolution(3, 4, 3, 3).noBias(), lambda r: _u(r, 2, 3, 5, 5),
          variant="nobias"),
    Entry("SpatialConvolutionMM", lambda: nn.SpatialConvolutionMM(3, 4, 3, 3, 1, 1, 1, 1), lambda r: _u(r, 2, 3, 5, 5)),
    Entry("SpatialDilatedConvolution", lambda: nn.SpatialDilatedConvolution(3, 4, 3, 3, 1, 2, 2, 1, 2, 1),
          lambda r: _u(r, 2, 3, 8, 7)),
    Entry("SpatialFullConvolution", lambda: nn.SpatialFullConvolution(3, 4, 3, 4, 2, 3, 1, 1, 1, 2),
          lambda r: _u(r, 2, 3, 4, 5)),
    Entry("SpatialFullDilatedConvolution", lambda: nn.SpatialFullDilatedConvolution(3, 2, 3, 3, 2, 2, 1, 1, 2, 2, 1, 1),
          lambda r: _u(r, 2, 3, 4, 4)),
    Entry("SpatialDepthWiseConvolution", lambda: nn.SpatialDepthWiseConvolution(3, 2, 3, 3, 1, 1, 1, 1),
          lambda r: _u(r, 2, 3, 5, 5)),
    Entry("SpatialSubSampling", lambda: nn.SpatialSubSampling(3, 2, 3, 2, 1), lambda r: _u(r, 2, 3, 7, 6)),
    Entry("SpatialConvolutionLocal", lambda: nn.SpatialConvolutionLocal(2, 3, 6, 5, 3, 2, 2, 1, 1, 0),
          lambda r: _u(r, 2, 2, 5, 6)),
    Entry("SpatialConvolutionMap", lambda: nn.SpatialConvolutionMap(_conv_map(), 3, 2, 1, 2),
          lambda r: _u(r, 2, 3, 7, 6)),
    Entry("SpatialFullConvolutionMap", lambda: nn.SpatialFullConvolutionMap(_conv_map(), 3, 2, 2, 1),
          lambda r: _u(r, 2, 3, 4, 5)),
    Entry("VolumetricConvolution", lambda: nn.VolumetricConvolution(2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1),
          lambda r: _u(r, 2, 2, 4, 5, 6)),
    Entry("VolumetricConvolutionMM", lambda: nn.VolumetricConvolutionMM(2, 3, 2, 2, 2), lambda r: _u(r, 2, 2, 4, 5, 5)),
    Entry("VolumetricDilatedConvolution",
          lambda: nn.VolumetricDilatedConvolution(2, 3, 2, 2, 2, 1, 1, 1, 0, 1, 1, 2, 1, 2),
          lambda r: _u(r, 2, 2, 5, 5, 6)),
    Entry("VolumetricFullConvolution", lambda: nn.VolumetricFullConvolution(2, 3, 2, 3, 2, 2, 2, 1, 1, 1, 0, 1, 1, 0),
          lambda r: _u(r, 2, 2, 3, 4, 3)),
    Entry("VolumetricFullDilatedConvolution",
          lambda: nn.VolumetricFullDilatedConvolution(2, 3, 2, 2, 2, 2, 1, 1, 0, 0, 0, 2, 1, 1),
          lambda r: _u(r, 2, 2, 3, 3, 3)),
    Entry("TemporalConvolution", lambda: nn.TemporalConvolution(4, 3, 3, 2), lambda r: _u(r, 2, 7, 4)),
    Entry("TemporalSubSampling", lambda: nn.TemporalSubSampling(4, 3, 2), lambda r: _u(r, 2, 7, 4)),
    Entry("TemporalRowConvolution", lambda: nn.TemporalRowConvolution(4, 3, 2), lambda r: _u(r, 2, 7, 4)),
    Entry("TemporalRowConvolution", lambda: nn.TemporalRowConvolution(4, 3, 1, featFirst=True),
          lambda r: _u(r, 2, 4, 7), variant="featFirst"),
    # ---- pooling
    Entry("SpatialMaxPooling", lambda: nn.SpatialMaxPooling(3, 3, 2, 2), lambda r: _u(r, 2, 3, 7, 7)),
    Entry("SpatialMaxPooling", lambda: nn.SpatialMaxPooling(3, 2, 2, 2, 1, 1).ceil(), lambda r: _u(r, 2, 3, 6, 7),
          variant="ceil"),
    Entry("SpatialDilatedMaxPooling", lambda: nn.SpatialDilatedMaxPooling(2, 2, 1, 1, 0, 0, 2, 2),
          lambda r: _u(r, 2, 3, 6, 6)),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1), lambda r: _u(r, 2, 3, 7, 7)),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).ceil(),
          lambda r: _u(r, 2, 3, 6, 6), variant="ceil"),
    Entry("SpatialAveragePooling", lambda: nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1).ceil().setCountExcludePad(),
          lambda r: _u(r, 2, 3, 6, 6), variant="ceil-exclude"),
    Entry("SpatialAdaptiveAveragePooling", lambda: nn.SpatialAdaptiveAveragePooling(3, 2), lambda r: _u(r, 2, 3, 7, 5)),
    Entry("SpatialAdaptiveMaxPooling", lambda: nn.SpatialAdaptiveMaxPooling(3, 4), lambda r: _u(r, 2, 3, 7, 5)),
    Entry("SpatialMaxUnpooling", lambda: _unpool(nn.SpatialMaxPooling, nn.SpatialMaxUnpooling, 2, 2),
          lambda r: _u(r, 2, 3, 5, 6)),
    Entry("VolumetricMaxPooling", lambda: nn.VolumetricMaxPooling(2, 2, 2), lambda r: _u(r, 2, 2, 4, 5, 5)),
    Entry("VolumetricMaxPooling", lambda: nn.VolumetricMaxPooling(2, 3, 2, 2, 2, 2, 1, 1, 1).ceil(),
          lambda r: _u(r, 2, 2, 4, 5, 5), variant="ceil"),
    Entry("VolumetricDilatedMaxPooling", lambda: nn.VolumetricDilatedMaxPooling(2, 2, 2, 1, 1, 1, 0, 0, 0, 2, 1, 2),
          lambda r: _u(r, 2, 2, 5, 5, 5)),
    Entry("VolumetricAveragePooling", lambda: nn.VolumetricAveragePooling(2, 2, 2), lambda r: _u(r, 2, 2, 4, 5, 5)),
    Entry("VolumetricAveragePooling", lambda: nn.VolumetricAveragePooling(3, 3, 3, 2, 2, 2, 1, 1, 1).ceil(),
          lambda r: _u(r, 2, 2, 6, 6, 6), variant="ceil"),
    Entry("VolumetricMaxUnpooling", lambda: _unpool(nn.VolumetricMaxPooling, nn.VolumetricMaxUnpooling, 2, 2, 2),
          lambda r: _u(r, 2, 2, 4, 5, 5)),
    Entry("TemporalMaxPooling", lambda: nn.TemporalMaxPooling(3, 2), lambda r: _u(r, 2, 7, 4)),
    Entry("FeatureLPPooling", lambda: nn.FeatureLPPooling(3, 2, 2.0, True), lambda r: _u(r, 2, 7, 3)),
    # ---- normalization
    Entry("BatchNormalization", lambda: _with_stats(nn.BatchNormalization(5)), lambda r: _u(r, 3, 5)),
    Entry("BatchNormalization", lambda: _with_stats(nn.BatchNormalization(5, affine=False)), lambda r: _u(r, 3, 5),
          variant="noaffine"),
    Entry("SpatialBatchNormalization", lambda: _with_stats(nn.SpatialBatchNormalization(3)),
          lambda r: _u(r, 2, 3, 4, 4)),
    Entry("VolumetricBatchNormalization", lambda: _with_stats(nn.VolumetricBatchNormalization(3)),
          lambda r: _u(r, 2, 3, 2, 4, 4)),
    Entry("SpatialCrossMapLRN", lambda: nn.SpatialCrossMapLRN(5, 0.01, 0.75, 2), lambda r: _u(r, 2, 7, 3, 3)),
    Entry("SpatialCrossMapLRN", lambda: nn.SpatialCrossMapLRN(4, 0.01, 0.75, 2), lambda r: _u(r, 2, 7, 3, 3),
          variant="even"),
    Entry("SpatialSubtractiveNormalization", lambda: nn.SpatialSubtractiveNormalization(2, np.ones((3, 3))),
          lambda r: _u(r, 2, 2, 6, 5)),
    Entry("SpatialDivisiveNormalization", lambda: nn.SpatialDivisiveNormalization(2, np.ones((3, 3))),
          lambda r: _u(r, 2, 2, 6, 5)),
    Entry("SpatialContrastiveNormalization", lambda: nn.SpatialContrastiveNormalization(2, np.ones(5)),
          lambda r: _u(r, 2, 2, 6, 5)),
    # ---- padding and resampling
    Entry("SpatialReflectionPadding", lambda: nn.SpatialReflectionPadding(2, 1, -1, 3), lambda r: _u(r, 2, 3, 5, 4)),
    Entry("SpatialReplicationPadding", lambda: nn.SpatialReplicationPadding(2, -1, 1, 3), lambda r: _u(r, 2, 3, 5, 4)),
    Entry("VolumetricReplicationPadding", lambda: nn.VolumetricReplicationPadding(1, 2, -1, 1, 2, 0),
          lambda r: _u(r, 2, 2, 3, 4, 4)),
    Entry("SpatialZeroPadding", lambda: nn.SpatialZeroPadding(2, -1, 1, 3), lambda r: _u(r, 2, 3, 5, 4)),
    Entry("Padding", lambda: nn.Padding(1, 2, value=1.5), lambda r: _u(r, 3, 4, 5)),
    Entry("Padding", lambda: nn.Padding(1, -2, 2, index=1), lambda r: _u(r, 3, 4, 5), variant="inside"),
    Entry("SpatialUpSamplingNearest", lambda: nn.SpatialUpSamplingNearest(3), lambda r: _u(r, 2, 3, 4, 5)),
    Entry("VolumetricUpSamplingNearest", lambda: nn.VolumetricUpSamplingNearest(2), lambda r: _u(r, 2, 2, 3, 4, 3)),
    Entry("SpatialUpSamplingBilinear", lambda: nn.SpatialUpSamplingBilinear(2), lambda r: _u(r, 2, 3, 4, 5)),
    Entry("SpatialUpSamplingBilinear", lambda: nn.SpatialUpSamplingBilinear(oheight=7, owidth=3),
          lambda r: _u(r, 2, 3, 4, 5), variant="size"),
    Entry("VolumetricUpSamplingTrilinear", lambda: nn.VolumetricUpSamplingTrilinear(2), lambda r: _u(r, 2, 2, 3, 4, 3)),
    Entry("SpatialGridSamplerBilinear", lambda: nn.SpatialGridSamplerBilinear(),
          lambda r: [_u(r, 2, 3, 4, 5), r.uniform(-1.2, 1.2, (2, 3, 6, 2))]),
    Entry("SpatialGridSamplerBilinear", lambda: nn.SpatialGridSamplerBilinear("border"),
          lambda r: [_u(r, 2, 3, 4, 5), r.uniform(-1.2, 1.2, (2, 3, 6, 2))], variant="border"),
    Entry("PixelShuffle", lambda: nn.PixelShuffle(2), lambda r: _u(r, 2, 8, 3, 4)),
    # ---- shapes
    Entry("View", lambda: nn.View(-1, 6), lambda r: _u(r, 3, 2, 3)),
    Entry("View", lambda: nn.View(6).setNumInputDims(2), lambda r: _u(r, 3, 2, 3), variant="numInputDims"),
    Entry("Reshape", lambda: nn.Reshape(3, 2), lambda r: _u(r, 3, 6)),
    Entry("Squeeze", lambda: nn.Squeeze(), lambda r: _u(r, 3, 1, 4, 1)),
    Entry("Unsqueeze", lambda: nn.Unsqueeze(1), lambda r: _u(r, 3, 4)),
    Entry("Collapse", lambda: nn.Collapse(2), lambda r: _u(r, 3, 2, 4)),
    Entry("Transpose", lambda: nn.Transpose((1, 2), (2, 3)), lambda r: _u(r, 3, 2, 4, 5)),
    Entry("Narrow", lambda: nn.Narrow(1, 1, 2), lambda r: _u(r, 3, 5)),
    Entry("Narrow", lambda: nn.Narrow(0, -2, -1), lambda r: _u(r, 3, 5), variant="batch-end"),
    Entry("Select", lambda: nn.Select(1, -2), lambda r: _u(r, 3, 5, 2)),
    Entry("Replicate", lambda: nn.Replicate(3, 1), lambda r: _u(r, 3, 5)),
    Entry("Sum", lambda: nn.Sum(1), lambda r: _u(r, 3, 5, 2)),
    Entry("Mean", lambda: nn.Mean(-1), lambda r: _u(r, 3, 5, 2)),
    Entry("Max", lambda: nn.Max(1), lambda r: _u(r, 3, 5, 2)),
    Entry("Min", lambda: nn.Min(1, 1), lambda r: _u(r, 3, 5, 2)),
    Entry("Constant", lambda: nn.Constant(np.arange(6.0).reshape(2, 3), 1), lambda r: _u(r, 3, 5)),
    Entry("Constant", lambda: nn.Constant(np.arange(6.0).reshape(2, 3)), lambda r: _u(r, 3, 5), variant="fixed"),
    # ---- tables
    Entry("JoinTable", lambda: nn.JoinTable(1), lambda r: [_u(r, 3, 2), _u(r, 3, 4)]),
    Entry("SplitTable", lambda: nn.SplitTable(1), lambda r: _u(r, 3, 4, 2)),
    Entry("SelectTable", lambda: nn.SelectTable(-1), lambda r: [_u(r, 3, 2), _u(r, 3, 4)]),
    Entry("NarrowTable", lambda: nn.NarrowTable(1, 2), lambda r: [_u(r, 3, 2), _u(r, 3, 4), _u(r, 3, 1)]),
    Entry("FlattenTable", lambda: nn.FlattenTable(), lambda r: [_u(r, 3, 2), [_u(r, 3, 4), [_u(r, 3, 1)]]]),
    Entry("ZipTable", lambda: nn.ZipTable(), lambda r: [[_u(r, 3, 2), _u(r, 3, 4)], [_u(r, 3, 1), _u(r, 3, 3)]]),
    Entry("ZipTableOneToMany", lambda: nn.ZipTableOneToMany(), lambda r: [_u(r, 3, 2), [_u(r, 3, 4), _u(r, 3, 1)]]),
    Entry("CAddTable", lambda: nn.CAddTable(), lambda r: [_u(r, 3, 4), _u(r, 3, 4), _u(r, 3, 4)]),
    Entry("CSubTable", lambda: nn.CSubTable(), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("CMulTable", lambda: nn.CMulTable(), lambda r: [_u(r, 3, 4), _u(r, 3, 4), _u(r, 3, 4)]),
    Entry("CDivTable", lambda: nn.CDivTable(), lambda r: [_u(r, 3, 4), _pos(r, 3, 4)]),
    Entry("CMaxTable", lambda: nn.CMaxTable(), lambda r: [_u(r, 3, 4), _u(r, 3, 4), _u(r, 3, 4)]),
    Entry("CMinTable", lambda: nn.CMinTable(), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("MM", lambda: nn.MM(True, False), lambda r: [_u(r, 3, 4, 2), _u(r, 3, 4, 5)]),
    Entry("MV", lambda: nn.MV(True), lambda r: [_u(r, 3, 4, 2), _u(r, 3, 4)]),
    Entry("Index", lambda: nn.Index(1), lambda r: [_u(r, 3, 5), np.array([4, 0, 4, 2])]),
    Entry("PairwiseDistance", lambda: nn.PairwiseDistance(2), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("PairwiseDistance", lambda: nn.PairwiseDistance(3), lambda r: [_u(r, 3, 4), _u(r, 3, 4)], variant="p3"),
    Entry("DotProduct", lambda: nn.DotProduct(), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("CosineDistance", lambda: nn.CosineDistance(), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("MixtureTable", lambda: nn.MixtureTable(), lambda r: [_pos(r, 3, 2), [_u(r, 3, 4), _u(r, 3, 4)]]),
    Entry("MixtureTable", lambda: nn.MixtureTable(2), lambda r: [_pos(r, 3, 2), _u(r, 3, 4, 2)], variant="array"),
    Entry("OneHot", lambda: nn.OneHot(5), lambda r: r.integers(0, 5, (3, 2))),
    Entry("MaskedSelect", lambda: nn.MaskedSelect(), lambda r: [_u(r, 3, 4), r.integers(0, 2, (3, 4)).astype(bool)]),
    Entry("LSTMCellFused", lambda: nn.LSTMCellFused(3), lambda r: [_u(r, 2, 12), _u(r, 2, 12), _u(r, 2, 3)]),
    Entry("GRUCellFused", lambda: nn.GRUCellFused(3), lambda r: [_u(r, 2, 9), _u(r, 2, 9), _u(r, 2, 3)]),
    Entry("SparseLinear", lambda: nn.SparseLinear(6, 3), lambda r: _pairs(r, 3, 4, 6)),
    Entry("SparseLinear", lambda: nn.SparseLinear(6, 3), lambda r: [_pairs(r, 2, 6), _pairs(r, 4, 6)],
          variant="ragged"),
    # ---- no ONNX equivalent
    Entry("VolumetricFractionalMaxPooling", lambda: nn.VolumetricFractionalMaxPooling(2, 2, 2, 0.5, 0.5, 0.5),
          lambda r: _u(r, 2, 2, 6, 6, 6)),
    Entry("IndexLinear", lambda: nn.IndexLinear(6, 3),
          lambda r: [r.integers(0, 6, 5), r.uniform(-2, 2, 5), np.array([2, 3])]),
    Entry("CriterionTable", lambda: nn.CriterionTable(nn.MSECriterion()), lambda r: [_u(r, 3, 4), _u(r, 3, 4)]),
    Entry("SpatialFractionalMaxPooling", lambda: nn.SpatialFractionalMaxPooling(2, 2, 0.5, 0.5),
          lambda r: _u(r, 2, 3, 6, 6)),
]


def _with_stats(bn):
    """A batch normalization with running statistics of its own (not 0 and 1)."""
    rng = np.random.default_rng(7)
    bn.running_mean[...] = rng.uniform(-1, 1, bn.running_mean.shape)
    bn.running_var[...] = rng.uniform(0.5, 2, bn.running_var.shape)
    return bn
