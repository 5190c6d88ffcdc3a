/* THGemm.c: the library's own single-precision matrix product, for the
 * forward convolution (generic/unfold.h) on CPUs with AVX2 and FMA.
 *
 * Why not OpenBLAS.  At the convolution's shapes (a weight of 16-512 rows
 * times the columns of one image band: a few hundred to a few thousand
 * pixels, K = 27-4608) OpenBLAS's sgemm, called once per thread and band,
 * reached 55-75 GFLOP/s of the core's ~90 (benchmarks/README.md,
 * Inference), losing most at the edges of its tiles, in packing the weight
 * again in every call and band, and in a separate pass that filled the
 * output with the bias.  This product is one loop nest tuned for those
 * shapes only: row-major C [m, n] = A [m, k] * B [k, n] + beta * C (+ a
 * bias per row), alpha 1, no transposition.
 *
 * Blocking.  The columns of C are cut in blocks of THGEMM_NC and K in
 * blocks of THGEMM_KC; for each pair the rows of B are packed into panels
 * of THGEMM_NR columns ([kc][NR], contiguous, the last panel padded with
 * zeros; 384 KB at most, in L2).  Then for each panel of THGEMM_MR rows of
 * A, read where it lies (six rows, six runs the prefetcher follows, in L1
 * while they meet every B panel; only a last partial panel is packed with
 * zero rows), the micro-kernel multiplies it by each B panel into MR x NR
 * = 6 x 16 sums held in 12 ymm registers: per step of k, two loads of B,
 * six broadcasts of A, twelve FMAs.  On AVX-512 the kernel takes two B
 * panels at once, 6 x 32 sums in 12 zmm registers, the same instruction
 * count for twice the columns (Zen 5's full-width FMA units: 0.73-0.86 of
 * the AVX2 kernel's time on ResNet-18 and VGG-16, benchmarks/README.md).
 * The weight is thus never copied (it
 * is the operand a convolution reads once per block: copying it cost as
 * much as the product over a 7x7 image).  Edge tiles run instances of the
 * kernel with fewer rows (4, 2, 1) or 8 columns, and are written through
 * a small buffer, so that nothing outside C is read or written.  The bias
 * is the sums' start in K's first block: no pass over the output first.
 *
 * Values.  Every sum is the plain sum over k of a[i,p] * b[p,j] in the
 * order of p (fused multiply-adds, from the bias or 0, KC at a time, each
 * block's sums added to C), so NaN and infinities in A or B propagate as in any product;
 * with beta = 0, C is never read (what it held, NaN included, is
 * ignored), as BLAS does.
 *
 * Dispatch.  The AVX2 code is compiled with a target attribute and runs
 * only behind THGemm_floatAvailable() (the CPU's flags, read once);
 * elsewhere the callers keep OpenBLAS.  The AVX-512 kernel, compiled the
 * same way, runs behind THUseAVX512() (thnn.allow_avx512).  The function
 * names start with THGemm, which tests/test_cpu_dispatch.py lists among the gated ones. */
#include "TH.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define THGEMM_MR 6
#define THGEMM_NR 16
#define THGEMM_KC 384
#define THGEMM_NC 256
#define THGEMM_BPACK (THGEMM_KC * THGEMM_NC)
#define THGEMM_APACK (THGEMM_KC * THGEMM_MR)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define THGEMM_HAVE_AVX2 1
#include <immintrin.h>
#include <pthread.h>
#define THGEMM_TARGET __attribute__((target("avx2,fma")))
#define THGEMM_TARGET512 __attribute__((target("avx512f")))
#else
#define THGEMM_HAVE_AVX2 0
#endif

#include "THGemm.h"

static int THGemmDisabled;   /* tests: 1 sends every product to OpenBLAS */

void THGemm_setEnabled(int on)
{
  THGemmDisabled = !on;
}

int THGemm_floatAvailable(void)
{
#if THGEMM_HAVE_AVX2
  static int known = -1;
  if (known < 0) {
    __builtin_cpu_init();
    known = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }
  return known && !THGemmDisabled;
#else
  return 0;
#endif
}

#if THGEMM_HAVE_AVX2

