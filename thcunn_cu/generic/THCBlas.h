/* cuBLAS with thnn_c's THBlas conventions (column-major, trans 'n' or 't',
 * sizes checked to fit its 32-bit ints), for the twins: the same call as the
 * CPU kernel's THBlas_(gemm) with device pointers. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCBlas.h"
#else

/* c = alpha * op(a) * op(b) + beta * c, with op(a) m x k, op(b) k x n (device memory). */
int THCBlas_(gemm)(THNNState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                   real alpha, const real *a, int64_t lda, const real *b, int64_t ldb,
                   real beta, real *c, int64_t ldc);

/* y = alpha * op(a) * x + beta * y, with a m x n (device memory). */
int THCBlas_(gemv)(THNNState *state, char trans, int64_t m, int64_t n, real alpha,
                   const real *a, int64_t lda, const real *x, int64_t incx,
                   real beta, real *y, int64_t incy);

#endif
