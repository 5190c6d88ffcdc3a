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

/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