/* The panels of B's block: rows [0, kc) (ldb apart) of nc columns into
 * panels of NR columns, row p of panel q at dst + q * panelStride + p * NR
 * (a whole block: panelStride = NR * kc), the columns of the last panel
 * past nc set to 0.  Row by row, so that the reads are a few long runs
 * that the prefetcher follows (panel by panel, a band's columns, rows
 * 12-200 KB apart, were kc short runs each, and packing took as long as the
 * product over a 3x3 3->64 convolution's 27 rows).  Also the last step of
 * a packer that unfolds an image a few rows at a time (THGemm_floatPacked,
 * generic/unfold.h). */
THGEMM_TARGET
void THGemm_packRows(const float *b, int64_t ldb, int64_t kc, int64_t nc, float *dst, int64_t panelStride)
{
  int64_t full = nc / THGEMM_NR * THGEMM_NR, rest = nc - full;
  for (int64_t p = 0; p < kc; p++, b += ldb) {
    float *d = dst + p * THGEMM_NR;
    int64_t j = 0;
    for (; j < full; j += THGEMM_NR, d += panelStride) {
      _mm256_store_ps(d, _mm256_loadu_ps(b + j));
      _mm256_store_ps(d + 8, _mm256_loadu_ps(b + j + 8));
    }
    if (rest) {
      int64_t i = 0;
      for (; i < rest; i++)
        d[i] = b[j + i];
      for (; i < THGEMM_NR; i++)
        d[i] = 0;
    }
  }
}

/* THGemm_float's packer: B read where it lies. */
typedef struct {
  const float *b;
  int64_t ldb;
} THGemmMatrix;

THGEMM_TARGET
static void THGemm_packMatrix(void *source, int64_t p0, int64_t kc, int64_t j0, int64_t nc, float *dst)
{
  const THGemmMatrix *m = source;
  THGemm_packRows(m->b + p0 * m->ldb + j0, m->ldb, kc, nc, dst, THGEMM_NR * kc);
}

/* dst [kc][MR] <- rows [0, mr) of a (ars apart), columns [0, kc) (acs
 * apart), the rows past mr set to 0: the last panel of A when it has fewer
 * than MR rows (whole panels of a row-major A are read where they lie), or
 * any panel of a transposed A (THGemm_floatTransposedA). */
static void THGemm_packA(const float *a, int64_t ars, int64_t acs, int64_t kc, int64_t mr, float *dst)
{
  for (int64_t p = 0; p < kc; p++, dst += THGEMM_MR) {
    int64_t i = 0;
    for (; i < mr; i++)
      dst[i] = a[i * ars + p * acs];
    for (; i < THGEMM_MR; i++)
      dst[i] = 0;
  }
}

/* The first and last cache lines of rows [0, mr) of c (ldc apart), width
 * floats each, on their way to L1: the tile's sums will be added to them. */
static inline void THGemm_prefetchRows(const float *c, int64_t ldc, int64_t mr, int64_t width)
{
  for (int64_t i = 0; i < mr; i++) {
    _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
    _mm_prefetch((const char *)(c + i * ldc + width - 1), _MM_HINT_T0);
  }
}

/* c [ROWS, HALVES * 8] (ldc apart) <- beta * c + the product of the first
 * ROWS rows of one packed A panel and the first HALVES * 8 columns of one
 * packed B panel over kc steps, the sums of row i starting from
 * rowBias[i] (rowBias NULL: from 0); beta 0: c is not read.  Only the
 * first mr (<= ROWS) rows and nr (<= HALVES * 8) columns of c are touched.
 * ROWS and HALVES are constants in each instance (THGemm_kernel below):
 * an edge tile of 4 rows (16 or 64 planes: 6 + 6 + 4) or of 8 columns or
 * fewer (7x7 = 49 pixels: 3 x 16 + 1) does only the work it needs instead
 * of a whole 6 x 16 tile.  The rows of c that will be read are prefetched
 * first: a band of a large image's output comes from memory, and without
 * the prefetch a third of the kernel's time went to waiting for it. */
