/* THConvDirect.c: the float forward convolution as an "indirect" matrix
 * product (the scheme of XNNPACK's indirect GEMM, oriented for NCHW), on
 * CPUs with AVX2 and FMA.
 *
 * Why.  The column path (generic/unfold.h) writes the columns of the image
 * (im2col) or packs THGemm's panels from it, then multiplies: on small
 * images (the 48x48 face classifier's 5x5 64->64 on 21x21) that copying
 * was a third of the layer.  Here nothing of the image is copied (beyond a
 * zero-padded copy when the convolution pads): with the output seen as
 * out^T [pixel][plane] = A [pixel][k] * W^T [k][plane], k = (c, ky, kx),
 * the entry A[p][k] is image[pix(p) + off[k]], pix(p) the offset of output
 * pixel p's top-left tap and off[k] that of tap k, so the micro-kernel
 * broadcasts it straight from the image: any step, padding or dilation.
 *
 * Micro-kernel.  6 output pixels (possibly across output rows: a row of 17
 * pixels wastes no lanes) x 16 output planes in 12 ymm sums; per k two
 * loads of the packed weight ([K][16] per panel of 16 planes, the bias as
 * its first row: the sums start from it), one load of off[k], six
 * broadcasts from the six pixels' pointers + off[k], twelve FMAs.  The
 * last, partial tile repeats its last pixel (so only pixels of the output
 * are read) and drops those lanes; a panel of 8 planes or fewer runs the
 * instance of one vector.  The sums are written transposed into the NCHW
 * output (16 planes x 6 consecutive pixels) by an 8x8 shuffle.  K runs in
 * blocks (THGemmConv_tiles), the sums waiting in a buffer between them.
 * On AVX-512 (THUseAVX512()) the tile takes two panels at once, 6 pixels x
 * 32 planes in 12 zmm sums, the same instruction count for twice the
 * planes; its sums go out through the same 8x8 transposition, a half of a
 * zmm at a time.
 *
 * Values.  Every output is the bias plus the products in the order of k
 * (c, then ky, then kx), fused multiply-adds in one chain (the buffer
 * between blocks of K carries the chain on), so NaN and infinities
 * propagate as in any sum; the padding's zeros multiply finite
 * weights only when the weight is finite (0 * inf is NaN, as in the
 * column path's product).
 *
 * Dispatch.  Compiled with a target attribute, run only behind
 * THGemm_floatAvailable(); the names start with THGemm, which
 * tests/test_cpu_dispatch.py lists among the gated ones. */
#include "TH.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "THConvDirect.h"
#include "THGemm.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define THGEMMCONV_HAVE_AVX2 1
#include <immintrin.h>
#define THGEMMCONV_TARGET __attribute__((target("avx2,fma")))
#define THGEMMCONV_TARGET512 __attribute__((target("avx512f,avx2,fma")))
#else
#define THGEMMCONV_HAVE_AVX2 0
#endif

#define TILE THGEMM_CONV_TILE
#define PANEL THGEMM_CONV_PANEL
#define THGEMMCONV_GROUP 64            /* tiles in a group, at most */
#define THGEMMCONV_SUMS (96 << 10)       /* bytes of a group's sums between blocks of K */
#define THGEMMCONV_KC 256                /* steps of k in a block, at most */

int64_t THGemmConv_packedSize(int64_t nOut, int64_t K)
{
  return (nOut + PANEL - 1) / PANEL * PANEL * (K + 1);
}

void THGemmConv_pack(const float *w, int64_t lda, int64_t nOut, int64_t K, const float *bias, int64_t biasStride,
                     int64_t q0, int64_t q1, float *dst)
{
  for (int64_t q = q0; q < q1; q++) {
    float *d = dst + q * PANEL * (K + 1);
    int64_t o0 = q * PANEL, n = nOut - o0 < PANEL ? nOut - o0 : PANEL;
    for (int64_t j = 0; j < PANEL; j++)
      d[j] = j < n && bias ? bias[(o0 + j) * biasStride] : 0;
    d += PANEL;
    /* (row by row of the panel: 16 rows of w read side by side, the
     * panel written in order; column by column it was 16 passes over a
     * panel of up to 295 KB, and the packing of 3x3 512->512 took longer
     * than its product) */
    const float *row[PANEL];
    for (int64_t j = 0; j < PANEL; j++)
      row[j] = w + (o0 + (j < n ? j : 0)) * lda;
    for (int64_t k = 0; k < K; k++, d += PANEL)
      for (int64_t j = 0; j < PANEL; j++)
        d[j] = j < n ? row[j][k] : 0;
  }
}

#if THGEMMCONV_HAVE_AVX2

