/* The library's own single-precision product for the forward convolution
 * (THGemm.c: AVX2 + FMA, chosen at run time). */
#ifndef TH_GEMM_H
#define TH_GEMM_H

#include <stdint.h>

/* Whether THGemm_float runs here: the CPU has AVX2 and FMA and the tests
 * have not switched it off (THGemm_setEnabled(0)). */
int THGemm_floatAvailable(void);
void THGemm_setEnabled(int on);

/* c [m, n] = a [m, k] * b [k, n] + beta * c (+ bias[i * biasStride] on
 * row i; bias may be NULL), row-major, in the calling thread; 0, or -1
 * when it cannot run here (the caller uses OpenBLAS). */
int THGemm_float(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                 float beta, float *c, int64_t ldc, const float *bias, int64_t biasStride);

#endif