THGEMM_TARGET __attribute__((always_inline))
static inline void THGemm_tile(const int ROWS, const int HALVES, int64_t kc, const float *a, int64_t ars,
                               int64_t acs, const float *b, const float *rowBias, float beta, float *c, int64_t ldc,
                               int64_t mr, int64_t nr)
{
  __m256 sum[THGEMM_MR][2];
  if (beta != 0)
    THGemm_prefetchRows(c, ldc, mr, 8 * HALVES);
#pragma GCC unroll 6
  for (int i = 0; i < ROWS; i++)
#pragma GCC unroll 2
    for (int h = 0; h < HALVES; h++)
      sum[i][h] = rowBias ? _mm256_broadcast_ss(rowBias + i) : _mm256_setzero_ps();
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    __m256 v[2];
#pragma GCC unroll 2
    for (int h = 0; h < HALVES; h++)
      v[h] = _mm256_load_ps(b + 8 * h);
#pragma GCC unroll 6
    for (int i = 0; i < ROWS; i++) {
      __m256 x = _mm256_broadcast_ss(a + i * ars);
#pragma GCC unroll 2
      for (int h = 0; h < HALVES; h++)
        sum[i][h] = _mm256_fmadd_ps(x, v[h], sum[i][h]);
    }
    a += acs;
    b += THGEMM_NR;
  }
  if (mr == ROWS && nr == 8 * HALVES) {
    __m256 vb = _mm256_set1_ps(beta);
#pragma GCC unroll 6
    for (int i = 0; i < ROWS; i++)
#pragma GCC unroll 2
      for (int h = 0; h < HALVES; h++) {
        __m256 v = sum[i][h];
        float *ci = c + i * ldc + 8 * h;
        if (beta == 1)
          v = _mm256_add_ps(_mm256_loadu_ps(ci), v);
        else if (beta != 0)
          v = _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci), v);
        _mm256_storeu_ps(ci, v);
      }
    return;
  }
  /* a partial tile: through a buffer, only its rows and columns inside c */
  float tile[THGEMM_MR][THGEMM_NR] __attribute__((aligned(32)));
#pragma GCC unroll 6
  for (int i = 0; i < ROWS; i++)
#pragma GCC unroll 2
    for (int h = 0; h < HALVES; h++)
      _mm256_store_ps(tile[i] + 8 * h, sum[i][h]);
  for (int64_t i = 0; i < mr; i++, c += ldc)
    for (int64_t j = 0; j < nr; j++)
      c[j] = beta == 0 ? tile[i][j] : beta == 1 ? c[j] + tile[i][j] : beta * c[j] + tile[i][j];
}

/* The instance of tile (THGemm_tile or THGemm_tile512) of the fewest rows
 * (of 6, 4, 2 and 1) that covers mr, at width W (halves of a panel, or
 * panels); the arguments after W are the tile's own. */
#define THGEMM_BY_ROWS(tile, W, ...)       \
  do {                                     \
    if (mr > 4)                            \
      tile(6, W, __VA_ARGS__);             \
    else if (mr > 2)                       \
      tile(4, W, __VA_ARGS__);             \
    else if (mr > 1)                       \
      tile(2, W, __VA_ARGS__);             \
    else                                   \
      tile(1, W, __VA_ARGS__);             \
  } while (0)

/* THGemm_tile for an mr x nr tile (mr <= MR, nr <= NR): the instance of
 * the fewest rows and columns (8 or 16) that covers it. */
THGEMM_TARGET
static void THGemm_kernel(int64_t kc, const float *a, int64_t ars, int64_t acs, const float *b,
                          const float *rowBias, float beta, float *c, int64_t ldc, int64_t mr, int64_t nr)
{
  if (nr > 8)
    THGEMM_BY_ROWS(THGemm_tile, 2, kc, a, ars, acs, b, rowBias, beta, c, ldc, mr, nr);
  else
    THGEMM_BY_ROWS(THGemm_tile, 1, kc, a, ars, acs, b, rowBias, beta, c, ldc, mr, nr);
}

/* The AVX-512 twin of THGemm_tile (THUseAVX512(): the CPU has AVX-512F
 * and thnn.allow_avx512 has not turned it off): ROWS rows of A times VECS
 * whole B panels side by side (panel v at b + v * bps), 16 columns each
 * in one zmm, so a full tile is 6 x 32 sums in 12 zmm registers: per step
 * of k two loads of B (one from each panel), six broadcasts of A, twelve
 * FMAs, twice the columns of the AVX2 tile for the same instructions.
 * The sums are the same FMAs in the same order as THGemm_tile's, so the
 * two give the same bits.  Partial tiles need no buffer: the columns past
 * nr are masked out of the loads and stores of c, the rows past mr are
 * not stored. */
