/* A generic header: each generic file that uses these helpers includes it,
 * and it defines them once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_POOLING_H_FLOAT)
#define THNN_POOLING_H_FLOAT
#define THNN_POOLING_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_POOLING_H_DOUBLE)
#define THNN_POOLING_H_DOUBLE
#define THNN_POOLING_H_NOW
#endif

#ifdef THNN_POOLING_H_NOW
#undef THNN_POOLING_H_NOW

#include "THPooling.h"

#include "THLoop.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* The loops every spatial and volumetric pooling layer shares; the window
 * geometry is in THPooling.h.  Each layer's file checks its arguments in its
 * shapeCheck and calls these.  They work plane by plane on contiguous
 * memory: a plane is one (sample, feature plane) pair, T x H x W elements,
 * and indices count from 0 within a plane, as PyTorch's. */

THNN_HELPER int64_t THNN_(Pool_planeSize)(const int64_t *sizes)
{
  return sizes[0] * sizes[1] * sizes[2];
}

/* ---------------------------------------------------------------- checks */

/* gradOutput shaped as the output of s. */
THNN_HELPER int THNN_(Pool_checkGradOutput)(THNNState *state, const THPoolShape *s, THTensor *gradOutput)
{
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  return THTensor_(checkSizes)(state, "gradOutput", gradOutput, n, dims);
}

/* indices shaped as an array of s with these pooled sizes, every one in [0, limit). */
THNN_HELPER int THNN_(Pool_checkIndices)(THNNState *state, const THPoolShape *s, const int64_t *sizes,
                                    THIndexTensor *indices, int64_t limit)
{
  int64_t dims[5];
  int n = THPoolDims(s, sizes, dims);
  TH_TRY(THLongTensor_checkSizes(state, "indices", indices, n, dims));
  return THPoolCheckIndices(state, "indices", indices, limit);
}

/* What every pooling shape check ends with: gradOutput, where given, shaped
 * as the output of s; indices, where given, too, each one a position in
 * its input plane. */
THNN_HELPER int THNN_(Pool_checkOutputs)(THNNState *state, const THPoolShape *s, THTensor *gradOutput,
                                    THIndexTensor *indices)
{
  if (gradOutput)
    TH_TRY(THNN_(Pool_checkGradOutput)(state, s, gradOutput));
  if (indices)
    TH_TRY(THNN_(Pool_checkIndices)(state, s, s->out, indices, THNN_(Pool_planeSize)(s->in)));
  return 0;
}

/* The 2x2 window with stride 2, no padding, every window inside the input
 * (a time axis, if any, pooled 1 by 1): the case written for speed. */
THNN_HELPER bool THNN_(Pool_is2x2)(const THPoolShape *s, const THPoolWindow *w)
{
  return w->k[0] == 1 && w->d[0] == 1 && w->pad[0] == 0 &&
         w->k[1] == 2 && w->k[2] == 2 && w->d[1] == 2 && w->d[2] == 2 &&
         w->pad[1] == 0 && w->pad[2] == 0 && w->dil[1] == 1 && w->dil[2] == 1 &&
         2 * s->out[1] <= s->in[1] && 2 * s->out[2] <= s->in[2];
}

/* ---------------------------------------------------------------- max */

/* Whether v replaces the best value so far: PyTorch's rule
 * `v > best || isnan(v)`, so a NaN wins (the window's last NaN) and among
 * equal values the first stays. */
static inline bool THNN_(Pool_beats)(real v, real best)
{
  return v > best || v != v;
}

/* The largest tap of one window of a plane: its value in *best and its
 * offset in *at.  Plain `>` first, which compiles to branch-free code; a
 * window holding a NaN is then done again under the exact rule (rare). */
static inline __attribute__((always_inline)) void THNN_(Pool_maxWindow)(const real *in, const THPoolShape *s, const THPoolGrid *g,
                                  int64_t ot, int64_t oh, int64_t ow, real *best, int64_t *at)
{
  int64_t inH = s->in[1], inW = s->in[2];
  int64_t first = (g->first[0][ot] * inH + g->first[1][oh]) * inW + g->first[2][ow];
  for (int exact = 0; exact < 2; exact++) {
    real m = in[first];
    int64_t where = first;
    bool nan = false;
    for (int64_t jt = 0; jt < g->count[0][ot]; jt++)
      for (int64_t jh = 0; jh < g->count[1][oh]; jh++) {
        int64_t i = first + (jt * g->dil[0] * inH + jh * g->dil[1]) * inW;
        for (int64_t jw = 0; jw < g->count[2][ow]; jw++, i += g->dil[2]) {
          real v = in[i];
          bool take = exact ? THNN_(Pool_beats)(v, m) : v > m;
          where = take ? i : where;
          m = take ? v : m;
          nan |= v != v;
        }
      }
    *best = m;
    *at = where;
    if (!nan)
      return;
  }
}

/* One plane: out[o] = the largest tap of window o, ind[o] its offset. */
THNN_HELPER void THNN_(Pool_maxPlane)(const real *in, real *out, int64_t *ind, const THPoolShape *s,
                                 const THPoolGrid *g)
{
  for (int64_t ot = 0; ot < s->out[0]; ot++)
    for (int64_t oh = 0; oh < s->out[1]; oh++)
      for (int64_t ow = 0; ow < s->out[2]; ow++)
        THNN_(Pool_maxWindow)(in, s, g, ot, oh, ow, out++, ind++);
}

/* The same for the 2x2 stride-2 window, an output row at a time in two
 * passes the compiler vectorizes: the maxima with a small code for where
 * each lies (bit 0: right column, bit 1: lower row), then the offsets.
 * Inlined into the clones of Pool_maxPlanes2x2. */
static inline __attribute__((always_inline)) void THNN_(Pool_maxRow2x2)(
    const real *r0, const real *r1, real *y, int64_t *yi, int64_t base, int64_t inW, int64_t outW)
{
  int32_t code[256];
  for (int64_t o0 = 0; o0 < outW; o0 += 256) {
    int64_t n = outW - o0 < 256 ? outW - o0 : 256;
    const real *a = r0 + 2 * o0, *b = r1 + 2 * o0;
    for (int64_t ow = 0; ow < n; ow++) {
      real best = a[2 * ow], v;
      int32_t at = 0;
      bool take;
      v = a[2 * ow + 1];
      take = THNN_(Pool_beats)(v, best);
      best = take ? v : best;
      at = take ? 1 : at;
      v = b[2 * ow];
      take = THNN_(Pool_beats)(v, best);
      best = take ? v : best;
      at = take ? 2 : at;
      v = b[2 * ow + 1];
      take = THNN_(Pool_beats)(v, best);
      best = take ? v : best;
      at = take ? 3 : at;
      y[o0 + ow] = best;
      code[ow] = at;
    }
    for (int64_t ow = 0; ow < n; ow++) {
      int64_t c = code[ow];
      yi[o0 + ow] = base + 2 * (o0 + ow) + (c & 1) + (-(c >> 1) & inW);
    }
  }
}

/* A row too short for vectors (outW below 16): one pass, each window's
 * offset kept as it goes. */
static inline __attribute__((always_inline)) void THNN_(Pool_maxShortRow2x2)(
    const real *a, const real *b, real *y, int64_t *yi, int64_t base, int64_t inW, int64_t outW)
{
  for (int64_t ow = 0; ow < outW; ow++) {
    real best = a[2 * ow], v;
    int64_t at = base + 2 * ow;
    v = a[2 * ow + 1];
    if (THNN_(Pool_beats)(v, best)) {
      best = v;
      at = base + 2 * ow + 1;
    }
    v = b[2 * ow];
    if (THNN_(Pool_beats)(v, best)) {
      best = v;
      at = base + inW + 2 * ow;
    }
    v = b[2 * ow + 1];
    if (THNN_(Pool_beats)(v, best)) {
      best = v;
      at = base + inW + 2 * ow + 1;
    }
    y[ow] = best;
    yi[ow] = at;
  }
}

/* Planes [p0, p1) of the 2x2 window: one call per share of planes, not per
 * row (small planes, such as LeNet's 24x24, spent most of their time
 * entering a clone for rows of 12). */
TH_VECTOR_CLONES static void THNN_(Pool_maxPlanes2x2)(const real *in, real *out, int64_t *ind, const THPoolShape *s,
                                                      int64_t p0, int64_t p1)
{
  int64_t inH = s->in[1], inW = s->in[2], outH = s->out[1], outW = s->out[2];
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  for (int64_t p = p0; p < p1; p++)
    for (int64_t t = 0; t < s->out[0]; t++)
      for (int64_t oh = 0; oh < outH; oh++) {
        int64_t base = (t * inH + 2 * oh) * inW, o = p * outPlane + (t * outH + oh) * outW;
        const real *r0 = in + p * inPlane + base;
        if (outW < 16)
          THNN_(Pool_maxShortRow2x2)(r0, r0 + inW, out + o, ind + o, base, inW, outW);
        else
          THNN_(Pool_maxRow2x2)(r0, r0 + inW, out + o, ind + o, base, inW, outW);
      }
}

