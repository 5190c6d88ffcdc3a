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
 * not depend on timing either.
 *
 * Direct loops.  On a CPU with AVX-512, a batch with a sample for every
 * thread and steps of 1 along rows is convolved, and its weight gradient
 * summed, without columns (see "direct convolution" below): OpenBLAS may
 * run AVX2 kernels (OPENBLAS_CORETYPE),
 * and then these loops are about twice as fast as the matrix product.  They
 * add the taps in another order, so a sample's output differs in rounding
 * from the same sample convolved alone (by the product). */
/* A generic header: each generic file that uses these helpers includes it,
 * and it defines them once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_UNFOLD_H_FLOAT)
#define THNN_UNFOLD_H_FLOAT
#define THNN_UNFOLD_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_UNFOLD_H_DOUBLE)
#define THNN_UNFOLD_H_DOUBLE
#define THNN_UNFOLD_H_NOW
#endif

#ifdef THNN_UNFOLD_H_NOW
#undef THNN_UNFOLD_H_NOW

#include <limits.h>
#include "THLoop.h"
#ifdef _OPENMP
#include <cblas.h>
#include <omp.h>
#endif

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_UNFOLD_SHARED
#define THNN_UNFOLD_SHARED

#include "THConvGeometry.h"   /* THNNConvGeometry */

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

/* The direct forward convolution below: compiled for AVX-512 (with gcc on
 * x86-64) and used when THUseAVX512() says so. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define THNN_CONV_DIRECT_TARGET __attribute__((target("avx512f,fma")))
#else
#define THNN_CONV_DIRECT_TARGET
#endif
#define THNN_CONV_DIRECT_PLANES 8      /* output planes in one block of accumulators */
#define THNN_CONV_DIRECT_VECTORS 2     /* vectors of an output row in that block */

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

/* ---- direct convolution (no columns): steps of 1 along rows ----
 *
 * Each sample is copied once into a zero-padded image (`padded`: nPlane
 * planes of rows `rowLength` long, its padW zeros, the row and zeros to the
 * end), so that every tap reads a contiguous run of a padded row.
 *
 * Output.  A block of PLANES output planes times VECTORS vectors of one
 * output row sits in registers; for every input plane and tap it reads
 * VECTORS vectors of input and adds them times the tap's weight of each of
 * the PLANES planes.  The weights are repacked as wp[plane block][input
 * plane][tap][PLANES] (the planes past nOther are 0 and their results are
 * dropped), so one block reads them in order.
 *
 * Weight gradient.  For GRAD_PLANES output planes and GRAD_TAPS taps of one
 * input plane, GRAD_PLANES x GRAD_TAPS vectors sum gradOutput times what the
 * tap sees over a sample's output pixels, a vector at a time (the last of a
 * row with zeros past its end, in both factors); each vector's lanes are
 * then added into the gradient.
 *
 * On AVX-512 these loops are about twice as fast as the matrix products when
 * OpenBLAS runs AVX2 kernels, and they skip the columns. */

typedef real THNN_(ConvVector) __attribute__((vector_size(64), aligned(sizeof(real))));
#define THNN_CONV_LANES ((int64_t)(64 / sizeof(real)))
#define THNN_CONV_BLOCK_WIDTH (THNN_CONV_DIRECT_VECTORS * THNN_CONV_LANES)
#define THNN_CONV_GRAD_PLANES 4
#define THNN_CONV_GRAD_TAPS 3

typedef struct THNN_(ConvDirect) {
  int64_t rowLength, paddedPlane;    /* a padded row; a padded plane */
  int64_t padSize;                   /* a padded image */
  int64_t gradRow, gradSize;         /* the weight gradient's copy of gradOutput: its rows, its size */
  int nTap;                          /* kH * kW */
  int64_t *tap;                      /* offset of each tap in the padded image */
  real *padded;                      /* per thread: one padded image, then (for the gradient) one gradOutput */
} THNN_(ConvDirect);

/* d for geometry g, nThreads threads and nGrad planes of gradOutput (0
 * without the weight gradient); -1 when out of memory. */
