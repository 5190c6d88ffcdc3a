/* Shared by the spatial convolutions: their geometry, its checks, the
 * threading of a batch, and the unfolding of an image into columns
 * (Torch7's unfolded_copy, known elsewhere as im2col) and back (unfolded_acc,
 * col2im).
 *
 * Geometry.  A kernel of kW x kH taps, dilated by dilationW, dilationH (the
 * taps lie dilation apart, so the kernel spans (k - 1) * dilation + 1
 * pixels), slides over an image padded with zeros by padW columns left and
 * right and padH rows above and below, in steps of dW, dH.  Output pixel
 * (y, x) sees input pixel (y*dH - padH + i*dilationH, x*dW - padW + j*dilationW)
 * through tap (i, j); there are (size + 2*pad - span) / step + 1 positions
 * along each axis.
 *
 * Columns.  The columns of one image are a matrix [nPlane*kH*kW, outH*outW]:
 * row (c*kH + i)*kW + j holds, for every output pixel, the input pixel that
 * tap (i, j) of plane c sees there (0 in the padding).  A convolution is then
 * one matrix product with the weight viewed as [nOutputPlane, nPlane*kH*kW].
 *
 * The batch engine.  A convolution and its transpose (the "full"
 * convolution) are the same three products, with the roles swapped.  Call
 * "image" the side the kernel slides over (the input of a convolution, the
 * output of a full convolution) and "other" the other side, nOther planes of
 * outH*outW.  With K = nPlane*kH*kW, A = outH*outW and w a [nOther, K] matrix:
 *     unfoldMultiply:  other [nOther, A] = w [nOther, K] * columns(image) [K, A]
 *     multiplyFold:    image = fold(w^T [K, nOther] * other [nOther, A])
 *     gradWeight:      gw [nOther, K] += scale * other [nOther, A] * columns(image)^T [A, K]
 * BLAS is column-major, where a row-major [r, c] matrix is its transpose:
 * hence the transposition flags of the gemm calls.  A 1x1 kernel with step 1
 * and no padding needs no columns: the image [nPlane, H*W] is already them.
 *
 * Threads.  Built with OpenMP, a batch is split between the library's
 * threads (THBlas.c: one pool, OpenBLAS single-threaded and called from each
 * thread), one sample at a time, each thread with its own column buffer; the
 * products inside run whole in their thread.  A single sample, or a call too
 * small to pay for threads, runs in the calling thread and THBlas_(gemm)
 * splits its products instead.  Without OpenMP everything runs in the
 * calling thread and OpenBLAS threads the products.  Samples go to whichever
 * thread is free (a thread slowed by another process does not hold the
 * others up); each sample's result is the same whichever thread makes it.
 * Gradients of the weight, summed over samples, are summed per thread over
 * a fixed share of the batch and the sums added in thread order, so they do
 * not depend on timing either. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/unfold.c"
#else

#include "THLoop.h"
#ifdef _OPENMP
#include <cblas.h>
#include <omp.h>
#endif

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_UNFOLD_SHARED
#define THNN_UNFOLD_SHARED

typedef struct THNNConvGeometry {
  int kW, kH;                  /* taps */
  int dW, dH;                  /* steps */
  int padW, padH;              /* zeros added on each side */
  int dilationW, dilationH;    /* distance between taps */
  int64_t nPlane;              /* planes of the image the kernel slides over */
  int64_t inH, inW;            /* size of that image */
  int64_t outH, outW;          /* positions of the kernel */
} THNNConvGeometry;

/* Pixels a dilated kernel spans along one axis. */
static int64_t THNNConv_span(int k, int dilation)
{
  return (int64_t)(k - 1) * dilation + 1;
}

