/* Every CUDA twin, expanded for float and double: one generic file per layer
 * (the list of layers is THCUNN.h).  One section per family of layers. */
#include "THC.h"

#define TH_GENERIC_FILE "generic/THCTensor.cu"
#include "THCGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/THCBlas.cu"
#include "THCGenerateFloatTypes.h"

/* the device tensor math: what the modules of the shared array interface run */
#include "THCTensorMath.cuh"
#define TH_GENERIC_FILE "generic/THCTensorMath.cu"
#include "THCGenerateAllTypes.h"

/* ==== activations and softmax ==== */

/* the elementwise driver of the activation twins (before them) */
#define TH_GENERIC_FILE "generic/Activation.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Sigmoid.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Tanh.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Threshold.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Abs.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/ELU.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/GatedLinear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/HardShrink.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/HardTanh.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LeakyReLU.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LogSigmoid.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/PReLU.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/RReLU.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftPlus.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftShrink.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Sqrt.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Square.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftMax.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LogSoftMax.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of activations and softmax ==== */


/* ==== criterions ==== */

#include "THCCriterion.h"
#define TH_GENERIC_FILE "generic/THCCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/AbsCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/BCECriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/ClassNLLCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/DistKLDivCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/L1Cost.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MSECriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MarginCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MultiLabelMarginCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/MultiMarginCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SmoothL1Criterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SoftMarginCriterion.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialClassNLLCriterion.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of criterions ==== */


/* ==== linear, embedding, sparse, temporal, fused cells, batch normalization ==== */

#define TH_GENERIC_FILE "generic/Linear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/BatchNormalization.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LookupTable.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/GRUFused.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/LSTMFused.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalConvolution.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalSubSampling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalRowConvolution.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/TemporalMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SparseLinear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/IndexLinear.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of linear, embedding, sparse, temporal, fused cells, batch normalization ==== */


/* ==== convolutions ==== */

#define TH_GENERIC_FILE "generic/im2col.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialDilatedConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialConvolutionMM.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialFullDilatedConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialFullConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/VolumetricDilatedConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/VolumetricConvolutionMM.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/VolumetricFullDilatedConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/VolumetricFullConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/VolumetricConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialDepthWiseConvolution.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialSubSampling.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialConvolutionLocal.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialConvolutionMap.cu"
#include "THCGenerateFloatTypes.h"
#define TH_GENERIC_FILE "generic/SpatialFullConvolutionMap.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of convolutions ==== */


/* ==== pooling, padding, up-sampling, grid sampling ==== */

#define TH_GENERIC_FILE "generic/Pooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialDilatedMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAveragePooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAdaptiveMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialAdaptiveAveragePooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialMaxUnpooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricDilatedMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricAveragePooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricMaxUnpooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/Resampling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialReflectionPadding.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialReplicationPadding.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricReplicationPadding.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialUpSamplingNearest.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricUpSamplingNearest.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialUpSamplingBilinear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricUpSamplingTrilinear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialGridSamplerBilinear.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/FeatureLPPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SpatialFractionalMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/VolumetricFractionalMaxPooling.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
