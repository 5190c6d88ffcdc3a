/* Pointwise.h: what every elementwise kernel (the activations and the
 * pointwise criterions) does around its formula, written once: read the
 * operands through contiguous copies, give the result its size (or write
 * in place), split the elements between threads, run the formula loop on
 * each share, and release the copies.  A kernel keeps only its shape check
 * and its formula loops, which are vector-cloned (see THLoop.h):
 *
 *   THNN_POINTWISE_LOOP(THNN_(Sigmoid_forward))      (a: the input)
 *   {
 *     for (int64_t i = 0; i < n; i++)
 *       out[i] = 1 / (1 + THVector_exp(-a[i]));
 *   }
 *   ...
 *   return THNN_(Pointwise_map)(state, output, false, THNN_(Sigmoid_forward), NULL, input, NULL, NULL);
 *
 * A generic header: each generic file that uses it includes it, and it
 * defines its functions once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_POINTWISE_FLOAT)
#define THNN_POINTWISE_FLOAT
#define THNN_POINTWISE_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_POINTWISE_DOUBLE)
#define THNN_POINTWISE_DOUBLE
#define THNN_POINTWISE_NOW
#endif

#ifdef THNN_POINTWISE_NOW
#undef THNN_POINTWISE_NOW

#include "THLoop.h"

/* A formula loop: out[i] = f(a[i], b[i], c[i]) for i < n, on contiguous
 * arrays; b and c are NULL for a kernel with fewer operands, and out may be
 * a (the in-place modes).  arg: the layer's scalars, as the kernel passed them. */
typedef void (*THNN_(PointwiseLoop))(real *out, const real *a, const real *b, const real *c, int64_t n,
                                     const accreal *arg);

/* The head of a formula loop, vector-cloned: ``THNN_POINTWISE_LOOP(THNN_(Abs_forward)) { ... }``
 * with the arguments out, a, b, c, n and arg of THNN_(PointwiseLoop). */
#define THNN_POINTWISE_LOOP(name) \
  TH_VECTOR_CLONES static void name(real *out, const real *a, const real *b, const real *c, int64_t n, \
                                    const accreal *arg)

/* A formula sum: the sum of f(a[i], b[i], c[i]) over i < n, in accreal. */
typedef accreal (*THNN_(PointwiseSum))(const real *a, const real *b, const real *c, int64_t n,
                                       const accreal *arg);

/* The head of a formula sum (not vectorized: a sum in order cannot be, without reassociating it). */
#define THNN_POINTWISE_SUM(name) \
  static accreal name(const real *a, const real *b, const real *c, int64_t n, const accreal *arg)

/* The elements of each thread's share are cut at multiples of 16 (see
 * THLoopRange); a missing operand stays NULL. */
static inline const real *THNN_(Pointwise_at)(const THTensor *t, int64_t begin)
{
  return t ? THTensor_(data)(t) + begin : NULL;
}

/* The shape check of most elementwise layers: gradOutput, and `other`
 * (named otherName: the output, a buffer), each where given (not NULL),
 * sized as `like` (named likeName). */
THNN_HELPER int THNN_(Pointwise_checkSizes)(THNNState *state, const char *likeName, THTensor *like,
                                       THTensor *gradOutput, const char *otherName, THTensor *other)
{
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, likeName, like));
  if (other)
    TH_TRY(THTensor_(checkSameSize)(state, otherName, other, likeName, like));
  return 0;
}

/* The factor of a criterion's gradient: scale, divided by the number of
 * elements of input when sizeAverage (and there are any). */
THNN_HELPER inline accreal THNN_(Pointwise_norm)(const THTensor *input, bool sizeAverage, accreal scale)
{
  int64_t n = THTensor_(nElement)(input);
  return sizeAverage && n > 0 ? scale / n : scale;
}

/* result = loop(a, b, c) elementwise; b and c (NULL or tensors of a's
 * number of elements) are read as they are laid out in memory order, as a
 * is.  Out of place, result takes a's sizes.  In place, the values go into
 * a itself (through a contiguous copy when a is strided) and result becomes
 * a view of a.  costly: the loop calls exp, tanh or log per element, and
 * takes a second thread on fewer elements (THLoopThreadsCostly). */
