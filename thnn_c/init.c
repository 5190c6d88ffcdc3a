/* Every kernel, expanded for Float and Double: one generic file per layer, in
 * any order (the helpers several layers share are generic headers that each
 * includes: generic/Pointwise.h, unfold.h, vol2col.h, Pooling.h, Resampling.h,
 * ConnectionMap.h, SoftMaxRows.h, ClassNLL.h).  tests/test_layout.py checks that
 * every layer file is here. */
#include "THNN.h"

#include <math.h>
#include <string.h>

#define TH_GENERIC_FILE "generic/Linear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Sigmoid.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Tanh.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Threshold.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftMax.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LogSoftMax.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MSECriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/ClassNLLCriterion.c"
#include "THGenerateFloatTypes.h"

/* ==== activations ==== */

#define TH_GENERIC_FILE "generic/Abs.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/ELU.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/GatedLinear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/HardShrink.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/HardTanh.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LeakyReLU.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LogSigmoid.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/PReLU.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/RReLU.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftPlus.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftShrink.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Sqrt.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Square.c"
#include "THGenerateFloatTypes.h"

/* ==== end of activations ==== */

/* ==== criterions ==== */

#define TH_GENERIC_FILE "generic/AbsCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/BCECriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/DistKLDivCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/L1Cost.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MarginCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MultiLabelMarginCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MultiMarginCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SmoothL1Criterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftMarginCriterion.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialClassNLLCriterion.c"
#include "THGenerateFloatTypes.h"

/* ==== end of criterions ==== */

/* ==== linear, sparse and embedding layers ==== */

#define TH_GENERIC_FILE "generic/LookupTable.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SparseLinear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/IndexLinear.c"
#include "THGenerateFloatTypes.h"

/* ==== end of linear, sparse and embedding layers ==== */

/* ==== temporal layers and recurrent cells ==== */

#define TH_GENERIC_FILE "generic/TemporalConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalSubSampling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalRowConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/GRUFused.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LSTMFused.c"
#include "THGenerateFloatTypes.h"

/* ==== end of temporal layers and recurrent cells ==== */

/* ==== spatial convolutions ==== */
#define TH_GENERIC_FILE "generic/SpatialDilatedConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialConvolutionMM.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialFullDilatedConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialFullConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialDepthWiseConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialSubSampling.c"
#include "THGenerateFloatTypes.h"

/* ==== end of spatial convolutions ==== */

/* ==== spatial and volumetric pooling ==== */

#define TH_GENERIC_FILE "generic/SpatialDilatedMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAveragePooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAdaptiveMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAdaptiveAveragePooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialFractionalMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialMaxUnpooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricDilatedMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricAveragePooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricFractionalMaxPooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricMaxUnpooling.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/FeatureLPPooling.c"
#include "THGenerateFloatTypes.h"

/* ==== end of spatial and volumetric pooling ==== */

/* ==== volumetric convolutions ==== */

#define TH_GENERIC_FILE "generic/VolumetricConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricDilatedConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricConvolutionMM.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricFullDilatedConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricFullConvolution.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialConvolutionLocal.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialConvolutionMap.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialFullConvolutionMap.c"
#include "THGenerateFloatTypes.h"

/* ==== end of volumetric convolutions ==== */

/* ==== padding and resampling ==== */

#define TH_GENERIC_FILE "generic/SpatialReflectionPadding.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialReplicationPadding.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricReplicationPadding.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialUpSamplingNearest.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricUpSamplingNearest.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialUpSamplingBilinear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricUpSamplingTrilinear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialGridSamplerBilinear.c"
#include "THGenerateFloatTypes.h"

/* ==== end of padding and resampling ==== */

/* ==== batch normalization ==== */

#define TH_GENERIC_FILE "generic/BatchNormalization.c"
#include "THGenerateFloatTypes.h"

/* ==== end of batch normalization ==== */
