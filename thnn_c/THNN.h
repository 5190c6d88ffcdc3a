/* THNN.h: include this to get every kernel for Float and Double. */
#ifndef THNN_H
#define THNN_H

#include <stdbool.h>
#include "TH.h"

#define TH_API
#define THIndexTensor THLongTensor
#define THIndexTensor_(NAME) THLongTensor_##NAME
#define THNN_(NAME) TH_CONCAT_3(THNN_, Real, NAME)
/* A static helper of a header that several kernel files include (generic/unfold.h, vol2col.h, Pooling.h,
   Resampling.h): each file uses some of them, so one left unused there is expected, not worth a warning. */
#define THNN_HELPER static __attribute__((unused))

#define TH_GENERIC_FILE "generic/THNN.h"
#include "THGenerateFloatTypes.h"

#endif
