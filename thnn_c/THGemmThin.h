/* The float product of a wide matrix by a few columns (THGemmThin.c: AVX2
 * + FMA, chosen at run time): a Linear layer's forward at a small batch,
 * the weight read once where it lies. */
#ifndef TH_GEMM_THIN_H
#define TH_GEMM_THIN_H

#include <stdint.h>

/* The products that take THGemm_floatThin (generic/THBlas.c): at most
 * THGEMM_THIN_COLUMNS columns and a matrix of THGEMM_THIN_SIZE values or
 * more.  Measured 2026-11-30 (time / OpenBLAS's sgemm, one thread, process
 * time): 4096 x 9216 at 2, 4, 8, 16 columns 0.29, 0.41, 0.51, 0.89; 1000 x
 * 512 0.30, -, 0.71, 0.87; 256 x 256 0.45, -, 0.74, 0.98; but 512 x 128 at
 * 16 columns 1.18, 128 x 64 at 8 1.02 and at 16 1.33 (the lanes' sums and
 * the packing of b outweigh the packing of a saved). */
#define THGEMM_THIN_COLUMNS 8
#define THGEMM_THIN_SIZE 16384

/* c [m, n] = alpha * a^T b + beta * c, column-major as BLAS's gemm with
 * transa 't' and transb 'n': a [k, m] (column i, the weight's row i, at a
 * + i * lda), b [k, n] (column j at b + j * ldb), c[i + j * ldc]; beta 0:
 * c is not read.  0, or -1 when it cannot run here (the caller uses
 * OpenBLAS). */
int THGemm_floatThin(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                     int64_t ldb, float beta, float *c, int64_t ldc);

#endif