THNN_HELPER int THNN_(Pointwise_mapBy)(THNNState *state, THTensor *result, bool inplace, THNN_(PointwiseLoop) loop,
                                       const accreal *arg, THTensor *a, THTensor *b, THTensor *c, bool costly)
{
  THTensor aTmp = {0}, bTmp = {0}, cTmp = {0};
  const THTensor *ca = THTensor_(contiguous)(state, a, &aTmp);
  const THTensor *cb = ca && b ? THTensor_(contiguous)(state, b, &bTmp) : NULL;
  const THTensor *cc = ca && (!b || cb) && c ? THTensor_(contiguous)(state, c, &cTmp) : NULL;
  THTensor *dst = inplace ? (ca == a ? a : &aTmp) : result;
  int rc = -1;
  if (ca && (!b || cb) && (!c || cc) && (inplace || THTensor_(resizeAs)(state, result, a) == 0)) {
    real *out = THTensor_(data)(dst);
    int64_t n = THTensor_(nElement)(a);
#pragma omp parallel num_threads(costly ? THLoopThreadsCostly(n) : THLoopThreads(n))
    {
      int64_t begin, end;
      THLoopRange(n, &begin, &end);
      loop(out + begin, THNN_(Pointwise_at)(ca, begin), THNN_(Pointwise_at)(cb, begin),
           THNN_(Pointwise_at)(cc, begin), end - begin, arg);
    }
    if (inplace) {
      if (dst != a)
        THTensor_(copy)(a, dst);
      THTensor_(set)(result, a);
    }
    rc = 0;
  }
  THTensor_(release)(&aTmp);
  THTensor_(release)(&bTmp);
  THTensor_(release)(&cTmp);
  return rc;
}

/* Pointwise_mapBy for a loop of a few operations per element. */
THNN_HELPER int THNN_(Pointwise_map)(THNNState *state, THTensor *result, bool inplace, THNN_(PointwiseLoop) loop,
                                const accreal *arg, THTensor *a, THTensor *b, THTensor *c)
{
  return THNN_(Pointwise_mapBy)(state, result, inplace, loop, arg, a, b, c, false);
}

/* output = [sum over the elements of sum(a, b, c)], divided by the number
 * of elements when sizeAverage (and there are any).  The elements are
 * summed in blocks of TH_LOOP_GRAIN, the blocks in parallel, and the
 * blocks' sums added in order: the result does not depend on the threads. */
THNN_HELPER int THNN_(Pointwise_sum)(THNNState *state, THTensor *output, THNN_(PointwiseSum) sum, const accreal *arg,
                                bool sizeAverage, THTensor *a, THTensor *b, THTensor *c)
{
  THTensor aTmp = {0}, bTmp = {0}, cTmp = {0};
  const THTensor *ca = THTensor_(contiguous)(state, a, &aTmp);
  const THTensor *cb = ca && b ? THTensor_(contiguous)(state, b, &bTmp) : NULL;
  const THTensor *cc = ca && (!b || cb) && c ? THTensor_(contiguous)(state, c, &cTmp) : NULL;
  int rc = -1;
  if (ca && (!b || cb) && (!c || cc) && THTensor_(resize1d)(state, output, 1) == 0) {
    int64_t n = THTensor_(nElement)(a);
    int64_t blocks = (n + TH_LOOP_GRAIN - 1) / TH_LOOP_GRAIN;
    accreal total = 0;
    if (blocks <= 1) {
      total = sum(THTensor_(data)(ca), THNN_(Pointwise_at)(cb, 0), THNN_(Pointwise_at)(cc, 0), n, arg);
    } else {
      accreal *part = THAlloc((size_t)blocks * sizeof(accreal));
      if (!part) {
        THError(state, "out of memory");
        goto done;
      }
#pragma omp parallel for num_threads(THLoopThreads(n)) schedule(static)
      for (int64_t k = 0; k < blocks; k++) {
        int64_t begin = k * TH_LOOP_GRAIN, len = n - begin < TH_LOOP_GRAIN ? n - begin : TH_LOOP_GRAIN;
        part[k] = sum(THTensor_(data)(ca) + begin, THNN_(Pointwise_at)(cb, begin), THNN_(Pointwise_at)(cc, begin),
                      len, arg);
      }
      for (int64_t k = 0; k < blocks; k++)
        total += part[k];
      THFree(part);
    }
    if (sizeAverage && n > 0)
      total /= n;
    THTensor_(data)(output)[0] = (real)total;
    rc = 0;
  }
done:
  THTensor_(release)(&aTmp);
  THTensor_(release)(&bTmp);
  THTensor_(release)(&cTmp);
  return rc;
}

#endif
