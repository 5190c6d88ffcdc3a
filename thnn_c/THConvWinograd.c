/* THConvWinograd.c: the float forward 3x3 convolution of step 1 by
 * Winograd's minimal filtering F(2x2, 3x3) (Lavin and Gray, "Fast
 * Algorithms for Convolutional Neural Networks", 2015), on CPUs with AVX2
 * and FMA.
 *
 * Why.  The 3x3 convolutions of step 1 are most of the work of VGG and
 * ResNet, and the column and indirect products (generic/unfold.h,
 * THConvDirect.c) spend 36 multiply-adds per input plane on each 2x2 block
 * of outputs.  Here a 4x4 tile d of the padded image gives the 2x2 block
 * as Y = A^T [U . V] A, with V = B^T d B (additions only), U = G g G^T the
 * kernel g transformed once per call, and the 16 products U . V summed over
 * the input planes: 16 matrix products (one per entry xi of the 4x4 tile)
 * M[xi] [nOut, tiles] = U[xi] [nOut, nIn] * V[xi] [nIn, tiles], run by
 * THGemm_float, 2.25 times fewer multiply-adds than the direct sums.
 *
 *          1  0 -1  0              1    0    0             1  1  1  0
 *   B^T =  0  1  1  0       G =   1/2  1/2  1/2     A^T =  0  1 -1 -1
 *          0 -1  1  0             1/2 -1/2  1/2
 *          0  1  0 -1              0    0    1
 *
 * Each transform is two 1-d transforms, along rows then columns; the
 * tiles of a tile row are transformed together (the even and odd pixels of
 * the image rows they read gathered first, so that every step is a run of
 * consecutive tiles the compiler vectorizes).
 *
 * Values.  The sums are those of the convolution regrouped, so they differ
 * from the direct sums in rounding only: the transforms add and subtract
 * at most 4 values and halve, and the output is within the float
 * tolerance of the tests (tests/test_winograd_convolution.py).  An
 * infinity or NaN in a tile would reach all four of its outputs (0 * inf
 * is NaN in the transforms), and values near the float range could
 * overflow in a transform where the direct sums do not: generic/unfold.h
 * takes this path only for finite images and weights whose sums stay far
 * below the range, and the others keep the direct products' values.  A
 * tile's outputs do not depend on where it lies in its block or batch, so
 * a sample convolved alone gives the same values as in a batch.
 *
 * Dispatch.  Compiled with a target attribute, run only behind
 * THGemm_floatAvailable(); the names start with THGemm, which
 * tests/test_cpu_dispatch.py lists among the gated ones. */
#include "TH.h"

#include <math.h>
#include <stdint.h>

#include "THConvWinograd.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define THGEMMWINO_HAVE_AVX2 1
#include <immintrin.h>
#define THGEMMWINO_TARGET __attribute__((target("avx2,fma")))
#else
#define THGEMMWINO_HAVE_AVX2 0
#define THGEMMWINO_TARGET
#endif

int64_t THGemmWino_stride(int64_t size)
{
  int64_t lines = (size + 15) / 16;
  return 16 * (lines | 1);
}

int64_t THGemmWino_weightSize(int64_t nOut, int64_t nIn)
{
  return 16 * THGemmWino_stride(nOut * nIn);
}

/* U's 16 values of kernel c of plane o from its 9, g[q][c] (q = 3 row +
 * column): G g along the kernel's columns, then (G g) G^T along its rows,
 * each sum in the order written (the vector path below makes the same). */
#define THGEMMWINO_KERNEL(T, HALF, ADD, SUB, MUL, g, put)                          \
  do {                                                                            \
    T h_[4][3];                                                                   \
    for (int j_ = 0; j_ < 3; j_++) {                                              \
      h_[0][j_] = g[j_];                                                          \
      h_[1][j_] = MUL(HALF, ADD(ADD(g[j_], g[3 + j_]), g[6 + j_]));               \
      h_[2][j_] = MUL(HALF, ADD(SUB(g[j_], g[3 + j_]), g[6 + j_]));               \
      h_[3][j_] = g[6 + j_];                                                      \
    }                                                                             \
    for (int i_ = 0; i_ < 4; i_++) {                                              \
      put(4 * i_, h_[i_][0]);                                                     \
      put(4 * i_ + 1, MUL(HALF, ADD(ADD(h_[i_][0], h_[i_][1]), h_[i_][2])));      \
      put(4 * i_ + 2, MUL(HALF, ADD(SUB(h_[i_][0], h_[i_][1]), h_[i_][2])));      \
      put(4 * i_ + 3, h_[i_][2]);                                                 \
    }                                                                             \
  } while (0)