/* The checks every sliding kernel shares; 0, or -1 with the reason. */
static int THNNConv_checkParameters(THNNState *state, int kW, int kH, int dW, int dH,
                                    int padW, int padH, int dilationW, int dilationH)
{
  if (kW <= 0 || kH <= 0)
    return THError(state, "kernel size must be positive, got kW=%d, kH=%d", kW, kH);
  if (dW <= 0 || dH <= 0)
    return THError(state, "stride must be positive, got dW=%d, dH=%d", dW, dH);
  if (dilationW <= 0 || dilationH <= 0)
    return THError(state, "dilation must be positive, got dilationW=%d, dilationH=%d", dilationW, dilationH);
  int64_t spanW = THNNConv_span(kW, dilationW), spanH = THNNConv_span(kH, dilationH);
  if (padW < 0 || padH < 0 || padW >= spanW || padH >= spanH)
    return THError(state, "padding must be at least 0 and less than the kernel span (%lld wide, %lld high), "
                   "got padW=%d, padH=%d", (long long)spanW, (long long)spanH, padW, padH);
  return 0;
}

/* Positions of the kernel along one axis of an image of `size` pixels:
 * (size + 2*pad - span) / step + 1, or 0 when the padded image is shorter
 * than the kernel.  (Sizes are below 2^62 and the ints below 2^31.) */
static int64_t THNNConv_outputSize(int64_t size, int k, int step, int pad, int dilation)
{
  int64_t room = size + 2 * (int64_t)pad - THNNConv_span(k, dilation);
  return room < 0 ? 0 : room / step + 1;
}

/* The smallest x with lo <= x*step + offset, and the smallest with
 * x*step + offset >= hi: the output range [first, last) whose pixel lies
 * inside [0, size), clamped to [0, n). */
static void THNNConv_inside(int64_t offset, int step, int64_t size, int64_t n, int64_t *first, int64_t *last)
{
  int64_t a = -offset, b = size - offset;      /* need a <= x*step < b */
  int64_t lo = a <= 0 ? 0 : (a + step - 1) / step;
  int64_t hi = b <= 0 ? 0 : (b + step - 1) / step;
  *first = lo < n ? lo : n;
  *last = hi < n ? hi : n;
  if (*last < *first)
    *last = *first;
}

/* Below this many multiply-adds a call stays in one thread: starting and
 * joining threads would cost more than they save. */
#define THNN_CONV_PARALLEL_WORK (1 << 22)

/* How many threads share `jobs` independent jobs (samples, planes) that
 * take `work` multiply-adds in all: the pool's size (1 in a fork() child),
 * and 1 while OpenBLAS has threads of its own, which must not be called
 * from several threads at once. */
static int THNNConv_threads(int64_t jobs, double work)
{
#ifdef _OPENMP
  int n = THLoopThreads(INT64_MAX);
  if (n > jobs)
    n = (int)jobs;
  return n < 1 || work < THNN_CONV_PARALLEL_WORK || scipy_openblas_get_num_threads() > 1 ? 1 : n;
#else
  (void)jobs;
  (void)work;
  return 1;
#endif
}

