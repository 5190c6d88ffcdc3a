/* Every kernel, expanded for Float and Double: one generic file per layer. */
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

/* ==== end of activations ==== */

/* ==== criterions ==== */

/* ==== end of criterions ==== */

/* ==== linear, sparse and embedding layers ==== */

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