#define THGEMMWINO_ADD(a, b) ((a) + (b))
#define THGEMMWINO_SUB(a, b) ((a) - (b))
#define THGEMMWINO_MUL(a, b) ((a) * (b))

#if THGEMMWINO_HAVE_AVX2
/* g[q] = value q of the 8 kernels from src on (9 floats each, one after
 * the other), a lane each: their first 8 values transposed as an 8x8
 * block, the ninth gathered. */
THGEMMWINO_TARGET static inline void load8Kernels(const float *src, __m256 g[9])
{
  __m256 r[8], t[8], u[8];
  for (int k = 0; k < 8; k++)
    r[k] = _mm256_loadu_ps(src + 9 * k);
  for (int k = 0; k < 8; k += 2) {   /* pairs of rows interleaved */
    t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
    t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
  }
  for (int k = 0; k < 8; k += 4) {   /* four rows' values 0-3 and 4-7 by halves */
    u[k] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(1, 0, 1, 0));
    u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], _MM_SHUFFLE(3, 2, 3, 2));
    u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(1, 0, 1, 0));
    u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int q = 0; q < 4; q++) {   /* rows 0-3 and 4-7 joined */
    g[q] = _mm256_permute2f128_ps(u[q], u[q + 4], 0x20);
    g[q + 4] = _mm256_permute2f128_ps(u[q], u[q + 4], 0x31);
  }
  g[8] = _mm256_i32gather_ps(src + 8, _mm256_setr_epi32(0, 9, 18, 27, 36, 45, 54, 63), 4);
}
#endif

/* The largest magnitude so far (m) and z, 0 until an infinity or NaN is
 * seen (inf * 0 is NaN), for THGemmWino_weight and THGemmWino_maxAbs: one
 * value, 8 lanes, the lanes folded into (m, z), the result. */
static inline void magnitudeOf(float x, float *m, float *z)
{
  float a = fabsf(x);
  *m = a > *m ? a : *m;
  *z += x * 0.0f;
}

#if THGEMMWINO_HAVE_AVX2
THGEMMWINO_TARGET static inline void magnitudeOf8(__m256 v, __m256 *vm, __m256 *vz)
{
  *vm = _mm256_max_ps(_mm256_andnot_ps(_mm256_set1_ps(-0.0f), v), *vm);
  *vz = _mm256_fmadd_ps(v, _mm256_setzero_ps(), *vz);
}

THGEMMWINO_TARGET static inline void foldMagnitudes(__m256 vm, __m256 vz, float *m, float *z)
{
  float lanes[8], zeros[8];
  _mm256_storeu_ps(lanes, vm);
  _mm256_storeu_ps(zeros, vz);
  for (int k = 0; k < 8; k++) {
    *m = lanes[k] > *m ? lanes[k] : *m;
    *z += zeros[k];
  }
}
#endif

static inline float magnitude(float m, float z)
{
  return z == 0 ? m : NAN;
}