static int THNNConv_threadId(void)
{
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

/* The sizes of a batch seen through its columns (see the top). */
typedef struct THNNConvPlan {
  int64_t batch;               /* samples */
  int64_t K, area;             /* the columns of one sample: [K, area] */
  int64_t imageSize;           /* elements of one sample's image */
  int64_t nOther;              /* planes of the other side, each of `area` elements */
  int nThreads;                /* threads sharing the batch */
  int direct;                  /* a 1x1 kernel, step 1, no padding: the image is its own columns */
} THNNConvPlan;

static THNNConvPlan THNNConv_plan(int64_t batch, const THNNConvGeometry *g, int64_t nOther)
{
  THNNConvPlan p;
  p.batch = batch;
  p.K = g->nPlane * g->kH * g->kW;
  p.area = g->outH * g->outW;
  p.imageSize = g->nPlane * g->inH * g->inW;
  p.nOther = nOther;
  p.nThreads = THNNConv_threads(batch, (double)batch * p.K * p.area * nOther);
  p.direct = g->kW == 1 && g->kH == 1 && g->dW == 1 && g->dH == 1 && g->padW == 0 && g->padH == 0;
  return p;
}

static int THNNConv_blasError(THNNState *state, const THNNConvPlan *p)
{
  return THError(state, "matrix sizes (%lld planes, %lld column rows, %lld output pixels) exceed the 32-bit BLAS",
                 (long long)p->nOther, (long long)p->K, (long long)p->area);
}

/* Steps of 1 and rows as long in the output as in the image (the "same"
 * padding): then the output rows y0..y1-1 of a tap and the image rows they
 * see are one contiguous run each, `shift` elements apart, and a tap is
 * copied (or added back) in one sweep.  The entries of the sweep outside
 * columns [x0, x1) wrap to a neighbouring row and are set to 0 after the
 * copy (before the addition). */
static int THNNConv_sameRows(const THNNConvGeometry *g)
{
  return g->dW == 1 && g->dH == 1 && g->outW == g->inW;
}

#endif /* THNN_UNFOLD_SHARED */

/* ---- per element type ---- */

/* Zero n elements (n may be 0). */
static void THNN_(convZero)(real *data, int64_t n)
{
  memset(data, 0, (size_t)n * sizeof(real));
}

/* Zero the entries outside columns [x0, x1) of rows [y0, y1) of a tap's row of columns. */
static void THNN_(convZeroBorder)(const THNNConvGeometry *g, real *row, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
  for (int64_t y = y0; y < y1; y++) {
    real *r = row + y * g->outW;
    for (int64_t x = 0; x < x0; x++)
      r[x] = 0;
    for (int64_t x = x1; x < g->outW; x++)
      r[x] = 0;
  }
}

/* row [outH*outW] <- what the tap at offset (offH, offW) sees of one image
 * plane at every output pixel: plane[y*dH + offH][x*dW + offW], 0 outside. */
static void THNN_(convUnfoldTap)(const THNNConvGeometry *g, const real *plane, int64_t offH, int64_t offW, real *row)
{
  int64_t x0, x1, y0, y1;
  THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
  THNNConv_inside(offH, g->dH, g->inH, g->outH, &y0, &y1);
  if (x1 == x0)
    y1 = y0;                                   /* nothing inside: all zeros */
  THNN_(convZero)(row, y0 * g->outW);
  THNN_(convZero)(row + y1 * g->outW, (g->outH - y1) * g->outW);
  if (y1 > y0 && THNNConv_sameRows(g)) {
    int64_t first = y0 * g->outW + x0, last = (y1 - 1) * g->outW + x1, shift = offH * g->inW + offW;
    memcpy(row + first, plane + first + shift, (size_t)(last - first) * sizeof(real));
    THNN_(convZeroBorder)(g, row, x0, x1, y0, y1);
    return;
  }
  for (int64_t y = y0; y < y1; y++) {
    real *dst = row + y * g->outW;
    const real *src = plane + (y * g->dH + offH) * g->inW;   /* output x sees src[x*dW + offW] */
    for (int64_t x = 0; x < x0; x++)
      dst[x] = 0;
    if (g->dW == 1)
      memcpy(dst + x0, src + x0 + offW, (size_t)(x1 - x0) * sizeof(real));
    else
      for (int64_t x = x0; x < x1; x++)
        dst[x] = src[x * g->dW + offW];
    for (int64_t x = x1; x < g->outW; x++)
      dst[x] = 0;
  }
}

/* plane += row folded back through the tap at (offH, offW): every entry is
 * added to the pixel it would have been copied from (entries that fall in
 * the padding are dropped; the fast path zeroes them in row first). */
static void THNN_(convFoldTap)(const THNNConvGeometry *g, real *row, int64_t offH, int64_t offW, real *plane)
{
  int64_t x0, x1, y0, y1;
  THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
  THNNConv_inside(offH, g->dH, g->inH, g->outH, &y0, &y1);
  if (x1 == x0 || y1 == y0)
    return;
  if (THNNConv_sameRows(g)) {
    int64_t first = y0 * g->outW + x0, last = (y1 - 1) * g->outW + x1, shift = offH * g->inW + offW;
    THNN_(convZeroBorder)(g, row, x0, x1, y0, y1);
    real *dst = plane + shift;
    for (int64_t k = first; k < last; k++)
      dst[k] += row[k];
    return;
  }
  for (int64_t y = y0; y < y1; y++) {
    const real *src = row + y * g->outW;
    real *dst = plane + (y * g->dH + offH) * g->inW;
    for (int64_t x = x0; x < x1; x++)
      dst[x * g->dW + offW] += src[x];
  }
}

/* columns [nPlane*kH*kW, outH*outW] <- the pixels each tap sees (see the top). */
static void THNN_(unfoldedCopy)(const THNNConvGeometry *g, const real *image, real *columns)
{
  const int64_t plane = g->inH * g->inW, outArea = g->outH * g->outW;
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int i = 0; i < g->kH; i++)
      for (int j = 0; j < g->kW; j++)
        THNN_(convUnfoldTap)(g, image + c * plane, (int64_t)i * g->dilationH - g->padH,
                         (int64_t)j * g->dilationW - g->padW, columns + ((c * g->kH + i) * g->kW + j) * outArea);
}

