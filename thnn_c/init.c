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

#define TH_GENERIC_FILE "generic/LookupTable.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/SparseLinear.c"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/IndexLinear.c"
#include "THGenerateFloatTypes.h"

/* ==== end of linear, sparse and embedding layers ==== */

/* ==== temporal layers and recurrent cells ==== */

/* ==== end of temporal layers and recurrent cells ==== */
