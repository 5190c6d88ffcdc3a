"""nn_legacy: the torch.legacy.nn API over the thnn kernels.

Modules hold their parameters and their output/gradInput buffers as numpy
arrays; there is no autograd: forward and backward are explicit, and
containers such as Sequential chain them.  Class targets, indices and dims
are 0-based.

    import numpy as np, nn_legacy as nn
    model = nn.Sequential().add(nn.Linear(64, 32)).add(nn.Tanh()).add(nn.Linear(32, 10))
    loss = nn.CrossEntropyCriterion()
    out = model.forward(x)                      # x: float64 [batch, 64]
    l = loss.forward(out, y)                    # y: int [batch], 0-based
    model.zeroGradParameters()
    model.backward(x, loss.backward(out, y))
    model.updateParameters(0.1)
"""
from thnn._version import __version__

from . import jacobian
from ._namespace import array_namespace
from ._random import manualSeed
from .t7 import load_lua

# ---- base classes and containers ----
from .Module import Module
from .Criterion import Criterion
from .Container import Container
from .Sequential import Sequential
from .Concat import Concat
from .Parallel import Parallel

# ---- modules over kernels ----
from .Linear import Linear
from .Sigmoid import Sigmoid
from .Tanh import Tanh
from .Threshold import Threshold
from .ReLU import ReLU
from .SoftMax import SoftMax
from .LogSoftMax import LogSoftMax

# ---- criterions ----
from .MSECriterion import MSECriterion
from .ClassNLLCriterion import ClassNLLCriterion
from .CrossEntropyCriterion import CrossEntropyCriterion

# ==== activations ====
from .Abs import Abs
from .ELU import ELU
from .GatedLinearUnit import GatedLinearUnit
from .HardShrink import HardShrink
from .HardTanh import HardTanh
from .LeakyReLU import LeakyReLU
from .LogSigmoid import LogSigmoid
from .PReLU import PReLU
from .RReLU import RReLU
from .SoftPlus import SoftPlus
from .SoftShrink import SoftShrink
from .Sqrt import Sqrt
from .Square import Square
# ==== end of activations ====

# ==== criterions over kernels ====
from .AbsCriterion import AbsCriterion
from .BCECriterion import BCECriterion
from .DistKLDivCriterion import DistKLDivCriterion
from .L1Cost import L1Cost
from .MarginCriterion import MarginCriterion
from .MultiLabelMarginCriterion import MultiLabelMarginCriterion
from .MultiMarginCriterion import MultiMarginCriterion
from .SmoothL1Criterion import SmoothL1Criterion
from .SoftMarginCriterion import SoftMarginCriterion
from .SpatialClassNLLCriterion import SpatialClassNLLCriterion

# ==== end of criterions over kernels ====

# ==== linear, sparse and embedding layers ====
from .LookupTable import LookupTable
from .SparseLinear import SparseLinear
from .IndexLinear import IndexLinear

# ==== end of linear, sparse and embedding layers ====

# ==== temporal layers and recurrent cells ====
from .TemporalConvolution import TemporalConvolution
from .TemporalSubSampling import TemporalSubSampling
from .TemporalRowConvolution import TemporalRowConvolution
from .TemporalMaxPooling import TemporalMaxPooling
from .GRUCellFused import GRUCellFused
from .LSTMCellFused import LSTMCellFused
# ==== end of temporal layers and recurrent cells ====

# ==== modules in numpy ====
from .Add import Add
from .AddConstant import AddConstant
from .Bilinear import Bilinear
from .CAdd import CAdd
from .CMul import CMul
from .Clamp import Clamp
from .Cosine import Cosine
from .CReLU import CReLU
from .Dropout import Dropout
from .Euclidean import Euclidean
from .Exp import Exp
from .GradientReversal import GradientReversal
from .L1Penalty import L1Penalty
from .Log import Log
from .Maxout import Maxout
from .Mul import Mul
from .MulConstant import MulConstant
from .Normalize import Normalize
from .PartialLinear import PartialLinear
from .Power import Power
from .ReLU6 import ReLU6
from .SoftMin import SoftMin
from .SoftSign import SoftSign
from .TanhShrink import TanhShrink
from .WeightedEuclidean import WeightedEuclidean
# ==== end of modules in numpy ====

