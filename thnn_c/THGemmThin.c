/* THGemmThin.c: the float product of a wide matrix by a few columns, on
 * CPUs with AVX2 and FMA: a Linear layer's forward at a small batch
 * (c [m, n] = alpha a^T b + beta c, column-major as BLAS: a [k, m] holds
 * the weight's m rows of k, b [k, n] the batch's n samples).
 *
 * Why not OpenBLAS.  Its sgemm packs the whole of a before multiplying,
 * which at a batch of a few samples costs more than the product: the
 * weight, too large for any cache, is read, written and read again
 * (Linear 9216 -> 4096, one thread: 7.6 ms at batch 1, where gemv reads
 * it once, and 24-26 ms at batches 2 to 8; benchmarks/README.md).  Here
 * the weight is read once, where it lies.
 *
 * Blocking.  b is copied first, its columns' runs of THGEMMTHIN_KC values
 * side by side (n x 2 KB a run, in L1; the columns of a batch lie a
 * multiple of 4096 bytes apart as often as not, and read in place they
 * shared the cache's sets with the rows of a).  Then THGEMMTHIN_ROWS rows
 * of a at a time, a run at a time: the run of the rows (3 x 2 KB) stays in
 * L1 while every three columns of b meet it, 9 sums in ymm registers, per
 * step of 8 values three loads of a, three of b and nine FMAs.
 *
 * Values.  Each sum is the sum over k of a[p, i] * b[p, j] in 8 lanes
 * (p mod 8) within a run, the lanes added, then the runs added to c in
 * order: the rounding differs from OpenBLAS's, not the values' meaning;
 * NaN and infinities propagate as in any product, and with beta = 0 what
 * c held (NaN included) is ignored, as BLAS does.
 *
 * Dispatch.  Compiled with a target attribute and run only behind
 * THGemm_floatAvailable(); the names start with THGemm, which
 * tests/test_cpu_dispatch.py lists among the gated ones. */
#include "TH.h"

#include <stdint.h>
#include <string.h>

#include "THGemm.h"
#include "THGemmThin.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define THGEMMTHIN_HAVE_AVX2 1
#include <immintrin.h>
#define THGEMMTHIN_TARGET __attribute__((target("avx2,fma")))
#define THGEMMTHIN_INLINE THGEMMTHIN_TARGET static inline __attribute__((always_inline))
#else
#define THGEMMTHIN_HAVE_AVX2 0
#endif

#define THGEMMTHIN_ROWS 3
#define THGEMMTHIN_COLS 3
#define THGEMMTHIN_KC 512

#if THGEMMTHIN_HAVE_AVX2
THGEMMTHIN_INLINE float THGemmThin_laneSum(__m256 v)
{
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}

/* c[r + j ldc] += alpha * (the sum over p < kc of a[p + r lda] * b[p + j
 * ldb]) for r < R rows and j < J columns (R, J constants where inlined). */
THGEMMTHIN_INLINE void THGemmThin_block(int R, int J, const float *a, int64_t lda, const float *b, int64_t ldb,
                                        int64_t kc, float alpha, float *c, int64_t ldc)
{
  __m256 acc[THGEMMTHIN_ROWS][THGEMMTHIN_COLS];
  for (int r = 0; r < R; r++)
    for (int j = 0; j < J; j++)
      acc[r][j] = _mm256_setzero_ps();
  int64_t p = 0;
  for (; p + 8 <= kc; p += 8) {
    __m256 x[THGEMMTHIN_COLS], w[THGEMMTHIN_ROWS];
    for (int j = 0; j < J; j++)
      x[j] = _mm256_loadu_ps(b + j * ldb + p);
    for (int r = 0; r < R; r++)
      w[r] = _mm256_loadu_ps(a + r * lda + p);
    for (int r = 0; r < R; r++)
      for (int j = 0; j < J; j++)
        acc[r][j] = _mm256_fmadd_ps(w[r], x[j], acc[r][j]);
  }
  for (int r = 0; r < R; r++)
    for (int j = 0; j < J; j++) {
      float s = THGemmThin_laneSum(acc[r][j]);
      for (int64_t q = p; q < kc; q++)
        s += a[r * lda + q] * b[j * ldb + q];
      c[r + j * ldc] += alpha * s;
    }
}

/* Rows [0, R) of c from a's rows, every run of k (b packed: [run][j][KC]),
 * every column. */
THGEMMTHIN_INLINE void THGemmThin_rows(int R, const float *a, int64_t lda, const float *packed, int64_t n, int64_t k,
                                       float alpha, float *c, int64_t ldc)
{
  for (int64_t p = 0; p < k; p += THGEMMTHIN_KC, packed += n * THGEMMTHIN_KC) {
    int64_t kc = k - p < THGEMMTHIN_KC ? k - p : THGEMMTHIN_KC, j = 0;
    for (; j + 3 <= n; j += 3)
      THGemmThin_block(R, 3, a + p, lda, packed + j * THGEMMTHIN_KC, THGEMMTHIN_KC, kc, alpha, c + j * ldc, ldc);
    if (n - j == 2)
      THGemmThin_block(R, 2, a + p, lda, packed + j * THGEMMTHIN_KC, THGEMMTHIN_KC, kc, alpha, c + j * ldc, ldc);
    else if (n - j == 1)
      THGemmThin_block(R, 1, a + p, lda, packed + j * THGEMMTHIN_KC, THGEMMTHIN_KC, kc, alpha, c + j * ldc, ldc);
  }
}

/* 0, or -1 when out of memory. */
THGEMMTHIN_TARGET static int THGemmThin_product(int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                                                int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                                                int64_t ldc)
{
  /* b's runs, those of a run of k together: [run][j][THGEMMTHIN_KC] */
  int64_t runs = (k + THGEMMTHIN_KC - 1) / THGEMMTHIN_KC;
  float *packed = THAlloc((size_t)(runs * n * THGEMMTHIN_KC) * sizeof(float));
  if (!packed)
    return -1;
  for (int64_t q = 0; q < runs; q++)
    for (int64_t j = 0; j < n; j++) {
      int64_t p = q * THGEMMTHIN_KC, kc = k - p < THGEMMTHIN_KC ? k - p : THGEMMTHIN_KC;
      memcpy(packed + (q * n + j) * THGEMMTHIN_KC, b + j * ldb + p, (size_t)kc * sizeof(float));
    }
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < m; i++)
      c[i + j * ldc] = beta == 0 ? 0 : beta * c[i + j * ldc];
  int64_t i = 0;
  for (; i + THGEMMTHIN_ROWS <= m; i += THGEMMTHIN_ROWS)
    THGemmThin_rows(THGEMMTHIN_ROWS, a + i * lda, lda, packed, n, k, alpha, c + i, ldc);
  for (; i < m; i++)
    THGemmThin_rows(1, a + i * lda, lda, packed, n, k, alpha, c + i, ldc);
  THFree(packed);
  return 0;
}
#endif

int THGemm_floatThin(int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda, const float *b,
                     int64_t ldb, float beta, float *c, int64_t ldc)
{
#if THGEMMTHIN_HAVE_AVX2
  if (!THGemm_floatAvailable())
    return -1;
  return THGemmThin_product(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#else
  (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  return -1;
#endif
}
