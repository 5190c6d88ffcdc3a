/* Expand TH_GENERIC_FILE for float, double and int64 (the index type: class
 * targets and pooling indices live in THLongTensor, as in Torch7). */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THGenerateAllTypes.h"
#endif

#define real float
#define accreal double
#define Real Float
#define TH_REAL_IS_FLOAT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_FLOAT

#define real double
#define accreal double
#define Real Double
#define TH_REAL_IS_DOUBLE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_DOUBLE

#define real int64_t
#define accreal int64_t
#define Real Long
#define TH_REAL_IS_LONG
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef TH_REAL_IS_LONG

#undef TH_GENERIC_FILE