# ==== criterions in numpy ====
from .ClassSimplexCriterion import ClassSimplexCriterion
from .CosineEmbeddingCriterion import CosineEmbeddingCriterion
from .DistanceRatioCriterion import DistanceRatioCriterion
from .HingeEmbeddingCriterion import HingeEmbeddingCriterion
from .L1HingeEmbeddingCriterion import L1HingeEmbeddingCriterion
from .MarginRankingCriterion import MarginRankingCriterion
from .ModuleCriterion import ModuleCriterion
from .MultiCriterion import MultiCriterion
from .MultiLabelSoftMarginCriterion import MultiLabelSoftMarginCriterion
from .ParallelCriterion import ParallelCriterion
from .WeightedMSECriterion import WeightedMSECriterion
# ==== end of criterions in numpy ====

# ==== spatial convolutions ====
from .SpatialConvolution import SpatialConvolution
from .SpatialConvolutionMM import SpatialConvolutionMM
from .SpatialDilatedConvolution import SpatialDilatedConvolution
from .SpatialFullConvolution import SpatialFullConvolution
from .SpatialFullDilatedConvolution import SpatialFullDilatedConvolution
from .SpatialDepthWiseConvolution import SpatialDepthWiseConvolution
from .SpatialSubSampling import SpatialSubSampling

# ==== end of spatial convolutions ====

# ==== spatial and volumetric pooling ====
from .FeatureLPPooling import FeatureLPPooling
from .SpatialAdaptiveAveragePooling import SpatialAdaptiveAveragePooling
from .SpatialAdaptiveMaxPooling import SpatialAdaptiveMaxPooling
from .SpatialAveragePooling import SpatialAveragePooling
from .SpatialDilatedMaxPooling import SpatialDilatedMaxPooling
from .SpatialFractionalMaxPooling import SpatialFractionalMaxPooling
from .SpatialMaxPooling import SpatialMaxPooling
from .SpatialMaxUnpooling import SpatialMaxUnpooling
from .VolumetricAveragePooling import VolumetricAveragePooling
from .VolumetricDilatedMaxPooling import VolumetricDilatedMaxPooling
from .VolumetricFractionalMaxPooling import VolumetricFractionalMaxPooling
from .VolumetricMaxPooling import VolumetricMaxPooling
from .VolumetricMaxUnpooling import VolumetricMaxUnpooling

# ==== end of spatial and volumetric pooling ====

# ==== volumetric convolutions ====
from .VolumetricConvolution import VolumetricConvolution
from .VolumetricConvolutionMM import VolumetricConvolutionMM
from .VolumetricDilatedConvolution import VolumetricDilatedConvolution
from .VolumetricFullConvolution import VolumetricFullConvolution
from .VolumetricFullDilatedConvolution import VolumetricFullDilatedConvolution
from .SpatialConvolutionLocal import SpatialConvolutionLocal
from .SpatialConvolutionMap import SpatialConvolutionMap
from .SpatialFullConvolutionMap import SpatialFullConvolutionMap
# ==== end of volumetric convolutions ====

# ==== padding and resampling ====
from .SpatialReflectionPadding import SpatialReflectionPadding
from .SpatialReplicationPadding import SpatialReplicationPadding
from .VolumetricReplicationPadding import VolumetricReplicationPadding
from .SpatialUpSamplingNearest import SpatialUpSamplingNearest
from .SpatialUpSamplingBilinear import SpatialUpSamplingBilinear
from .VolumetricUpSamplingNearest import VolumetricUpSamplingNearest
from .VolumetricUpSamplingTrilinear import VolumetricUpSamplingTrilinear
from .SpatialGridSamplerBilinear import SpatialGridSamplerBilinear

# ==== end of padding and resampling ====

# ==== batch normalization ====
from .BatchNormalization import BatchNormalization
from .SpatialBatchNormalization import SpatialBatchNormalization
from .VolumetricBatchNormalization import VolumetricBatchNormalization

# ==== end of batch normalization ====

# ==== spatial modules in numpy ====
from .PixelShuffle import PixelShuffle
from .SpatialContrastiveNormalization import SpatialContrastiveNormalization
from .SpatialCrossMapLRN import SpatialCrossMapLRN
from .SpatialDivisiveNormalization import SpatialDivisiveNormalization
from .SpatialDropout import SpatialDropout
from .SpatialLPPooling import SpatialLPPooling
from .SpatialLogSoftMax import SpatialLogSoftMax
from .SpatialSoftMax import SpatialSoftMax
from .SpatialSubtractiveNormalization import SpatialSubtractiveNormalization
from .SpatialZeroPadding import SpatialZeroPadding
from .VolumetricDropout import VolumetricDropout
# ==== end of spatial modules in numpy ====