THGEMM_TARGET512 __attribute__((always_inline))
static inline void THGemm_tile512(const int ROWS, const int VECS, int64_t kc, const float *a, int64_t ars,
                                  int64_t acs, const float *b, int64_t bps, const float *rowBias, float beta,
                                  float *c, int64_t ldc, int64_t mr, int64_t nr)
{
  __m512 sum[THGEMM_MR][2];
  if (beta != 0)
    THGemm_prefetchRows(c, ldc, mr, 16 * VECS);
#pragma GCC unroll 6
  for (int i = 0; i < ROWS; i++)
#pragma GCC unroll 2
    for (int h = 0; h < VECS; h++)
      sum[i][h] = rowBias ? _mm512_set1_ps(rowBias[i]) : _mm512_setzero_ps();
#pragma GCC unroll 4
  for (int64_t p = 0; p < kc; p++) {
    __m512 v[2];
#pragma GCC unroll 2
    for (int h = 0; h < VECS; h++)
      v[h] = _mm512_load_ps(b + h * bps);
#pragma GCC unroll 6
    for (int i = 0; i < ROWS; i++) {
      __m512 x = _mm512_set1_ps(a[i * ars]);
#pragma GCC unroll 2
      for (int h = 0; h < VECS; h++)
        sum[i][h] = _mm512_fmadd_ps(x, v[h], sum[i][h]);
    }
    a += acs;
    b += THGEMM_NR;
  }
  __m512 vb = _mm512_set1_ps(beta);
#pragma GCC unroll 2
  for (int h = 0; h < VECS; h++) {
    int64_t cols = nr - 16 * h;
    __mmask16 lanes = cols >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << cols) - 1);
#pragma GCC unroll 6
    for (int i = 0; i < ROWS; i++) {
      if (i >= mr)
        break;
      float *ci = c + i * ldc + 16 * h;
      __m512 s = sum[i][h];
      if (beta == 1)
        s = _mm512_add_ps(_mm512_maskz_loadu_ps(lanes, ci), s);
      else if (beta != 0)
        s = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(lanes, ci), s);
      _mm512_mask_storeu_ps(ci, lanes, s);
    }
  }
}

/* THGemm_tile512 for an mr x nr tile (mr <= MR, nr <= 2 * NR): the
 * instance of the fewest rows and panels (1, 2) that covers it. */
THGEMM_TARGET512
static void THGemm_kernel512(int64_t kc, const float *a, int64_t ars, int64_t acs, const float *b,
                             const float *rowBias, float beta, float *c, int64_t ldc, int64_t mr, int64_t nr)
{
  int64_t bps = THGEMM_NR * kc;
  if (nr > THGEMM_NR)
    THGEMM_BY_ROWS(THGemm_tile512, 2, kc, a, ars, acs, b, bps, rowBias, beta, c, ldc, mr, nr);
  else
    THGEMM_BY_ROWS(THGemm_tile512, 1, kc, a, ars, acs, b, bps, rowBias, beta, c, ldc, mr, nr);
}

/* The loop nest (see the top) with the packing buffers given: bpack of
 * THGEMM_BPACK floats, apack of THGEMM_APACK, both 32-byte aligned; bias
 * (NULL or m values biasStride apart) starts the sums of K's first block.
 * A's entry (i, p) at a[i * lda + p * acs]: acs 1 for a row-major A, else
 * A is a transposed matrix, each of its panels packed. */