/* Planes [0, planes) (at most 8) of a tile's sums, eight[i] holding
 * pixel i's sums of 8 planes, into out[j * area + i], i < np: transposed,
 * rows = the 6 pixels (and 2 unused), lanes = planes, turned into rows =
 * planes, lanes = pixels; each plane's pixels are one store of 8 where
 * `room` (the pixels from this tile's first to the end of the caller's
 * range) allows, its last 2 lanes written again later by the next tile
 * (scalar stores of the 96 sums cost as much as the sums of a tile over 27
 * taps, and AMD's masked stores are slower still). */
THGEMMCONV_TARGET __attribute__((always_inline))
static inline void THGemmConv_write8(const __m256 *eight, float *out, int64_t area, int64_t np, int64_t room,
                                     int64_t planes)
{
  __m256 t0 = _mm256_unpacklo_ps(eight[0], eight[1]), t1 = _mm256_unpackhi_ps(eight[0], eight[1]);
  __m256 t2 = _mm256_unpacklo_ps(eight[2], eight[3]), t3 = _mm256_unpackhi_ps(eight[2], eight[3]);
  __m256 t4 = _mm256_unpacklo_ps(eight[4], eight[5]), t5 = _mm256_unpackhi_ps(eight[4], eight[5]);
  __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 u4 = _mm256_shuffle_ps(t4, t4, 0x44), u5 = _mm256_shuffle_ps(t4, t4, 0xEE);
  __m256 u6 = _mm256_shuffle_ps(t5, t5, 0x44), u7 = _mm256_shuffle_ps(t5, t5, 0xEE);
  __m256 plane[8] = {_mm256_permute2f128_ps(u0, u4, 0x20), _mm256_permute2f128_ps(u1, u5, 0x20),
                     _mm256_permute2f128_ps(u2, u6, 0x20), _mm256_permute2f128_ps(u3, u7, 0x20),
                     _mm256_permute2f128_ps(u0, u4, 0x31), _mm256_permute2f128_ps(u1, u5, 0x31),
                     _mm256_permute2f128_ps(u2, u6, 0x31), _mm256_permute2f128_ps(u3, u7, 0x31)};
  if (planes > 8)
    planes = 8;
  if (room >= 8) {
    for (int64_t j = 0; j < planes; j++)
      _mm256_storeu_ps(out + j * area, plane[j]);
  } else {
    for (int64_t j = 0; j < planes; j++) {
      float row[8] __attribute__((aligned(32)));
      _mm256_store_ps(row, plane[j]);
      for (int64_t i = 0; i < np; i++)
        out[j * area + i] = row[i];
    }
  }
}

/* One tile over kc steps of k: pixels px[0..5] (pointers into the image
 * at their pix(p)), kc rows [kc][16] of one panel at w.  The sums start
 * from `from` (a [6][16] buffer of the earlier blocks' sums) or, NULL,
 * from the panel's bias row `bias`; they go to `to` (such a buffer) or,
 * NULL, to out[o * area + i], the first np pixels and nOut planes (and
 * up to 8 pixels where room >= 8: the next tile's, which it rewrites). */
THGEMMCONV_TARGET __attribute__((always_inline))
static inline void THGemmConv_tile(const int HALVES, const float *const *px, const int64_t *off, int64_t kc,
                                   const float *w, const float *bias, const float *from, float *to, float *out,
                                   int64_t area, int64_t np, int64_t room, int64_t nOut)
{
  __m256 sum[TILE][2];
#pragma GCC unroll 6
  for (int i = 0; i < TILE; i++)
#pragma GCC unroll 2
    for (int h = 0; h < HALVES; h++)
      sum[i][h] = _mm256_load_ps((from ? from + i * PANEL : bias) + 8 * h);
  const float *a0 = px[0], *a1 = px[1], *a2 = px[2], *a3 = px[3], *a4 = px[4], *a5 = px[5];
#pragma GCC unroll 4
  for (int64_t k = 0; k < kc; k++) {
    int64_t o = off[k];
    __m256 v[2];
#pragma GCC unroll 2
    for (int h = 0; h < HALVES; h++)
      v[h] = _mm256_load_ps(w + 8 * h);
    __m256 x;
#define THGEMMCONV_ROW(i, a)                                                                                          \
  x = _mm256_broadcast_ss(a + o);                                                                                     \
  for (int h = 0; h < HALVES; h++)                                                                                    \
    sum[i][h] = _mm256_fmadd_ps(x, v[h], sum[i][h]);
    THGEMMCONV_ROW(0, a0)
    THGEMMCONV_ROW(1, a1)
    THGEMMCONV_ROW(2, a2)
    THGEMMCONV_ROW(3, a3)
    THGEMMCONV_ROW(4, a4)
    THGEMMCONV_ROW(5, a5)
#undef THGEMMCONV_ROW
    w += PANEL;
  }
  if (to) {
#pragma GCC unroll 6
    for (int i = 0; i < TILE; i++)
#pragma GCC unroll 2
      for (int h = 0; h < HALVES; h++)
        _mm256_store_ps(to + i * PANEL + 8 * h, sum[i][h]);
    return;
  }
#pragma GCC unroll 2
  for (int h = 0; h < HALVES; h++) {
    __m256 eight[TILE];
#pragma GCC unroll 6
    for (int i = 0; i < TILE; i++)
      eight[i] = sum[i][h];
    THGemmConv_write8(eight, out + 8 * h * area, area, np, room, nOut - 8 * h);
  }
}