static int THNN_(convDirectStart)(THNNState *state, const THNNConvGeometry *g, int nThreads, int64_t nGrad,
                                  THNN_(ConvDirect) *d)
{
  int64_t widthUp = (g->outW + THNN_CONV_BLOCK_WIDTH - 1) / THNN_CONV_BLOCK_WIDTH * THNN_CONV_BLOCK_WIDTH;
  d->rowLength = widthUp + THNNConv_span(g->kW, g->dilationW) - 1;
  d->paddedPlane = (g->inH + 2 * (int64_t)g->padH) * d->rowLength;
  d->gradRow = widthUp;
  d->gradSize = nGrad * g->outH * widthUp;
  d->padSize = g->nPlane * d->paddedPlane + d->gradSize;
  d->nTap = g->kH * g->kW;
  d->tap = THAlloc((size_t)d->nTap * sizeof(int64_t));
  d->padded = THAlloc((size_t)(nThreads * d->padSize) * sizeof(real));
  if (!d->tap || !d->padded) {
    THFree(d->tap);
    THFree(d->padded);
    return THError(state, "out of memory for a convolution's padded images");
  }
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++)
      d->tap[i * g->kW + j] = (int64_t)i * g->dilationH * d->rowLength + (int64_t)j * g->dilationW;
  return 0;
}

static void THNN_(convDirectEnd)(THNN_(ConvDirect) *d)
{
  THFree(d->tap);
  THFree(d->padded);
}

/* out planes [o0, o0 + PLANES) of nOther, row y, pixels [x, x + BLOCK_WIDTH)
 * of outW: bias plus the sum over input planes and taps (see above). */
THNN_CONV_DIRECT_TARGET
static void THNN_(convDirectBlock)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *padded,
                                   const real *wp, const real *bp, int64_t o0, int64_t nOther, int64_t y,
                                   int64_t x, real *out)
{
  THNN_(ConvVector) acc[THNN_CONV_DIRECT_PLANES][THNN_CONV_DIRECT_VECTORS];
  for (int o = 0; o < THNN_CONV_DIRECT_PLANES; o++)
    for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++)
      acc[o][v] = (THNN_(ConvVector)){0} + bp[o];
  const real *in = padded + y * g->dH * d->rowLength + x;
  for (int64_t c = 0; c < g->nPlane; c++, in += d->paddedPlane)
    for (int t = 0; t < d->nTap; t++, wp += THNN_CONV_DIRECT_PLANES)
      for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++) {
        THNN_(ConvVector) pixels;
        memcpy(&pixels, in + d->tap[t] + v * THNN_CONV_LANES, sizeof(pixels));
        for (int o = 0; o < THNN_CONV_DIRECT_PLANES; o++)
          acc[o][v] += wp[o] * pixels;
      }
  /* (through a copy of each vector: acc itself is never addressed, so that it stays in registers) */
  int64_t width = g->outW - x < THNN_CONV_BLOCK_WIDTH ? g->outW - x : THNN_CONV_BLOCK_WIDTH;
  for (int o = 0; o < THNN_CONV_DIRECT_PLANES && o0 + o < nOther; o++) {
    real row[THNN_CONV_BLOCK_WIDTH];
    for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++) {
      THNN_(ConvVector) vector = acc[o][v];
      memcpy(row + v * THNN_CONV_LANES, &vector, sizeof(vector));
    }
    memcpy(out + (o0 + o) * g->outH * g->outW + y * g->outW + x, row, (size_t)width * sizeof(real));
  }
}

/* Whether to convolve directly: on AVX-512, with steps of 1 along rows, a
 * kernel that needs columns, and a sample for every thread of the pool
 * (a single sample runs faster as a matrix product split between threads). */
static int THNN_(convDirectWorth)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
#ifdef _OPENMP
  return THUseAVX512() && g->dW == 1 && !p->direct &&
         p->batch >= THNNConv_threads(INT64_MAX, (double)INT64_MAX);
#else
  (void)g;
  (void)p;
  return 0;   /* OpenBLAS threads the products, the direct loops would run in one thread */
#endif
}

/* The calling thread's padded image, filled with the image and its zeros. */
static real *THNN_(convDirectPad)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *image)
{
  real *padded = d->padded + THNNConv_threadId() * d->padSize;
  THNN_(convZero)(padded, d->padSize - d->gradSize);
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int64_t y = 0; y < g->inH; y++)
      memcpy(padded + c * d->paddedPlane + (y + g->padH) * d->rowLength + g->padW,
             image + (c * g->inH + y) * g->inW, (size_t)g->inW * sizeof(real));
  return padded;
}