/* image [nPlane, inH, inW] += the columns folded back (the columns are
 * scratch: entries in the padding may be zeroed). */
static void THNN_(unfoldedAcc)(const THNNConvGeometry *g, real *columns, real *image)
{
  const int64_t plane = g->inH * g->inW, outArea = g->outH * g->outW;
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int i = 0; i < g->kH; i++)
      for (int j = 0; j < g->kW; j++)
        THNN_(convFoldTap)(g, columns + ((c * g->kH + i) * g->kW + j) * outArea, (int64_t)i * g->dilationH - g->padH,
                       (int64_t)j * g->dilationW - g->padW, image + c * plane);
}

/* Give columns the shape [nThreads, K, area]: one buffer per thread (none
 * when the image is its own columns or the batch is empty, so that no
 * uninitialised memory is handed back). */
static int THNN_(convResizeColumns)(THNNState *state, THTensor *columns, const THNNConvPlan *p)
{
  int64_t size[3] = {p->direct || p->batch == 0 ? 0 : p->nThreads, p->K, p->area};
  return THTensor_(resizeNd)(state, columns, 3, size);
}

/* Each of the nPlane planes of `area` elements set to its bias value, or 0. */
static void THNN_(convFillBias)(real *data, const THTensor *bias, int64_t nPlane, int64_t area)
{
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  for (int64_t p = 0; p < nPlane; p++) {
    real v = b ? b[p * bias->stride[0]] : 0;
    for (int64_t k = 0; k < area; k++)
      data[p * area + k] = v;
  }
}

/* other = w * columns(image) for every sample, each plane o of other
 * starting from bias[o] (bias may be NULL).  w is [nOther, K], contiguous. */
static int THNN_(convUnfoldMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                     const real *image, const real *w, const THTensor *bias, real *other,
                                     real *columns)
{
  int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(dynamic, 1) reduction(|:failed) if (p->nThreads > 1)
#endif
  for (int64_t n = 0; n < p->batch; n++) {
    THNNState local = {0};
    const real *img = image + n * p->imageSize, *cols = img;
    real *out = other + n * p->nOther * p->area;
    if (!p->direct) {
      real *buffer = columns + THNNConv_threadId() * p->K * p->area;
      THNN_(unfoldedCopy)(g, img, buffer);
      cols = buffer;
    }
    if (bias)
      THNN_(convFillBias)(out, bias, p->nOther, p->area);
    failed |= THBlas_(gemm)(&local, 'n', 'n', p->area, p->nOther, p->K, 1, cols, p->area, w, p->K,
                            bias ? 1 : 0, out, p->area) != 0;
  }
  return failed ? THNNConv_blasError(state, p) : 0;
}

/* image = fold(w^T * other) for every sample, each image plane c starting
 * from bias[c] (0 when bias is NULL).  w is [nOther, K], contiguous. */
