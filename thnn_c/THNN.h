/* THNN.h: include this to get every kernel for Float and Double. */
#ifndef THNN_H
#define THNN_H

#include <stdbool.h>
#include "TH.h"

#define TH_API
#define THIndexTensor THLongTensor
#define THIndexTensor_(NAME) THLongTensor_##NAME
#define THNN_(NAME) TH_CONCAT_3(THNN_, Real, NAME)

#define TH_GENERIC_FILE "generic/THNN.h"
#include "THGenerateFloatTypes.h"

#endif
