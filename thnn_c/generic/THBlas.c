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

/* c = alpha * op(a) * op(b) + beta * c where c is one column (n = 1) or
 * one row (m = 1) and k > 0, as the matrix-vector product it is: OpenBLAS's
 * gemm does not forward such a product to its gemv on x86 and packs the
 * whole matrix first, which made a Linear layer at batch 1 read its weight
 * at a third of the memory's speed (9216 x 4096: gemm 36 ms, gemv 10 ms,
 * one thread; benchmarks/README.md, Inference).  With beta = 0, c is
 * zeroed first, so that what it held (NaN) is ignored, as by gemm. */
static void THBlas_(gemmVector)(char transa, char transb, int64_t m, int64_t n, int64_t k, real alpha,
                                const real *a, int64_t lda, const real *b, int64_t ldb, real beta, real *c,
                                int64_t ldc)
{
  int64_t len = n == 1 ? m : n, incy = n == 1 ? 1 : ldc;
  if (beta == 0)
    for (int64_t i = 0; i < len; i++)
      c[i * incy] = 0;
  if (n == 1) {   /* c = op(a) [m, k] times the vector op(b) [k] */
    int ta = THBlasTrans(transa) == CblasTrans;
    THBLAS_GEMV(CblasColMajor, THBlasTrans(transa), (blasint)(ta ? k : m), (blasint)(ta ? m : k), alpha, a,
                (blasint)lda, b, (blasint)(THBlasTrans(transb) == CblasTrans ? ldb : 1), beta, c, (blasint)incy);
  } else {        /* c^T = op(b)^T [n, k] times the vector op(a)^T [k] */
    int tb = THBlasTrans(transb) == CblasTrans;
    THBLAS_GEMV(CblasColMajor, tb ? CblasNoTrans : CblasTrans, (blasint)(tb ? n : k), (blasint)(tb ? k : n), alpha,
                b, (blasint)ldb, a, (blasint)(THBlasTrans(transa) == CblasTrans ? 1 : lda), beta, c, (blasint)incy);
  }
}

/* This thread's slab of c = alpha * op(a) * op(b) + beta * c: a band of the
 * columns of c (of op(b)), or of its rows (of op(a)) when c is taller than
 * wide; the whole product outside a parallel region.  A product with one
 * column or row is a matrix-vector product (gemmVector). */
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
#ifdef TH_REAL_IS_FLOAT
  /* a wide matrix's rows by a few columns (Linear's forward at a small
   * batch): THGemmThin.c reads the matrix once, where it lies */
  if (m > 1 && n > 1 && n <= THGEMM_THIN_COLUMNS && m * k >= THGEMM_THIN_SIZE && THBlasTrans(transa) == CblasTrans &&
      THBlasTrans(transb) == CblasNoTrans && THGemm_floatThin(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) == 0)
    return;
#endif
  if (m > 0 && n > 0 && k > 0 && (m == 1 || n == 1))
    THBlas_(gemmVector)(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  else if (m > 0 && n > 0)
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
