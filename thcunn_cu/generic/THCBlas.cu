#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCBlas.cu"
#else

#ifdef TH_REAL_IS_FLOAT
#define THC_CUBLAS_GEMM cublasSgemm
#define THC_CUBLAS_GEMV cublasSgemv
#else
#define THC_CUBLAS_GEMM cublasDgemm
#define THC_CUBLAS_GEMV cublasDgemv
#endif

int THCBlas_(gemm)(THNNState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                   real alpha, const real *a, int64_t lda, const real *b, int64_t ldb,
                   real beta, real *c, int64_t ldc)
{
  TH_TRY(THCBlasCheckSizes(state, "gemm", m, n, k, lda, ldb, ldc));
  if (m == 0 || n == 0)
    return 0;
  /* a zero-size operand has leading dimension 0, which BLAS refuses (as THBlas_(gemm)) */
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (ldc < 1) ldc = 1;
  cublasStatus_t status = THC_CUBLAS_GEMM(THCBlasHandle(), THCBlasOp(transa), THCBlasOp(transb), (int)m, (int)n,
                                          (int)k, &alpha, a, (int)lda, b, (int)ldb, &beta, c, (int)ldc);
  if (status != CUBLAS_STATUS_SUCCESS)
    return THError(state, "cuBLAS gemm failed (status %d)", (int)status);
  return 0;
}

int THCBlas_(gemv)(THNNState *state, char trans, int64_t m, int64_t n, real alpha,
                   const real *a, int64_t lda, const real *x, int64_t incx,
                   real beta, real *y, int64_t incy)
{
  TH_TRY(THCBlasCheckSizes(state, "gemv", m, n, incx, lda, incy, 1));
  if (m == 0 || n == 0)
    return 0;
  if (lda < 1) lda = 1;
  cublasStatus_t status = THC_CUBLAS_GEMV(THCBlasHandle(), THCBlasOp(trans), (int)m, (int)n, &alpha, a, (int)lda,
                                          x, (int)incx, &beta, y, (int)incy);
  if (status != CUBLAS_STATUS_SUCCESS)
    return THError(state, "cuBLAS gemv failed (status %d)", (int)status);
  return 0;
}

#undef THC_CUBLAS_GEMM
#undef THC_CUBLAS_GEMV

#endif