THGEMMWINO_TARGET float THGemmWino_weight(const float *w, int64_t nOut, int64_t nIn, int64_t o0, int64_t o1,
                                          float *U)
{
  int64_t xiStride = THGemmWino_stride(nOut * nIn);
  float m = 0, z = 0;
#if THGEMMWINO_HAVE_AVX2
  __m256 vm = _mm256_setzero_ps(), vz = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
#endif
  for (int64_t o = o0; o < o1; o++) {
    const float *src = w + o * nIn * 9;
    float *u = U + o * nIn;
    int64_t c = 0;
#if THGEMMWINO_HAVE_AVX2
    for (; c + 8 <= nIn; c += 8) {
      __m256 g[9];
      load8Kernels(src + 9 * c, g);
      for (int q = 0; q < 9; q++)
        magnitudeOf8(g[q], &vm, &vz);
#define THGEMMWINO_PUT8(xi, v) _mm256_storeu_ps(u + (xi) * xiStride + c, v)
      THGEMMWINO_KERNEL(__m256, half, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps, g, THGEMMWINO_PUT8);
#undef THGEMMWINO_PUT8
    }
#endif
    for (; c < nIn; c++) {
      const float *g = src + 9 * c;
      for (int q = 0; q < 9; q++)
        magnitudeOf(g[q], &m, &z);
#define THGEMMWINO_PUT1(xi, v) (u[(xi) * xiStride + c] = (v))
      THGEMMWINO_KERNEL(float, 0.5f, THGEMMWINO_ADD, THGEMMWINO_SUB, THGEMMWINO_MUL, g, THGEMMWINO_PUT1);
#undef THGEMMWINO_PUT1
    }
  }
#if THGEMMWINO_HAVE_AVX2
  foldMagnitudes(vm, vz, &m, &z);
#endif
  return magnitude(m, z);
}

THGEMMWINO_TARGET float THGemmWino_maxAbs(const float *x, int64_t n)
{
  float m = 0, z = 0;
  int64_t i = 0;
#if THGEMMWINO_HAVE_AVX2
  __m256 vm = _mm256_setzero_ps(), vz = _mm256_setzero_ps();
  for (; i + 8 <= n; i += 8)
    magnitudeOf8(_mm256_loadu_ps(x + i), &vm, &vz);
  foldMagnitudes(vm, vz, &m, &z);
#endif
  for (; i < n; i++)
    magnitudeOf(x[i], &m, &z);
  return magnitude(m, z);
}

/* An image row (NULL: a row of the padding) read at pixels 2k - padW
 * (even) and 2k + 1 - padW (odd), k in [0, tilesW]: the columns 0, 2 and
 * 1, 3 of the tiles (tile x reads k = x and x + 1). */
THGEMMWINO_TARGET static void gatherRow(const THGemmWinoShape *s, const float *row, float *restrict even,
                                        float *restrict odd)
{
  int64_t n = s->tilesW + 1;
  /* k in [lo, hi): both pixels inside the row */
  int64_t lo = (s->padW + 1) / 2, hi = (s->inW + s->padW - 1) / 2;
  if (!row || hi < lo)
    lo = hi = 0;
  if (hi > n)
    hi = n;
  for (int64_t k = 0; k < lo; k++) {
    int64_t x = 2 * k - s->padW;
    even[k] = row && x >= 0 && x < s->inW ? row[x] : 0;
    odd[k] = row && x + 1 >= 0 && x + 1 < s->inW ? row[x + 1] : 0;
  }
  const float *restrict inside = row ? row - s->padW : NULL;
  for (int64_t k = lo; k < hi; k++) {
    even[k] = inside[2 * k];
    odd[k] = inside[2 * k + 1];
  }
  for (int64_t k = hi > lo ? hi : lo; k < n; k++) {
    int64_t x = 2 * k - s->padW;
    even[k] = row && x >= 0 && x < s->inW ? row[x] : 0;
    odd[k] = row && x + 1 >= 0 && x + 1 < s->inW ? row[x + 1] : 0;
  }
}

/* One row's 1-d transform d B for every tile of a tile row. */
THGEMMWINO_TARGET static void rowTransform(int64_t tw, const float *restrict even, const float *restrict odd,
                                           float *restrict e0, float *restrict e1, float *restrict e2,
                                           float *restrict e3)
{
  for (int64_t x = 0; x < tw; x++) {
    e0[x] = even[x] - even[x + 1];
    e1[x] = odd[x] + even[x + 1];
    e2[x] = even[x + 1] - odd[x];
    e3[x] = odd[x] - odd[x + 1];
  }
}

