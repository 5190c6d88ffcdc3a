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

/* ==== end of linear, embedding, sparse, temporal, fused cells, batch normalization ==== */


/* ==== convolutions ==== */

/* ==== end of convolutions ==== */


/* ==== pooling, padding, up-sampling, grid sampling ==== */

/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