THGEMM_TARGET
static void THGemm_run(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, int64_t acs0, THGemmPackB pack,
                       void *source, float beta, float *c, int64_t ldc, const float *bias, int64_t biasStride, float *bpack,
                       float *apack)
{
  /* on AVX-512, two panels of B at a time (THGemm_kernel512) */
  int wide = THUseAVX512();
  int64_t step = wide ? 2 * THGEMM_NR : THGEMM_NR;
  /* blocks of equal size (of whole panels along n), at most NC x KC: a
   * last block of a few columns or rows would pay a whole block's reading
   * of A or pass over C for little work (289 = 256 + 33, 1600 = 4 x 384 +
   * 64) */
  int64_t panels = (n + THGEMM_NR - 1) / THGEMM_NR, nBlocks = (n + THGEMM_NC - 1) / THGEMM_NC;
  int64_t ncMax = (panels + nBlocks - 1) / nBlocks * THGEMM_NR;
  int64_t kBlocks = (k + THGEMM_KC - 1) / THGEMM_KC, kcMax = (k + kBlocks - 1) / kBlocks;
  for (int64_t jc = 0; jc < n; jc += ncMax) {
    int64_t nc = n - jc < ncMax ? n - jc : ncMax;
    for (int64_t pc = 0; pc < k; pc += kcMax) {
      int64_t kc = k - pc < kcMax ? k - pc : kcMax;
      float blockBeta = pc == 0 ? beta : 1;   /* the first block scales c, the others add to it */
      pack(source, pc, kc, jc, nc, bpack);
      for (int64_t ir = 0; ir < m; ir += THGEMM_MR) {
        int64_t mr = m - ir < THGEMM_MR ? m - ir : THGEMM_MR;
        /* a whole panel is read where it lies (its 6 rows are 6 runs the
         * prefetcher follows, in L1 while it meets every B panel); the
         * last, partial one is packed with zeros in the missing rows */
        const float *panel = a + ir * lda + pc * acs0;
        int64_t ars = lda, acs = acs0;
        if (mr < THGEMM_MR || acs0 != 1) {
          THGemm_packA(panel, lda, acs0, kc, mr, apack);
          panel = apack, ars = 1, acs = THGEMM_MR;
        }
        float rowBias[THGEMM_MR] = {0};
        for (int64_t i = 0; bias && pc == 0 && i < mr; i++)
          rowBias[i] = bias[(ir + i) * biasStride];
        for (int64_t jr = 0; jr < nc; jr += step) {
          int64_t nr = nc - jr < step ? nc - jr : step;
          (wide ? THGemm_kernel512 : THGemm_kernel)(kc, panel, ars, acs, bpack + jr * kc,
                                                    bias && pc == 0 ? rowBias : NULL, blockBeta,
                                                    c + ir * ldc + jc + jr, ldc, mr, nr);
        }
      }
    }
  }
}

/* The calling thread's packing buffers (THGEMM_BPACK floats for B, then
 * THGEMM_APACK for A), allocated at its first product and freed when it
 * exits (libgomp creates threads afresh for nested regions: a buffer kept
 * in a plain thread-local pointer would leak with each); NULL when out of
 * memory. */
static pthread_key_t THGemmKey;
static pthread_once_t THGemmKeyOnce = PTHREAD_ONCE_INIT;
static int THGemmKeyFailed;

static void THGemm_makeKey(void)
{
  THGemmKeyFailed = pthread_key_create(&THGemmKey, free) != 0;
}

static float *THGemm_buffers(void)
{
  pthread_once(&THGemmKeyOnce, THGemm_makeKey);
  if (THGemmKeyFailed)
    return NULL;
  float *buffers = pthread_getspecific(THGemmKey);
  if (!buffers) {
    /* (a size that is a multiple of the alignment, as C11 demands: ASan's
     * aligned_alloc returns NULL for any other) */
    size_t bytes = (sizeof(float) * (THGEMM_BPACK + THGEMM_APACK) + 63) / 64 * 64;
    buffers = aligned_alloc(64, bytes);
    if (buffers && pthread_setspecific(THGemmKey, buffers) != 0) {
      free(buffers);
      buffers = NULL;
    }
  }
  return buffers;
}

#else

void THGemm_packRows(const float *b, int64_t ldb, int64_t kc, int64_t nc, float *dst, int64_t panelStride)
{
  for (int64_t p = 0; p < kc; p++, b += ldb)
    for (int64_t j = 0; j < (nc + THGEMM_NR - 1) / THGEMM_NR * THGEMM_NR; j++)
      dst[j / THGEMM_NR * panelStride + p * THGEMM_NR + j % THGEMM_NR] = j < nc ? b[j] : 0;
}

#endif

_Static_assert(THGEMM_NR == THGEMM_PANEL && THGEMM_NC == THGEMM_PACK_COLUMNS, "THGemm.h's panel sizes");

/* Products THGemm_floatPacked ran with a packer other than its own
 * (tests: that the convolutions took the image-packing path). */
static int64_t THGemmOtherPackers;

int64_t THGemm_packedProducts(void)
{
  return __atomic_load_n(&THGemmOtherPackers, __ATOMIC_RELAXED);
}