/* Runs body(p0, p1) on shares of n planes of `elements` elements in all:
 * on the calling thread alone when that is too little work to split. */
#ifdef _OPENMP
#define THNN_POOL_PLANES(n, elements, p0, p1, body)                                          \
  do {                                                                                      \
    int nt_ = THLoopThreads(elements);                                                      \
    if (nt_ > 1) {                                                                          \
      _Pragma("omp parallel num_threads(nt_)")                                              \
      {                                                                                     \
        int64_t p0 = (n) * omp_get_thread_num() / nt_, p1 = (n) * (omp_get_thread_num() + 1) / nt_; \
        body;                                                                               \
      }                                                                                     \
    } else {                                                                                \
      int64_t p0 = 0, p1 = (n);                                                             \
      body;                                                                                 \
    }                                                                                       \
  } while (0)
#else
#define THNN_POOL_PLANES(n, elements, p0, p1, body) \
  do {                                              \
    int64_t p0 = 0, p1 = (n);                       \
    body;                                           \
  } while (0)
#endif

/* Any fixed window (w): each output row of a plane in three parts, the
 * windows clipped by the left border, the columns [lo, hi) whose windows
 * hold all kW taps along W (at ow * dW - padW + jw * dilW), and the windows
 * clipped by the right border.  The clipped ones and rows of too many taps go
 * through Pool_maxWindow; the full columns a block at a time, one pass per
 * tap over the block, keeping each column's best value and the number of its
 * tap in registers-friendly arrays the compiler vectorizes (taps in the order
 * of Pool_maxWindow, the same rule Pool_beats: so the same values and
 * indices), then the offsets of the winning taps from a table. */
#define THNN_POOL_MAX_TAPS 256
#define THNN_POOL_BLOCK 128

typedef struct THNN_(PoolRowPlan) {
  int64_t lo, hi;                    /* the full columns */
  int64_t first0;                    /* first[2][lo]: W offset of the window of lo */
} THNN_(PoolRowPlan);

/* The best of each column of one block of n full columns, for the taps
 * whose rows start at rows[0..nrows) (each row of kW taps dilW apart);
 * step dW between columns.  Inlined with constant steps 1 and 2. */
static inline __attribute__((always_inline)) void THNN_(Pool_maxBlock)(
    const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t n, real *best, int32_t *code)
{
  int32_t tap = 0;
  for (int64_t r = 0; r < nrows; r++)
    for (int jw = 0; jw < kW; jw++, tap++) {
      const real *q = rows[r] + (int64_t)jw * dilW;
      if (tap == 0) {
#pragma omp simd
        for (int64_t o = 0; o < n; o++) {
          best[o] = q[o * dW];
          code[o] = 0;
        }
      } else {
#pragma omp simd
        for (int64_t o = 0; o < n; o++) {
          real v = q[o * dW], b = best[o];
          bool take = v > b || v != v;
          best[o] = take ? v : b;
          code[o] = take ? tap : code[o];
        }
      }
    }
}

/* Planes [p0, p1) of the fixed window w (its grid g), nothing clipped along
 * W in [plan->lo, plan->hi). */
TH_VECTOR_CLONES __attribute__((optimize("O3"))) static void THNN_(Pool_maxPlanesWindow)(const real *in, real *out, int64_t *ind,
                                                         const THPoolShape *s, const THPoolGrid *g,
                                                         const THPoolWindow *w, const THNN_(PoolRowPlan) *plan,
                                                         int64_t p0, int64_t p1)
{
  int64_t inH = s->in[1], inW = s->in[2], outT = s->out[0], outH = s->out[1], outW = s->out[2];
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  int kW = w->k[2], dilW = w->dil[2];
  int64_t dW = w->d[2], lo = plan->lo, hi = plan->hi;
  real best[THNN_POOL_BLOCK];
  int32_t code[THNN_POOL_BLOCK];
  const real *rows[THNN_POOL_MAX_TAPS];
  int64_t rowOff[THNN_POOL_MAX_TAPS], tapOff[THNN_POOL_MAX_TAPS];
  for (int64_t p = p0; p < p1; p++) {
    const real *src = in + p * inPlane;
    for (int64_t ot = 0; ot < outT; ot++)
      for (int64_t oh = 0; oh < outH; oh++) {
        int64_t o = p * outPlane + (ot * outH + oh) * outW;
        int64_t nrows = g->count[0][ot] * g->count[1][oh];
        bool vec = hi > lo && nrows > 0 && nrows * kW <= THNN_POOL_MAX_TAPS;
        int64_t left = vec ? lo : outW, right = vec ? hi : outW;
        for (int64_t ow = 0; ow < left; ow++)
          THNN_(Pool_maxWindow)(src, s, g, ot, oh, ow, out + o + ow, ind + o + ow);
        if (vec) {
          /* the rows of this output row's windows, as offsets in the plane */
          int64_t r = 0;
          for (int64_t jt = 0; jt < g->count[0][ot]; jt++)
            for (int64_t jh = 0; jh < g->count[1][oh]; jh++, r++) {
              rowOff[r] = ((g->first[0][ot] + jt * g->dil[0]) * inH + g->first[1][oh] + jh * g->dil[1]) * inW;
              for (int jw = 0; jw < kW; jw++)
                tapOff[r * kW + jw] = rowOff[r] + (int64_t)jw * dilW;
            }
          for (int64_t b0 = lo; b0 < hi; b0 += THNN_POOL_BLOCK) {
            int64_t n = hi - b0 < THNN_POOL_BLOCK ? hi - b0 : THNN_POOL_BLOCK;
            int64_t col = plan->first0 + (b0 - lo) * dW;   /* W offset of column b0's window */
            for (int64_t k = 0; k < nrows; k++)
              rows[k] = src + rowOff[k] + col;
            if (dW == 1)
              THNN_(Pool_maxBlock)(rows, nrows, kW, dilW, 1, n, best, code);
            else if (dW == 2)
              THNN_(Pool_maxBlock)(rows, nrows, kW, dilW, 2, n, best, code);
            else
              THNN_(Pool_maxBlock)(rows, nrows, kW, dilW, dW, n, best, code);
            real *y = out + o + b0;
            int64_t *yi = ind + o + b0;
#pragma omp simd
            for (int64_t k = 0; k < n; k++) {
              y[k] = best[k];
              yi[k] = tapOff[code[k]] + col + k * dW;
            }
          }
        }
        for (int64_t ow = right; ow < outW; ow++)
          THNN_(Pool_maxWindow)(src, s, g, ot, oh, ow, out + o + ow, ind + o + ow);
      }
  }
}

/* The full columns of w over s: lo the first whose window holds all kW taps
 * inside the input, hi past the last (lo = hi when none). */
THNN_HELPER THNN_(PoolRowPlan) THNN_(Pool_rowPlan)(const THPoolShape *s, const THPoolWindow *w)
{
  THNN_(PoolRowPlan) plan = {0, 0, 0};
  int64_t span = (int64_t)(w->k[2] - 1) * w->dil[2] + 1;
  int64_t lo = 0;
  while (lo < s->out[2] && lo * w->d[2] - w->pad[2] < 0)
    lo++;
  int64_t hi = lo;
  while (hi < s->out[2] && hi * w->d[2] - w->pad[2] + span <= s->in[2])
    hi++;
  if (hi > lo) {
    plan.lo = lo;
    plan.hi = hi;
    plan.first0 = lo * w->d[2] - w->pad[2];
  }
  return plan;
}

/* updateOutput of max pooling over the windows of g (the same for every
 * plane): output and indices resized to the output of s.  The 2x2 rows are
 * compiled for AVX-512 and AVX2 too (TH_VECTOR_CLONES): with the baseline
 * x86-64 instructions alone the compiler vectorized them for float but not
 * for double. */