/* other = w * image convolved, for every sample (see above); w is
 * [nOther, K], bias NULL or nOther values.  -1 when out of memory. */
static int THNN_(convDirectMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                     const real *image, const real *w, const THTensor *bias, real *other)
{
  const int P = THNN_CONV_DIRECT_PLANES;
  int64_t nBlocks = (p->nOther + P - 1) / P, wpSize = nBlocks * P * p->K;
  THNN_(ConvDirect) d;
  real *wp = THAlloc((size_t)(wpSize + nBlocks * P) * sizeof(real));
  if (!wp)
    return THError(state, "out of memory for a convolution's repacked weight");
  if (THNN_(convDirectStart)(state, g, p->nThreads, 0, &d) != 0) {
    THFree(wp);
    return -1;
  }
  real *bp = wp + wpSize;
  for (int64_t o = 0; o < nBlocks * P; o++) {
    for (int64_t k = 0; k < p->K; k++)
      wp[(o / P * p->K + k) * P + o % P] = o < p->nOther ? w[o * p->K + k] : 0;
    bp[o] = o < p->nOther && bias ? THTensor_(data)(bias)[o * bias->stride[0]] : 0;
  }
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(dynamic, 1) if (p->nThreads > 1)
#endif
  for (int64_t n = 0; n < p->batch; n++) {
    const real *pad = THNN_(convDirectPad)(g, &d, image + n * p->imageSize);
    for (int64_t b = 0; b < nBlocks; b++)
      for (int64_t y = 0; y < g->outH; y++)
        for (int64_t x = 0; x < g->outW; x += THNN_CONV_BLOCK_WIDTH)
          THNN_(convDirectBlock)(g, &d, pad, wp + b * P * p->K, bp + b * P, b * P, p->nOther, y, x,
                                 other + n * p->nOther * p->area);
  }
  THFree(wp);
  THNN_(convDirectEnd)(&d);
  return 0;
}

/* gw[o * K + t] += alpha * sum over the output pixels of one sample of
 * gradOutput plane o times what tap t of the padded plane sees, for planes
 * o0.. and taps t0.. of a GRAD_PLANES x GRAD_TAPS block (see above; grad is
 * gradOutput with rows d->gradRow long, zeros past outW; gw points at the
 * plane's taps; planes and taps past the ends are computed on the last one
 * and dropped).  Past outW the image is set to 0 too (by a mask of the
 * lanes inside), as 0 * inf would be NaN. */
THNN_CONV_DIRECT_TARGET
static void THNN_(convDirectGradBlock)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *plane,
                                       const real *grad, int64_t o0, int64_t nOther, int t0, real *gw, int64_t K,
                                       real alpha)
{
  enum { GP = THNN_CONV_GRAD_PLANES, GT = THNN_CONV_GRAD_TAPS };
  THNN_(ConvVector) acc[GP][GT], lane;
  const real *gy[GP];
  int64_t tap[GT];
  for (int o = 0; o < GP; o++) {
    gy[o] = grad + (o0 + o < nOther ? o0 + o : nOther - 1) * g->outH * d->gradRow;
    for (int t = 0; t < GT; t++)
      acc[o][t] = (THNN_(ConvVector)){0};
  }
  for (int t = 0; t < GT; t++)
    tap[t] = d->tap[t0 + t < d->nTap ? t0 + t : d->nTap - 1];
  for (int l = 0; l < THNN_CONV_LANES; l++)
    lane[l] = l;
  for (int64_t y = 0; y < g->outH; y++) {
    const real *in = plane + y * g->dH * d->rowLength;
    for (int64_t x = 0; x < g->outW; x += THNN_CONV_LANES) {
      __typeof__(lane < lane) inside = lane < (THNN_(ConvVector)){0} + (real)(g->outW - x);
      THNN_(ConvVector) gv[GP];
      for (int o = 0; o < GP; o++)
        memcpy(&gv[o], gy[o] + y * d->gradRow + x, sizeof(gv[o]));
      for (int t = 0; t < GT; t++) {
        THNN_(ConvVector) pixels;
        memcpy(&pixels, in + tap[t] + x, sizeof(pixels));
        pixels = (THNN_(ConvVector))((__typeof__(inside))pixels & inside);
        for (int o = 0; o < GP; o++)
          acc[o][t] += gv[o] * pixels;
      }
    }
  }
  for (int o = 0; o < GP && o0 + o < nOther; o++)
    for (int t = 0; t < GT && t0 + t < d->nTap; t++) {
      THNN_(ConvVector) v = acc[o][t];
      real sum = 0;
      for (int l = 0; l < THNN_CONV_LANES; l++)
        sum += v[l];
      gw[(o0 + o) * K + t0 + t] += alpha * sum;
    }
}

