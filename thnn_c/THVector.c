/* THVector.c: contiguous rows of exponentials, for the softmax layers
 * (declared in generic/THVector.h).
 *
 * Two bodies.  The portable loops call the C library's exp through libmvec
 * (THVector_exp in THLoop.h) and serve double, and float on CPUs without
 * AVX-512.  With AVX-512, float takes the loops below: an exp inlined 16
 * lanes at a time, about twice as fast as libmvec's call per vector, which
 * is what the softmax layers spend most of their time in.
 *
 * The AVX-512 exp (THVector_exp16) is within 1 ulp of the exact exp for
 * every float (libmvec's AVX-512 expf, which the portable loops call, is up
 * to 2.6 ulp off; the scalar expf about 0.5); it keeps the IEEE
 * cases: NaN in, NaN out; exp(-inf) = 0; exp(x) = +inf from x = 88.73 up;
 * results below FLT_MIN are subnormal, rounded once.  tests/test_THVector.py
 * checks all of this through the kernels, and exhaustively over every float
 * in its slow variant.
 *
 * Sums are accumulated in double (accreal), as in the portable loops: each
 * lane adds at most 8 exponentials in float before they go into double, so
 * the rounding of a row's sum does not grow with its length. */
#include "TH.h"
#include "THLoop.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define TH_VECTOR_AVX512
#include <immintrin.h>

#define TH_AVX512 __attribute__((target("avx512f")))

/* exp(x) = 2^k exp(r), with k = round(x / ln2) and r = x - k ln2 in
 * [-ln2/2, ln2/2].  ln2 is split in two so that k * ln2hi is exact; exp(r)
 * is 1 + r + r^2 P(r), P of degree 5 fitted for the least maximum relative
 * error on that interval (tools/fit_expf.py).  Clamping x to [-104, 89]
 * first keeps r finite; exp is 0 (after rounding) below and +inf above, and
 * scalef makes both, as well as the subnormals, from k.  The clamps return
 * their second operand for a NaN, so a NaN goes through. */
static inline TH_AVX512 __m512 THVector_exp16(__m512 x)
{
  x = _mm512_min_ps(_mm512_set1_ps(89.0f), x);
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), x);
  __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(0x1.715476p+0f)),
                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0x1.62e400p-1f), x);    /* ln2hi */
  r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0x1.7f7d1cp-20f), r);          /* ln2lo */
  __m512 p = _mm512_set1_ps(0x1.9f08a6p-13f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0x1.6d8cf4p-10f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0x1.111270p-7f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0x1.55548ep-5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0x1.555554p-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0x1.0p-1f));
  p = _mm512_add_ps(_mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, k);
}

/* The lanes of the 16 elements at i of n that exist. */
static inline __mmask16 THVector_lanes(int64_t i, int64_t n)
{
  return n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
}

static TH_AVX512 double THFloatVector_expSumAVX512(float *y, const float *x, float shift, int64_t n)
{
  const __m512 s = _mm512_set1_ps(shift);
  __m512d sum = _mm512_setzero_pd();
  for (int64_t block = 0; block < n; block += 128) {
    int64_t end = n - block < 128 ? n : block + 128;
    __m512 part = _mm512_setzero_ps();
    for (int64_t i = block; i < end; i += 16) {
      __mmask16 m = THVector_lanes(i, end);
      __m512 e = THVector_exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), s));
      part = _mm512_mask_add_ps(part, m, part, e);
      if (y)
        _mm512_mask_storeu_ps(y + i, m, e);
    }
    __m256 high = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(part), 1));
    sum = _mm512_add_pd(sum, _mm512_cvtps_pd(_mm512_castps512_ps256(part)));
    sum = _mm512_add_pd(sum, _mm512_cvtps_pd(high));
  }
  return _mm512_reduce_add_pd(sum);
}

/* In float, with c rounded to float: one rounding of c more than the
 * portable loop's double arithmetic. */
static TH_AVX512 void THFloatVector_subExpMulAVX512(float *z, const float *x, const float *y, double c, int64_t n)
{
  const __m512 cf = _mm512_set1_ps((float)c);
  for (int64_t i = 0; i < n; i += 16) {
    __mmask16 m = THVector_lanes(i, n);
    __m512 e = THVector_exp16(_mm512_maskz_loadu_ps(m, y + i));
    _mm512_mask_storeu_ps(z + i, m, _mm512_fnmadd_ps(e, cf, _mm512_maskz_loadu_ps(m, x + i)));
  }
}
#endif

#define TH_GENERIC_FILE "generic/THVector.c"
#include "THGenerateFloatTypes.h"