/* THGemmConv_tile's AVX-512 twin (THUseAVX512()): VECS panels side by
 * side (panel v's rows at w + v * wps, its bias row at bias + v * wps),
 * 16 planes each in one zmm, so a full tile is 6 pixels x 32 planes in 12
 * zmm sums: per k two loads of the weight, six broadcasts, twelve FMAs,
 * twice the planes of the AVX2 tile for the same instructions.  The same
 * FMAs in the same order: the same bits.  from/to: the buffers of the VECS
 * panels, TILE * PANEL floats apart; nOut: the planes of them all. */
THGEMMCONV_TARGET512 __attribute__((always_inline))
static inline void THGemmConv_tile512(const int VECS, const float *const *px, const int64_t *off, int64_t kc,
                                      const float *w, int64_t wps, const float *bias, const float *from, float *to,
                                      float *out, int64_t area, int64_t np, int64_t room, int64_t nOut)
{
  __m512 sum[TILE][2];
#pragma GCC unroll 6
  for (int i = 0; i < TILE; i++)
#pragma GCC unroll 2
    for (int v = 0; v < VECS; v++)
      sum[i][v] = _mm512_loadu_ps(from ? from + (v * TILE + i) * PANEL : bias + v * wps);
  const float *a0 = px[0], *a1 = px[1], *a2 = px[2], *a3 = px[3], *a4 = px[4], *a5 = px[5];
#pragma GCC unroll 4
  for (int64_t k = 0; k < kc; k++) {
    int64_t o = off[k];
    __m512 b[2];
#pragma GCC unroll 2
    for (int v = 0; v < VECS; v++)
      b[v] = _mm512_loadu_ps(w + v * wps);
    __m512 x;
#define THGEMMCONV_ROW(i, a)                                                                                          \
  x = _mm512_set1_ps(a[o]);                                                                                           \
  for (int v = 0; v < VECS; v++)                                                                                      \
    sum[i][v] = _mm512_fmadd_ps(x, b[v], sum[i][v]);
    THGEMMCONV_ROW(0, a0)
    THGEMMCONV_ROW(1, a1)
    THGEMMCONV_ROW(2, a2)
    THGEMMCONV_ROW(3, a3)
    THGEMMCONV_ROW(4, a4)
    THGEMMCONV_ROW(5, a5)
#undef THGEMMCONV_ROW
    w += PANEL;
  }
  if (to) {
#pragma GCC unroll 6
    for (int i = 0; i < TILE; i++)
#pragma GCC unroll 2
      for (int v = 0; v < VECS; v++)
        _mm512_storeu_ps(to + (v * TILE + i) * PANEL, sum[i][v]);
    return;
  }
#pragma GCC unroll 4
  for (int h = 0; h < 2 * VECS; h++) {
    if (nOut <= 8 * h)
      break;
    __m256 eight[TILE];
#pragma GCC unroll 6
    for (int i = 0; i < TILE; i++)
      eight[i] = h % 2 ? _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(sum[i][h / 2]), 1))
                       : _mm512_castps512_ps256(sum[i][h / 2]);
    THGemmConv_write8(eight, out + 8 * h * area, area, np, room, nOut - 8 * h);
  }
}

/* The tiles of pixels [p, ...) against panels [q, q + VECS) (see the loop
 * nest below): the AVX-512 tile, an instance per VECS. */
THGEMMCONV_TARGET512
static void THGemmConv_tiles512(int VECS, const float *const *t, const int64_t *off, int64_t kc, const float *w,
                                int64_t wps, const float *bias, const float *from, float *to, float *out,
                                int64_t area, int64_t np, int64_t room, int64_t nOut)
{
  if (VECS == 2)
    THGemmConv_tile512(2, t, off, kc, w, wps, bias, from, to, out, area, np, room, nOut);
  else
    THGemmConv_tile512(1, t, off, kc, w, wps, bias, from, to, out, area, np, room, nOut);
}