/* c [m, n] = A * B + beta * c (+ bias[i * biasStride] on row i where bias
 * is not NULL), A's entry (i, p) at a[i * ars + p * acs] (THGemm_run), c
 * row-major (rows ldc apart), in the calling thread, B [k, n] given by its
 * packer: THGemm_floatPacked's and THGemm_floatTransposedA's checks and
 * buffers.  0, or -1 when the CPU lacks AVX2/FMA or the buffers could not
 * be allocated.  k = 0 gives beta * c (+ bias). */
static int THGemm_product(int64_t m, int64_t n, int64_t k, const float *a, int64_t ars, int64_t acs,
                          THGemmPackB pack, void *source, float beta, float *c, int64_t ldc, const float *bias,
                          int64_t biasStride)
{
#if THGEMM_HAVE_AVX2
  if (!THGemm_floatAvailable())
    return -1;
  if (m <= 0 || n <= 0)
    return 0;
  if (k <= 0) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++)
        c[i * ldc + j] = (beta == 0 ? 0 : beta * c[i * ldc + j]) + (bias ? bias[i * biasStride] : 0);
    return 0;
  }
  float *buffers = THGemm_buffers();
  if (!buffers)
    return -1;
  if (pack != THGemm_packMatrix)
    __atomic_fetch_add(&THGemmOtherPackers, 1, __ATOMIC_RELAXED);
  THGemm_run(m, n, k, a, ars, acs, pack, source, beta, c, ldc, bias, biasStride, buffers, buffers + THGEMM_BPACK);
  return 0;
#else
  (void)m, (void)n, (void)k, (void)a, (void)ars, (void)acs, (void)pack, (void)source, (void)beta, (void)c;
  (void)ldc, (void)bias, (void)biasStride;
  return -1;
#endif
}

/* c [m, n] = a [m, k] * B + beta * c (+ bias[i * biasStride] on row i
 * where bias is not NULL), row-major (rows lda, ldc elements apart), in
 * the calling thread, B [k, n] given by its packer (THGemm.h).  0, or -1
 * when the CPU lacks AVX2/FMA or the buffers could not be allocated.
 * k = 0 gives beta * c (+ bias). */
int THGemm_floatPacked(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, THGemmPackB pack, void *source,
                       float beta, float *c, int64_t ldc, const float *bias, int64_t biasStride)
{
  return THGemm_product(m, n, k, a, lda, 1, pack, source, beta, c, ldc, bias, biasStride);
}

/* c [m, n] = a [m, k] * b [k, n] + beta * c (+ bias[i * biasStride] on
 * row i where bias is not NULL), row-major (rows lda, ldb, ldc elements
 * apart), in the calling thread.  0, or -1 when the CPU lacks AVX2/FMA or
 * the buffers could not be allocated (the caller then uses OpenBLAS).
 * k = 0 gives beta * c (+ bias). */
int THGemm_float(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                 float beta, float *c, int64_t ldc, const float *bias, int64_t biasStride)
{
#if THGEMM_HAVE_AVX2
  THGemmMatrix source = {b, ldb};
  return THGemm_floatPacked(m, n, k, a, lda, THGemm_packMatrix, &source, beta, c, ldc, bias, biasStride);
#else
  return -1;
#endif
}

/* c [m, n] = a^T * b [k, n] + beta * c, a stored [k, m] (rows lda
 * apart): the product of a convolution's gradInput and of the transposed
 * convolutions' forward (generic/unfold.h, convMultiplyFold), the weight
 * [nOut, K] transposed.  Each panel of MR columns of a is packed (MR
 * values side by side per step of k), then as THGemm_float: 0, or -1 when
 * the CPU lacks AVX2/FMA or the buffers could not be allocated. */
int THGemm_floatTransposedA(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                            float beta, float *c, int64_t ldc)
{
#if THGEMM_HAVE_AVX2
  THGemmMatrix source = {b, ldb};
  return THGemm_product(m, n, k, a, 1, lda, THGemm_packMatrix, &source, beta, c, ldc, NULL, 0);
#else
  (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  return -1;
#endif
}

/* Whether the convolutions pack THGemm's panels straight from the image
 * (generic/unfold.h) rather than from a column matrix: 1 unless a test
 * switched it off to compare the two. */
static int THGemmImagePackingOff;

void THGemm_setImagePacking(int on)
{
  THGemmImagePackingOff = !on;
}

int THGemm_imagePacking(void)
{
  return !THGemmImagePackingOff;
}