/* gw [nOther, K] += alpha * what one sample's image and gradOutput gy give
 * (see above), in the calling thread's buffers. */
static void THNN_(convDirectGrad)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *image,
                                  const real *gy, int64_t nOther, real *gw, real alpha)
{
  const int64_t K = g->nPlane * d->nTap;
  const real *padded = THNN_(convDirectPad)(g, d, image);
  real *grad = (real *)padded + d->padSize - d->gradSize;
  THNN_(convZero)(grad, d->gradSize);
  for (int64_t r = 0; r < nOther * g->outH; r++)
    memcpy(grad + r * d->gradRow, gy + r * g->outW, (size_t)g->outW * sizeof(real));
  for (int64_t o = 0; o < nOther; o += THNN_CONV_GRAD_PLANES)
    for (int64_t c = 0; c < g->nPlane; c++)
      for (int t = 0; t < d->nTap; t += THNN_CONV_GRAD_TAPS)
        THNN_(convDirectGradBlock)(g, d, padded + c * d->paddedPlane, grad, o, nOther, t, gw + c * d->nTap, K,
                                   alpha);
}

#undef THNN_CONV_LANES
#undef THNN_CONV_BLOCK_WIDTH

/* other = w * columns(image) for every sample, each plane o of other
 * starting from bias[o] (bias may be NULL).  w is [nOther, K], contiguous.
 * columnBuffer is resized to hold the columns, or to none when the
 * convolution runs directly. */
static int THNN_(convUnfoldMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                     const real *image, const real *w, const THTensor *bias, real *other,
                                     THTensor *columnBuffer)
{
  if (THNN_(convDirectWorth)(g, p)) {
    int64_t none[3] = {0, p->K, p->area};
    TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, none));
    return THNN_(convDirectMultiply)(state, g, p, image, w, bias, other);
  }
  TH_TRY(THNN_(convResizeColumns)(state, columnBuffer, p));
  real *columns = THTensor_(data)(columnBuffer);
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
 * their part of `partial` (nThreads * nOther*K reals), added to gw after.
 * columnBuffer is resized to hold the columns, or to none when the
 * direct loops run. */
static int THNN_(convGradWeight)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                 const real *image, const real *other, real *gw, THTensor *columnBuffer,
                                 real *partial, accreal scale)
{
  int failed = 0, single = p->nThreads == 1, directly = THNN_(convDirectWorth)(g, p);
  int64_t wSize = p->nOther * p->K, none[3] = {0, p->K, p->area};
  THNN_(ConvDirect) d;
  TH_TRY(directly ? THTensor_(resizeNd)(state, columnBuffer, 3, none)
                  : THNN_(convResizeColumns)(state, columnBuffer, p));
  if (directly)
    TH_TRY(THNN_(convDirectStart)(state, g, p->nThreads, p->nOther, &d));
  real *columns = THTensor_(data)(columnBuffer);
  if (!single)
    THNN_(convZero)(partial, p->nThreads * wSize);
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(static) reduction(|:failed) if (p->nThreads > 1)
#endif
  for (int64_t n = 0; n < p->batch; n++) {
    THNNState local = {0};
    int t = THNNConv_threadId();
    const real *img = image + n * p->imageSize, *cols = img, *grad = other + n * p->nOther * p->area;
    real *sums = single ? gw : partial + t * wSize, alpha = single ? (real)scale : 1;
    if (directly) {
      THNN_(convDirectGrad)(g, &d, img, grad, p->nOther, sums, alpha);
      continue;
    }
    if (!p->direct) {
      real *buffer = columns + t * p->K * p->area;
      THNN_(unfoldedCopy)(g, img, buffer);
      cols = buffer;
    }
    failed |= THBlas_(gemm)(&local, 't', 'n', p->K, p->nOther, p->area, alpha, cols, p->area,
                            grad, p->area, 1, sums, p->K) != 0;
  }
  if (directly)
    THNN_(convDirectEnd)(&d);
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