# ==== containers ====
from .Bottle import Bottle
from .ConcatTable import ConcatTable
from .Decorator import Decorator
from .DepthConcat import DepthConcat
from .MapTable import MapTable
from .ParallelTable import ParallelTable
from .WeightNorm import WeightNorm
from .serialization import FormatError, load, save
from .registry import register_class

# ==== end of containers ====

# ==== table and shape modules ====
from .Identity import Identity
from .Copy import Copy
from .Contiguous import Contiguous
from .Narrow import Narrow
from .Replicate import Replicate
from .Reshape import Reshape
from .View import View
from .Select import Select
from .Index import Index
from .Squeeze import Squeeze
from .Unsqueeze import Unsqueeze
from .Transpose import Transpose
from .Padding import Padding
from .Collapse import Collapse
from .OneHot import OneHot
from .MaskedSelect import MaskedSelect
from .Max import Max
from .Min import Min
from .Mean import Mean
from .Sum import Sum
from .MM import MM
from .MV import MV
from .Constant import Constant
from .ZeroGrad import ZeroGrad
from .SplitTable import SplitTable
from .JoinTable import JoinTable
from .MixtureTable import MixtureTable
from .SelectTable import SelectTable
from .NarrowTable import NarrowTable
from .FlattenTable import FlattenTable
from .ZipTable import ZipTable
from .ZipTableOneToMany import ZipTableOneToMany
from .CAddTable import CAddTable
from .CSubTable import CSubTable
from .CMulTable import CMulTable
from .CDivTable import CDivTable
from .CMaxTable import CMaxTable
from .CMinTable import CMinTable
from .PairwiseDistance import PairwiseDistance
from .DotProduct import DotProduct
from .CosineDistance import CosineDistance
from .CriterionTable import CriterionTable
# ==== end of table and shape modules ====

# ==== modules of Torch7-era files (nnx, dpnn, fast-neural-style) ====
from .InstanceNormalization import InstanceNormalization
from .Inception import Inception
from .ShaveImage import ShaveImage
from .SpatialClassifier import SpatialClassifier
from .SpatialNormalization import SpatialNormalization
from .SpatialPadding import SpatialPadding
from .TotalVariation import TotalVariation
# ==== end of modules of Torch7-era files ====

# ==== recurrent modules (the rnn package) ====
from .LinearNoBias import LinearNoBias
from .MaskZero import MaskZero
from .AbstractRecurrent import AbstractRecurrent
from .LSTMStep import LSTMStep
from .FastLSTMStep import FastLSTMStep
from .GRUStep import GRUStep
from .LSTM import LSTM
from .FastLSTM import FastLSTM
from .GRU import GRU
from .Recurrent import Recurrent
from .Recursor import Recursor
from .SeqLSTM import SeqLSTM
from .SeqGRU import SeqGRU
from .AbstractSequencer import AbstractSequencer
from .Sequencer import Sequencer
from .Repeater import Repeater
from .BiSequencer import BiSequencer
from .BiSequencerLM import BiSequencerLM
from .SeqReverseSequence import SeqReverseSequence
# ==== end of recurrent modules ====

# ==== the rest of Lua nn ====
from .CAddTensorTable import CAddTensorTable
from .Convert import Convert
from .DontCast import DontCast
from .GPU import GPU
from .Kmeans import Kmeans
from .LayerNormalization import LayerNormalization
from .LinearWeightNorm import LinearWeightNorm
from .NaN import NaN
from .PrintSize import PrintSize
from .Profile import Profile
from .SpatialAutoCropMSECriterion import SpatialAutoCropMSECriterion
from .TemporalDynamicKMaxPooling import TemporalDynamicKMaxPooling
from .WhiteNoise import WhiteNoise
# ==== end of the rest of Lua nn ====

__all__ = ["__version__", "jacobian", "manualSeed", "load_lua", "save", "load", "FormatError", "register_class",
           "array_namespace"] + sorted(
    name for name, value in dict(globals()).items()
    if isinstance(value, type) and issubclass(value, (Module, Criterion)))

# ==== optimisation and training ====
from . import optim
from ._batches import minibatches
from .StochasticGradient import StochasticGradient

__all__ += ["optim", "minibatches", "StochasticGradient"]
# ==== end of optimisation and training ====

# ==== ONNX export (nn_legacy.onnx.export; the onnx package is needed only when exporting) ====
from . import onnx  # noqa: E402,F401
# ==== end of ONNX export ====