/* The loop nest.  Tiles in groups of up to THGEMMCONV_GROUP tiles whose
 * sums over all the panels fit THGEMMCONV_SUMS bytes; K in blocks of at
 * most THGEMMCONV_KC steps, all of a size; for each group, each block of
 * K, each panel: the group's tiles.  A panel's block (KC x 64 bytes) thus
 * stays in L1 while it meets the group's tiles, whose pixels over the
 * block's taps are a few rows of a few planes; between blocks the sums
 * wait in a buffer ([6][16] per tile and panel, vector loads and stores),
 * and only the last block writes them, transposed, into the output.
 * Without blocks (a tile after another meeting every panel over the whole
 * of K) a weight larger than L2 (3x3 of 512 planes: 9.4 MB) came from
 * memory for every tile: 30-35 GF/s. */
THGEMMCONV_TARGET
void THGemmConv_tiles(const float *image, const int64_t *off, int64_t K, const float *packed, int64_t nOut,
                      int64_t outW, int64_t rowStep, int64_t colStep, int64_t p0, int64_t p1, float *out,
                      int64_t area)
{
  int64_t panels = (nOut + PANEL - 1) / PANEL, panelSize = PANEL * (K + 1);
  int64_t kBlocks = (K + THGEMMCONV_KC - 1) / THGEMMCONV_KC, kcMax = (K + kBlocks - 1) / kBlocks;
  int64_t groupTiles = THGEMMCONV_SUMS / (int64_t)sizeof(float) / (panels * TILE * PANEL);
  if (groupTiles > THGEMMCONV_GROUP)
    groupTiles = THGEMMCONV_GROUP;
  if (groupTiles < 1)
    groupTiles = 1;
  int64_t group = groupTiles * TILE;
  float *sums = NULL;
  if (kBlocks > 1) {
    sums = aligned_alloc(64, (size_t)(groupTiles * panels * TILE * PANEL) * sizeof(float));
    if (!sums)   /* (out of memory: one block of the whole of K, no sums to keep) */
      kBlocks = 1, kcMax = K;
  }
  int64_t y = outW > 0 ? p0 / outW : 0, x = outW > 0 ? p0 % outW : 0;
  const float *px[THGEMMCONV_GROUP][TILE];
  /* on AVX-512, two panels at a time (THGemmConv_tile512) */
  int wide = THUseAVX512();
  int64_t vecs = wide ? 2 : 1;
  for (int64_t g0 = p0; g0 < p1; g0 += group) {
    int64_t g1 = g0 + group < p1 ? g0 + group : p1;
    for (int64_t p = g0; p < g1; p += TILE) {
      int64_t np = g1 - p < TILE ? g1 - p : TILE;
      const float **t = px[(p - g0) / TILE];
      for (int i = 0; i < TILE; i++) {
        t[i] = image + y * rowStep + x * colStep;
        if (i + 1 < np && ++x == outW)   /* (the last pixel repeated in a partial tile) */
          x = 0, y++;
      }
      if (++x == outW)
        x = 0, y++;
    }
    for (int64_t pc = 0; pc < K; pc += kcMax) {
      int64_t kc = K - pc < kcMax ? K - pc : kcMax;
      int first = pc == 0, last = pc + kc == K;
      for (int64_t q = 0; q < panels; q += vecs) {
        int64_t n = nOut - q * PANEL < PANEL ? nOut - q * PANEL : PANEL;
        const float *panel = packed + q * panelSize;
        int pair = wide && q + 1 < panels;
        for (int64_t p = g0; p < g1; p += TILE) {
          int64_t np = g1 - p < TILE ? g1 - p : TILE, tileIndex = (p - g0) / TILE;
          const float *const *t = (const float *const *)px[tileIndex];
          float *mine = sums ? sums + (tileIndex * panels + q) * TILE * PANEL : NULL;
          if (wide)
            THGemmConv_tiles512(pair ? 2 : 1, t, off + pc, kc, panel + PANEL * (1 + pc), panelSize, panel,
                                first ? NULL : mine, last ? NULL : mine, out + q * PANEL * area + p, area, np,
                                p1 - p, nOut - q * PANEL);
          else if (n > 8)
            THGemmConv_tile(2, t, off + pc, kc, panel + PANEL * (1 + pc), panel, first ? NULL : mine,
                            last ? NULL : mine, out + q * PANEL * area + p, area, np, p1 - p, n);
          else
            THGemmConv_tile(1, t, off + pc, kc, panel + PANEL * (1 + pc), panel, first ? NULL : mine,
                            last ? NULL : mine, out + q * PANEL * area + p, area, np, p1 - p, n);
        }
      }
    }
  }
  free(sums);
}

#else

void THGemmConv_tiles(const float *image, const int64_t *off, int64_t K, const float *packed, int64_t nOut,
                      int64_t outW, int64_t rowStep, int64_t colStep, int64_t p0, int64_t p1, float *out,
                      int64_t area)
{
  (void)image, (void)off, (void)K, (void)packed, (void)nOut, (void)outW, (void)rowStep, (void)colStep;
  (void)p0, (void)p1, (void)out, (void)area;
}

#endif

TH_PATH_SWITCH(THGemmConv)
