/* Every CUDA twin, expanded for float and double: one generic file per layer
 * (the list of layers is THCUNN.h).  One section per family of layers. */
#include "THC.h"

#define TH_GENERIC_FILE "generic/THCTensor.cu"
#include "THCGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/THCBlas.cu"
#include "THCGenerateFloatTypes.h"

/* ==== activations and softmax ==== */

#define TH_GENERIC_FILE "generic/Sigmoid.cu"
#include "THCGenerateFloatTypes.h"

/* ==== end of activations and softmax ==== */


/* ==== criterions ==== */

/* ==== end of criterions ==== */


/* ==== linear, embedding, sparse, temporal, fused cells, batch normalization ==== */

/* ==== end of linear, embedding, sparse, temporal, fused cells, batch normalization ==== */


/* ==== convolutions ==== */

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
