/* Expand TH_GENERIC_FILE for int64 (the index type: class targets and
 * pooling indices live in THLongTensor, as in Torch7), then for float and
 * double through THGenerateFloatTypes.h. */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateAllTypes.h"
#endif

#define real int64_t
#define accreal int64_t
#define Real Long
#define TH_REAL_IS_LONG
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_LONG

#include "THGenerateFloatTypes.h"