/* The same transform along the columns: rows r0..r3 of d B into V's rows v0..v3. */
THGEMMWINO_TARGET static void columnTransform(int64_t tw, const float *restrict r0, const float *restrict r1,
                                              const float *restrict r2, const float *restrict r3,
                                              float *restrict v0, float *restrict v1, float *restrict v2,
                                              float *restrict v3)
{
  for (int64_t x = 0; x < tw; x++) {
    v0[x] = r0[x] - r2[x];
    v1[x] = r1[x] + r2[x];
    v2[x] = r2[x] - r1[x];
    v3[x] = r1[x] - r3[x];
  }
}

THGEMMWINO_TARGET void THGemmWino_input(const THGemmWinoShape *s, const float *image, int64_t s0, int64_t s1,
                                        int64_t c0, int64_t c1, float *V, float *scratch)
{
  int64_t tw = s->tilesW, cols = (s1 - s0) * tw, xiStride = THGemmWino_stride(s->nIn * cols);
  int64_t plane = s->inH * s->inW;
  float *even = scratch, *odd = even + tw + 1, *e = odd + tw + 1;   /* e: [4 rows][4][tw] */
  for (int64_t c = c0; c < c1; c++)
    for (int64_t t = s0; t < s1; t++) {
      int64_t n = t / s->tilesH, ty = t % s->tilesH;
      const float *img = image + (n * s->nIn + c) * plane;
      for (int r = 0; r < 4; r++) {
        int64_t y = 2 * ty - s->padH + r;
        gatherRow(s, y >= 0 && y < s->inH ? img + y * s->inW : NULL, even, odd);
        float *er = e + 4 * r * tw;
        rowTransform(tw, even, odd, er, er + tw, er + 2 * tw, er + 3 * tw);
      }
      float *dst = V + c * cols + (t - s0) * tw;
      for (int j = 0; j < 4; j++) {
        const float *r0 = e + j * tw;
        float *v0 = dst + j * xiStride;
        columnTransform(tw, r0, r0 + 4 * tw, r0 + 8 * tw, r0 + 12 * tw, v0, v0 + 4 * xiStride, v0 + 8 * xiStride,
                        v0 + 12 * xiStride);
      }
    }
}

THGEMMWINO_TARGET void THGemmWino_output(const THGemmWinoShape *s, const float *M, int64_t s0, int64_t s1, int64_t o0,
                                         int64_t o1, const float *bias, int64_t biasStride, float *out,
                                         float *scratch)
{
  int64_t tw = s->tilesW, cols = (s1 - s0) * tw, xiStride = THGemmWino_stride(s->nOut * cols);
  int64_t area = s->outH * s->outW, pairs = s->outW / 2;
  float *a = scratch;   /* A^T m: [2][4][tw] */
  for (int64_t o = o0; o < o1; o++) {
    float b = bias ? bias[o * biasStride] : 0;
    for (int64_t t = s0; t < s1; t++) {
      const float *m = M + o * cols + (t - s0) * tw;
      for (int j = 0; j < 4; j++) {   /* along the columns */
        const float *m0 = m + j * xiStride, *m1 = m0 + 4 * xiStride, *m2 = m1 + 4 * xiStride,
                    *m3 = m2 + 4 * xiStride;
        float *a0 = a + j * tw, *a1 = a0 + 4 * tw;
        for (int64_t x = 0; x < tw; x++) {
          a0[x] = m0[x] + m1[x] + m2[x];
          a1[x] = m1[x] - m2[x] - m3[x];
        }
      }
      int64_t n = t / s->tilesH, ty = t % s->tilesH;
      float *row = out + (n * s->nOut + o) * area + 2 * ty * s->outW;
      for (int i = 0; i < 2 && 2 * ty + i < s->outH; i++, row += s->outW) {   /* along the rows */
        const float *q0 = a + 4 * i * tw, *q1 = q0 + tw, *q2 = q1 + tw, *q3 = q2 + tw;
        for (int64_t x = 0; x < pairs; x++) {
          row[2 * x] = b + (q0[x] + q1[x] + q2[x]);
          row[2 * x + 1] = b + (q1[x] - q2[x] - q3[x]);
        }
        if (s->outW % 2)
          row[2 * pairs] = b + (q0[pairs] + q1[pairs] + q2[pairs]);
      }
    }
  }
}

TH_PATH_SWITCH(THGemmWino)
