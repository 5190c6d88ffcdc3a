/* Expand TH_GENERIC_FILE for the CUDA twins of Float and Double: real,
 * accreal and Real as in thnn_c's THGenerateFloatTypes.h, and CudaReal, the
 * name part of the twins (THNN_CudaX for float, THNN_CudaDoubleX for double). */
#ifndef TH_GENERIC_FILE
#error "define TH_GENERIC_FILE before including THCGenerateFloatTypes.h"
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

#undef TH_GENERIC_FILE
