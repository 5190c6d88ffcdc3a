/* TH.h: the small tensor core the THNN kernels are written against. */
#ifndef TH_H
#define TH_H

#include "THGeneral.h"

#define THStorage TH_CONCAT_3(TH, Real, Storage)
#define THStorage_(NAME) TH_CONCAT_4(TH, Real, Storage_, NAME)
#define THTensor TH_CONCAT_3(TH, Real, Tensor)
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)
#define THBlas_(NAME) TH_CONCAT_4(TH, Real, Blas_, NAME)
#define THVector_(NAME) TH_CONCAT_4(TH, Real, Vector_, NAME)

#define TH_GENERIC_FILE "generic/THTensor.h"
#include "THGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/THBlas.h"
#include "THGenerateFloatTypes.h"

#define TH_GENERIC_FILE "generic/THVector.h"
#include "THGenerateFloatTypes.h"

#endif
