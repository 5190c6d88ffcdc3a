/* BLAS in Torch7's convention: column-major (Fortran) order, trans given as
 * 'n' or 't'.  A row-major C matrix is its column-major transpose, which is
 * how the kernels use these.  Sizes are checked to fit the 32-bit BLAS. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THBlas.h"
#else

/* c = alpha * op(a) * op(b) + beta * c, with op(a) m x k, op(b) k x n. */
int THBlas_(gemm)(THNNState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                  real alpha, const real *a, int64_t lda, const real *b, int64_t ldb,
                  real beta, real *c, int64_t ldc);

/* y = alpha * op(a) * x + beta * y, with a m x n. */
int THBlas_(gemv)(THNNState *state, char trans, int64_t m, int64_t n, real alpha,
                  const real *a, int64_t lda, const real *x, int64_t incx,
                  real beta, real *y, int64_t incy);

#endif