static int THNN_(convMultiplyFold)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                   const real *other, const real *w, const THTensor *bias, real *image,
                                   real *columns)
{
  int failed = 0;
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(dynamic, 1) reduction(|:failed) if (p->nThreads > 1)
#endif
  for (int64_t n = 0; n < p->batch; n++) {
    THNNState local = {0};
    real *img = image + n * p->imageSize;
    real *cols = p->direct ? img : columns + THNNConv_threadId() * p->K * p->area;
    if (p->direct && bias)
      THNN_(convFillBias)(img, bias, g->nPlane, g->inH * g->inW);
    failed |= THBlas_(gemm)(&local, 'n', 't', p->area, p->K, p->nOther, 1, other + n * p->nOther * p->area,
                            p->area, w, p->K, p->direct && bias ? 1 : 0, cols, p->area) != 0;
    if (!p->direct) {
      THNN_(convFillBias)(img, bias, g->nPlane, g->inH * g->inW);
      THNN_(unfoldedAcc)(g, cols, img);
    }
  }
  return failed ? THNNConv_blasError(state, p) : 0;
}

/* gw [nOther, K] += scale * sum over samples of other * columns(image)^T.
 * One thread adds straight into gw; several each sum their samples into
 * their part of `partial` (nThreads * nOther*K reals), added to gw after. */
static int THNN_(convGradWeight)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                 const real *image, const real *other, real *gw, real *columns,
                                 real *partial, accreal scale)
{
  int failed = 0, single = p->nThreads == 1;
  int64_t wSize = p->nOther * p->K;
  if (!single)
    THNN_(convZero)(partial, p->nThreads * wSize);
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(static) reduction(|:failed) if (p->nThreads > 1)
#endif
  for (int64_t n = 0; n < p->batch; n++) {
    THNNState local = {0};
    int t = THNNConv_threadId();
    const real *img = image + n * p->imageSize, *cols = img;
    if (!p->direct) {
      real *buffer = columns + t * p->K * p->area;
      THNN_(unfoldedCopy)(g, img, buffer);
      cols = buffer;
    }
    failed |= THBlas_(gemm)(&local, 't', 'n', p->K, p->nOther, p->area, single ? (real)scale : 1, cols, p->area,
                            other + n * p->nOther * p->area, p->area, 1, single ? gw : partial + t * wSize,
                            p->K) != 0;
  }
  if (failed)
    return THNNConv_blasError(state, p);
  for (int t = 0; !single && t < p->nThreads; t++)
    for (int64_t k = 0; k < wSize; k++)
      gw[k] += (real)(scale * partial[t * wSize + k]);
  return 0;
}

/* The sum of n elements, in accreal, over 8 running sums (so the loop
 * vectorizes; the order is fixed, so the result does not vary). */
static accreal THNN_(convSum)(const real *x, int64_t n)
{
  accreal part[8] = {0};
  int64_t k = 0;
  for (; k + 8 <= n; k += 8)
    for (int j = 0; j < 8; j++)
      part[j] += x[k + j];
  accreal s = 0;
  for (; k < n; k++)
    s += x[k];
  for (int j = 0; j < 8; j++)
    s += part[j];
  return s;
}

/* gb[c] += scale * the sum of plane c over every sample (batch samples of
 * nPlane planes of `area` elements); the planes are shared between threads. */
static void THNN_(convGradBias)(real *gb, const real *grad, int64_t batch, int64_t nPlane, int64_t area,
                                accreal scale)
{
#ifdef _OPENMP
  int nThreads = THNNConv_threads(nPlane, (double)batch * nPlane * area);
#pragma omp parallel for num_threads(nThreads) schedule(static) if (nThreads > 1)
#endif
  for (int64_t c = 0; c < nPlane; c++) {
    accreal s = 0;
    for (int64_t n = 0; n < batch; n++)
      s += THNN_(convSum)(grad + (n * nPlane + c) * area, area);
    gb[c] += (real)(scale * s);
  }
}

#endif
