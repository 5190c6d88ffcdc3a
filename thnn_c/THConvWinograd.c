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
 * F(2x2, 5x5).  The same for 5x5 kernels (THGemmWinoShape.kernel 5): a
 * 6x6 tile, 36 products for 100 multiply-adds, with the B^T, G and A^T of
 * the interpolation points 0, 1, -1, 2, -2 and infinity (written out where
 * they are used below).  Its transforms add up to 10 values with factors
 * up to 5 and divide by 6 and 24, so the rounding grows (about 1e-6 of the
 * sum of the magnitudes against 1e-7) and the overflow check is wider
 * (generic/unfold.h).  The tile rows gather 2 more pixels (even and odd)
 * and the machinery (strides, blocks, threads, fallbacks) is shared.
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

int64_t THGemmWino_weightSize(int k, int64_t nOut, int64_t nIn)
{
  return (int64_t)(k + 1) * (k + 1) * THGemmWino_stride(nOut * nIn);
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

/* F(2x2, 5x5)'s G (interpolation points 0, 1, -1, 2, -2 and infinity)
 * along 5 values g[0], g[k], ..., g[4k] into h[0..5] (C: a constant):
 *
 *          1/4     0     0     0     0
 *         -1/6  -1/6  -1/6  -1/6  -1/6
 *   G =   -1/6   1/6  -1/6   1/6  -1/6
 *         1/24  1/12   1/6   1/3   2/3
 *         1/24 -1/12   1/6  -1/3   2/3
 *            0     0     0     0     1                                      */
#define THGEMMWINO_G5(T, ADD, SUB, MUL, C, g, k, h)                                      \
  do {                                                                                   \
    T e_ = ADD(ADD(g[0], g[2 * (k)]), g[4 * (k)]), o_ = ADD(g[k], g[3 * (k)]);           \
    T e4_ = ADD(ADD(g[0], MUL(C(4.0f), g[2 * (k)])), MUL(C(16.0f), g[4 * (k)]));         \
    T o4_ = MUL(C(2.0f), ADD(g[k], MUL(C(4.0f), g[3 * (k)])));                           \
    h[0] = MUL(C(0.25f), g[0]);                                                          \
    h[1] = MUL(C(-1.0f / 6), ADD(e_, o_));                                               \
    h[2] = MUL(C(-1.0f / 6), SUB(e_, o_));                                               \
    h[3] = MUL(C(1.0f / 24), ADD(e4_, o4_));                                             \
    h[4] = MUL(C(1.0f / 24), SUB(e4_, o4_));                                             \
    h[5] = g[4 * (k)];                                                                   \
  } while (0)
/* U's 36 values of one kernel from its 25, g[q] (q = 5 row + column): G g
 * along the kernel's columns, then (G g) G^T along its rows. */
#define THGEMMWINO_KERNEL5(T, ADD, SUB, MUL, C, g, put)                                  \
  do {                                                                                   \
    T h_[6][5], r_[6];                                                                   \
    for (int j_ = 0; j_ < 5; j_++) {                                                     \
      T c_[6];                                                                           \
      THGEMMWINO_G5(T, ADD, SUB, MUL, C, (g + j_), 5, c_);                               \
      for (int i_ = 0; i_ < 6; i_++)                                                     \
        h_[i_][j_] = c_[i_];                                                             \
    }                                                                                    \
    for (int i_ = 0; i_ < 6; i_++) {                                                     \
      THGEMMWINO_G5(T, ADD, SUB, MUL, C, h_[i_], 1, r_);                                 \
      for (int l_ = 0; l_ < 6; l_++)                                                     \
        put(6 * i_ + l_, r_[l_]);                                                        \
    }                                                                                    \
  } while (0)
#define THGEMMWINO_CONST(x) (x)

THGEMMWINO_TARGET float THGemmWino_weight(int k, const float *w, int64_t nOut, int64_t nIn, int64_t o0, int64_t o1,
                                          float *U)
{
  int64_t xiStride = THGemmWino_stride(nOut * nIn), kk = k * k;
  float m = 0, z = 0;
#if THGEMMWINO_HAVE_AVX2
  __m256 vm = _mm256_setzero_ps(), vz = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f);
  __m256i lanes = _mm256_setr_epi32(0, 25, 50, 75, 100, 125, 150, 175);
#endif
  for (int64_t o = o0; o < o1; o++) {
    const float *src = w + o * nIn * kk;
    float *u = U + o * nIn;
    int64_t c = 0;
#if THGEMMWINO_HAVE_AVX2
    for (; c + 8 <= nIn; c += 8) {   /* 8 kernels, a lane each */
      __m256 g[25];
      if (k == 5)
        for (int q = 0; q < 25; q++)
          g[q] = _mm256_i32gather_ps(src + 25 * c + q, lanes, 4);
      else
        load8Kernels(src + 9 * c, g);
      for (int q = 0; q < kk; q++)
        magnitudeOf8(g[q], &vm, &vz);
#define THGEMMWINO_PUT8(xi, v) _mm256_storeu_ps(u + (xi) * xiStride + c, v)
      if (k == 5)
        THGEMMWINO_KERNEL5(__m256, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps, _mm256_set1_ps, g, THGEMMWINO_PUT8);
      else
        THGEMMWINO_KERNEL(__m256, half, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps, g, THGEMMWINO_PUT8);
#undef THGEMMWINO_PUT8
    }
#endif
    for (; c < nIn; c++) {
      const float *g = src + kk * c;
      for (int q = 0; q < kk; q++)
        magnitudeOf(g[q], &m, &z);
#define THGEMMWINO_PUT1(xi, v) (u[(xi) * xiStride + c] = (v))
      if (k == 5)
        THGEMMWINO_KERNEL5(float, THGEMMWINO_ADD, THGEMMWINO_SUB, THGEMMWINO_MUL, THGEMMWINO_CONST, g,
                           THGEMMWINO_PUT1);
      else
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
 * (even) and 2k + 1 - padW (odd), k in [0, tilesW + (kernel - 1) / 2]:
 * the even and odd columns of the tiles (tile x reads k = x to
 * x + (kernel - 1) / 2). */
THGEMMWINO_TARGET static void gatherRow(const THGemmWinoShape *s, const float *row, float *restrict even,
                                        float *restrict odd)
{
  int64_t n = s->tilesW + (s->kernel - 1) / 2;
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

/* One row's 1-d transform d B for every tile of a tile row, into e[0],
 * e[step], e[2 step], e[3 step] (F(2x2, 3x3)). */
THGEMMWINO_TARGET static void rowTransform(int64_t tw, const float *restrict even, const float *restrict odd,
                                           float *restrict e, int64_t step)
{
  float *restrict e0 = e, *restrict e1 = e + step, *restrict e2 = e1 + step, *restrict e3 = e2 + step;
  for (int64_t x = 0; x < tw; x++) {
    e0[x] = even[x] - even[x + 1];
    e1[x] = odd[x] + even[x + 1];
    e2[x] = even[x + 1] - odd[x];
    e3[x] = odd[x] - odd[x + 1];
  }
}

/* The same transform along the columns: rows r[0], r[rStep], ... of d B
 * into V's rows v[0], v[vStep], ... */
THGEMMWINO_TARGET static void columnTransform(int64_t tw, const float *restrict r, int64_t rStep, float *restrict v,
                                              int64_t vStep)
{
  const float *restrict r0 = r, *restrict r1 = r + rStep, *restrict r2 = r1 + rStep, *restrict r3 = r2 + rStep;
  float *restrict v0 = v, *restrict v1 = v + vStep, *restrict v2 = v1 + vStep, *restrict v3 = v2 + vStep;
  for (int64_t x = 0; x < tw; x++) {
    v0[x] = r0[x] - r2[x];
    v1[x] = r1[x] + r2[x];
    v2[x] = r2[x] - r1[x];
    v3[x] = r1[x] - r3[x];
  }
}

/* F(2x2, 5x5)'s B^T along 6 values d0..d5 into e0..e5:
 *
 *          4  0 -5  0  1  0
 *          0 -4 -4  1  1  0
 *   B^T =  0  4 -4 -1  1  0
 *          0 -2 -1  2  1  0
 *          0  2 -1 -2  1  0
 *          0  4  0 -5  0  1                                                   */
#define THGEMMWINO_B5(d0, d1, d2, d3, d4, d5, e0, e1, e2, e3, e4, e5)  \
  do {                                                                  \
    float p_ = d4 - d2, q_ = d3 - d1;                                   \
    e0 = (4 * d0 - 5 * d2) + d4;                                        \
    e1 = (d3 + d4) - 4 * (d1 + d2);                                     \
    e2 = 4 * (d1 - d2) + (d4 - d3);                                     \
    e3 = p_ + 2 * q_;                                                   \
    e4 = p_ - 2 * q_;                                                   \
    e5 = (4 * d1 - 5 * d3) + d5;                                        \
  } while (0)

THGEMMWINO_TARGET static void rowTransform5(int64_t tw, const float *restrict even, const float *restrict odd,
                                            float *restrict e, int64_t step)
{
  float *restrict e0 = e, *restrict e1 = e0 + step, *restrict e2 = e1 + step, *restrict e3 = e2 + step,
                 *restrict e4 = e3 + step, *restrict e5 = e4 + step;
  for (int64_t x = 0; x < tw; x++)
    THGEMMWINO_B5(even[x], odd[x], even[x + 1], odd[x + 1], even[x + 2], odd[x + 2], e0[x], e1[x], e2[x], e3[x],
                  e4[x], e5[x]);
}

THGEMMWINO_TARGET static void columnTransform5(int64_t tw, const float *restrict r, int64_t rStep, float *restrict v,
                                               int64_t vStep)
{
  const float *restrict r0 = r, *restrict r1 = r0 + rStep, *restrict r2 = r1 + rStep, *restrict r3 = r2 + rStep,
                       *restrict r4 = r3 + rStep, *restrict r5 = r4 + rStep;
  float *restrict v0 = v, *restrict v1 = v0 + vStep, *restrict v2 = v1 + vStep, *restrict v3 = v2 + vStep,
                 *restrict v4 = v3 + vStep, *restrict v5 = v4 + vStep;
  for (int64_t x = 0; x < tw; x++)
    THGEMMWINO_B5(r0[x], r1[x], r2[x], r3[x], r4[x], r5[x], v0[x], v1[x], v2[x], v3[x], v4[x], v5[x]);
}

THGEMMWINO_TARGET void THGemmWino_input(const THGemmWinoShape *s, const float *image, int64_t s0, int64_t s1,
                                        int64_t c0, int64_t c1, float *V, float *scratch)
{
  int64_t tw = s->tilesW, cols = (s1 - s0) * tw, xiStride = THGemmWino_stride(s->nIn * cols);
  int64_t plane = s->inH * s->inW, a = s->kernel + 1, half = (s->kernel - 1) / 2;
  float *even = scratch, *odd = even + tw + half, *e = odd + tw + half;   /* e: [a rows][a][tw] */
  for (int64_t c = c0; c < c1; c++)
    for (int64_t t = s0; t < s1; t++) {
      int64_t n = t / s->tilesH, ty = t % s->tilesH;
      const float *img = image + (n * s->nIn + c) * plane;
      for (int r = 0; r < a; r++) {
        int64_t y = 2 * ty - s->padH + r;
        gatherRow(s, y >= 0 && y < s->inH ? img + y * s->inW : NULL, even, odd);
        if (a == 6)
          rowTransform5(tw, even, odd, e + a * r * tw, tw);
        else
          rowTransform(tw, even, odd, e + a * r * tw, tw);
      }
      float *dst = V + c * cols + (t - s0) * tw;
      for (int j = 0; j < a; j++) {
        if (a == 6)
          columnTransform5(tw, e + j * tw, a * tw, dst + j * xiStride, a * xiStride);
        else
          columnTransform(tw, e + j * tw, a * tw, dst + j * xiStride, a * xiStride);
      }
    }
}

/* A^T along 4 values (F(2x2, 3x3)) or 6 (F(2x2, 5x5)) into the 2 outputs:
 *
 *   A^T =  1  1  1  0           A^T =  1  1  1  1  1  0
 *          0  1 -1 -1                  0  1 -1  2 -2  1                       */
#define THGEMMWINO_A3(q, x, k, y0, y1)                           \
  do {                                                           \
    y0 = q[x] + q[(k) + x] + q[2 * (k) + x];                     \
    y1 = q[(k) + x] - q[2 * (k) + x] - q[3 * (k) + x];           \
  } while (0)
#define THGEMMWINO_A5(q, x, k, y0, y1)                                                      \
  do {                                                                                      \
    y0 = (q[x] + (q[(k) + x] + q[2 * (k) + x])) + (q[3 * (k) + x] + q[4 * (k) + x]);        \
    y1 = ((q[(k) + x] - q[2 * (k) + x]) + 2 * (q[3 * (k) + x] - q[4 * (k) + x])) + q[5 * (k) + x]; \
  } while (0)

/* A^T m along the columns of tile row m (a [a][a] matrices xiStride
 * apart) into r's rows r[j] and r[a tw + j] (j < a), then r A along the
 * rows into the output rows row and row + outW (the second when rows2). */
#define THGEMMWINO_OUTPUT(A, a, m, xiStride, r, tw, b, row, outW, pairs, rows2)           \
  do {                                                                                  \
    for (int j_ = 0; j_ < (a); j_++) {                                                  \
      const float *restrict m_ = (m) + j_ * (xiStride);                                 \
      float *restrict r0_ = (r) + j_ * (tw), *restrict r1_ = r0_ + (a) * (tw);          \
      for (int64_t x_ = 0; x_ < (tw); x_++)                                             \
        A(m_, x_, (a) * (xiStride), r0_[x_], r1_[x_]);                                  \
    }                                                                                   \
    float *row_ = (row);                                                                \
    for (int i_ = 0; i_ < 1 + (rows2); i_++, row_ += (outW)) {                          \
      const float *restrict q_ = (r) + (a) * i_ * (tw);                                 \
      float y0_, y1_;                                                                   \
      for (int64_t x_ = 0; x_ < (pairs); x_++) {                                        \
        A(q_, x_, (tw), y0_, y1_);                                                      \
        row_[2 * x_] = (b) + y0_;                                                       \
        row_[2 * x_ + 1] = (b) + y1_;                                                   \
      }                                                                                 \
      if ((outW) % 2) {                                                                 \
        A(q_, (pairs), (tw), y0_, y1_);                                                 \
        row_[2 * (pairs)] = (b) + y0_;                                                  \
      }                                                                                 \
    }                                                                                   \
  } while (0)

THGEMMWINO_TARGET void THGemmWino_output(const THGemmWinoShape *s, const float *M, int64_t s0, int64_t s1, int64_t o0,
                                         int64_t o1, const float *bias, int64_t biasStride, float *out,
                                         float *scratch)
{
  int64_t tw = s->tilesW, cols = (s1 - s0) * tw, xiStride = THGemmWino_stride(s->nOut * cols);
  int64_t area = s->outH * s->outW, pairs = s->outW / 2;
  float *r = scratch;   /* A^T m: [2][a][tw] */
  for (int64_t o = o0; o < o1; o++) {
    float b = bias ? bias[o * biasStride] : 0;
    for (int64_t t = s0; t < s1; t++) {
      const float *m = M + o * cols + (t - s0) * tw;
      int64_t n = t / s->tilesH, ty = t % s->tilesH;
      float *row = out + (n * s->nOut + o) * area + 2 * ty * s->outW;
      int rows2 = 2 * ty + 1 < s->outH;
      if (s->kernel == 5)
        THGEMMWINO_OUTPUT(THGEMMWINO_A5, 6, m, xiStride, r, tw, b, row, s->outW, pairs, rows2);
      else
        THGEMMWINO_OUTPUT(THGEMMWINO_A3, 4, m, xiStride, r, tw, b, row, s->outW, pairs, rows2);
    }
  }
}

TH_PATH_SWITCH(THGemmWino)
