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

/* ==== end of convolutions ==== */


/* ==== pooling, padding, up-sampling, grid sampling ==== */

/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
