/* Expand TH_GENERIC_FILE for Float, Double and Long (index tensors): the
 * device-memory helpers exist for all three. */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif

#define real float
#define accreal double
#define Real Float
#define CudaReal Cuda
#define TH_REAL_IS_FLOAT
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CudaReal
#undef TH_REAL_IS_FLOAT

#define real double
#define accreal double
#define Real Double
#define CudaReal CudaDouble
#define TH_REAL_IS_DOUBLE
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CudaReal
#undef TH_REAL_IS_DOUBLE

#define real int64_t
#define accreal int64_t
#define Real Long
#define CudaReal CudaLong
#define TH_REAL_IS_LONG
#include TH_GENERIC_FILE
#undef real
#undef accreal
#undef Real
#undef CudaReal
#undef TH_REAL_IS_LONG

#undef TH_GENERIC_FILE
