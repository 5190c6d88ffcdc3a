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

/* c [m, n] = a^T * b [k, n] + beta * c, with a stored [k, m] (rows lda
   apart), b and c row-major (ldb, ldc), in the calling thread; 0, or -1
   where THGemm_float would refuse (the caller then uses OpenBLAS). */
int THGemm_floatTransposedA(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                            float beta, float *c, int64_t ldc);

/* The columns of B a packer gives THGemm_floatPacked: panels of
 * THGEMM_PANEL columns, [kc][THGEMM_PANEL] each. */
#define THGEMM_PANEL 16
/* At most this many columns in one call of a packer. */
#define THGEMM_PACK_COLUMNS 256

/* A packer of B [k, n]: rows [p0, p0 + kc) of columns [j0, j0 + nc)
 * (nc <= THGEMM_PACK_COLUMNS) into panels at dst (32-byte aligned), row p0
 * + p of panel q at dst + (q * kc + p) * THGEMM_PANEL, the columns of the
 * last panel past nc set to 0.  It must give every entry the same value in
 * every call. */
typedef void (*THGemmPackB)(void *source, int64_t p0, int64_t kc, int64_t j0, int64_t nc, float *dst);

/* THGemm_float with B given by a packer (the convolutions unfold the image
 * straight into the panels: no column matrix). */
int THGemm_floatPacked(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, THGemmPackB pack, void *source,
                       float beta, float *c, int64_t ldc, const float *bias, int64_t biasStride);

/* A packer's last step: rows [0, kc) (ldb apart) of nc <= THGEMM_PACK_COLUMNS
 * columns into panels, row p of panel q at dst + q * panelStride + p *
 * THGEMM_PANEL (dst and panelStride multiples of 8 floats), the columns of
 * the last panel past nc set to 0.  AVX2: only where
 * THGemm_floatAvailable(). */
void THGemm_packRows(const float *b, int64_t ldb, int64_t kc, int64_t nc, float *dst, int64_t panelStride);

/* Whether the float convolutions pack the panels from the image (1, the
 * default) or unfold a column matrix first (tests compare the two). */
int THGemm_imagePacking(void);
void THGemm_setImagePacking(int on);
/* How many products THGemm_floatPacked has run with a packer of its
 * caller's (tests). */
int64_t THGemm_packedProducts(void);

#endif