THNN_HELPER int THNN_(Pool_maxOutput)(THNNState *state, THTensor *input, THTensor *output, THIndexTensor *indices,
                                 const THPoolShape *s, const THPoolGrid *g, const THPoolWindow *w, bool fast2x2)
{
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  TH_TRY(THTensor_(resizeNd)(state, output, n, dims));
  TH_TRY(THLongTensor_resizeNd(state, indices, n, dims));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output);
  int64_t *ind = THLongTensor_data(indices), planes = s->batch * s->planes;
  if (fast2x2) {
    THNN_POOL_PLANES(planes, planes * inPlane, p0, p1, THNN_(Pool_maxPlanes2x2)(in, out, ind, s, p0, p1));
  } else if (w) {
    THNN_(PoolRowPlan) plan = THNN_(Pool_rowPlan)(s, w);
    THNN_POOL_PLANES(planes, planes * inPlane, p0, p1,
                     THNN_(Pool_maxPlanesWindow)(in, out, ind, s, g, w, &plan, p0, p1));
  } else {
    THNN_POOL_PLANES(planes, planes * inPlane, p0, p1,
                     for (int64_t p = p0; p < p1; p++)
                       THNN_(Pool_maxPlane)(in + p * inPlane, out + p * outPlane, ind + p * outPlane, s, g));
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* ------------------------------------------------ max without indices */

/* The largest tap of one window, its value only: the taps in the order of
 * Pool_maxWindow under the rule of Pool_beats, so the same value bit for
 * bit (of equal values the first, -0.0 and 0.0 included; the last NaN). */
static inline __attribute__((always_inline)) real THNN_(Pool_maxWindowValue)(
    const real *in, const THPoolShape *s, const THPoolGrid *g, int64_t ot, int64_t oh, int64_t ow)
{
  int64_t inH = s->in[1], inW = s->in[2];
  int64_t first = (g->first[0][ot] * inH + g->first[1][oh]) * inW + g->first[2][ow];
  real m = in[first];
  for (int64_t jt = 0; jt < g->count[0][ot]; jt++)
    for (int64_t jh = 0; jh < g->count[1][oh]; jh++) {
      int64_t i = first + (jt * g->dil[0] * inH + jh * g->dil[1]) * inW;
      for (int64_t jw = 0; jw < g->count[2][ow]; jw++, i += g->dil[2]) {
        real v = in[i];
        m = THNN_(Pool_beats)(v, m) ? v : m;
      }
    }
  return m;
}

/* The best of each of n full columns, straight into y: one vector pass per
 * tap, as Pool_maxBlock without the tap numbers. */
static inline __attribute__((always_inline)) void THNN_(Pool_maxValueBlock)(
    const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t n, real *y)
{
  for (int64_t r = 0; r < nrows; r++)
    for (int jw = 0; jw < kW; jw++) {
      const real *q = rows[r] + (int64_t)jw * dilW;
      if (r == 0 && jw == 0) {
#pragma omp simd
        for (int64_t o = 0; o < n; o++)
          y[o] = q[o * dW];
      } else {
#pragma omp simd
        for (int64_t o = 0; o < n; o++) {
          real v = q[o * dW], b = y[o];
          y[o] = (v > b || v != v) ? v : b;
        }
      }
    }
}

/* Vectors of outputs kept in registers over all the taps (GCC's vector
 * extensions; the baseline clone splits the 32-byte ones in halves): blocks
 * of 32-byte vectors of LANES outputs, and of one 16-byte vector of HALF
 * outputs for what is left (and for rows shorter than LANES: a row of 6 or
 * 5 outputs, AlexNet's and VGG's last poolings, went through
 * Pool_maxValueBlock, whose scalar tail branched on every tap: 4-7x
 * onnxruntime's time).  Steps 1 and 2 only; a step-2 tap is two loads of a
 * vector, the second one element back so that nothing past the window's
 * last tap is read, and one shuffle of the even elements. */
#undef THNN_POOL_VEC_EVENS
#undef THNN_POOL_HALF_EVENS
#ifndef THNN_POOL_LANES
#define THNN_POOL_LANES ((int)(32 / sizeof(real)))
#define THNN_POOL_HALF ((int)(16 / sizeof(real)))
#ifdef __clang__
#define THNN_POOL_SHUFFLE(Mask, a, b, ...) __builtin_shufflevector(a, b, __VA_ARGS__)
#else
#define THNN_POOL_SHUFFLE(Mask, a, b, ...) __builtin_shuffle(a, b, (Mask){__VA_ARGS__})
#endif
#endif
#ifdef TH_REAL_IS_FLOAT
typedef float THNN_(PoolVec) __attribute__((vector_size(32)));
typedef int32_t THNN_(PoolVecMask) __attribute__((vector_size(32)));
typedef float THNN_(PoolHalf) __attribute__((vector_size(16)));
typedef int32_t THNN_(PoolHalfMask) __attribute__((vector_size(16)));
#define THNN_POOL_VEC_EVENS 0, 2, 4, 6, 9, 11, 13, 15
#define THNN_POOL_HALF_EVENS 0, 2, 5, 7
#else
typedef double THNN_(PoolVec) __attribute__((vector_size(32)));
typedef int64_t THNN_(PoolVecMask) __attribute__((vector_size(32)));
typedef double THNN_(PoolHalf) __attribute__((vector_size(16)));
typedef int64_t THNN_(PoolHalfMask) __attribute__((vector_size(16)));
#define THNN_POOL_VEC_EVENS 0, 2, 5, 7
#define THNN_POOL_HALF_EVENS 0, 3
#endif

/* For one vector type W (PoolVec or PoolHalf, n lanes):
 * Pool_tapW(q, dW, t): *t = the tap at q of n columns dW apart (vectors by
 * pointer: the baseline clone has no 32-byte registers to pass them in);
 * Pool_joinW(v, acc): Pool_beats's rule, lane by lane, *acc = v where it
 * is larger or NaN; Pool_joinAtW(q, dW, acc): the tap at q joined into *acc;
 * Pool_chainW(rows, r0, r1, ..., o0, acc): *acc = the best of one vector of
 * columns from o0 over the taps of rows [r0, r1);
 * Pool_valuesW(rows, nrows, kW, dilW, dW, o0, y, V): outputs [o0, o0 +
 * V n) of the full columns, V (1 or 2, a constant once inlined) vectors
 * over all the taps, into y.  One vector of two rows or more is two chains,
 * the first rows' taps and the last ones', joined by Pool_beats's rule
 * (which the order of the taps keeps: the later chain's value wins where it
 * is larger or NaN), as a chain of compare and blend waits for the last
 * one: 9 taps of 3x3 pooling in one took 1.7x the time of two. */
#undef THNN_POOL_VECTOR_KERNELS
#define THNN_POOL_VECTOR_KERNELS(W, n, evens)                                                                    \
  static inline __attribute__((always_inline)) void THNN_(Pool_tap##W)(const real *q, int64_t dW,                  \
                                                                       THNN_(W) *t)                               \
  {                                                                                                               \
    THNN_(W) a, b;                                                                                                \
    memcpy(&a, q, sizeof a);                                                                                      \
    if (dW == 1) {                                                                                                \
      *t = a;                                                                                                     \
      return;                                                                                                     \
    }                                                                                                             \
    memcpy(&b, q + (n) - 1, sizeof b);                                                                            \
    *t = THNN_POOL_SHUFFLE(THNN_(W##Mask), a, b, evens);                                                          \
  }                                                                                                               \
  static inline __attribute__((always_inline)) void THNN_(Pool_join##W)(const THNN_(W) *v, THNN_(W) *acc)         \
  {                                                                                                               \
    THNN_(W##Mask) take = (*v > *acc) | (*v != *v);                                                               \
    *acc = (THNN_(W))(((THNN_(W##Mask))*v & take) | ((THNN_(W##Mask))*acc & ~take));                              \
  }                                                                                                               \
  static inline __attribute__((always_inline)) void THNN_(Pool_joinAt##W)(const real *q, int64_t dW,              \
                                                                          THNN_(W) *acc)                          \
  {                                                                                                               \
    THNN_(W) v;                                                                                                   \
    THNN_(Pool_tap##W)(q, dW, &v);                                                                                \
    THNN_(Pool_join##W)(&v, acc);                                                                                 \
  }                                                                                                               \
  static inline __attribute__((always_inline)) void THNN_(Pool_chain##W)(                                          \
      const real *const *rows, int64_t r0, int64_t r1, int kW, int dilW, int64_t dW, int64_t o0, THNN_(W) *acc)   \
  {                                                                                                               \
    THNN_(Pool_tap##W)(rows[r0] + o0 * dW, dW, acc);                                                              \
    for (int64_t r = r0; r < r1; r++)                                                                             \
      for (int jw = (r == r0); jw < kW; jw++)                                                                     \
        THNN_(Pool_joinAt##W)(rows[r] + (int64_t)jw * dilW + o0 * dW, dW, acc);                                   \
  }                                                                                                               \
  static inline __attribute__((always_inline)) void THNN_(Pool_values##W)(                                         \
      const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t o0, real *y, int V)           \
  {                                                                                                               \
    THNN_(W) a, b;                                                                                                \
    if (V == 2) {                                                                                                 \
      THNN_(Pool_tap##W)(rows[0] + o0 * dW, dW, &a);                                                              \
      THNN_(Pool_tap##W)(rows[0] + (o0 + (n)) * dW, dW, &b);                                                      \
      for (int64_t r = 0; r < nrows; r++)                                                                         \
        for (int jw = (r == 0); jw < kW; jw++) {                                                                  \
          const real *q = rows[r] + (int64_t)jw * dilW + o0 * dW;                                                 \
          THNN_(Pool_joinAt##W)(q, dW, &a);                                                                       \
          THNN_(Pool_joinAt##W)(q + (n) * dW, dW, &b);                                                            \
        }                                                                                                         \
      memcpy(y + (n), &b, sizeof b);                                                                              \
    } else if (nrows >= 2) {                                                                                      \
      THNN_(Pool_chain##W)(rows, 0, nrows / 2, kW, dilW, dW, o0, &a);                                             \
      THNN_(Pool_chain##W)(rows, nrows / 2, nrows, kW, dilW, dW, o0, &b);                                         \
      THNN_(Pool_join##W)(&b, &a);                                                                                \
    } else {                                                                                                      \
      THNN_(Pool_chain##W)(rows, 0, nrows, kW, dilW, dW, o0, &a);                                                 \
    }                                                                                                             \
    memcpy(y, &a, sizeof a);                                                                                      \
  }

THNN_POOL_VECTOR_KERNELS(PoolVec, THNN_POOL_LANES, THNN_POOL_VEC_EVENS)
THNN_POOL_VECTOR_KERNELS(PoolHalf, THNN_POOL_HALF, THNN_POOL_HALF_EVENS)

/* y[0..k) = part[0..k), k < 4: copies of constant sizes (a loop became a
 * call of memmove). */
static inline __attribute__((always_inline)) void THNN_(Pool_copyFew)(const real *part, int64_t k, real *y)
{
  if (k & 2)
    memcpy(y, part, 2 * sizeof(real));
  if (k & 1)
    y[k - 1] = part[k - 1];
}

/* Whether a vector of `lanes` columns from column 0 reads nothing at or past end. */
static inline __attribute__((always_inline)) bool THNN_(Pool_fits)(
    const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t lanes, const real *end)
{
  const real *last = rows[0];
  for (int64_t r = 1; r < nrows; r++)
    last = rows[r] > last ? rows[r] : last;
  return last + (int64_t)(kW - 1) * dilW + (dW == 1 ? lanes - 1 : 2 * lanes - 2) < end;
}

/* n >= HALF full columns of step 1 or 2, in registers: blocks of two
 * 32-byte vectors, then of one, then of one 16-byte vector, and what is
 * left (fewer than HALF) as one 16-byte vector moved back to end at n (it
 * writes some outputs twice, the same values).  (One 32-byte vector for
 * rows of 5 or 6 outputs, its extra columns not stored, was no faster than
 * two 16-byte ones: VGG's and AlexNet's last poolings spend their time
 * around the vectors, a row of a few outputs at a time.) */
static inline __attribute__((always_inline)) void THNN_(Pool_maxValueVectors)(
    const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t n, real *y)
{
  const int64_t L = THNN_POOL_LANES, H = THNN_POOL_HALF;
  int64_t o0 = 0;
  for (; n - o0 >= 2 * L; o0 += 2 * L)
    THNN_(Pool_valuesPoolVec)(rows, nrows, kW, dilW, dW, o0, y + o0, 2);
  if (n - o0 >= L) {
    THNN_(Pool_valuesPoolVec)(rows, nrows, kW, dilW, dW, o0, y + o0, 1);
    o0 += L;
  }
  if (n - o0 >= H) {
    THNN_(Pool_valuesPoolHalf)(rows, nrows, kW, dilW, dW, o0, y + o0, 1);
    o0 += H;
  }
  if (o0 < n)
    THNN_(Pool_valuesPoolHalf)(rows, nrows, kW, dilW, dW, n - H, y + n - H, 1);
}

/* The best of each of n full columns into y, for the taps whose rows start
 * at rows[0..nrows) (each row of kW taps dilW apart, columns dW apart):
 * vectors in registers where n allows, Pool_maxValueBlock otherwise.  end:
 * where the memory the rows lie in ends (a vector may read columns past n
 * before it). */
static inline __attribute__((always_inline)) void THNN_(Pool_maxValueRun)(
    const real *const *rows, int64_t nrows, int kW, int dilW, int64_t dW, int64_t n, real *y, const real *end)
{
  real part[THNN_POOL_HALF];
  if (dW == 1 && n >= THNN_POOL_HALF)
    THNN_(Pool_maxValueVectors)(rows, nrows, kW, dilW, 1, n, y);
  else if (dW == 2 && n >= THNN_POOL_HALF)
    THNN_(Pool_maxValueVectors)(rows, nrows, kW, dilW, 2, n, y);
  else if ((dW == 1 || dW == 2) && THNN_(Pool_fits)(rows, nrows, kW, dilW, dW, THNN_POOL_HALF, end)) {
    if (dW == 1)   /* (fewer than HALF columns: one 16-byte vector, its extra columns not stored) */
      THNN_(Pool_valuesPoolHalf)(rows, nrows, kW, dilW, 1, 0, part, 1);
    else
      THNN_(Pool_valuesPoolHalf)(rows, nrows, kW, dilW, 2, 0, part, 1);
    THNN_(Pool_copyFew)(part, n, y);
  } else if (dW == 1)
    THNN_(Pool_maxValueBlock)(rows, nrows, kW, dilW, 1, n, y);
  else if (dW == 2)
    THNN_(Pool_maxValueBlock)(rows, nrows, kW, dilW, 2, n, y);
  else
    THNN_(Pool_maxValueBlock)(rows, nrows, kW, dilW, dW, n, y);
}

/* Windows that overlap along H (a spatial window of span rows, step dH <
 * span) share input rows: the best of a window is the best of its rows'
 * bests taken in row order under Pool_beats's rule (of equal values the
 * first in row-major order, the last NaN: both hold row by row), so each
 * input row's bests along W are computed once, into a ring of the last
 * rows (slot i & (slots - 1) holds row i), and each output row takes the
 * best of its rows' entries.  Used for rows of two vectors of columns or
 * more (at 8 columns, 17x17 planes, the bookkeeping cost more than the
 * shared rows saved: 1.09-1.17 of the time) when they fit the ring. */
#define THNN_POOL_RING 2048

/* The ring's slots for windows of span rows: a power of two at least span,
 * so that a row's slot is a mask, not a division (3 divisions an output row
 * were a third of a 3x3/2 pooling's time on 21 outputs a row). */
THNN_HELPER int64_t THNN_(Pool_ringSlots)(int64_t span)
{
  int64_t slots = 1;
  while (slots < span)
    slots <<= 1;
  return slots;
}

/* Windows clipped along W by a pad or by the last window of ceil mode: with
 * shared rows, each input row is copied between borders of -inf into a line
 * of Pool_lineLength values (the input columns from -padW), where every
 * output column is a full window, and the ring rows hold all the columns.
 * The value of a window is the same: a -inf tap beats nothing under
 * Pool_beats's rule, and a window holds at least one input tap (where
 * every tap is -inf the best is -inf either way).  The clipped windows went
 * through Pool_maxWindowValue, one branching scalar loop each: 23 % of
 * ResNet's 3x3/2 pad 1 pooling on 112x112 for one column in 56. */
#define THNN_POOL_LINE 4096

THNN_HELPER int64_t THNN_(Pool_lineLength)(const THPoolShape *s, const THPoolWindow *w)
{
  return (s->out[2] - 1) * w->d[2] + (int64_t)(w->k[2] - 1) * w->dil[2] + 1;
}

/* The columns each ring row holds: all of them when some window along W is
 * clipped (the rows bordered, above), else the full ones. */
THNN_HELPER int64_t THNN_(Pool_ringColumns)(const THPoolShape *s, const THNN_(PoolRowPlan) *plan)
{
  return plan->lo > 0 || plan->hi < s->out[2] ? s->out[2] : plan->hi - plan->lo;
}

THNN_HELPER bool THNN_(Pool_rowsShared)(const THPoolShape *s, const THPoolWindow *w, const THNN_(PoolRowPlan) *plan)
{
  int64_t span = (int64_t)(w->k[1] - 1) * w->dil[1] + 1, columns = THNN_(Pool_ringColumns)(s, plan);
  return s->in[0] == 1 && s->out[0] == 1 && w->k[0] == 1 && w->k[1] >= 2 && w->d[1] < span
         && span <= THNN_POOL_MAX_TAPS && plan->hi > plan->lo && columns >= 2 * THNN_POOL_LANES
         && THNN_(Pool_ringSlots)(span) * columns <= THNN_POOL_RING
         && THNN_(Pool_lineLength)(s, w) <= THNN_POOL_LINE;
}

/* Row `row` of an input (inW values) into line: the input columns from
 * -padW, -inf outside, length values. */
THNN_HELPER void THNN_(Pool_borderRow)(const real *row, int64_t inW, int64_t padW, int64_t length, real *line)
{
  int64_t left = padW < length ? padW : length, copied = inW < length - left ? inW : length - left;
  for (int64_t i = 0; i < left; i++)
    line[i] = -INFINITY;
  memcpy(line + left, row, (size_t)copied * sizeof(real));
  for (int64_t i = left + copied; i < length; i++)
    line[i] = -INFINITY;
}

/* Planes [p0, p1) of the fixed window w: Pool_maxPlanesWindow's walk,
 * values only (inference: nothing for a backward pass to read); shared
 * rows (see above) when `shared`. */
TH_VECTOR_CLONES __attribute__((optimize("O3"))) static void THNN_(Pool_maxValuePlanes)(
    const real *in, real *out, const THPoolShape *s, const THPoolGrid *g, const THPoolWindow *w,
    const THNN_(PoolRowPlan) *plan, bool shared, int64_t p0, int64_t p1)
{
  int64_t inH = s->in[1], inW = s->in[2], outT = s->out[0], outH = s->out[1], outW = s->out[2];
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  int kW = w->k[2], dilW = w->dil[2];
  int64_t dW = w->d[2], lo = plan->lo, hi = plan->hi, n = hi - lo;
  const real *inEnd = in + s->batch * s->planes * inPlane;
  int64_t slots = THNN_(Pool_ringSlots)((int64_t)(w->k[1] - 1) * w->dil[1] + 1);
  /* bordered: the shared rows' windows clipped along W (see Pool_lineLength) */
  bool bordered = shared && (lo > 0 || hi < outW);
  int64_t lineLength = bordered ? THNN_(Pool_lineLength)(s, w) : 1, c0 = bordered ? 0 : lo;
  int64_t columns = bordered ? outW : n;
  const real *rows[THNN_POOL_MAX_TAPS];
  real ring[shared ? THNN_POOL_RING : 1], line[lineLength];
  int64_t ringRow[shared ? THNN_POOL_MAX_TAPS : 1];
  for (int64_t p = p0; p < p1; p++) {
    const real *src = in + p * inPlane;
    if (shared)
      for (int64_t r = 0; r < slots; r++)
        ringRow[r] = -1;
    for (int64_t ot = 0; ot < outT; ot++)
      for (int64_t oh = 0; oh < outH; oh++) {
        real *y = out + p * outPlane + (ot * outH + oh) * outW;
        int64_t nrows = g->count[0][ot] * g->count[1][oh];
        bool vec = hi > lo && nrows > 0 && nrows * kW <= THNN_POOL_MAX_TAPS;
        int64_t left = !vec ? outW : bordered ? 0 : lo, right = !vec ? outW : bordered ? outW : hi;
        for (int64_t ow = 0; ow < left; ow++)
          y[ow] = THNN_(Pool_maxWindowValue)(src, s, g, ot, oh, ow);
        if (vec && shared) {
          for (int64_t jh = 0; jh < nrows; jh++) {
            int64_t ih = g->first[1][oh] + jh * g->dil[1], slot = ih & (slots - 1);
            real *best = ring + slot * columns;
            if (ringRow[slot] != ih) {
              const real *row = src + ih * inW + plan->first0, *end = inEnd;
              if (bordered) {
                THNN_(Pool_borderRow)(src + ih * inW, inW, w->pad[2], lineLength, line);
                row = line;
                end = line + lineLength;
              }
              if (kW == 3 && dilW == 1)
                THNN_(Pool_maxValueRun)(&row, 1, 3, 1, dW, columns, best, end);
              else if (kW == 2 && dilW == 1)
                THNN_(Pool_maxValueRun)(&row, 1, 2, 1, dW, columns, best, end);
              else
                THNN_(Pool_maxValueRun)(&row, 1, kW, dilW, dW, columns, best, end);
              ringRow[slot] = ih;
            }
            rows[jh] = best;
          }
          if (nrows == 3)
            THNN_(Pool_maxValueRun)(rows, 3, 1, 1, 1, columns, y + c0, ring + THNN_POOL_RING);
          else
            THNN_(Pool_maxValueRun)(rows, nrows, 1, 1, 1, columns, y + c0, ring + THNN_POOL_RING);
        } else if (vec) {
          int64_t r = 0;
          for (int64_t jt = 0; jt < g->count[0][ot]; jt++)
            for (int64_t jh = 0; jh < g->count[1][oh]; jh++, r++)
              rows[r] = src + ((g->first[0][ot] + jt * g->dil[0]) * inH + g->first[1][oh] + jh * g->dil[1]) * inW
                        + plan->first0;
          if (nrows == 3 && kW == 3 && dilW == 1)   /* (the taps unrolled: 3x3 and 2x2 windows) */
            THNN_(Pool_maxValueRun)(rows, 3, 3, 1, dW, n, y + lo, inEnd);
          else if (nrows == 2 && kW == 2 && dilW == 1)
            THNN_(Pool_maxValueRun)(rows, 2, 2, 1, dW, n, y + lo, inEnd);
          else
            THNN_(Pool_maxValueRun)(rows, nrows, kW, dilW, dW, n, y + lo, inEnd);
        }
        for (int64_t ow = right; ow < outW; ow++)
          y[ow] = THNN_(Pool_maxWindowValue)(src, s, g, ot, oh, ow);
      }
  }
}

/* Max pooling's forward pass without indices over the fixed window w: the
 * output alone, the same values as Pool_max's. */
THNN_HELPER int THNN_(Pool_maxValues)(THNNState *state, THTensor *input, THTensor *output, const THPoolShape *s,
                                      const THPoolWindow *w)
{
  THPoolGrid g;
  TH_TRY(THPoolGridWindows(state, &g, s, w));
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  int rc = THTensor_(resizeNd)(state, output, n, dims);
  THTensor xTmp = {0};
  const THTensor *x = rc == 0 ? THTensor_(contiguous)(state, input, &xTmp) : NULL;
  if (x) {
    const real *in = THTensor_(data)(x);
    real *out = THTensor_(data)(output);
    int64_t planes = s->batch * s->planes, inPlane = THNN_(Pool_planeSize)(s->in);
    THNN_(PoolRowPlan) plan = THNN_(Pool_rowPlan)(s, w);
    bool shared = THPool_sharedRowsOn() && THNN_(Pool_rowsShared)(s, w, &plan);
    if (shared)
      THPool_countSharedRows();
    THNN_POOL_PLANES(planes, planes * inPlane, p0, p1,
                     THNN_(Pool_maxValuePlanes)(in, out, s, &g, w, &plan, shared, p0, p1));
    THTensor_(release)(&xTmp);
  } else {
    rc = -1;
  }
  THPoolGridFree(&g);
  return rc;
}

/* Planes [p0, p1) of gi zeroed, then go[o] added at ind[o] of each, in output order. */
THNN_HELPER void THNN_(Pool_scatterPlanes)(const real *go, const int64_t *ind, real *gi, const THPoolShape *s,
                                      int64_t p0, int64_t p1)
{
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  memset(gi + p0 * inPlane, 0, (size_t)((p1 - p0) * inPlane) * sizeof(real));
  for (int64_t p = p0; p < p1; p++)
    for (int64_t o = p * outPlane; o < (p + 1) * outPlane; o++)
      gi[p * inPlane + ind[o]] += go[o];
}

/* updateGradInput of every pooling whose output o took the input element
 * indices[o] of its plane (max, adaptive max, fractional max): each plane
 * of gradInput is zeroed, then every gradOutput element is added at its
 * index, in output order (overlapping windows sum).  The indices were
 * checked against the plane size. */
THNN_HELPER int THNN_(Pool_indexGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THIndexTensor *indices, const THPoolShape *s)
{
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  THTensor gTmp = {0};
  THLongTensor iTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THLongTensor *ix = g ? THLongTensor_contiguous(state, indices, &iTmp) : NULL;
  if (ix) {
    int64_t planes = s->batch * s->planes;
    THNN_POOL_PLANES(planes, planes * THNN_(Pool_planeSize)(s->in), p0, p1,
                     THNN_(Pool_scatterPlanes)(THTensor_(data)(g), THLongTensor_data(ix),
                                               THTensor_(data)(gradInput), s, p0, p1));
  }
  THTensor_(release)(&gTmp);
  THLongTensor_release(&iTmp);
  return ix ? 0 : -1;
}

/* ---------------------------------------------------------------- average */

THNN_HELPER accreal THNN_(Pool_mean)(accreal sum, const THPoolGrid *g, int64_t ot, int64_t oh, int64_t ow,
                                THPoolDivisor mode)
{
  if (mode == TH_POOL_ADAPTIVE)
    return sum / g->count[0][ot] / g->count[1][oh] / g->count[2][ow];
  if (mode == TH_POOL_COUNT_PADDING)
    return sum / (g->span[0][ot] * g->span[1][oh] * g->span[2][ow]);
  return sum / (g->count[0][ot] * g->count[1][oh] * g->count[2][ow]);
}

/* The same division applied to a gradient, in the element type (as PyTorch). */
THNN_HELPER real THNN_(Pool_share)(real grad, const THPoolGrid *g, int64_t ot, int64_t oh, int64_t ow,
                              THPoolDivisor mode)
{
  if (mode == TH_POOL_ADAPTIVE)
    return grad / (real)g->count[0][ot] / (real)g->count[1][oh] / (real)g->count[2][ow];
  if (mode == TH_POOL_COUNT_PADDING)
    return grad / (real)(g->span[0][ot] * g->span[1][oh] * g->span[2][ow]);
  return grad / (real)(g->count[0][ot] * g->count[1][oh] * g->count[2][ow]);
}

/* The mean of the window of output (ot, oh, ow): its taps summed from 0
 * in accreal, in the order of the input (T, then H, then W), divided as
 * Pool_mean says. */
THNN_HELPER accreal THNN_(Pool_meanAt)(const real *in, const THPoolShape *s, const THPoolGrid *g, int64_t ot,
                                       int64_t oh, int64_t ow, THPoolDivisor mode)
{
  int64_t inH = s->in[1], inW = s->in[2];
  accreal sum = 0;
  for (int64_t t = g->first[0][ot]; t < g->first[0][ot] + g->count[0][ot]; t++)
    for (int64_t h = g->first[1][oh]; h < g->first[1][oh] + g->count[1][oh]; h++) {
      const real *row = in + (t * inH + h) * inW;
      for (int64_t w = g->first[2][ow]; w < g->first[2][ow] + g->count[2][ow]; w++)
        sum += row[w];
    }
  return THNN_(Pool_mean)(sum, g, ot, oh, ow, mode);
}

THNN_HELPER void THNN_(Pool_avgPlane)(const real *in, real *out, const THPoolShape *s, const THPoolGrid *g,
                                 THPoolDivisor mode)
{
  for (int64_t ot = 0; ot < s->out[0]; ot++)
    for (int64_t oh = 0; oh < s->out[1]; oh++)
      for (int64_t ow = 0; ow < s->out[2]; ow++)
        *out++ = (real)THNN_(Pool_meanAt)(in, s, g, ot, oh, ow, mode);
}

/* gradInput of one plane: zeroed, then every output's share added over its window. */
THNN_HELPER void THNN_(Pool_avgGradPlane)(const real *go, real *gi, const THPoolShape *s, const THPoolGrid *g,
                                     THPoolDivisor mode)
{
  int64_t inH = s->in[1], inW = s->in[2];
  memset(gi, 0, (size_t)THNN_(Pool_planeSize)(s->in) * sizeof(real));
  for (int64_t ot = 0; ot < s->out[0]; ot++)
    for (int64_t oh = 0; oh < s->out[1]; oh++)
      for (int64_t ow = 0; ow < s->out[2]; ow++) {
        real share = THNN_(Pool_share)(*go++, g, ot, oh, ow, mode);
        for (int64_t t = g->first[0][ot]; t < g->first[0][ot] + g->count[0][ot]; t++)
          for (int64_t h = g->first[1][oh]; h < g->first[1][oh] + g->count[1][oh]; h++) {
            real *row = gi + (t * inH + h) * inW;
            for (int64_t w = g->first[2][ow]; w < g->first[2][ow] + g->count[2][ow]; w++)
              row[w] += share;
          }
      }
}

/* The 2x2 stride-2 window: four taps added in PyTorch's order, a quarter
 * each way; vectorized along the output row. */
THNN_HELPER void THNN_(Pool_avgPlane2x2)(const real *in, real *out, const THPoolShape *s)
{
  int64_t inH = s->in[1], inW = s->in[2], outH = s->out[1], outW = s->out[2];
  for (int64_t t = 0; t < s->out[0]; t++)
    for (int64_t oh = 0; oh < outH; oh++) {
      const real *r0 = in + (t * inH + 2 * oh) * inW, *r1 = r0 + inW;
      real *y = out + (t * outH + oh) * outW;
      for (int64_t ow = 0; ow < outW; ow++)
        y[ow] = (r0[2 * ow] + r0[2 * ow + 1] + r1[2 * ow] + r1[2 * ow + 1]) / 4;
    }
}

THNN_HELPER void THNN_(Pool_avgGradPlane2x2)(const real *go, real *gi, const THPoolShape *s)
{
  int64_t inH = s->in[1], inW = s->in[2], outH = s->out[1], outW = s->out[2];
  if (2 * outH != inH || 2 * outW != inW)  /* a last row or column no window reads */
    memset(gi, 0, (size_t)THNN_(Pool_planeSize)(s->in) * sizeof(real));
  for (int64_t t = 0; t < s->out[0]; t++)
    for (int64_t oh = 0; oh < outH; oh++) {
      real *r0 = gi + (t * inH + 2 * oh) * inW, *r1 = r0 + inW;
      const real *g = go + (t * outH + oh) * outW;
      for (int64_t ow = 0; ow < outW; ow++) {
        real share = g[ow] / 4;
        r0[2 * ow] = r0[2 * ow + 1] = r1[2 * ow] = r1[2 * ow + 1] = share;
      }
    }
}

/* Output rows of fixed windows (w), their full columns [plan->lo,
 * plan->hi) eight at a time, their sums in registers: the same sums as
 * Pool_avgPlane (from 0, in accreal, the taps in its order) divided by the
 * same divisor (the count or span along W is kW in every full column: the
 * caller checks), so the same bits.  (One output at a time, a chain of
 * double additions per output, 3x3/1 pooling on 64x28x28 took 14x
 * onnxruntime's time.)  Rows of more than THNN_POOL_MAX_TAPS input rows
 * are not for it (the caller checks). */
#define THNN_POOL_AVG_LANES 8   /* outputs whose sums stay in registers over all the taps */

static inline __attribute__((always_inline)) void THNN_(Pool_avgVector)(
    const real *const *rows, int64_t nrows, int kW, int64_t dW, int64_t o0, accreal divisor, real *y)
{
  accreal sum[THNN_POOL_AVG_LANES];
#pragma GCC unroll 8
  for (int o = 0; o < THNN_POOL_AVG_LANES; o++)   /* (0 + the first tap: -0.0 becomes 0.0 there too) */
    sum[o] = (accreal)0 + (accreal)rows[0][(o0 + o) * dW];
  for (int64_t r = 0; r < nrows; r++)
    for (int jw = (r == 0); jw < kW; jw++) {
      const real *q = rows[r] + jw + o0 * dW;
#pragma GCC unroll 8
      for (int o = 0; o < THNN_POOL_AVG_LANES; o++)
        sum[o] += (accreal)q[o * dW];
    }
#pragma GCC unroll 8
  for (int o = 0; o < THNN_POOL_AVG_LANES; o++)
    y[o0 + o] = (real)(sum[o] / divisor);
}

TH_VECTOR_CLONES __attribute__((optimize("O3"))) static void THNN_(Pool_avgPlanesWindow)(
    const real *in, real *out, const THPoolShape *s, const THPoolGrid *g, const THPoolWindow *w,
    const THNN_(PoolRowPlan) *plan, THPoolDivisor mode, int64_t p0, int64_t p1)
{
  int64_t inH = s->in[1], inW = s->in[2], outT = s->out[0], outH = s->out[1], outW = s->out[2];
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  int kW = w->k[2];
  int64_t dW = w->d[2], lo = plan->lo, hi = plan->hi;
  const real *rows[THNN_POOL_MAX_TAPS];
  for (int64_t p = p0; p < p1; p++) {
    const real *src = in + p * inPlane;
    for (int64_t ot = 0; ot < outT; ot++)
      for (int64_t oh = 0; oh < outH; oh++) {
        real *y = out + p * outPlane + (ot * outH + oh) * outW;
        int64_t nrows = 0;
        for (int64_t t = g->first[0][ot]; t < g->first[0][ot] + g->count[0][ot]; t++)
          for (int64_t h = g->first[1][oh]; h < g->first[1][oh] + g->count[1][oh]; h++)
            rows[nrows++] = src + (t * inH + h) * inW + plan->first0;
        /* (Pool_mean's divisor, the same in every full column) */
        accreal divisor = (accreal)(mode == TH_POOL_COUNT_PADDING
                                        ? g->span[0][ot] * g->span[1][oh] * g->span[2][lo]
                                        : g->count[0][ot] * g->count[1][oh] * g->count[2][lo]);
        for (int64_t o0 = 0;; o0 += THNN_POOL_AVG_LANES) {   /* (the last block moved back to end at hi) */
          if (o0 + THNN_POOL_AVG_LANES > hi - lo)
            o0 = hi - lo - THNN_POOL_AVG_LANES;
          if (dW == 1)
            THNN_(Pool_avgVector)(rows, nrows, kW, 1, o0, divisor, y + lo);
          else
            THNN_(Pool_avgVector)(rows, nrows, kW, 2, o0, divisor, y + lo);
          if (o0 + THNN_POOL_AVG_LANES >= hi - lo)
            break;
        }
      }
  }
}

/* The columns Pool_avgPlanesWindow leaves, [0, lo) and [hi, outW): windows
 * clipped by the padding, one at a time (compiled apart from the vector
 * code: called from it, for 2 columns in 28, they took 3x the time of the
 * other 26). */
THNN_HELPER void THNN_(Pool_avgPlanesEdges)(const real *in, real *out, const THPoolShape *s, const THPoolGrid *g,
                                            const THNN_(PoolRowPlan) *plan, THPoolDivisor mode, int64_t p0,
                                            int64_t p1)
{
  int64_t outT = s->out[0], outH = s->out[1], outW = s->out[2];
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  for (int64_t p = p0; p < p1; p++)
    for (int64_t ot = 0; ot < outT; ot++)
      for (int64_t oh = 0; oh < outH; oh++) {
        real *y = out + p * outPlane + (ot * outH + oh) * outW;
        for (int64_t ow = 0; ow < plan->lo; ow++)
          y[ow] = (real)THNN_(Pool_meanAt)(in + p * inPlane, s, g, ot, oh, ow, mode);
        for (int64_t ow = plan->hi; ow < outW; ow++)
          y[ow] = (real)THNN_(Pool_meanAt)(in + p * inPlane, s, g, ot, oh, ow, mode);
      }
}

/* Whether Pool_avgPlanesWindow serves w: a fixed window (not adaptive)
 * whose full columns all hold kW taps along W, counted alike by mode, of
 * step 1 or 2, in rows of THNN_POOL_AVG_MIN_RUN full columns or more
 * (shorter ones lost to Pool_avgPlane's loop: ResNet's global 7x7 pooling,
 * one column, 5x its time; 5x5/3 on 32x17x17, 5 columns, 3x). */
#define THNN_POOL_AVG_MIN_RUN THNN_POOL_AVG_LANES

THNN_HELPER bool THNN_(Pool_avgByRows)(const THPoolGrid *g, const THPoolWindow *w, const THNN_(PoolRowPlan) *plan,
                                       THPoolDivisor mode)
{
  if (!w || mode == TH_POOL_ADAPTIVE || plan->hi - plan->lo < THNN_POOL_AVG_MIN_RUN || w->d[2] > 2 ||
      w->dil[2] != 1 || (int64_t)w->k[0] * w->k[1] > THNN_POOL_MAX_TAPS)
    return false;
  for (int64_t ow = plan->lo; ow < plan->hi; ow++)
    if (g->count[2][ow] != w->k[2] || g->span[2][ow] != w->k[2])
      return false;
  return true;
}

/* The plane loop of average pooling over the windows of g (of w, or NULL
 * for adaptive windows): forward (from: the input, to: the output) or
 * backward (from: gradOutput, to: gradInput), `to` already sized; planes
 * shared between threads. */
/* Global pooling (one window covering each whole plane: ResNet's 7x7 on
 * 7x7, an adaptive pooling to 1x1): the sums of THNN_POOL_WHOLE planes at
 * once, each in order as Pool_meanAt's, so the same bits; one plane's
 * chain of dependent additions kept the adder waiting its latency at every
 * tap (global 7x7 on 512 planes: 1.5-3.1x onnxruntime's time). */
#define THNN_POOL_WHOLE 8

THNN_HELPER bool THNN_(Pool_avgWhole)(const THPoolShape *s, const THPoolGrid *g)
{
  for (int d = 0; d < 3; d++)
    if (s->out[d] != 1 || g->first[d][0] != 0 || g->count[d][0] != s->in[d] || g->dil[d] != 1)
      return false;
  return true;
}

THNN_HELPER void THNN_(Pool_avgPlanesWhole)(const real *in, real *out, const THPoolShape *s, const THPoolGrid *g,
                                            THPoolDivisor mode, int64_t p0, int64_t p1)
{
  int64_t n = THNN_(Pool_planeSize)(s->in), p = p0;
  for (; p + THNN_POOL_WHOLE <= p1; p += THNN_POOL_WHOLE) {
    accreal sum[THNN_POOL_WHOLE] = {0};
    const real *x = in + p * n;
    for (int64_t i = 0; i < n; i++)
#pragma GCC unroll 8
      for (int k = 0; k < THNN_POOL_WHOLE; k++)
        sum[k] += x[k * n + i];
    for (int k = 0; k < THNN_POOL_WHOLE; k++)
      out[p + k] = (real)THNN_(Pool_mean)(sum[k], g, 0, 0, 0, mode);
  }
  for (; p < p1; p++)
    out[p] = (real)THNN_(Pool_meanAt)(in + p * n, s, g, 0, 0, 0, mode);
}

THNN_HELPER int THNN_(Pool_avgPlanes)(THNNState *state, THTensor *from, THTensor *to, const THPoolShape *s,
                                 const THPoolGrid *g, const THPoolWindow *w, THPoolDivisor mode, bool fast2x2,
                                 bool backward)
{
  THTensor tmp = {0};
  const THTensor *src = THTensor_(contiguous)(state, from, &tmp);
  if (!src)
    return -1;
  int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
  int64_t fromPlane = backward ? outPlane : inPlane, toPlane = backward ? inPlane : outPlane;
  int64_t planes = s->batch * s->planes;
  const real *a = THTensor_(data)(src);
  real *b = THTensor_(data)(to);
  THNN_(PoolRowPlan) plan = {0, 0, 0};
  if (w)
    plan = THNN_(Pool_rowPlan)(s, w);
  bool byRows = !backward && !fast2x2 && THNN_(Pool_avgByRows)(g, w, &plan, mode);
  bool whole = !backward && !fast2x2 && THNN_(Pool_avgWhole)(s, g);
  THNN_POOL_PLANES(planes, planes * inPlane, p0, p1, {
    if (whole)
      THNN_(Pool_avgPlanesWhole)(a, b, s, g, mode, p0, p1);
    else if (byRows) {
      THNN_(Pool_avgPlanesWindow)(a, b, s, g, w, &plan, mode, p0, p1);
      THNN_(Pool_avgPlanesEdges)(a, b, s, g, &plan, mode, p0, p1);
    } else
      for (int64_t p = p0; p < p1; p++) {
        if (backward && fast2x2)
          THNN_(Pool_avgGradPlane2x2)(a + p * fromPlane, b + p * toPlane, s);
        else if (backward)
          THNN_(Pool_avgGradPlane)(a + p * fromPlane, b + p * toPlane, s, g, mode);
        else if (fast2x2)
          THNN_(Pool_avgPlane2x2)(a + p * fromPlane, b + p * toPlane, s);
        else
          THNN_(Pool_avgPlane)(a + p * fromPlane, b + p * toPlane, s, g, mode);
      }
  });
  THTensor_(release)(&tmp);
  return 0;
}

/* updateOutput of average pooling over the windows of g. */
THNN_HELPER int THNN_(Pool_avgOutput)(THNNState *state, THTensor *input, THTensor *output, const THPoolShape *s,
                                 const THPoolGrid *g, const THPoolWindow *w, THPoolDivisor mode, bool fast2x2)
{
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  TH_TRY(THTensor_(resizeNd)(state, output, n, dims));
  return THNN_(Pool_avgPlanes)(state, input, output, s, g, w, mode, fast2x2, false);
}

THNN_HELPER int THNN_(Pool_avgGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                    const THPoolShape *s, const THPoolGrid *g, THPoolDivisor mode,
                                    bool fast2x2)
{
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  return THNN_(Pool_avgPlanes)(state, gradOutput, gradInput, s, g, NULL, mode, fast2x2, true);
}

/* Average pooling over the windows that w slides over s (the layers with
 * kernel settings), or with w NULL over the adaptive windows of s; mode
 * says what a window's sum is divided by.  Forward when gradOutput is NULL
 * (result: the output), else backward (result: gradInput). */
THNN_HELPER int THNN_(Pool_average)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                               const THPoolShape *s, const THPoolWindow *w, THPoolDivisor mode)
{
  THPoolGrid g;
  int rc = w ? THPoolGridWindows(state, &g, s, w) : THPoolGridAdaptive(state, &g, s);
  bool fast2x2 = w && THNN_(Pool_is2x2)(s, w);
  if (rc == 0 && gradOutput)
    rc = THNN_(Pool_avgGradInput)(state, input, gradOutput, result, s, &g, mode, fast2x2);
  else if (rc == 0)
    rc = THNN_(Pool_avgOutput)(state, input, result, s, &g, w, mode, fast2x2);
  THPoolGridFree(&g);
  return rc;
}

/* Max pooling's forward pass over the windows that w slides over s, or with
 * w NULL over the adaptive windows of s. */
THNN_HELPER int THNN_(Pool_max)(THNNState *state, THTensor *input, THTensor *output, THIndexTensor *indices,
                           const THPoolShape *s, const THPoolWindow *w)
{
  THPoolGrid g;
  int rc = w ? THPoolGridWindows(state, &g, s, w) : THPoolGridAdaptive(state, &g, s);
  if (rc == 0)
    rc = THNN_(Pool_maxOutput)(state, input, output, indices, s, &g, w, w && THNN_(Pool_is2x2)(s, w));
  THPoolGridFree(&g);
  return rc;
}

/* ---------------------------------------------------------------- fractional */

/* The window starts along one axis for a sample u in [0, 1), as Torch7 and
 * PyTorch compute them, in the element type so the windows agree:
 *   alpha = (in - pool) / (out - 1),  start_i = int((i + u) alpha) - int(u alpha),
 * the last window ending at the input's end. */
THNN_HELPER void THNN_(Pool_fractionalStarts)(real u, int64_t in, int64_t out, int pool, int64_t *first)
{
  if (out > 1) {
    real alpha = (real)(in - pool) / (real)(out - 1);
    for (int64_t i = 0; i < out - 1; i++) {
      first[i] = (int64_t)((i + u) * alpha) - (int64_t)(u * alpha);
      if (first[i] > in - pool)  /* cannot happen for u in [0, 1); keeps every read inside */
        first[i] = in - pool;
    }
  }
  first[out - 1] = in - pool;
}

/* updateOutput of fractional max pooling: plane p's windows come from its
 * samples (the [batch, planes, nd] tensor samples, contiguous, checked to
 * lie in [0, 1)), ordered as Torch7's arguments: width, height for a spatial
 * layer, time, width, height for a volumetric one. */
THNN_HELPER int THNN_(Pool_fractionalOutput)(THNNState *state, THTensor *input, THTensor *output,
                                        THIndexTensor *indices, const THTensor *samples,
                                        const THPoolShape *s, const int *pool)
{
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  TH_TRY(THTensor_(resizeNd)(state, output, n, dims));
  TH_TRY(THLongTensor_resizeNd(state, indices, n, dims));
  THTensor xTmp = {0}, uTmp = {0};
  THPoolGrid g = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *u = x ? THTensor_(contiguous)(state, samples, &uTmp) : NULL;
  int rc = u ? THPoolGridAlloc(state, &g, s) : -1;
  if (rc == 0) {
    int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
    const int sampleAxis[2][3] = {{-1, 1, 0}, {0, 2, 1}};  /* the sample of axis T, H, W */
    for (int64_t p = 0; p < s->batch * s->planes; p++) {
      const real *up = THTensor_(data)(u) + p * s->nd;
      for (int a = 0; a < 3; a++) {
        int k = sampleAxis[s->nd - 2][a];
        for (int64_t o = 0; o < s->out[a]; o++)
          g.count[a][o] = pool[a];
        if (k < 0)
          g.first[a][0] = 0;
        else
          THNN_(Pool_fractionalStarts)(up[k], s->in[a], s->out[a], pool[a], g.first[a]);
      }
      THNN_(Pool_maxPlane)(THTensor_(data)(x) + p * inPlane, THTensor_(data)(output) + p * outPlane,
                           THLongTensor_data(indices) + p * outPlane, s, &g);
    }
  }
  THPoolGridFree(&g);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&uTmp);
  return rc;
}

/* Checks for fractional pooling with pool sizes pool[] (T, H, W) and the
 * output sizes in s->out: each pool size >= 1, output >= 1 and
 * output + pool - 1 <= input (the windows fit), and samples (when given)
 * of size [batch, planes, nd] with every value in [0, 1). */
THNN_HELPER int THNN_(Pool_checkFractional)(THNNState *state, const THPoolShape *s, const int *pool,
                                       THTensor *samples)
{
  static const char *const name[3] = {"T", "H", "W"};
  static const int order[3] = {0, 2, 1};  /* Torch7's order: time, width, height */
  for (int i = 3 - s->nd; i < 3; i++) {
    int a = order[i];
    if (pool[a] < 1)
      return THError(state, "pool size must be > 0, got poolSize%s=%d", name[a], pool[a]);
    if (s->out[a] < 1)
      return THError(state, "output size must be > 0, got output%s=%lld", name[a], (long long)s->out[a]);
    if (s->out[a] + pool[a] - 1 > s->in[a]) {
      char dims[160];
      int64_t size[5];
      THDescribeSizes(dims, sizeof dims, THPoolDims(s, s->in, size), size);
      return THError(state, "output%s=%lld with poolSize%s=%d needs an input of at least %lld along %s, "
                     "got input %s", name[a], (long long)s->out[a], name[a], pool[a],
                     (long long)(s->out[a] + pool[a] - 1), a == 0 ? "time" : a == 1 ? "height" : "width", dims);
    }
  }
  if (!samples)
    return 0;
  int64_t size[3] = {s->batch, s->planes, s->nd};
  TH_TRY(THTensor_(checkSizes)(state, "randomSamples", samples, 3, size));
  for (int64_t i = 0; i < size[0]; i++)
    for (int64_t j = 0; j < size[1]; j++)
      for (int64_t k = 0; k < size[2]; k++) {
        real v = THTensor_(data)(samples)[i * samples->stride[0] + j * samples->stride[1] + k * samples->stride[2]];
        if (!(v >= 0 && v < 1))
          return THError(state, "randomSamples[%lld, %lld, %lld] = %g is outside [0, 1)",
                         (long long)i, (long long)j, (long long)k, (double)v);
      }
  return 0;
}

/* ---------------------------------------------------------------- unpooling */

/* Max unpooling: s->in is the pooled input, s->out the unpooled output;
 * indices (shaped as input, checked to lie in an output plane) say where
 * each input element goes: output is zero but for output[indices[i]] =
 * input[i] (of two elements with the same index the later stays). */
THNN_HELPER int THNN_(Pool_unpoolOutput)(THNNState *state, THTensor *input, THTensor *output,
                                    THIndexTensor *indices, const THPoolShape *s)
{
  int64_t dims[5];
  int n = THPoolDims(s, s->out, dims);
  TH_TRY(THTensor_(resizeNd)(state, output, n, dims));
  THTensor xTmp = {0};
  THLongTensor iTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THLongTensor *ix = x ? THLongTensor_contiguous(state, indices, &iTmp) : NULL;
  if (ix) {
    int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
    for (int64_t p = 0; p < s->batch * s->planes; p++) {
      const real *in = THTensor_(data)(x) + p * inPlane;
      const int64_t *ind = THLongTensor_data(ix) + p * inPlane;
      real *out = THTensor_(data)(output) + p * outPlane;
      memset(out, 0, (size_t)outPlane * sizeof(real));
      for (int64_t i = 0; i < inPlane; i++)
        out[ind[i]] = in[i];
    }
  }
  THTensor_(release)(&xTmp);
  THLongTensor_release(&iTmp);
  return ix ? 0 : -1;
}

/* Its gradient: gradInput[i] = gradOutput[indices[i]]. */
THNN_HELPER int THNN_(Pool_unpoolGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       THTensor *gradInput, THIndexTensor *indices, const THPoolShape *s)
{
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  THTensor gTmp = {0};
  THLongTensor iTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THLongTensor *ix = g ? THLongTensor_contiguous(state, indices, &iTmp) : NULL;
  if (ix) {
    int64_t inPlane = THNN_(Pool_planeSize)(s->in), outPlane = THNN_(Pool_planeSize)(s->out);
    for (int64_t p = 0; p < s->batch * s->planes; p++) {
      const real *go = THTensor_(data)(g) + p * outPlane;
      const int64_t *ind = THLongTensor_data(ix) + p * inPlane;
      real *gi = THTensor_(data)(gradInput) + p * inPlane;
      for (int64_t i = 0; i < inPlane; i++)
        gi[i] = go[ind[i]];
    }
  }
  THTensor_(release)(&gTmp);
  THLongTensor_release(&iTmp);
  return ix ? 0 : -1;
}

#endif
