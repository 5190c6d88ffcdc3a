/* Every CUDA twin, expanded for float and double: one generic file per layer.
 *
 * First, by hand, the helpers (not layers): the device tensor, cuBLAS and
 * tensor math, and the drivers several twins share.  Then the twins: their
 * list is not kept here; the build writes THCUNN_layers.h (under
 * build/generated/) from the files, one generic/<Layer>.cu for each layer of
 * thnn_c/generic/THNN.h that has one, in name order (thnn/_layers.py says
 * how and states a twin's contract; `python thnn/_layers.py` shows it).  A
 * twin relies on nothing another twin defines: THC.h declares every twin's
 * prototype, and what twins share is a helper here. */
#include "THC.h"

/* The emulator's build compiles this file as several units: one with the
 * device tensor, cuBLAS and tensor math and no twin (THCUNN_BASE_ONLY), and
 * parts of the twins (build/generated/THCUNN_part<k>.cpp, each naming its
 * list in THCUNN_LAYERS), which leave those out.  nvcc compiles it whole. */
#ifndef THCUNN_LAYERS
#define TH_GENERIC_FILE "generic/THCTensor.cu"
#include "THCGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/THCBlas.cu"
#include "THCGenerateFloatTypes.h"
#endif

/* the device tensor math: what the modules of the shared array interface run */
#include "THCTensorMath.cuh"
#ifndef THCUNN_LAYERS
#define TH_GENERIC_FILE "generic/THCTensorMath.cu"
#include "THCGenerateAllTypes.h"
#endif

/* the elementwise driver of the activation twins */
#define TH_GENERIC_FILE "generic/Activation.cu"
#include "THCGenerateFloatTypes.h"

/* what the criterion twins share */
#include "THCCriterion.h"
#define TH_GENERIC_FILE "generic/THCCriterion.cu"
#include "THCGenerateFloatTypes.h"

/* the unfolding of the convolution twins */
#define TH_GENERIC_FILE "generic/im2col.cu"
#include "THCGenerateFloatTypes.h"

/* what the pooling twins share */
#define TH_GENERIC_FILE "generic/Pooling.cu"
#include "THCGenerateFloatTypes.h"

/* what the padding and up-sampling twins share */
#define TH_GENERIC_FILE "generic/Resampling.cu"
#include "THCGenerateFloatTypes.h"

/* what the connection-table twins share */
#define TH_GENERIC_FILE "generic/ConnectionMap.cu"
#include "THCGenerateFloatTypes.h"

/* the twins */
#if defined(THCUNN_LAYERS)
#include THCUNN_LAYERS
#elif !defined(THCUNN_BASE_ONLY)
#include "THCUNN_layers.h"
#endif
