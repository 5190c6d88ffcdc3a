#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THBlas.c"
#else

#ifdef TH_REAL_IS_FLOAT
#define THBLAS_GEMM scipy_cblas_sgemm
#define THBLAS_GEMV scipy_cblas_sgemv
#else
#define THBLAS_GEMM scipy_cblas_dgemm
#define THBLAS_GEMV scipy_cblas_dgemv
#endif

/* This thread's slab of c = alpha * op(a) * op(b) + beta * c: a band of the
 * columns of c (of op(b)), or of its rows (of op(a)) when c is taller than
 * wide; the whole product outside a parallel region. */
static void THBlas_(gemmSlab)(char transa, char transb, int64_t m, int64_t n, int64_t k,
                              real alpha, const real *a, int64_t lda, const real *b, int64_t ldb,
                              real beta, real *c, int64_t ldc)
{
  int64_t begin, end;
  if (n >= m) {
    THLoopRange(n, &begin, &end);
    b += begin * (THBlasTrans(transb) == CblasNoTrans ? ldb : 1);
    c += begin * ldc;
    n = end - begin;
  } else {
    THLoopRange(m, &begin, &end);
    a += begin * (THBlasTrans(transa) == CblasNoTrans ? 1 : lda);
    c += begin;
    m = end - begin;
  }
  if (m > 0 && n > 0)
    THBLAS_GEMM(CblasColMajor, THBlasTrans(transa), THBlasTrans(transb),
                (blasint)m, (blasint)n, (blasint)k, alpha, a, (blasint)lda, b, (blasint)ldb,
                beta, c, (blasint)ldc);
}

int THBlas_(gemm)(THNNState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                  real alpha, const real *a, int64_t lda, const real *b, int64_t ldb,
                  real beta, real *c, int64_t ldc)
{
  if (!THBlasFits(m) || !THBlasFits(n) || !THBlasFits(k) ||
      !THBlasFits(lda) || !THBlasFits(ldb) || !THBlasFits(ldc))
    return THError(state, "gemm: sizes (m=%lld, n=%lld, k=%lld) exceed the 32-bit BLAS",
                   (long long)m, (long long)n, (long long)k);
  if (m == 0 || n == 0)
    return 0;
  /* BLAS demands leading dimensions of at least 1 even for empty operands */
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (ldc < 1) ldc = 1;
#pragma omp parallel num_threads(THBlasThreads(m, n, k))
  THBlas_(gemmSlab)(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  return 0;
}

int THBlas_(gemv)(THNNState *state, char trans, int64_t m, int64_t n, real alpha,
                  const real *a, int64_t lda, const real *x, int64_t incx,
                  real beta, real *y, int64_t incy)
{
  if (!THBlasFits(m) || !THBlasFits(n) || !THBlasFits(lda) || !THBlasFits(incx) || !THBlasFits(incy))
    return THError(state, "gemv: sizes (m=%lld, n=%lld) exceed the 32-bit BLAS",
                   (long long)m, (long long)n);
  if (m == 0 || n == 0)
    return 0;
  if (lda < 1) lda = 1;
  THBLAS_GEMV(CblasColMajor, THBlasTrans(trans), (blasint)m, (blasint)n, alpha, a, (blasint)lda,
              x, (blasint)incx, beta, y, (blasint)incy);
  return 0;
}

#undef THBLAS_GEMM
#undef THBLAS_GEMV
#endif
