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
 * products inside run whole in their thread.  With fewer samples than
 * threads (a single image at inference), the threads share each sample
 * instead, in one parallel region per call: the forward convolution by
 * bands of output rows (each thread unfolds and multiplies its bands), the
 * folding products by bands of pixels and then by image planes, the weight
 * gradient by rows of the columns (but not an image of fewer pixels than
 * planes on the other side).  A call too small to pay for threads
 * runs in the calling thread and THBlas_(gemm) splits its products (when
 * they are large enough).  Without OpenMP everything runs in the
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
 * from the same sample convolved alone (by the product).
 *
 * Indirect product.  In float on a CPU with AVX2 and FMA, the forward
 * (unfoldMultiply) runs without columns where convIndirectRule measured it
 * faster: THConvDirect.c reads the image in place through a table of tap
 * offsets and packs only the weight (convIndirectMultiply). */
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
#include "THConvDirect.h"
#include "THConvWinograd.h"
#include "THGemm.h"
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
THNN_HELPER int64_t THNNConv_span(int k, int dilation)
{
  return (int64_t)(k - 1) * dilation + 1;
}

/* The checks every sliding kernel shares; 0, or -1 with the reason. */
THNN_HELPER int THNNConv_checkParameters(THNNState *state, int kW, int kH, int dW, int dH,
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
THNN_HELPER int64_t THNNConv_outputSize(int64_t size, int k, int step, int pad, int dilation)
{
  int64_t room = size + 2 * (int64_t)pad - THNNConv_span(k, dilation);
  return room < 0 ? 0 : room / step + 1;
}

/* The smallest x with lo <= x*step + offset, and the smallest with
 * x*step + offset >= hi: the output range [first, last) whose pixel lies
 * inside [0, size), clamped to [0, n). */
THNN_HELPER void THNNConv_inside(int64_t offset, int step, int64_t size, int64_t n, int64_t *first, int64_t *last)
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
THNN_HELPER int THNNConv_threads(int64_t jobs, double work)
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

THNN_HELPER int THNNConv_threadId(void)
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
  int nThreads;                /* threads sharing the batch, a sample each (1 when they share samples) */
  int shared;                  /* threads sharing each sample (fewer samples than threads), else 0 */
  int64_t bandRows, nBands;    /* shared: a sample's output rows cut in nBands bands of bandRows rows */
  int direct;                  /* a 1x1 kernel, step 1, no padding: the image is its own columns */
} THNNConvPlan;

/* Output pixels of a band of a shared sample: at least this many (a
 * product of fewer pays more for OpenBLAS's packing of the weight, done
 * again for every band), and more where a band's columns still fit in
 * THNN_CONV_BAND_BYTES (they are packed by OpenBLAS while in the cache). */
#define THNN_CONV_BAND_PIXELS 512
#define THNN_CONV_BAND_BYTES (256 << 10)

THNN_HELPER THNNConvPlan THNNConv_plan(int64_t batch, const THNNConvGeometry *g, int64_t nOther)
{
  THNNConvPlan p;
  p.batch = batch;
  p.K = g->nPlane * g->kH * g->kW;
  p.area = g->outH * g->outW;
  p.imageSize = g->nPlane * g->inH * g->inW;
  p.nOther = nOther;
  int pool = THNNConv_threads(INT64_MAX, (double)batch * p.K * p.area * nOther);
  /* (not for small images with more planes than pixels, where each thread
   * would pack the whole weight for a few pixels: THBlas_(gemm) splits
   * those products by planes, and their unfolding is short) */
  p.shared = batch < pool && p.area >= nOther ? pool : 0;
  p.nThreads = p.shared || batch < 1 ? 1 : batch < pool ? (int)batch : pool;
  p.direct = g->kW == 1 && g->kH == 1 && g->dW == 1 && g->dH == 1 && g->padW == 0 && g->padH == 0;
  /* bands: as many as make bands of about the pixels wanted (more for a
   * large image, so that a thread slowed by another process hands its
   * share to the others), all of a size, and a number that gives every
   * thread as many bands */
  p.bandRows = g->outH;
  p.nBands = 1;
  if (p.shared && g->outH > 0 && g->outW > 0 && batch > 0) {
    int64_t want = THNN_CONV_BAND_BYTES / (int64_t)sizeof(float) / (p.K > 0 ? p.K : 1);   /* (doubles: twice) */
    if (want < THNN_CONV_BAND_PIXELS)
      want = THNN_CONV_BAND_PIXELS;
    int64_t bands = (p.area + want - 1) / want;
    while ((batch * bands) % p.shared)
      bands++;
    if (bands > g->outH)
      bands = g->outH;
    p.bandRows = (g->outH + bands - 1) / bands;
    p.nBands = (g->outH + p.bandRows - 1) / p.bandRows;
  }
  return p;
}

/* Input planes whose columns over `pixels` output pixels a band unfolds
 * and multiplies at a time.  All of them unless the band's columns exceed
 * THNN_CONV_CHUNK_FROM (large kernels: SPyNet's 7x7 64->32, 6.4 MB for a
 * band of 512 pixels, written to memory and read back by OpenBLAS's
 * packing), then chunks of about THNN_CONV_CHUNK_BYTES (in the cache while
 * OpenBLAS packs them), of at least THNN_CONV_CHUNK_K column rows (shorter
 * products run OpenBLAS below its speed), all of a size.  Measured on
 * 2 cores (benchmarks/README.md): SPyNet's 7x7 layers on 64x64 (3.2-6.4
 * MB) 10-37 % less CPU time; 3x3 and 5x5 kernels of 64 planes (1.2-2.4
 * MB), chunked, were no faster, so they are not (3 MB: between the two). */
#define THNN_CONV_CHUNK_FROM (3 << 20)
#define THNN_CONV_CHUNK_BYTES (512 << 10)
#define THNN_CONV_CHUNK_K 256
THNN_HELPER int64_t THNNConv_chunkPlanes(const THNNConvGeometry *g, int64_t pixels)
{
  int64_t taps = (int64_t)g->kH * g->kW;
  if (taps < 1 || pixels < 1 || g->nPlane < 1 ||
      (double)taps * g->nPlane * pixels * sizeof(float) <= THNN_CONV_CHUNK_FROM)
    return g->nPlane > 0 ? g->nPlane : 1;
  int64_t rows = THNN_CONV_CHUNK_BYTES / (int64_t)sizeof(float) / pixels;
  if (rows < THNN_CONV_CHUNK_K)
    rows = THNN_CONV_CHUNK_K;
  int64_t chunk = rows / taps > 0 ? rows / taps : 1;
  int64_t chunks = (g->nPlane + chunk - 1) / chunk;
  return (g->nPlane + chunks - 1) / chunks;
}

THNN_HELPER int THNNConv_blasError(THNNState *state, const THNNConvPlan *p)
{
  /* (the one flag a failed product returns: OpenBLAS refusing sizes past
   * 32 bits, or THGemm's packing buffers not allocated) */
  return THError(state, "the product failed: matrix sizes (%lld planes, %lld column rows, %lld output pixels) "
                 "exceed the 32-bit BLAS, or out of memory for the packing buffers",
                 (long long)p->nOther, (long long)p->K, (long long)p->area);
}

/* Steps of 1 and rows as long in the output as in the image (the "same"
 * padding): then the output rows y0..y1-1 of a tap and the image rows they
 * see are one contiguous run each, `shift` elements apart, and a tap is
 * copied (or added back) in one sweep.  The entries of the sweep outside
 * columns [x0, x1) wrap to a neighbouring row and are set to 0 after the
 * copy (before the addition). */
THNN_HELPER int THNNConv_sameRows(const THNNConvGeometry *g)
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
#define THNN_CONV_GROUP_BYTES (256 << 10)   /* the weight gradient's buffers for the samples a thread holds */

#endif /* THNN_UNFOLD_SHARED */

/* ---- per element type ---- */

/* Zero n elements (n may be 0). */
THNN_HELPER void THNN_(convZero)(real *data, int64_t n)
{
  memset(data, 0, (size_t)n * sizeof(real));
}

/* Zero the entries outside columns [x0, x1) of rows [y0, y1) of a tap's row of columns. */
THNN_HELPER void THNN_(convZeroBorder)(const THNNConvGeometry *g, real *row, int64_t x0, int64_t x1, int64_t y0, int64_t y1)
{
  for (int64_t y = y0; y < y1; y++) {
    real *r = row + y * g->outW;
    for (int64_t x = 0; x < x0; x++)
      r[x] = 0;
    for (int64_t x = x1; x < g->outW; x++)
      r[x] = 0;
  }
}

/* dst[x] = src[2*x] for x < n: a step of 2, vectorized (with the step a
 * constant, the compiler loads vectors and keeps the even lanes; a
 * gather of one element at a time was most of the unfolding of a
 * convolution with step 2 and a large kernel). */
__attribute__((optimize("O3")))
THNN_HELPER void THNN_(convGather2)(real *dst, const real *src, int64_t n)
{
  for (int64_t x = 0; x < n; x++)
    dst[x] = src[2 * x];
}

/* dst[x] = src[4*x] for x < n (as convGather2). */
__attribute__((optimize("O3")))
THNN_HELPER void THNN_(convGather4)(real *dst, const real *src, int64_t n)
{
  for (int64_t x = 0; x < n; x++)
    dst[x] = src[4 * x];
}

/* row [(r1 - r0)*outW] <- what the tap at offset (offH, offW) sees of one
 * image plane at the output pixels of rows [r0, r1): plane[y*dH + offH]
 * [x*dW + offW], 0 outside (entry (y - r0)*outW + x). */
THNN_HELPER void THNN_(convUnfoldTap)(const THNNConvGeometry *g, const real *plane, int64_t offH, int64_t offW,
                                 int64_t r0, int64_t r1, real *row)
{
  int64_t x0, x1, y0, y1;
  THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
  THNNConv_inside(offH, g->dH, g->inH, g->outH, &y0, &y1);
  y0 = y0 < r0 ? r0 : y0 > r1 ? r1 : y0;
  y1 = y1 > r1 ? r1 : y1 < y0 ? y0 : y1;
  if (x1 == x0)
    y1 = y0;                                   /* nothing inside: all zeros */
  const int64_t start = r0 * g->outW;         /* output pixel q is row[q - start] */
  THNN_(convZero)(row, (y0 - r0) * g->outW);
  THNN_(convZero)(row + y1 * g->outW - start, (r1 - y1) * g->outW);
  if (y1 > y0 && THNNConv_sameRows(g)) {
    int64_t first = y0 * g->outW + x0, last = (y1 - 1) * g->outW + x1, shift = offH * g->inW + offW;
    memcpy(row + first - start, plane + first + shift, (size_t)(last - first) * sizeof(real));
    THNN_(convZeroBorder)(g, row, x0, x1, y0 - r0, y1 - r0);
    return;
  }
  for (int64_t y = y0; y < y1; y++) {
    real *dst = row + y * g->outW - start;
    const real *src = plane + (y * g->dH + offH) * g->inW;   /* output x sees src[x*dW + offW] */
    for (int64_t x = 0; x < x0; x++)
      dst[x] = 0;
    if (g->dW == 1)
      memcpy(dst + x0, src + x0 + offW, (size_t)(x1 - x0) * sizeof(real));
    else if (g->dW == 2)
      THNN_(convGather2)(dst + x0, src + x0 * 2 + offW, x1 - x0);
    else if (g->dW == 4)
      THNN_(convGather4)(dst + x0, src + x0 * 4 + offW, x1 - x0);
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
THNN_HELPER void THNN_(convFoldTap)(const THNNConvGeometry *g, real *row, int64_t offH, int64_t offW, real *plane)
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

/* columns [nPlane*kH*kW, (r1 - r0)*outW] <- the pixels each tap sees at
 * the output pixels of rows [r0, r1) (see the top; all of them: 0, outH). */
THNN_HELPER void THNN_(unfoldedCopy)(const THNNConvGeometry *g, const real *image, int64_t r0, int64_t r1,
                                real *columns)
{
  const int64_t plane = g->inH * g->inW, band = (r1 - r0) * g->outW;
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int i = 0; i < g->kH; i++)
      for (int j = 0; j < g->kW; j++)
        THNN_(convUnfoldTap)(g, image + c * plane, (int64_t)i * g->dilationH - g->padH,
                             (int64_t)j * g->dilationW - g->padW, r0, r1,
                             columns + ((c * g->kH + i) * g->kW + j) * band);
}

/* The rows of input planes [c0, c1) of unfoldedCopy's columns (row
 * ((c - c0)*kH + i)*kW + j for plane c). */
THNN_HELPER void THNN_(unfoldedCopyPlanes)(const THNNConvGeometry *g, const real *image, int64_t r0, int64_t r1,
                                           int64_t c0, int64_t c1, real *columns)
{
  const int64_t plane = g->inH * g->inW, band = (r1 - r0) * g->outW;
  for (int64_t c = c0; c < c1; c++)
    for (int i = 0; i < g->kH; i++)
      for (int j = 0; j < g->kW; j++)
        THNN_(convUnfoldTap)(g, image + c * plane, (int64_t)i * g->dilationH - g->padH,
                             (int64_t)j * g->dilationW - g->padW, r0, r1,
                             columns + (((c - c0) * g->kH + i) * g->kW + j) * band);
}

/* Rows [k0, k1) of the columns [K, outH*outW] of the whole image (row k at columns + k*outH*outW). */
THNN_HELPER void THNN_(unfoldedCopyRows)(const THNNConvGeometry *g, const real *image, int64_t k0, int64_t k1,
                                    real *columns)
{
  const int64_t plane = g->inH * g->inW, area = g->outH * g->outW, taps = (int64_t)g->kH * g->kW;
  for (int64_t k = k0; k < k1; k++) {
    int64_t c = k / taps, i = k % taps / g->kW, j = k % g->kW;
    THNN_(convUnfoldTap)(g, image + c * plane, i * g->dilationH - g->padH, j * g->dilationW - g->padW, 0, g->outH,
                         columns + k * area);
  }
}

/* image [nPlane, inH, inW] += the columns folded back (the columns are
 * scratch: entries in the padding may be zeroed). */
THNN_HELPER void THNN_(unfoldedAccPlane)(const THNNConvGeometry *g, real *columns, real *image, int64_t c)
{
  const int64_t plane = g->inH * g->inW, outArea = g->outH * g->outW;
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++)
      THNN_(convFoldTap)(g, columns + ((c * g->kH + i) * g->kW + j) * outArea, (int64_t)i * g->dilationH - g->padH,
                         (int64_t)j * g->dilationW - g->padW, image + c * plane);
}

THNN_HELPER void THNN_(unfoldedAcc)(const THNNConvGeometry *g, real *columns, real *image)
{
  for (int64_t c = 0; c < g->nPlane; c++)
    THNN_(unfoldedAccPlane)(g, columns, image, c);
}

/* Give columns the shape [nThreads, K, area]: one buffer per thread (none
 * when the image is its own columns or the batch is empty, so that no
 * uninitialised memory is handed back). */
THNN_HELPER int THNN_(convResizeColumns)(THNNState *state, THTensor *columns, const THNNConvPlan *p)
{
  int64_t size[3] = {p->direct || p->batch == 0 ? 0 : p->nThreads, p->K, p->area};
  return THTensor_(resizeNd)(state, columns, 3, size);
}

/* The weight of a 2D convolution whose rows are named `rows` in the message
 * (nOutputPlane, depthwiseMultiplier): 4D [rows, nInputPlane, kH, kW], or
 * the same memory as 2D [rows, nInputPlane*kH*kW] (Torch7 took both).  Sets
 * *nIn; else the error names the weight wName. */
THNN_HELPER int THNN_(convWeightPlanes)(THNNState *state, const THTensor *weight, const char *wName, const char *rows,
                                   int kW, int kH, int64_t *nIn)
{
  int64_t taps = (int64_t)kW * kH;
  if (weight->nDimension == 4 && weight->size[2] == kH && weight->size[3] == kW)
    *nIn = weight->size[1];
  else if (weight->nDimension == 2 && weight->size[1] % taps == 0)
    *nIn = weight->size[1] / taps;
  else
    return THTensor_(shapeError)(state, wName, weight, "4D [%s, nInputPlane, kH=%d, kW=%d] or 2D [%s, nInputPlane*%lld]",
                                 rows, kH, kW, rows, (long long)taps);
  return 0;
}

/* The first `area` elements of each of the nPlane planes at data, `pitch`
 * apart, set to the plane's bias value, or 0. */
THNN_HELPER void THNN_(convFillBias)(real *data, const THTensor *bias, int64_t nPlane, int64_t area, int64_t pitch)
{
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  for (int64_t p = 0; p < nPlane; p++) {
    real v = b ? b[p * bias->stride[0]] : 0;
    for (int64_t k = 0; k < area; k++)
      data[p * pitch + k] = v;
  }
}

/* ---- direct convolution (no columns): steps of 1 along rows ----
 *
 * Each sample is copied once into a zero-padded image (`padded`: nPlane
 * planes of rows `rowLength` long, its padW zeros, the row and zeros to the
 * end), so that every tap reads a contiguous run of a padded row.
 *
 * Output.  A block of PLANES output planes times VECTORS vectors of output
 * sits in registers; for every input plane and tap it reads VECTORS vectors
 * of input and adds them times the tap's weight of each of the PLANES
 * planes.  The weights are repacked as wp[plane block][input plane][tap]
 * [PLANES] (the planes past nOther are 0 and their results are dropped), so
 * one block reads them in order.
 *
 * Two layouts of the output pixels in those vectors:
 * - by rows: the vectors hold BLOCK_WIDTH pixels of one output row (the
 *   padded rows are outW rounded up to BLOCK_WIDTH long, plus the kernel's
 *   span), for wide images;
 * - flat (steps of 1 both ways): the padded rows are exactly as long as the
 *   padded input row, and output pixel (y, x) is entry q = y * rowLength + x
 *   of a flat run of Q = (outH - 1) * rowLength + outW entries, whose tap
 *   reads entry q + tap offset of the padded plane.  The entries with x >=
 *   outW are computed and dropped.  For narrow images (LeNet's 8x8 and 24x24
 *   outputs), where rows of BLOCK_WIDTH would be mostly empty: it runs on
 *   whichever of the two fills more lanes with pixels that are kept.
 * A flat block is written to a buffer of the run, whose rows are copied
 * out after.
 *
 * Weight gradient.  For GRAD_PLANES output planes and GRAD_TAPS taps of one
 * input plane, GRAD_PLANES x GRAD_TAPS vectors sum gradOutput times what the
 * tap sees over a sample's output pixels, a vector at a time (gradOutput is
 * copied into the same layout, with zeros in the dropped entries; the image
 * is masked to 0 there too, as 0 * inf would be NaN); each vector's lanes
 * are then added into the gradient.
 *
 * On AVX-512 these loops are about twice as fast as the matrix products when
 * OpenBLAS runs AVX2 kernels, and they skip the columns. */

typedef real THNN_(ConvVector) __attribute__((vector_size(64), aligned(sizeof(real))));
#define THNN_CONV_LANES ((int64_t)(64 / sizeof(real)))
#define THNN_CONV_BLOCK_WIDTH (THNN_CONV_DIRECT_VECTORS * THNN_CONV_LANES)
#define THNN_CONV_GRAD_PLANES 4
#define THNN_CONV_GRAD_TAPS 3

typedef struct THNN_(ConvDirect) {
  int flat;                          /* the flat layout (see above), else by rows */
  int64_t rowLength, paddedPlane;    /* a padded row; a padded plane */
  int64_t run;                       /* flat: the entries computed per plane (Q rounded up to BLOCK_WIDTH) */
  int64_t imageSize;                 /* the padded image, and room for the last block to read past its end */
  int64_t gradRow, gradPlane;        /* the weight gradient's copy of gradOutput: a row, a plane */
  int64_t gradSize, outSize;         /* that copy; the flat forward's output planes (DIRECT_PLANES runs) */
  int64_t padSize;                   /* per sample: the padded image, the gradOutput copy, the flat output */
  int group;                         /* samples a thread holds at once (their buffers follow each other) */
  int nTap;                          /* kH * kW */
  int64_t *tap;                      /* offset of each tap in the padded image */
  real *kept;                        /* flat: 1 for the entries of a run that are output pixels, else 0 */
  real *padded;                      /* the per-thread buffers */
} THNN_(ConvDirect);

/* Whether the flat layout keeps more lanes busy than rows do (steps of 1). */
THNN_HELPER int THNN_(convDirectFlat)(const THNNConvGeometry *g)
{
  const int64_t B = THNN_CONV_BLOCK_WIDTH;
  if (g->dH != 1 || g->dW != 1)
    return 0;
  int64_t rowLength = g->outW + THNNConv_span(g->kW, g->dilationW) - 1;
  int64_t run = ((g->outH - 1) * rowLength + g->outW + B - 1) / B * B;
  int64_t rowsUp = (g->outW + B - 1) / B * B;
  /* kept pixels per lane computed: outH*outW / run flat, outW / rowsUp by rows */
  return g->outW * run < g->outH * g->outW * rowsUp;
}

/* d for geometry g, nThreads threads, nGrad planes of gradOutput (0
 * without the weight gradient) and buffers for up to maxGroup samples per
 * thread, as many as fit in THNN_CONV_GROUP_BYTES (at least one); -1 when
 * out of memory. */
THNN_HELPER int THNN_(convDirectStart)(THNNState *state, const THNNConvGeometry *g, int nThreads, int64_t nGrad,
                                  int64_t maxGroup, THNN_(ConvDirect) *d)
{
  const int64_t B = THNN_CONV_BLOCK_WIDTH;
  int64_t widthUp = (g->outW + B - 1) / B * B;
  d->flat = THNN_(convDirectFlat)(g);
  d->rowLength = (d->flat ? g->outW : widthUp) + THNNConv_span(g->kW, g->dilationW) - 1;
  d->paddedPlane = (g->inH + 2 * (int64_t)g->padH) * d->rowLength;
  d->run = d->flat ? ((g->outH - 1) * d->rowLength + g->outW + B - 1) / B * B : 0;
  /* (whole vectors, so that the gradOutput copy after it is aligned) */
  d->imageSize = (g->nPlane * d->paddedPlane + (d->flat ? B : 0) + THNN_CONV_LANES - 1) / THNN_CONV_LANES *
                 THNN_CONV_LANES;
  d->gradRow = d->flat ? d->rowLength : widthUp;
  d->gradPlane = d->flat ? d->run : g->outH * widthUp;
  d->gradSize = nGrad * d->gradPlane;
  d->outSize = d->flat && !nGrad ? THNN_CONV_DIRECT_PLANES * d->run : 0;
  d->padSize = (d->imageSize + d->gradSize + d->outSize + B - 1) / B * B;
  int64_t group = THNN_CONV_GROUP_BYTES / (int64_t)sizeof(real) / d->padSize;
  d->group = (int)(group > maxGroup ? maxGroup : group < 1 ? 1 : group);
  d->nTap = g->kH * g->kW;
  d->tap = THAlloc((size_t)d->nTap * sizeof(int64_t));
  d->kept = THAlloc((size_t)d->run * sizeof(real));
  d->padded = THAlloc((size_t)(nThreads * d->group * d->padSize) * sizeof(real));
  if (!d->tap || (d->run && !d->kept) || !d->padded) {
    THFree(d->tap);
    THFree(d->kept);
    THFree(d->padded);
    return THError(state, "out of memory for a convolution's padded images");
  }
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++)
      d->tap[i * g->kW + j] = (int64_t)i * g->dilationH * d->rowLength + (int64_t)j * g->dilationW;
  for (int64_t q = 0; q < d->run; q++)
    d->kept[q] = q % d->rowLength < g->outW && q / d->rowLength < g->outH;
  return 0;
}

THNN_HELPER void THNN_(convDirectEnd)(THNN_(ConvDirect) *d)
{
  THFree(d->tap);
  THFree(d->kept);
  THFree(d->padded);
}

/* Output planes [o0, o0 + PLANES) of nOther, BLOCK_WIDTH pixels from the
 * padded image at `in` on: bias plus the sum over input planes and taps (see
 * above), the first `width` of each plane o written to dst + (o0 + o) * dstPlane. */
THNN_CONV_DIRECT_TARGET
THNN_HELPER void THNN_(convDirectBlock)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *in,
                                   const real *wp, const real *bp, int64_t o0, int64_t nOther, real *dst,
                                   int64_t dstPlane, int64_t width)
{
  THNN_(ConvVector) acc[THNN_CONV_DIRECT_PLANES][THNN_CONV_DIRECT_VECTORS];
  for (int o = 0; o < THNN_CONV_DIRECT_PLANES; o++)
    for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++)
      acc[o][v] = (THNN_(ConvVector)){0} + bp[o];
  for (int64_t c = 0; c < g->nPlane; c++, in += d->paddedPlane)
    for (int t = 0; t < d->nTap; t++, wp += THNN_CONV_DIRECT_PLANES)
      for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++) {
        THNN_(ConvVector) pixels;
        memcpy(&pixels, in + d->tap[t] + v * THNN_CONV_LANES, sizeof(pixels));
        for (int o = 0; o < THNN_CONV_DIRECT_PLANES; o++)
          acc[o][v] += wp[o] * pixels;
      }
  /* (through a copy of each vector: acc itself is never addressed, so that it stays in registers) */
  for (int o = 0; o < THNN_CONV_DIRECT_PLANES && o0 + o < nOther; o++) {
    real row[THNN_CONV_BLOCK_WIDTH];
    for (int v = 0; v < THNN_CONV_DIRECT_VECTORS; v++) {
      THNN_(ConvVector) vector = acc[o][v];
      memcpy(row + v * THNN_CONV_LANES, &vector, sizeof(vector));
    }
    memcpy(dst + (o0 + o) * dstPlane, row, (size_t)width * sizeof(real));
  }
}

/* Whether the direct loops can run: on AVX-512, with steps of 1 along
 * rows, a kernel that needs columns, and a sample for every thread of the
 * pool (a single sample runs faster as a matrix product split between
 * threads).  Where they are the faster path (float: the rules below; double
 * has no Winograd or indirect path, and takes them wherever they can run): */
THNN_HELPER int THNN_(convDirectWorth)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
#ifdef _OPENMP
  return THUseAVX512() && THConvLoops_mode() && g->dW == 1 && !p->direct &&
         p->batch >= THNNConv_threads(INT64_MAX, (double)INT64_MAX);
#else
  (void)g;
  (void)p;
  return 0;   /* OpenBLAS threads the products, the direct loops would run in one thread */
#endif
}

/* Measured 2026-12-01/02 on an AMD EPYC with AVX-512 (Zen 4, 2 cores; time
 * with the direct loops / without them, batch 8 on 2 threads unless said,
 * min of 5 alternating blocks, notes in benchmarks/inference-log.md).  The
 * loops were written before THGemm, Winograd's paths and the indirect
 * product, which were tuned on AVX2 and are faster on AVX-512 too where
 * they apply:
 * - forward: the direct loops win on dilated and non-square kernels (ENet's
 *   3x3 dilation 2 and 8 0.79-0.96, 5x1 0.83-0.92, 1x5 0.86-0.99) and on
 *   square ones with at most THNN_CONV_DIRECT_PLANES output planes, one
 *   block of their accumulators, where the other paths' products have
 *   fewer rows than their tiles (3x3, 5x5 and 7x7 to 1-8 planes from 3, 16
 *   and 64 on 24x48 to 96x96: 0.42-0.85 on 1 thread at batch 1 and 8,
 *   0.52-0.96 on 2 threads at batch 8, but 1.22-1.32 from 3 planes to 6-8
 *   there; SPyNet's 7x7 16->2 on 64x64 0.42-0.85).  With more planes they
 *   lose to Winograd (3x3 512->512 on 7x7 1.45-1.56, 256->256 on 28x28
 *   1.61-1.76, 5x5 64->192 on 27x27 1.73-1.79) and to the indirect product
 *   (5x5 64->64 on 21x21 1.22-1.28, LeNet's 5x5 6->16 1.20-1.46), tie on
 *   7x7 (0.95-1.07 with 12-64 planes) and lose a little to the columns
 *   with K = 27 (3x3 3->64 1.02-1.09).  Asked after Winograd's rule, which
 *   takes nothing of 8 planes (the order matters to its forced mode only); */
THNN_HELPER int THNN_(convDirectForward)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
#ifdef TH_REAL_IS_FLOAT
  if (g->dilationW == 1 && g->dilationH == 1 && g->kW == g->kH && p->nOther > THNN_CONV_DIRECT_PLANES)
    return 0;
#endif
  return THNN_(convDirectWorth)(g, p);
}

/* - gradInput (the flipped convolution, whose output planes are the input's):
 *   Winograd first where it applies (the loops 1.19-1.40 on 3x3 512->512 on
 *   7x7, 192->384 on 13x13, 64->64 on 56x56); the loops beat the columns and
 *   their folding from THNN_CONV_DIRECT_GRAD_AREA pixels of the input (7x7
 *   64->32 on 64x64 0.33-0.36, 3x3 16->16 on 126x126 0.43-0.59, 5x5 32->64
 *   on 64x64 0.61-0.66, ENet's dilated and asymmetric 0.73-0.88) but not on
 *   smaller ones (5x5 64->64 on 21x21 1.29-1.31, LeNet's 12x12 1.50, 5x5
 *   64->192 on 27x27 1.01-1.07), nor to THNN_CONV_DIRECT_FEW input planes or
 *   fewer, most of a block of DIRECT_PLANES wasted (3x3 3->64 on 224x224
 *   2.91, 5x5 3->64 on 48x48 1.93); */
#define THNN_CONV_DIRECT_GRAD_AREA 1024
#define THNN_CONV_DIRECT_FEW 4
THNN_HELPER int THNN_(convDirectGradInput)(const THNNConvGeometry *t, const THNNConvPlan *tp)
{
#ifdef TH_REAL_IS_FLOAT
  if (tp->nOther <= THNN_CONV_DIRECT_FEW || tp->area < THNN_CONV_DIRECT_GRAD_AREA)
    return 0;
#endif
  return THNN_(convDirectWorth)(t, tp);
}

/* - the weight gradient: the loops sum over a sample's output pixels, a
 *   (plane, tap) block at a time, and lose to the matrix product of the
 *   columns on small images with large weights (3x3 512->512 on 7x7 5.66,
 *   on 14x14 2.24, 192->384 on 13x13 2.75, 5x5 64->64 on 21x21 1.78,
 *   64->192 on 27x27 1.49, 3x3 256->256 on 28x28 1.26) and win from
 *   THNN_CONV_DIRECT_GRAD_AREA output pixels (3x3 64->64 on 32x32 0.80, on
 *   112x112 0.57, 7x7 64->32 on 64x64 0.36, ENet's dilated 128->128 on 32x64
 *   0.78-0.81) or a weight of at most THNN_CONV_DIRECT_GRAD_WEIGHT (LeNet's
 *   5x5 6->16 on 12x12 0.66, 3x3 16->16 0.45). */
#define THNN_CONV_DIRECT_GRAD_WEIGHT (16 << 10)
THNN_HELPER int THNN_(convDirectGradWeight)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
#ifdef TH_REAL_IS_FLOAT
  if (p->area < THNN_CONV_DIRECT_GRAD_AREA && (double)p->nOther * p->K > THNN_CONV_DIRECT_GRAD_WEIGHT)
    return 0;
#endif
  return THNN_(convDirectWorth)(g, p);
}

/* `rows` rows of `width` elements from src (rows srcPitch apart) to dst
 * (dstPitch apart).  Short rows are copied inline: a call of memcpy per row
 * of 8 or 24 elements cost LeNet's convolutions more than their arithmetic
 * (hence no-tree-loop-distribute-patterns, which would make it a call again). */
__attribute__((optimize("no-tree-loop-distribute-patterns")))
THNN_HELPER void THNN_(convCopyRows)(real *dst, int64_t dstPitch, const real *src, int64_t srcPitch, int64_t rows,
                                int64_t width)
{
  if (dstPitch == width && srcPitch == width) {
    memcpy(dst, src, (size_t)(rows * width) * sizeof(real));
  } else if (width >= 64) {
    for (int64_t r = 0; r < rows; r++)
      memcpy(dst + r * dstPitch, src + r * srcPitch, (size_t)width * sizeof(real));
  } else {
    for (int64_t r = 0; r < rows; r++)
      for (int64_t x = 0; x < width; x++)
        dst[r * dstPitch + x] = src[r * srcPitch + x];
  }
}

/* Whether the n values at x are all finite (no infinity, no NaN). */
THNN_HELPER int THNN_(convAllFinite)(const real *x, int64_t n)
{
  int finite = 1;
  for (int64_t i = 0; i < n; i++)
    finite &= x[i] - x[i] == 0;   /* NaN for an infinity or a NaN */
  return finite;
}

/* The buffers of one sample at `padded`: the padded image filled with the image and its zeros. */
THNN_HELPER void THNN_(convDirectPadInto)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *image,
                                     real *padded)
{
  THNN_(convZero)(padded, d->imageSize);
  for (int64_t c = 0; c < g->nPlane; c++)
    THNN_(convCopyRows)(padded + c * d->paddedPlane + g->padH * d->rowLength + g->padW, d->rowLength,
                        image + c * g->inH * g->inW, g->inW, g->inH, g->inW);
}

/* The calling thread's first buffers, holding the padded image. */
THNN_HELPER real *THNN_(convDirectPad)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *image)
{
  real *padded = d->padded + THNNConv_threadId() * d->group * d->padSize;
  THNN_(convDirectPadInto)(g, d, image, padded);
  return padded;
}

/* One sample's output planes [o0, o0 + PLANES) of nOther from its padded image. */
THNN_HELPER void THNN_(convDirectPlanes)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *pad,
                                    const real *wp, const real *bp, int64_t o0, int64_t nOther, real *out)
{
  const int64_t B = THNN_CONV_BLOCK_WIDTH, area = g->outH * g->outW;
  if (d->flat) {   /* the run, then its rows */
    real *run = (real *)pad + d->imageSize + d->gradSize;
    for (int64_t q = 0; q < d->run; q += B)
      THNN_(convDirectBlock)(g, d, pad + q, wp, bp, 0, nOther - o0, run + q, d->run, B);
    for (int64_t o = 0; o < THNN_CONV_DIRECT_PLANES && o0 + o < nOther; o++)
      THNN_(convCopyRows)(out + (o0 + o) * area, g->outW, run + o * d->run, d->rowLength, g->outH, g->outW);
    return;
  }
  for (int64_t y = 0; y < g->outH; y++)
    for (int64_t x = 0; x < g->outW; x += B)
      THNN_(convDirectBlock)(g, d, pad + y * g->dH * d->rowLength + x, wp, bp, o0, nOther, out + y * g->outW + x,
                             area, g->outW - x < B ? g->outW - x : B);
}

/* other = w * image convolved, for every sample (see above); w is
 * [nOther, K], bias NULL or nOther values.  -1 when out of memory. */
THNN_HELPER int THNN_(convDirectMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                     const real *image, const real *w, const THTensor *bias, real *other)
{
  const int P = THNN_CONV_DIRECT_PLANES;
  int64_t nBlocks = (p->nOther + P - 1) / P, wpSize = nBlocks * P * p->K;
  THNN_(ConvDirect) d;
  real *wp = THAlloc((size_t)(wpSize + nBlocks * P) * sizeof(real));
  if (!wp)
    return THError(state, "out of memory for a convolution's repacked weight");
  if (THNN_(convDirectStart)(state, g, p->nThreads, 0, 1, &d) != 0) {
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
      THNN_(convDirectPlanes)(g, &d, pad, wp + b * P * p->K, bp + b * P, b * P, p->nOther,
                              other + n * p->nOther * p->area);
  }
  THFree(wp);
  THNN_(convDirectEnd)(&d);
  return 0;
}

/* gw[o * K + t] += alpha * sum over the output pixels of `count` samples
 * of gradOutput plane o times what tap t of input plane c sees, for planes
 * o0.. and taps t0.. of a GRAD_PLANES x GRAD_TAPS block (see above; the
 * samples' buffers are padSize apart from `buffers` on, each holding the
 * padded image, then gradOutput in the layout of d, zeros where no pixel
 * is; gw points at plane c's taps; planes and taps past the ends are
 * computed on the last one and dropped).  Where no pixel is, gradOutput
 * is 0 and the image is set to 0 too when `masked` (by a mask of the lanes
 * kept), as 0 * inf would be NaN; without infinities or NaN in the images
 * that changes nothing, and the loop without the masks is faster. */
THNN_CONV_DIRECT_TARGET
THNN_HELPER void THNN_(convDirectGradBlock)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *buffers,
                                       int count, int masked, int64_t c, int64_t o0, int64_t nOther, int t0,
                                       real *gw, int64_t K, real alpha)
{
  enum { GP = THNN_CONV_GRAD_PLANES, GT = THNN_CONV_GRAD_TAPS };
  THNN_(ConvVector) acc[GP][GT], lane;
  int64_t tap[GT];
  for (int o = 0; o < GP; o++)
    for (int t = 0; t < GT; t++)
      acc[o][t] = (THNN_(ConvVector)){0};
  for (int t = 0; t < GT; t++)
    tap[t] = d->tap[t0 + t < d->nTap ? t0 + t : d->nTap - 1];
  for (int l = 0; l < THNN_CONV_LANES; l++)
    lane[l] = l;
  /* flat: one row of the whole run, the lanes kept read from d->kept; by rows: outH rows of outW */
  int64_t rows = d->flat ? 1 : g->outH, width = d->flat ? d->run : g->outW;
  for (int s = 0; s < count; s++)
  for (int64_t y = 0; y < rows; y++) {
    const real *plane = buffers + s * d->padSize + c * d->paddedPlane, *gy[GP];
    for (int o = 0; o < GP; o++)
      gy[o] = buffers + s * d->padSize + d->imageSize + (o0 + o < nOther ? o0 + o : nOther - 1) * d->gradPlane;
    const real *in = plane + y * g->dH * d->rowLength;
    for (int64_t x = 0; x < width; x += THNN_CONV_LANES) {
      THNN_(ConvVector) gv[GP];
      for (int o = 0; o < GP; o++) {
        memcpy(&gv[o], gy[o] + y * d->gradRow + x, sizeof(gv[o]));
        __asm__("" : "+v"(gv[o]));   /* loaded once into a register, not again by each of the GT products */
      }
      if (masked) {
        THNN_(ConvVector) kept;
        if (d->flat)
          memcpy(&kept, d->kept + x, sizeof(kept));
        __typeof__(lane < lane) inside = d->flat ? kept > (THNN_(ConvVector)){0}
                                                 : lane < (THNN_(ConvVector)){0} + (real)(g->outW - x);
        for (int t = 0; t < GT; t++) {
          THNN_(ConvVector) pixels;
          memcpy(&pixels, in + tap[t] + x, sizeof(pixels));
          pixels = (THNN_(ConvVector))((__typeof__(inside))pixels & inside);
          for (int o = 0; o < GP; o++)
            acc[o][t] += gv[o] * pixels;
        }
      } else {
        for (int t = 0; t < GT; t++) {
          THNN_(ConvVector) pixels;
          memcpy(&pixels, in + tap[t] + x, sizeof(pixels));
          for (int o = 0; o < GP; o++)
            acc[o][t] += gv[o] * pixels;
        }
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

/* gw [nOther, K] += alpha * what `count` consecutive samples (images from
 * `image` on, gradOutputs from `gy` on) give (see above), in the buffers at
 * `buffers` (room for count samples). */
THNN_HELPER void THNN_(convDirectGrad)(const THNNConvGeometry *g, const THNN_(ConvDirect) *d, const real *image,
                                  const real *gy, int count, int64_t nOther, real *gw, real alpha, real *buffers)
{
  const int64_t K = g->nPlane * d->nTap, area = g->outH * g->outW, imageSize = g->nPlane * g->inH * g->inW;
  int masked = !THNN_(convAllFinite)(image, count * imageSize);
  for (int s = 0; s < count; s++) {
    real *padded = buffers + s * d->padSize, *grad = padded + d->imageSize;
    THNN_(convDirectPadInto)(g, d, image + s * imageSize, padded);
    THNN_(convZero)(grad, d->gradSize);
    for (int64_t o = 0; o < nOther; o++)
      THNN_(convCopyRows)(grad + o * d->gradPlane, d->gradRow, gy + (s * nOther + o) * area, g->outW, g->outH,
                          g->outW);
  }
  for (int64_t o = 0; o < nOther; o += THNN_CONV_GRAD_PLANES)
    for (int64_t c = 0; c < g->nPlane; c++)
      for (int t = 0; t < d->nTap; t += THNN_CONV_GRAD_TAPS)
        THNN_(convDirectGradBlock)(g, d, buffers, count, masked, c, o, nOther, t, gw + c * d->nTap, K, alpha);
}

#undef THNN_CONV_LANES
#undef THNN_CONV_BLOCK_WIDTH

/* The columns of a convolution as THGemm_floatPacked's B, never written
 * out: row p is row c0*kH*kW + p of unfoldedCopy's columns of image img,
 * column j its output pixel q0 + j (of the whole image, any row). */
typedef struct {
  const THNNConvGeometry *g;
  const real *img;
  int64_t q0, c0;
} THNN_(ConvImageSource);

#ifdef TH_REAL_IS_FLOAT
/* row [count] <- what the tap at offset (offH, offW) sees of one image
 * plane at output pixels [q, q + count) (consecutive pixels across output
 * rows): the entries convUnfoldTap gives them, 0 outside the image.  Only
 * pixels inside the plane are read. */
THNN_HELPER void THNN_(convUnfoldTapPixels)(const THNNConvGeometry *g, const real *plane, int64_t offH,
                                            int64_t offW, int64_t q, int64_t count, real *row)
{
  int64_t x0, x1, y0, y1;
  THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
  THNNConv_inside(offH, g->dH, g->inH, g->outH, &y0, &y1);
  if (THNNConv_sameRows(g)) {
    /* (as convUnfoldTap) pixels [first, last) are one run of the plane,
     * shift further on; the entries of the run outside columns [x0, x1)
     * wrapped to a neighbouring row and are set to 0 after the copy */
    int64_t first = 0, last = 0, shift = offH * g->inW + offW, end = q + count;
    if (y1 > y0 && x1 > x0)
      first = y0 * g->outW + x0, last = (y1 - 1) * g->outW + x1;
    int64_t a = q > first ? q : first, b = end < last ? end : last;
    if (a > end)
      a = end;
    if (b < a)
      b = a;
    THNN_(convZero)(row, a - q);
    memcpy(row + (a - q), plane + a + shift, (size_t)(b - a) * sizeof(real));
    THNN_(convZero)(row + (b - q), end - b);
    if (b > a && (x0 > 0 || x1 < g->outW))
      for (int64_t y = a / g->outW; y * g->outW < b; y++) {
        int64_t r = y * g->outW;   /* zero [r, r + x0) and [r + x1, r + outW), within [a, b) */
        for (int64_t i = r > a ? r : a; i < r + x0 && i < b; i++)
          row[i - q] = 0;
        for (int64_t i = r + x1 > a ? r + x1 : a; i < r + g->outW && i < b; i++)
          row[i - q] = 0;
      }
    return;
  }
  int64_t y = q / g->outW, x = q % g->outW;
  while (count > 0) {
    int64_t len = g->outW - x < count ? g->outW - x : count, end = x + len;   /* output row y, [x, end) */
    if (y < y0 || y >= y1 || x1 <= x0) {
      THNN_(convZero)(row, len);
    } else {
      const real *src = plane + (y * g->dH + offH) * g->inW;   /* output x sees src[x*dW + offW] */
      int64_t a = x > x0 ? x : x0, b = end < x1 ? end : x1;
      if (a > end)
        a = end;
      if (b < a)
        b = a;
      THNN_(convZero)(row, a - x);
      real *dst = row + (a - x);
      if (g->dW == 1)
        memcpy(dst, src + a + offW, (size_t)(b - a) * sizeof(real));
      else if (g->dW == 2)
        THNN_(convGather2)(dst, src + a * 2 + offW, b - a);
      else if (g->dW == 4)
        THNN_(convGather4)(dst, src + a * 4 + offW, b - a);
      else
        for (int64_t i = a; i < b; i++)
          dst[i - a] = src[i * g->dW + offW];
      THNN_(convZero)(row + (b - x), end - b);
    }
    row += len;
    count -= len;
    x = 0;
    y++;
  }
}

/* Where the float forward packs THGemm's panels from the image: a
 * product (a band, a chunk of planes) of at least THNN_CONV_PACK_PIXELS
 * pixels of the same-rows geometry (THNNConv_sameRows: one run of the
 * plane per row of the columns), or of columns above THNN_CONV_PACK_FROM
 * bytes.  Elsewhere the columns are small enough to stay in the cache
 * between the unfold and the packing, and the packer's work per row and
 * per output row cost more than it saved: measured 2026-11-30
 * (benchmarks/README.md, Inference) at 1.08-1.25x the column path's time
 * on 5x5 64->64 on 21x21 (no padding: a copy per output row of 17
 * pixels), 3x3/2 64->128 on 56x56 and 3x3 512->512 on 7x7 (49 pixels),
 * against 0.7-0.9x on 3x3 64->64 on 56x56 and larger images. */
#define THNN_CONV_PACK_PIXELS 256
#define THNN_CONV_PACK_FROM (2 << 20)

/* Rows unfolded at a time by convPackImage: a few KB that stay in L1
 * while THGemm_packRows spreads them into the panels. */
#define THNN_CONV_PACK_ROWS 8

/* THGemm's packer (THGemmPackB) for a ConvImageSource: the rows of a K
 * block unfolded THNN_CONV_PACK_ROWS at a time over the block's pixels,
 * then packed; the same values as the column matrix holds, so the same
 * sums. */
THNN_HELPER void THNN_(convPackImage)(void *source, int64_t p0, int64_t kc, int64_t j0, int64_t nc, float *dst)
{
  const THNN_(ConvImageSource) *s = source;
  const THNNConvGeometry *g = s->g;
  const int64_t plane = g->inH * g->inW, taps = (int64_t)g->kH * g->kW;
  float rows[THNN_CONV_PACK_ROWS * THGEMM_PACK_COLUMNS] __attribute__((aligned(32)));
  for (int64_t p = 0; p < kc; p += THNN_CONV_PACK_ROWS) {
    int64_t r = kc - p < THNN_CONV_PACK_ROWS ? kc - p : THNN_CONV_PACK_ROWS;
    for (int64_t t = 0; t < r; t++) {
      int64_t k = s->c0 * taps + p0 + p + t, c = k / taps, i = k % taps / g->kW, j = k % g->kW;
      THNN_(convUnfoldTapPixels)(g, s->img + c * plane, i * g->dilationH - g->padH, j * g->dilationW - g->padW,
                                 s->q0 + j0, nc, rows + t * nc);
    }
    THGemm_packRows(rows, nc, r, nc, dst + p * THGEMM_PANEL, THGEMM_PANEL * kc);
  }
}
#endif

/* out [m, n] (rows ldc apart) = w [m, k] (lda) * columns [k, n] (ldb) +
 * (bias: bias[i] on row i, else beta * out), row-major: the forward
 * product, in the calling thread.  In float on a CPU with AVX2 and FMA it
 * is THGemm_float (THGemm.c: at these shapes as fast as OpenBLAS or
 * faster, and the bias is the sums' start instead of a pass over the
 * output; benchmarks/README.md, Inference), else, or when THGemm_float
 * could not get its buffers, OpenBLAS on the output filled with the bias.
 * src not NULL (float, where THGemm_floatAvailable() and
 * THGemm_imagePacking()): the columns are packed from the image instead
 * (columns unused), and THGemm_float failing to get its buffers is a
 * failure.  Non-zero when the product failed. */
THNN_HELPER int THNN_(convProductSlab)(int64_t m, int64_t n, int64_t k, const real *w, int64_t lda,
                                       const real *columns, int64_t ldb, const THNN_(ConvImageSource) *src,
                                       const THTensor *bias, const real *biasData, real beta, real *out, int64_t ldc)
{
#ifdef TH_REAL_IS_FLOAT
  if (src)
    return THGemm_floatPacked(m, n, k, w, lda, THNN_(convPackImage), (void *)src, bias ? 0 : beta, out, ldc,
                              biasData, bias ? bias->stride[0] : 0) != 0;
  if (THGemm_float(m, n, k, w, lda, columns, ldb, bias ? 0 : beta, out, ldc, biasData,
                   bias ? bias->stride[0] : 0) == 0)
    return 0;
#endif
  if (bias) {
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++)
        out[i * ldc + j] = biasData[i * bias->stride[0]];
    beta = 1;
  }
  THNNState local = {0};
  return THBlas_(gemm)(&local, 'n', 'n', n, m, k, 1, columns, ldb, w, lda, beta, out, ldc) != 0;
}

/* Share t of `count` of convProduct's product (below): whole panels of
 * 6 rows of w (byRows) or of 16 pixels, the panels of THGemm_float. */
THNN_HELPER int THNN_(convProductShare)(int64_t t, int64_t count, int byRows, int64_t m, int64_t n, int64_t k,
                                        const real *w, int64_t lda, const real *columns, int64_t ldb,
                                        const THNN_(ConvImageSource) *src, const THTensor *bias, real beta, real *out,
                                        int64_t ldc)
{
  int64_t size = byRows ? m : n, unit = byRows ? 6 : 16;
  int64_t units = (size + unit - 1) / unit, per = (units + count - 1) / count;
  int64_t lo = t * per * unit < size ? t * per * unit : size;
  int64_t hi = lo + per * unit < size ? lo + per * unit : size;
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  if (hi <= lo)
    return 0;
  THNN_(ConvImageSource) part;   /* src from pixel lo on */
  if (src) {
    part = *src;
    part.q0 += byRows ? 0 : lo;
  }
  return byRows ? THNN_(convProductSlab)(hi - lo, n, k, w + lo * lda, lda, columns, ldb, src, bias,
                                         b ? b + lo * bias->stride[0] : NULL, beta, out + lo * ldc, ldc)
                : THNN_(convProductSlab)(m, hi - lo, k, w, lda, src ? NULL : columns + lo, ldb, src ? &part : NULL,
                                         bias, b, beta, out + lo, ldc);
}

/* Threads for convProduct's product (below): THGemm_float's products are
 * split between the pool's threads when called outside a parallel region
 * and large enough (a batch-1 sample not shared by bands: more planes than
 * pixels); 1 otherwise (OpenBLAS, through THBlas_(gemm), splits its own). */
THNN_HELPER int THNN_(convProductThreads)(int64_t m, int64_t n, int64_t k)
{
#if defined(TH_REAL_IS_FLOAT) && defined(_OPENMP)
  if (THGemm_floatAvailable() && m > 0 && n > 0 && !omp_in_parallel())
    return THNNConv_threads(m > n ? (m + 5) / 6 : (n + 15) / 16, (double)m * n * k);
#endif
  return 1;
}

/* convProductSlab's product, split (convProductThreads) by rows of w or
 * by pixels, whichever are more, as THBlas_(gemm) splits. */
THNN_HELPER int THNN_(convProduct)(int64_t m, int64_t n, int64_t k, const real *w, int64_t lda, const real *columns,
                                   int64_t ldb, const THNN_(ConvImageSource) *src, const THTensor *bias, real beta,
                                   real *out, int64_t ldc)
{
#ifdef _OPENMP
  int nt = THNN_(convProductThreads)(m, n, k);
  if (nt > 1) {
    int failed = 0;
#pragma omp parallel num_threads(nt) reduction(|:failed)
    failed |= THNN_(convProductShare)(omp_get_thread_num(), omp_get_num_threads(), m > n, m, n, k, w, lda, columns,
                                      ldb, src, bias, beta, out, ldc);
    return failed;
  }
#endif
  return THNN_(convProductShare)(0, 1, m > n, m, n, k, w, lda, columns, ldb, src, bias, beta, out, ldc);
}

/* A whole sample's columns unfolded and multiplied in one parallel region
 * when convProductThreads would split the product: each thread unfolds its
 * share of the column rows, then (after a barrier) multiplies its share of
 * the product.  Torch7's order unfolded on one thread while the other
 * waited (12 % of a 3x3 512->512 convolution on 7x7, benchmarks/README.md).
 * -1 when the product would not be split (the caller unfolds, then
 * multiplies); else non-zero when the product failed. */
THNN_HELPER int THNN_(convUnfoldProductShared)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *img,
                                               const real *w, const THTensor *bias, real *out, real *buffer)
{
#ifdef _OPENMP
  int nt = THNN_(convProductThreads)(p->nOther, p->area, p->K);
  if (nt > 1) {
    int failed = 0;
#pragma omp parallel num_threads(nt) reduction(|:failed)
    {
      int64_t t = omp_get_thread_num(), count = omp_get_num_threads();
      THNN_(unfoldedCopyRows)(g, img, p->K * t / count, p->K * (t + 1) / count, buffer);
#pragma omp barrier
      failed |= THNN_(convProductShare)(t, count, p->nOther > p->area, p->nOther, p->area, p->K, w, p->K, buffer,
                                        p->area, NULL, bias, 0, out, p->area);
    }
    return failed;
  }
#endif
  return -1;
}

/* Output rows [r0, r1) of one sample (img its image, out its output,
 * planes p->area apart), in the calling thread: their pixels of every
 * output plane start from the bias, then the product of the weight and
 * the columns of those rows (unfolded into buffer, a chunk of input planes
 * at a time, chunk planes: see THNNConv_chunkPlanes; each chunk's product
 * added to the output while its columns are in the cache).  Non-zero when a
 * product failed. */
THNN_HELPER int THNN_(convUnfoldMultiplyRows)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *img,
                                              const real *w, const THTensor *bias, real *out, real *buffer,
                                              int64_t r0, int64_t r1, int64_t chunk)
{
  int64_t q0 = r0 * g->outW, pixels = (r1 - r0) * g->outW;
  out += q0;
  if (p->direct)
    return THNN_(convProduct)(p->nOther, pixels, p->K, w, p->K, img + q0, p->area, NULL, bias, 0, out, p->area);
  if (g->nPlane < 1) {
    THNN_(convFillBias)(out, bias, p->nOther, pixels, p->area);
    return 0;
  }
  int64_t taps = (int64_t)g->kH * g->kW;
  int failed = 0;
#ifdef TH_REAL_IS_FLOAT
  /* THGemm packs its panels from the image: the chunks of planes as below
   * (the same products, so the same sums), no columns written.  Not where
   * the product is split by rows of w between threads (more planes than
   * pixels: small images, whose columns stay in the cache): there each
   * thread would unfold all the columns for its panels, where the column
   * path unfolds half of them each (convUnfoldProductShared); and only
   * for the same-rows geometry (one run per tap) over enough pixels, or
   * columns above THNN_CONV_PACK_FROM */
  int64_t firstK = (chunk < g->nPlane ? chunk : g->nPlane) * taps;
  if (THGemm_floatAvailable() && THGemm_imagePacking() &&
      ((THNNConv_sameRows(g) && pixels >= THNN_CONV_PACK_PIXELS) ||
       (double)firstK * pixels * sizeof(real) > THNN_CONV_PACK_FROM) &&
      !(p->nOther > pixels && THNN_(convProductThreads)(p->nOther, pixels, firstK) > 1)) {
    for (int64_t c0 = 0; c0 < g->nPlane && !failed; c0 += chunk) {
      int64_t c1 = c0 + chunk < g->nPlane ? c0 + chunk : g->nPlane;
      THNN_(ConvImageSource) src = {g, img, q0, c0};
      failed = THNN_(convProduct)(p->nOther, pixels, (c1 - c0) * taps, w + c0 * taps, p->K, NULL, pixels, &src,
                                  c0 == 0 ? bias : NULL, c0 > 0, out, p->area);
    }
    return failed;
  }
#endif
  if (r0 == 0 && r1 == g->outH && chunk >= g->nPlane) {
    int shared = THNN_(convUnfoldProductShared)(g, p, img, w, bias, out, buffer);
    if (shared >= 0)
      return shared;
  }
  for (int64_t c0 = 0; c0 < g->nPlane && !failed; c0 += chunk) {
    int64_t c1 = c0 + chunk < g->nPlane ? c0 + chunk : g->nPlane;
    THNN_(unfoldedCopyPlanes)(g, img, r0, r1, c0, c1, buffer);
    failed = THNN_(convProduct)(p->nOther, pixels, (c1 - c0) * taps, w + c0 * taps, p->K, buffer, pixels, NULL,
                                c0 == 0 ? bias : NULL, c0 > 0, out, p->area);
  }
  return failed;
}

/* One sample n of convUnfoldMultiply (below); non-zero when the product
 * failed.  A sample whose bands of THNN_CONV_BAND_PIXELS pixels would
 * still be unfolded in chunks (large kernels on many planes: SPyNet's 7x7
 * 64->32) runs band by band, as a shared sample does, instead of unfolding
 * all its columns (51 MB for SPyNet's 64x64) before one product. */
THNN_HELPER int THNN_(convUnfoldMultiplyOne)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *image,
                                        const real *w, const THTensor *bias, real *other, real *columns, int64_t n)
{
  const real *img = image + n * p->imageSize;
  real *out = other + n * p->nOther * p->area;
  real *buffer = p->direct ? NULL : columns + THNNConv_threadId() * p->K * p->area;
  int64_t rows = g->outW > 0 ? (THNN_CONV_BAND_PIXELS + g->outW - 1) / g->outW : 1;
  int64_t chunk = rows < g->outH ? THNNConv_chunkPlanes(g, rows * g->outW) : g->nPlane;
  if (p->direct || chunk >= g->nPlane)
    return THNN_(convUnfoldMultiplyRows)(g, p, img, w, bias, out, buffer, 0, g->outH, g->nPlane);
  int failed = 0;
  for (int64_t r0 = 0; r0 < g->outH && !failed; r0 += rows)
    failed = THNN_(convUnfoldMultiplyRows)(g, p, img, w, bias, out, buffer, r0,
                                           r0 + rows < g->outH ? r0 + rows : g->outH, chunk);
  return failed;
}

/* Band `job` of a shared batch (sample job / nBands, its band job % nBands
 * of output rows), in the calling thread: its columns in the thread's
 * buffer of [K, bandRows*outW] (convUnfoldMultiplyRows). */
THNN_HELPER int THNN_(convUnfoldMultiplyBand)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *image,
                                         const real *w, const THTensor *bias, real *other, real *columns,
                                         int64_t job)
{
  int64_t n = job / p->nBands, r0 = job % p->nBands * p->bandRows;
  int64_t r1 = r0 + p->bandRows < g->outH ? r0 + p->bandRows : g->outH;
  real *buffer = p->direct ? NULL : columns + THNNConv_threadId() * p->K * p->bandRows * g->outW;
  return THNN_(convUnfoldMultiplyRows)(g, p, image + n * p->imageSize, w, bias, other + n * p->nOther * p->area,
                                       buffer, r0, r1, THNNConv_chunkPlanes(g, (r1 - r0) * g->outW));
}

#ifdef TH_REAL_IS_FLOAT
/* The indirect product (THConvDirect.c): no columns, the image read in
 * place (a zero-padded copy when the convolution pads), the weight packed
 * once per call in panels of 16 output planes.  Where it runs: see
 * convIndirectWorth. */
/* Where the indirect product is the faster path (mode 1), measured
 * 2026-11-30 at batch 1 (benchmarks/indirect_convs.py, GF/s, indirect
 * against the better column path, 1 thread | 2 threads, ranges of three
 * blocks on a shared machine): it wins where K = planes x taps is at least
 * THNN_CONV_INDIRECT_K and the output at least THNN_CONV_INDIRECT_AREA
 * pixels: the face classifier's 5x5 64->64 on 21x21 80-84 against 63-65 |
 * 112-121 against 94-100, SPyNet's 7x7 on 64x64 75-90 against 49-67 |
 * 140-160 against 79-122, ResNet-18's 3x3 on 56x56-14x14 77-91 against
 * 71-85 | 122-157 against 127-133, AlexNet's 11x11/4 61-79 against 49-53
 * | 144-153 against 111-118, the face classifier's 5x5 3->64 on 48x48
 * (K = 75) 66-69 against 60-62 (1 thread).  With K = 27 (3x3 3->64) it
 * only ties (a tile's transposed store costs as much as its few sums).
 * The weight is packed in every call, which small images with large
 * weights do not pay back: 3x3 512->512 on 7x7 41-51 against 59-66 | 86-90
 * against 107-116, and in benchmarks/inference.py --part convs (1 thread,
 * time indirect / column path, +-20 % noise on rows it does not touch)
 * 1.30 and 1.17 on 3x3 512->512 on 14x14 (batch 1, 8) and 1.25 on 3x3
 * 192->384 on 13x13, so a weight above THNN_CONV_INDIRECT_WEIGHT floats
 * needs THNN_CONV_INDIRECT_LARGE_AREA output pixels (3x3 256->256 on 28x28:
 * 1.02, 1.01).  In that run: 0.42-0.50 on the face detector's 12x12/2,
 * 0.68-0.76 on the 48-net's 5x5 64->64 and SPyNet's 7x7, 0.73 on 3x3
 * 64->64 on 112x112; geometric mean over every row against PyTorch 0.99
 * -> 0.86. */
#define THNN_CONV_INDIRECT_K 64
#define THNN_CONV_INDIRECT_AREA 128
#define THNN_CONV_INDIRECT_WEIGHT (256 << 10)
#define THNN_CONV_INDIRECT_LARGE_AREA 512
/* Smaller images too where the weight is at most
 * THNN_CONV_INDIRECT_SMALL_WEIGHT floats (its packing is cheap, and it stays
 * in L2 for every tile): measured 2026-11-30 (1 thread, process time,
 * indirect against the column path, ranges of 5 alternating blocks, load
 * 4 on the 2 shared cores), batch 1 | 8, ms: LeNet's 5x5 6->16 on 12x12
 * 0.010-0.013 against 0.020-0.023 | 0.043 against 0.139, 5x5 32->64 on
 * 10x10 0.064-0.074 against 0.096-0.106 | 0.34-0.36 against 0.77-0.79,
 * 3x3 64->64 on 6x6 0.050-0.052 against 0.066-0.069 | 0.26-0.27 against
 * 0.50-0.51, 3x3 16->32 on 10x10 and 32->32 on 8x8 likewise (0.6-0.75 of
 * the time). */
#define THNN_CONV_INDIRECT_SMALL_WEIGHT (64 << 10)
/* Not a single image under a vertical kernel (kW 1, ENet's 5x1) of at
 * least THNN_CONV_INDIRECT_VERTICAL_PLANES planes: a block of K then runs
 * over many planes of a few rows each, more image than L1 holds for each
 * panel, and THGemm packing its panels from the image was faster
 * (2026-11-30, batch 1, ms, ranges of 5 alternating blocks, load 4: 5x1
 * 128->128 on 32x64 1.94-1.98 against 2.20-2.21 on 2 threads, 4.25-4.30
 * against 4.43-4.63 on 1; 5x1 64->64 on 16x32 and 3x1 64->64 on 32x32
 * 0.87-0.95 of the time on 1 thread; 7x1 32->32 on 64x64 was faster
 * indirect, and so was every batch of 8 but by less than the noise). */
#define THNN_CONV_INDIRECT_VERTICAL_PLANES 64
/* Not a 1x1 kernel (with a step: ResNet's 1x1/2 shortcuts; without one it
 * is the direct path, no columns at all), under either rule: its columns
 * are the image subsampled, a plane per row, one gather per output row,
 * and THGemm on them beat the indirect tiles, which step to another plane
 * at every k.  Measured 2026-11-30 (ms, column path against indirect, min
 * of 9 alternating blocks, load 7 on the 2 shared cores; 1 thread process
 * time | 2 threads wall): 64->128 1x1/2 on 56x56 batch 1 0.173 against
 * 0.197 | 0.143 against 0.154, batch 8 1.51 against 1.92 | 0.92 against
 * 1.18; 128->256 1x1/2 on 28x28 batch 1 0.158 against 0.181 | 0.110
 * against 0.152, batch 8 1.62 against 1.60 | 0.685 against 0.805; with
 * the weight packed beforehand (nn.freeze), 256->512 1x1/2 on 14x14 batch
 * 1 0.185 against 0.218 | 0.132 against 0.159, batch 8 1.42 against 1.75
 * | 0.815 against 1.006. */
THNN_HELPER int THNN_(convIndirectPointwise)(const THNNConvGeometry *g)
{
  return g->kW == 1 && g->kH == 1;
}

THNN_HELPER int THNN_(convIndirectRule)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
  double weight = (double)p->K * p->nOther;
  if (g->kW == 1 && g->kH > 1 && g->nPlane >= THNN_CONV_INDIRECT_VERTICAL_PLANES && p->batch == 1)
    return 0;
  if (THNN_(convIndirectPointwise)(g))
    return 0;
  return p->K >= THNN_CONV_INDIRECT_K &&
         (p->area >= THNN_CONV_INDIRECT_AREA || weight <= THNN_CONV_INDIRECT_SMALL_WEIGHT) &&
         (weight <= THNN_CONV_INDIRECT_WEIGHT || p->area >= THNN_CONV_INDIRECT_LARGE_AREA);
}

/* Where the indirect product is the faster path with the weight packed
 * beforehand (SpatialDilatedConvolution_packWeight, kept by a frozen
 * module): no weight-size clause, since nothing is packed per call, and
 * a smaller area.  Measured 2026-11-30 at batch 1 (benchmarks/indirect_convs.py,
 * GF/s, packed indirect against the better column path, 1 thread | 2
 * threads, ranges of three blocks, load 3.1-3.5 on the 2 shared cores):
 * 3x3 256->256 on 7x7 84-85 against 61-67 | 114-124 against 82-92, 3x3
 * 128->128 on 7x7 61-64 against 47-54 | 85-96 against 41-56, 3x3 64->64 on
 * 10x10 67-78 against 52-60 | 61-64 against 45-56, AlexNet's 3x3 384->256
 * and 256->256 on 13x13 72-74 against 69-72 | 131-142 against 117-133; it
 * ties on 3x3 512->512 on 7x7 (35-58 against 54-55 | 113-121 against
 * 112-120) and on 10x10, and loses a little on 5x5 (25 pixels: 55-63
 * against 62-64 | 87-95 against 90-96), hence THNN_CONV_PACKED_AREA.  With
 * K = 27 it loses as the plain one does (VGG's 3x3 3->64: 49-55 against
 * 57-67, 1 thread). */
#define THNN_CONV_PACKED_K 64
#define THNN_CONV_PACKED_AREA 48
THNN_HELPER int THNN_(convIndirectPackedRule)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
  return p->K >= THNN_CONV_PACKED_K && p->area >= THNN_CONV_PACKED_AREA && !THNN_(convIndirectPointwise)(g);
}

/* Whether the forward takes the indirect product; packed: whether a packed
 * weight is at hand (its own rule in mode 1). */
THNN_HELPER int THNN_(convIndirectWorth)(const THNNConvGeometry *g, const THNNConvPlan *p, int packed)
{
  int mode = THGemmConv_mode();
  if (!mode || !THGemm_floatAvailable() || p->direct || p->batch < 1 || p->area < 1 || p->K < 1 || p->nOther < 1)
    return 0;
  if (mode == 2)
    return 1;
  return packed ? THNN_(convIndirectPackedRule)(g, p) : THNN_(convIndirectRule)(g, p);
}

/* Plane c of one sample's image into its zero-padded copy (rows of
 * inW + 2 padW, planes of inH + 2 padH rows). */
THNN_HELPER void THNN_(convIndirectPadPlane)(const THNNConvGeometry *g, const real *image, int64_t c, real *padded)
{
  int64_t rowLength = g->inW + 2 * (int64_t)g->padW, plane = (g->inH + 2 * (int64_t)g->padH) * rowLength;
  real *dst = padded + c * plane;
  THNN_(convZero)(dst, plane);
  THNN_(convCopyRows)(dst + g->padH * rowLength + g->padW, rowLength, image + c * g->inH * g->inW, g->inW, g->inH,
                      g->inW);
}

/* other = w * image convolved, for every sample, each plane o from
 * bias[o] (bias may be NULL), by the indirect product, in one parallel
 * region: the threads pack the weight's panels (unless packedWeight, the
 * panels of w and bias packed beforehand, is given), then take whole
 * samples (a batch of at least as many samples as threads) or share each
 * sample's pixel tiles (padding its planes first).  -1 when out of memory. */
THNN_HELPER int THNN_(convIndirectMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                            const real *image, const real *w, const THTensor *bias,
                                            const real *packedWeight, real *other)
{
  int64_t K = p->K, area = p->area, nOther = p->nOther;
  int64_t panels = (nOther + THGEMM_CONV_PANEL - 1) / THGEMM_CONV_PANEL;
  int64_t tiles = (area + THGEMM_CONV_TILE - 1) / THGEMM_CONV_TILE;
  int pad = g->padW || g->padH;
  int64_t rowLength = g->inW + 2 * (int64_t)g->padW, plane = (g->inH + 2 * (int64_t)g->padH) * rowLength;
  int64_t paddedSize = g->nPlane * plane;
  int nt = THNNConv_threads(p->batch * tiles, (double)p->batch * K * area * nOther);
#ifdef _OPENMP
  if (omp_in_parallel())
    nt = 1;
#endif
  int perSample = p->batch >= nt;
  int64_t offBytes = (K * (int64_t)sizeof(int64_t) + 63) / 64 * 64;
  int inPlace = packedWeight && (uintptr_t)packedWeight % 64 == 0;
  int64_t packedSize = inPlace ? 0 : THGemmConv_packedSize(nOther, K);
  int64_t scratch = pad ? (perSample ? nt : 1) * paddedSize : 0;
  char *memory = THAlloc((size_t)(64 + offBytes + (packedSize + scratch) * (int64_t)sizeof(real)));
  if (!memory)
    return THError(state, "out of memory for a convolution's packed weight");
  char *aligned = memory + (64 - (uintptr_t)memory % 64) % 64;
  int64_t *off = (int64_t *)aligned;
  real *packing = (real *)(aligned + offBytes), *padded = packing + packedSize;
  const real *packed = inPlace ? packedWeight : packing;
  if (packedWeight && !inPlace)   /* (a copy of packWeight's tensor, not aligned as the kernel allocates it) */
    memcpy(packing, packedWeight, (size_t)packedSize * sizeof(real));
  for (int64_t c = 0, k = 0; c < g->nPlane; c++)
    for (int i = 0; i < g->kH; i++)
      for (int j = 0; j < g->kW; j++, k++)
        off[k] = c * plane + (int64_t)i * g->dilationH * rowLength + (int64_t)j * g->dilationW;
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  int64_t bStride = bias ? bias->stride[0] : 0, rowStep = g->dH * rowLength;
  THGemmConv_count();
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1)
#endif
  {
    int64_t t = THNNConv_threadId(), count = 1;
#ifdef _OPENMP
    count = omp_get_num_threads();
#endif
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
    for (int64_t q = 0; q < (packedWeight ? 0 : panels); q++)
      THGemmConv_pack(w, K, nOther, K, b, bStride, q, q + 1, packing);
    if (perSample) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int64_t n = 0; n < p->batch; n++) {
        const real *img = image + n * p->imageSize;
        if (pad) {
          real *mine = padded + t * paddedSize;
          for (int64_t c = 0; c < g->nPlane; c++)
            THNN_(convIndirectPadPlane)(g, img, c, mine);
          img = mine;
        }
        THGemmConv_tiles(img, off, K, packed, nOther, g->outW, rowStep, g->dW, 0, area,
                         other + n * nOther * area, area);
      }
    } else {
      for (int64_t n = 0; n < p->batch; n++) {
        const real *img = image + n * p->imageSize;
        if (pad) {
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
          for (int64_t c = 0; c < g->nPlane; c++)
            THNN_(convIndirectPadPlane)(g, img, c, padded);
          img = padded;
        }
        int64_t lo = tiles * t / count * THGEMM_CONV_TILE, hi = tiles * (t + 1) / count * THGEMM_CONV_TILE;
        THGemmConv_tiles(img, off, K, packed, nOther, g->outW, rowStep, g->dW, lo, hi < area ? hi : area,
                         other + n * nOther * area, area);
#ifdef _OPENMP
#pragma omp barrier
#endif
      }
    }
  }
  THFree(memory);
  return 0;
}
#endif

#ifdef TH_REAL_IS_FLOAT
/* Winograd's F(2x2, 3x3) (THConvWinograd.c) for 3x3 kernels of step 1.
 * Where it is the faster path (mode 1), measured 2026-11-30 (time
 * Winograd / the path chosen before, 1 thread, process time, best of 5
 * alternating blocks; the machine shared with other work): 64->64 on 56x56
 * 0.76, 128->128 on 28x28 0.76, 256->256 on 28x28 0.63, 64->64 on 56x56
 * batch 8 0.80, 512->512 on 7x7 batch 4 0.66, 1024->1024 on 7x7 0.71; at
 * batch 1 on few tiles, once the transforms' 16 matrices were set apart
 * so as not to share a cache set (THGemmWino_stride): 512->512 on 7x7 (16
 * tiles) 0.81, 256->256 on 14x14 0.81, 256->256 on 7x7 0.84, 128->128 on
 * 8x8 0.83 (on 2 threads, quiet: 512->512 on 7x7 0.76-0.77, 256->256 on
 * 14x14 0.84, 128->128 on 16x16 0.75-0.76).  It loses where
 * the transforms outweigh the products they save: the weight's, done in
 * every call, over fewer than 16 tiles (512->512 on 6x6, 9 tiles: 1.50;
 * 5x5 2.1; 4x4 3.2), hence THNN_CONV_WINO_TILES; the image's and the
 * output's (per plane and tile, against products of min(nIn, nOut)
 * multiply-adds saved) on few planes or short tile rows: 16->16 on 126x126
 * 1.25, 32->32 on 32x32 1.15, 16->16 on 64x64 1.14, 32->32 on 16x16 batch 8
 * 1.07, 96->96 on 14x14 1.20, 64->64 on 24x24 0.98, where 128->128 on
 * 16x16 0.76 and 64->64 on 32x32 0.88 win, hence THNN_CONV_WINO_WORK
 * (planes times tiles per row).  On AVX-512 (measured 2026-12-02 on a
 * Zen 5, 2 threads, in one process, after THGemm's AVX-512 tile made the
 * products twice as fast and left the transforms as they were) Winograd
 * loses on images of at most THNN_CONV_WINO_ROW_AVX512 tiles a row, at
 * batches 1, 2 and 4: 512->512 on 7x7 1.17 / 1.08 / 1.05, 256->256 on 7x7
 * 1.08-1.23, on 10x10 1.10-1.22, 1024->1024 on 7x7 1.54 at batch 1 (0.84
 * at batch 4, the one exception seen), and still wins on wider ones
 * (256->256 on 14x14 0.89-0.90, 64->64 on 56x56 0.88-1.00, 128->128 on
 * 28x28 0.91-1.06). */
#define THNN_CONV_WINO_ROW_AVX512 5
#define THNN_CONV_WINO_COLUMNS 256   /* tiles of a block, about (whole tile rows) */
#define THNN_CONV_WINO_OWNED 96     /* tiles of a block a thread owns, at least (below) */
#define THNN_CONV_WINO_TILES 16
#define THNN_CONV_WINO_PLANES 32
#define THNN_CONV_WINO_WORK 1024
THNN_HELPER int THNN_(convWinogradRule)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
  int64_t planes = g->nPlane < p->nOther ? g->nPlane : p->nOther;
  int64_t tilesW = (g->outW + 1) / 2, tiles = p->batch * ((g->outH + 1) / 2) * tilesW;
  return tiles >= THNN_CONV_WINO_TILES && planes >= THNN_CONV_WINO_PLANES && planes * tilesW >= THNN_CONV_WINO_WORK &&
         !(THUseAVX512() && tilesW <= THNN_CONV_WINO_ROW_AVX512);
}

/* F(2x2, 5x5) for 5x5 kernels of step 1 (THConvWinograd.c): 36 products
 * of a 6x6 tile's transforms for 100 multiply-adds, but the transforms
 * cost more than F(2x2, 3x3)'s and the products sum over nIn only.
 * Measured 2026-11-30 23:40 (time Winograd / the path chosen before, 1
 * thread, process time, best of 7 alternating blocks; load 8-11 from
 * other work on the 2 cores): AlexNet's 64->192 on 27x27 0.77 (batch 8
 * 0.69), 32->64 on 64x64 0.87 (batch 8 0.95), 128->128 on 14x14 0.87,
 * 64->64 on 32x32 batch 8 0.80, 128->128 on 27x27 0.81; it loses on few
 * planes or short tile rows: 64->64 on 21x21 unpadded (9 tiles a row)
 * 1.12, 48->48 on 28x28 1.05 (batch 8 1.12), 96->96 on 13x13 1.21,
 * 32->32 on 32x32 1.28, 16->32 on 32x32 1.49, 6->16 (LeNet) 4.3, and on
 * few tiles, where the weight's transform in every call outweighs the
 * products saved: 256->256 on 7x7 (16 tiles) 1.20.  On 2 threads (wall
 * time, same load) AlexNet's 0.77 (batch 8 0.69) and 64->64 on 32x32
 * batch 8 0.91 hold, but 32->64 on 64x64 (0.97, batch 8 1.17) and
 * 128->128 on 14x14 (7 tiles a row: 1.06) do not.  On 27x27 (pad 2,
 * 1 / 2 threads): 64->192 0.87 / 0.92, 192->192 1.01 / 0.90, but 192->64
 * 1.03 / 1.10 (AlexNet's gradInput: 1.10 / 1.08 at batch 1, 0.77 / 0.83
 * at batch 8), 128->64 1.00 / 1.19, 64->64 1.23 / 1.07: the products of
 * a 6x6 tile's transforms sum over nIn planes only, and the indirect path
 * (K = 25 nIn) keeps up where nOut is small.  Hence the rule: nIn 64 or
 * more, nOut 128 or more and at least nIn, rows of 12 tiles or more, 36
 * tiles in all.
 * Blocks of THNN_CONV_WINO5_COLUMNS tiles, not 256: the 36 matrices of M
 * of a block of 256 tiles (7 MB at 192 output planes) left the cache
 * (AlexNet's batch 8: 1.14 with 256, 0.69-0.78 with 48). */
#define THNN_CONV_WINO5_COLUMNS 48
#define THNN_CONV_WINO5_TILES 36
#define THNN_CONV_WINO5_IN 64
#define THNN_CONV_WINO5_OUT 128
#define THNN_CONV_WINO5_ROW 12
THNN_HELPER int THNN_(convWinograd5Rule)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
  int64_t tilesW = (g->outW + 1) / 2, tiles = p->batch * ((g->outH + 1) / 2) * tilesW;
  return tiles >= THNN_CONV_WINO5_TILES && g->nPlane >= THNN_CONV_WINO5_IN && p->nOther >= THNN_CONV_WINO5_OUT &&
         p->nOther >= g->nPlane && tilesW >= THNN_CONV_WINO5_ROW;
}

THNN_HELPER int THNN_(convWinogradWorth)(const THNNConvGeometry *g, const THNNConvPlan *p)
{
  int mode = THGemmWino_mode();
  if (!mode || !THGemm_floatAvailable() || g->kW != g->kH || (g->kW != 3 && g->kW != 5) || g->dW != 1 ||
      g->dH != 1 || g->dilationW != 1 || g->dilationH != 1 || p->batch < 1 || p->area < 1 || g->nPlane < 1 ||
      p->nOther < 1)
    return 0;
  return mode == 2 || (g->kW == 3 ? THNN_(convWinogradRule)(g, p) : THNN_(convWinograd5Rule)(g, p));
}

/* Tile rows [r0, r1) of convWinogradMultiply (below), share t of count
 * threads that all call it (count 1: the calling thread alone): the input
 * transformed into V (a share of the input planes), the 16 (36) products into
 * M (a share of them), M transformed into the output (a share of its
 * planes), with barriers between.  Non-zero when a product failed. */
THNN_HELPER int THNN_(convWinogradRows)(const THGemmWinoShape *s, const real *image, const real *U, real *V, real *M,
                                        int64_t r0, int64_t r1, int64_t t, int64_t count, const real *bias,
                                        int64_t biasStride, real *other, real *scratch)
{
  int64_t n = (r1 - r0) * s->tilesW, nIn = s->nIn, nOut = s->nOut, a2 = (s->kernel + 1) * (s->kernel + 1);
  int64_t sU = THGemmWino_stride(nOut * nIn), sV = THGemmWino_stride(nIn * n), sM = THGemmWino_stride(nOut * n);
  int failed = 0;
  THGemmWino_input(s, image, r0, r1, nIn * t / count, nIn * (t + 1) / count, V, scratch);
#ifdef _OPENMP
  if (count > 1) {
#pragma omp barrier
  }
#endif
  for (int64_t xi = a2 * t / count; xi < a2 * (t + 1) / count; xi++)
    failed |= THGemm_float(nOut, n, nIn, U + xi * sU, nIn, V + xi * sV, n, 0, M + xi * sM, n,
                           NULL, 0) != 0;
#ifdef _OPENMP
  if (count > 1) {
#pragma omp barrier
  }
#endif
  THGemmWino_output(s, M, r0, r1, nOut * t / count, nOut * (t + 1) / count, bias, biasStride, other, scratch);
  return failed;
}

/* other = the convolution of every sample by Winograd's F(2x2, 3x3) or
 * F(2x2, 5x5) (the kernel's side g->kW), each
 * plane o from bias[o] (bias may be NULL), in one parallel region: the
 * threads transform the weight (a share of the output planes each), then
 * take blocks of about THNN_CONV_WINO_COLUMNS tiles (whole tile rows), each
 * thread its own blocks where there are at least two per thread, or one
 * each of THNN_CONV_WINO_OWNED tiles or more (no thread waits for another),
 * else all threads each block (convWinogradRows; a single block: the
 * weight streamed, below).  1
 * when the values could overflow a transform (an infinity or NaN in the
 * image or weight, or magnitudes whose sums near the float range) or a
 * product could not get its buffers: the caller then convolves by another
 * path, which overwrites the whole output; -1 when out of memory. */
THNN_HELPER int THNN_(convWinogradMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                            const real *image, const real *w, const THTensor *bias, real *other)
{
  THGemmWinoShape s = {g->nPlane, p->nOther, g->inH, g->inW, g->padH, g->padW, g->outH, g->outW,
                       (g->outH + 1) / 2, (g->outW + 1) / 2, g->kW};
  int64_t a2 = (s.kernel + 1) * (s.kernel + 1), kk = s.kernel * s.kernel;
  int64_t columns = s.kernel == 5 ? THNN_CONV_WINO5_COLUMNS : THNN_CONV_WINO_COLUMNS;
  int64_t rows = p->batch * s.tilesH, per = (columns + s.tilesW - 1) / s.tilesW;
  if (per > rows)
    per = rows;
  int64_t blocks = (rows + per - 1) / per, nIn = s.nIn, nOut = s.nOut;
  int nt = THNNConv_threads(a2, (double)p->batch * p->K * p->area * nOut);
#ifdef _OPENMP
  if (omp_in_parallel())
    nt = 1;
#endif
  /* fewer blocks than two a thread, but tiles enough for a block of
   * THNN_CONV_WINO_OWNED each: a block a thread, owned (2 threads, batch 1:
   * 128->128 on 28x28 0.94 -> 0.71 of the direct path's time, 64->64 on
   * 32x32 1.05 -> 0.72, 96->96 on 32x32 0.83 -> 0.63: no barrier between
   * the transforms and the products of a shared block) */
  int ownAll = nt > 1 && blocks < 2 * nt && rows >= nt && rows * s.tilesW >= nt * THNN_CONV_WINO_OWNED;
  if (ownAll)
    blocks = nt;
  else if (nt > 1 && blocks >= 2 * nt)   /* (owned blocks: as many for every thread) */
    blocks = (blocks + nt - 1) / nt * nt;
  per = (rows + blocks - 1) / blocks;   /* blocks of a size (28 tile rows: 4 of 7, not 9, 9, 9 and 1) */
  blocks = (rows + per - 1) / per;
  int64_t cols = per * s.tilesW;
  /* one block (a small image): the weight is transformed a chunk of
   * output planes at a time, each chunk's products and output made while
   * its U is in the cache, and U never written whole; else U is made once
   * and every block reads it */
  int streamed = blocks == 1, own = nt > 1 && (blocks >= 2 * nt || ownAll);
  int64_t chunk = (nOut + 4 * nt - 1) / (4 * nt);
  chunk = chunk < 6 ? 6 : chunk > 48 ? 48 : (chunk + 5) / 6 * 6;
  int64_t chunks = (nOut + chunk - 1) / chunk;
  int64_t sizeU = streamed ? nt * THGemmWino_weightSize(s.kernel, chunk, nIn)
                           : THGemmWino_weightSize(s.kernel, nOut, nIn);
  int64_t sizeV = a2 * THGemmWino_stride(nIn * cols), sizeVM = sizeV + a2 * THGemmWino_stride(nOut * cols);
  int64_t scratch = ((a2 + 2) * (s.tilesW + s.kernel / 2) + 15) / 16 * 16;
  real *memory = THAlloc((size_t)(sizeU + (own ? nt : 1) * sizeVM + nt * (scratch + 16)) * sizeof(real));
  if (!memory)
    return THError(state, "out of memory for a convolution's transformed tiles");
  real *U = memory, *VM = U + sizeU, *scratches = VM + (own ? nt : 1) * sizeVM, *maxima = scratches + nt * scratch;
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  int64_t bStride = bias ? bias->stride[0] : 0;
  int failed = 0;
  THGemmWino_count();
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1) reduction(|:failed)
#endif
  {
    int64_t t = THNNConv_threadId(), count = 1;
#ifdef _OPENMP
    count = omp_get_num_threads();
#endif
    real *mine = scratches + t * scratch, *mx = maxima + 16 * t;
    int64_t o0 = nOut * t / count, o1 = nOut * (t + 1) / count;
    int64_t i0 = p->batch * nIn * t / count, i1 = p->batch * nIn * (t + 1) / count;   /* image planes */
    mx[0] = 0;   /* the largest |w| of the planes this thread transforms (THGemmWino_weight) */
    mx[1] = THGemmWino_maxAbs(image + i0 * g->inH * g->inW, (i1 - i0) * g->inH * g->inW);
    if (streamed) {
      int64_t n = rows * s.tilesW;
      real *V = VM, *M = V + sizeV, *myU = U + t * THGemmWino_weightSize(s.kernel, chunk, nIn);
      int64_t sV = THGemmWino_stride(nIn * n), sM = THGemmWino_stride(nOut * n);
      THGemmWino_input(&s, image, 0, rows, nIn * t / count, nIn * (t + 1) / count, V, mine);
#ifdef _OPENMP
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
#endif
      for (int64_t q = 0; q < chunks; q++) {
        int64_t q0 = q * chunk, q1 = q0 + chunk < nOut ? q0 + chunk : nOut, m = q1 - q0;
        real wq = THGemmWino_weight(s.kernel, w + q0 * nIn * kk, m, nIn, 0, m, myU);
        int64_t sU = THGemmWino_stride(m * nIn);
        mx[0] = wq > mx[0] || wq != wq ? wq : mx[0];
        for (int64_t xi = 0; xi < a2; xi++)
          failed |= THGemm_float(m, n, nIn, myU + xi * sU, nIn, V + xi * sV, n, 0, M + xi * sM + q0 * n, n,
                                 NULL, 0) != 0;
        THGemmWino_output(&s, M, 0, rows, q0, q1, b, bStride, other, mine);
      }
    } else {
      mx[0] = THGemmWino_weight(s.kernel, w, nOut, nIn, o0, o1, U);
      if (own) {
        real *V = VM + t * sizeVM, *M = V + sizeV;
#ifdef _OPENMP
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
#endif
        for (int64_t k = 0; k < blocks; k++)
          failed |= THNN_(convWinogradRows)(&s, image, U, V, M, k * per, (k + 1) * per < rows ? (k + 1) * per : rows,
                                            0, 1, b, bStride, other, mine);
      } else {
        for (int64_t r0 = 0; r0 < rows; r0 += per)
          failed |= THNN_(convWinogradRows)(&s, image, U, VM, VM + sizeV, r0,
                                            r0 + per < rows ? r0 + per : rows, t, count, b, bStride, other, mine);
      }
    }
  }
  real wMax = 0, xMax = 0;
  for (int t = 0; t < nt; t++) {
    real *mx = maxima + 16 * t;
    wMax = mx[0] > wMax || mx[0] != mx[0] ? mx[0] : wMax;
    xMax = mx[1] > xMax || mx[1] != mx[1] ? mx[1] : xMax;
  }
  THFree(memory);
  /* F(2x2, 3x3): |V| <= 4 |x|, |U| <= 2.25 |w|, the output sums 9 sums of
   * nIn products; F(2x2, 5x5): |V| <= 100 |x| (B^T's rows add up to 10 in
   * magnitude at most), |U| <= (31/24)^2 |w|, 49 sums (A^T's rows: 5 and 7) */
  double growth = s.kernel == 5 ? 100 * (31.0 / 24) * (31.0 / 24) * 49 : 81;
  return failed || !((double)xMax * wMax * (double)nIn * growth <= 1e37) ? 1 : 0;
}
#endif

/* A packed weight (SpatialDilatedConvolution_packWeight) is a 1-d tensor:
 * a header of THNN_CONV_PACKED_HEADER reals (64 bytes) holding three int64
 * (a mark, nOut, K), then THGemmConv_pack's panels of the weight and bias.
 * Its values do not depend on where it lies; the panels are read in place
 * where they are 64-byte aligned (a tensor the kernel allocated: THAlloc
 * aligns to 64; a zmm load then never straddles two cache lines), else
 * from an aligned copy made in each call.  Empty where
 * there is no packed path (double, a CPU without AVX2 and FMA). */
#define THNN_CONV_PACKED_HEADER (64 / (int64_t)sizeof(real))
#define THNN_CONV_PACKED_MARK 0x4e4e485444454b50LL

/* packed = w (contiguous [nOut, K]) and bias (NULL or [nOut]) packed for
 * the indirect product, or empty where it does not run. */
THNN_HELPER int THNN_(convPackWeight)(THNNState *state, const real *w, const THTensor *bias, int64_t nOut,
                                      int64_t K, THTensor *packed)
{
#ifdef TH_REAL_IS_FLOAT
  if (THGemm_floatAvailable() && nOut > 0 && K > 0) {
    int64_t size = THGemmConv_packedSize(nOut, K);
    TH_TRY(THTensor_(resize1d)(state, packed, THNN_CONV_PACKED_HEADER + size));
    real *data = THTensor_(data)(packed);
    int64_t header[3] = {THNN_CONV_PACKED_MARK, nOut, K};
    THNN_(convZero)(data, THNN_CONV_PACKED_HEADER);
    memcpy(data, header, sizeof header);
    int64_t panels = (nOut + THGEMM_CONV_PANEL - 1) / THGEMM_CONV_PANEL;
    const real *b = bias ? THTensor_(data)(bias) : NULL;
    int64_t bStride = bias ? bias->stride[0] : 0;
    int nt = THNNConv_threads(panels, (double)size);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
#endif
    for (int64_t q = 0; q < panels; q++)
      THGemmConv_pack(w, K, nOut, K, b, bStride, q, q + 1, data + THNN_CONV_PACKED_HEADER);
    return 0;
  }
#else
  (void)w, (void)bias, (void)nOut, (void)K;
#endif
  return THTensor_(resize1d)(state, packed, 0);
}

/* Whether a packed weight of n elements, contiguous and 1-d or not,
 * whose first THNN_CONV_PACKED_HEADER values are header (NULL when n is
 * smaller), holds a weight of nOut planes of K values; an error if not.
 * Empty passes. */
THNN_HELPER int THNN_(convPackedCheck)(THNNState *state, const THTensor *packed, int contiguous1d,
                                       const real *header, int64_t nOut, int64_t K)
{
  int64_t n = THTensor_(nElement)(packed);
  if (n == 0)
    return 0;
#ifdef TH_REAL_IS_FLOAT
  if (THGemm_floatAvailable() && contiguous1d && header) {
    int64_t h[3];
    memcpy(h, header, sizeof h);
    if (h[0] == THNN_CONV_PACKED_MARK && h[1] == nOut && h[2] == K &&
        n == THNN_CONV_PACKED_HEADER + THGemmConv_packedSize(nOut, K))
      return 0;
  }
#else
  (void)contiguous1d, (void)header;
#endif
  return THTensor_(shapeError)(state, "packed", packed,
                               "empty, or packWeight's result for a weight of %lld planes of %lld values",
                               (long long)nOut, (long long)K);
}

/* other = w * columns(image) for every sample, each plane o of other
 * starting from bias[o] (bias may be NULL).  w is [nOther, K], contiguous.
 * columnBuffer is resized to hold the columns, or to none when the
 * convolution runs directly.  packed: NULL, or (float) the panels of w and
 * bias (packWeight's, past its header), used when the indirect product runs.
 *
 * With fewer samples than threads (p->shared), every sample is cut in
 * bands of output rows and the threads take bands: each unfolds its band's
 * columns and multiplies them, in one parallel region and without waiting
 * for the others (Torch7 unfolded a whole sample on one thread, then split
 * only the product, and a batch-1 convolution with a large kernel ran
 * mostly on one thread).  The product of a band gives each of its pixels
 * the same sum as the product of the whole sample, up to OpenBLAS's choice
 * of kernel at the band's edges.
 *
 * The sample loops that call a matrix product (this one, convMultiplyFold,
 * convGradWeightColumns) open no parallel region at all when they run on
 * one thread (a batch of 1), rather than an inactive one (`if (0)`): the
 * product is an OpenMP region of its own, and inside any region it is a
 * nested one, which libgomp runs on threads it creates afresh for every
 * call.  A batch-1 convolution then started a thread per call, which
 * competed with the pool's spinning threads for the cores (100 thread
 * creations in 100 calls; benchmarks/README.md, Inference). */
THNN_HELPER int THNN_(convUnfoldMultiply)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                     const real *image, const real *w, const THTensor *bias, real *other,
                                     THTensor *columnBuffer, const real *packed)
{
#ifdef TH_REAL_IS_FLOAT
  if (THNN_(convWinogradWorth)(g, p)) {
    int done = THNN_(convWinogradMultiply)(state, g, p, image, w, bias, other);
    if (done <= 0) {
      if (done == 0) {
        int64_t none[3] = {0, p->K, p->area};
        TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, none));
      }
      return done;
    }
  }
#endif
  if (THNN_(convDirectForward)(g, p)) {
    int64_t none[3] = {0, p->K, p->area};
    TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, none));
    THConvLoops_count();
    return THNN_(convDirectMultiply)(state, g, p, image, w, bias, other);
  }
#ifdef TH_REAL_IS_FLOAT
  if (THNN_(convIndirectWorth)(g, p, packed != NULL)) {
    int64_t none[3] = {0, p->K, p->area};
    TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, none));
    return THNN_(convIndirectMultiply)(state, g, p, image, w, bias, packed, other);
  }
#else
  (void)packed;
#endif
  int failed = 0;
  if (p->shared) {
    int64_t size[3] = {p->direct || p->batch == 0 ? 0 : p->shared, p->K, p->bandRows * g->outW};
    TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, size));
    real *columns = THTensor_(data)(columnBuffer);
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->shared) schedule(dynamic, 1) reduction(|:failed)
#endif
    for (int64_t job = 0; job < p->batch * p->nBands; job++)
      failed |= THNN_(convUnfoldMultiplyBand)(g, p, image, w, bias, other, columns, job);
    return failed ? THNNConv_blasError(state, p) : 0;
  }
  TH_TRY(THNN_(convResizeColumns)(state, columnBuffer, p));
  real *columns = THTensor_(data)(columnBuffer);
  if (p->nThreads == 1) {
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convUnfoldMultiplyOne)(g, p, image, w, bias, other, columns, n);
  } else {
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(dynamic, 1) reduction(|:failed)
#endif
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convUnfoldMultiplyOne)(g, p, image, w, bias, other, columns, n);
  }
  return failed ? THNNConv_blasError(state, p) : 0;
}

/* Rows [i0, i1) of cols [K, pixels] (rows ldc apart) = w^T * other
 * [nOther, pixels] (rows ldo apart) + beta * cols, w [nOther, K]
 * contiguous, in the calling thread.  Float on AVX2 + FMA, over more than
 * THNN_CONV_TRANSPOSED_FEW pixels: THGemm_floatTransposedA; else, or when
 * it could not get its buffers, OpenBLAS (over a single panel of 16
 * pixels THGemm packs as much of w as it multiplies: 4x4 images, 1.08-1.20
 * of OpenBLAS's time; 5x5 0.84-0.90).  Non-zero when the product failed. */
#define THNN_CONV_TRANSPOSED_FEW 16
THNN_HELPER int THNN_(convTransposedSlab)(const THNNConvPlan *p, int64_t i0, int64_t i1, int64_t pixels, const real *w,
                                          const real *other, int64_t ldo, real beta, real *cols, int64_t ldc)
{
  cols += i0 * ldc;
  w += i0;
#ifdef TH_REAL_IS_FLOAT
  if (pixels > THNN_CONV_TRANSPOSED_FEW &&
      THGemm_floatTransposedA(i1 - i0, pixels, p->nOther, w, p->K, other, ldo, beta, cols, ldc) == 0)
    return 0;
#endif
  THNNState local = {0};
  return THBlas_(gemm)(&local, 'n', 't', pixels, i1 - i0, p->nOther, 1, other, ldo, w, p->K, beta, cols, ldc) != 0;
}

/* cols = w^T * other + beta * cols (convTransposedSlab, all K rows): the
 * product of convMultiplyFold (below).  THGemm's product, called outside
 * a parallel region (a batch-1 sample not shared by bands), is split by
 * rows of cols between the pool's threads, as OpenBLAS splits its own
 * (against OpenBLAS's sgemm, which runs at AVX2 speed where
 * OPENBLAS_CORETYPE pins it, on an AVX-512 Zen 5, 2 threads: ENet's
 * 3x3/2 64->64 transposed on 32x64 0.67-0.73 of its time, DCGAN's 4x4/2
 * 128->64 on 16x16 0.61-0.65, gradInput of 5x5 64->64 on 28x28
 * 0.57-0.64, 3x3/2 64->128 on 56x56 0.63-0.70). */
THNN_HELPER int THNN_(convTransposedProduct)(const THNNConvPlan *p, int64_t pixels, const real *w, const real *other,
                                             int64_t ldo, real beta, real *cols, int64_t ldc)
{
#if defined(TH_REAL_IS_FLOAT) && defined(_OPENMP)
  int nt = THGemm_floatAvailable() && !omp_in_parallel()
               ? THNNConv_threads((p->K + 5) / 6, (double)p->K * pixels * p->nOther) : 1;
  if (nt > 1) {
    int failed = 0;
#pragma omp parallel num_threads(nt) reduction(|:failed)
    {
      int64_t t = omp_get_thread_num(), count = omp_get_num_threads(), panels = (p->K + 5) / 6;
      int64_t i0 = panels * t / count * 6, i1 = panels * (t + 1) / count * 6;
      if (i1 > p->K)
        i1 = p->K;
      if (i0 < i1)
        failed |= THNN_(convTransposedSlab)(p, i0, i1, pixels, w, other, ldo, beta, cols, ldc);
    }
    return failed;
  }
#endif
  return THNN_(convTransposedSlab)(p, 0, p->K, pixels, w, other, ldo, beta, cols, ldc);
}

/* One sample n of convMultiplyFold (below); non-zero when the product failed. */
THNN_HELPER int THNN_(convMultiplyFoldOne)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *other,
                                      const real *w, const THTensor *bias, real *image, real *columns, int64_t n)
{
  real *img = image + n * p->imageSize;
  real *cols = p->direct ? img : columns + THNNConv_threadId() * p->K * p->area;
  if (p->direct && bias)
    THNN_(convFillBias)(img, bias, g->nPlane, g->inH * g->inW, g->inH * g->inW);
  int failed = THNN_(convTransposedProduct)(p, p->area, w, other + n * p->nOther * p->area, p->area,
                                            p->direct && bias ? 1 : 0, cols, p->area);
  if (!p->direct) {
    THNN_(convFillBias)(img, bias, g->nPlane, g->inH * g->inW, g->inH * g->inW);
    THNN_(unfoldedAcc)(g, cols, img);
  }
  return failed;
}

/* Band b of sample n of a shared convMultiplyFold (below): the columns of
 * its pixels (rows r0.. of `other`), or, for a 1x1 kernel, the image's
 * pixels themselves, from the bias. */
THNN_HELPER int THNN_(convMultiplyFoldBand)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *other,
                                       const real *w, const THTensor *bias, real *image, real *columns,
                                       int64_t n, int64_t b)
{
  int64_t r0 = b * p->bandRows, r1 = r0 + p->bandRows < g->outH ? r0 + p->bandRows : g->outH;
  int64_t q0 = r0 * g->outW, pixels = (r1 - r0) * g->outW;
  real *cols = (p->direct ? image + n * p->imageSize : columns) + q0;
  if (p->direct && bias)
    THNN_(convFillBias)(cols, bias, g->nPlane, pixels, p->area);
  return THNN_(convTransposedProduct)(p, pixels, w, other + n * p->nOther * p->area + q0, p->area,
                                      p->direct && bias ? 1 : 0, cols, p->area);
}

/* image = fold(w^T * other) for every sample, each image plane c starting
 * from bias[c] (0 when bias is NULL).  w is [nOther, K], contiguous.  On
 * one thread, no parallel region (see convUnfoldMultiply).  With fewer
 * samples than threads (p->shared), the threads share each sample: the
 * product by bands of pixels, then (all columns made) the folding by
 * image planes, in one parallel region; columns holds one sample's. */
THNN_HELPER int THNN_(convMultiplyFold)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                   const real *other, const real *w, const THTensor *bias, real *image,
                                   real *columns)
{
  int failed = 0;
  if (p->shared) {
#ifdef _OPENMP
#pragma omp parallel num_threads(p->shared) reduction(|:failed)
#endif
    for (int64_t n = 0; n < p->batch; n++) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int64_t b = 0; b < p->nBands; b++)
        failed |= THNN_(convMultiplyFoldBand)(g, p, other, w, bias, image, columns, n, b);
      if (p->direct)
        continue;
      real *img = image + n * p->imageSize;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
      for (int64_t c = 0; c < g->nPlane; c++) {
        real v = bias ? THTensor_(data)(bias)[c * bias->stride[0]] : 0, *plane = img + c * g->inH * g->inW;
        for (int64_t k = 0; k < g->inH * g->inW; k++)
          plane[k] = v;
        THNN_(unfoldedAccPlane)(g, columns, img, c);
      }
    }
    return failed ? THNNConv_blasError(state, p) : 0;
  }
  if (p->nThreads == 1) {
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convMultiplyFoldOne)(g, p, other, w, bias, image, columns, n);
  } else {
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(dynamic, 1) reduction(|:failed)
#endif
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convMultiplyFoldOne)(g, p, other, w, bias, image, columns, n);
  }
  return failed ? THNNConv_blasError(state, p) : 0;
}

/* The weight gradient by the direct loops: thread share t of the batch (a
 * fixed part, whichever thread runs it) sums into sums + t * nOther*K, the
 * samples of a share taken `group` at a time so that the sums over them
 * are added once per group (narrow images, such as LeNet's, spent most of
 * the time adding up the vectors of a single sample). */
THNN_HELPER int THNN_(convDirectGradShares)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                       const real *image, const real *other, real *sums, real alpha)
{
  THNN_(ConvDirect) d;
  TH_TRY(THNN_(convDirectStart)(state, g, p->nThreads, p->nOther, (p->batch + p->nThreads - 1) / p->nThreads, &d));
  int64_t wSize = p->nOther * p->K, group = d.group;
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(static, 1) if (p->nThreads > 1)
#endif
  for (int t = 0; t < p->nThreads; t++) {
    int64_t n0 = p->batch * t / p->nThreads, n1 = p->batch * (t + 1) / p->nThreads;
    real *buffers = d.padded + (int64_t)THNNConv_threadId() * d.group * d.padSize;
    for (int64_t n = n0; n < n1; n += group) {
      int count = (int)(n1 - n < group ? n1 - n : group);
      THNN_(convDirectGrad)(g, &d, image + n * p->imageSize, other + n * p->nOther * p->area, count,
                            p->nOther, sums + t * wSize, alpha, buffers);
    }
  }
  THNN_(convDirectEnd)(&d);
  return 0;
}

/* One sample n of convGradWeightColumns (below), summed into the part of
 * sums of the thread that runs it; non-zero when the product failed. */
THNN_HELPER int THNN_(convGradWeightColumnsOne)(const THNNConvGeometry *g, const THNNConvPlan *p, const real *image,
                                           const real *other, real *sums, real *columns, real alpha, int64_t n)
{
  THNNState local = {0};
  int t = THNNConv_threadId();
  const real *img = image + n * p->imageSize, *cols = img, *grad = other + n * p->nOther * p->area;
  if (!p->direct) {
    real *buffer = columns + t * p->K * p->area;
    THNN_(unfoldedCopy)(g, img, 0, g->outH, buffer);
    cols = buffer;
  }
  return THBlas_(gemm)(&local, 't', 'n', p->K, p->nOther, p->area, alpha, cols, p->area,
                       grad, p->area, 1, sums + t * p->nOther * p->K, p->K) != 0;
}

/* The weight gradient by the matrix products: as convDirectGradShares, a
 * share of the batch per thread, summed into sums + thread * nOther*K.  On
 * one thread, no parallel region (see convUnfoldMultiply).  With fewer
 * samples than threads (p->shared), each thread takes a share of the
 * columns' rows instead, unfolds them (columns holds one sample's) and
 * adds its share of the weight gradient (its columns of sums = gw) for
 * every sample in turn. */
THNN_HELPER int THNN_(convGradWeightColumns)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                        const real *image, const real *other, real *sums, real *columns,
                                        real alpha)
{
  int failed = 0;
  if (p->shared) {
#ifdef _OPENMP
#pragma omp parallel num_threads(p->shared) reduction(|:failed)
#endif
    {
      THNNState local = {0};
      int t = THNNConv_threadId(), nt = p->shared;
      int64_t k0 = p->K * t / nt, k1 = p->K * (t + 1) / nt;
      for (int64_t n = 0; n < p->batch && k1 > k0; n++) {
        const real *img = image + n * p->imageSize, *cols = img;
        if (!p->direct) {
          THNN_(unfoldedCopyRows)(g, img, k0, k1, columns);
          cols = columns;
        }
        failed |= THBlas_(gemm)(&local, 't', 'n', k1 - k0, p->nOther, p->area, alpha, cols + k0 * p->area,
                                p->area, other + n * p->nOther * p->area, p->area, 1, sums + k0, p->K) != 0;
      }
    }
    return failed ? THNNConv_blasError(state, p) : 0;
  }
  if (p->nThreads == 1) {
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convGradWeightColumnsOne)(g, p, image, other, sums, columns, alpha, n);
  } else {
#ifdef _OPENMP
#pragma omp parallel for num_threads(p->nThreads) schedule(static) reduction(|:failed)
#endif
    for (int64_t n = 0; n < p->batch; n++)
      failed |= THNN_(convGradWeightColumnsOne)(g, p, image, other, sums, columns, alpha, n);
  }
  return failed ? THNNConv_blasError(state, p) : 0;
}

/* gw [nOther, K] += scale * sum over samples of other * columns(image)^T.
 * One thread adds straight into gw; several each sum their samples into
 * their part of `partial` (nThreads * nOther*K reals), added to gw after.
 * columnBuffer is resized to hold the columns, or to none when the
 * direct loops run. */
THNN_HELPER int THNN_(convGradWeight)(THNNState *state, const THNNConvGeometry *g, const THNNConvPlan *p,
                                 const real *image, const real *other, real *gw, THTensor *columnBuffer,
                                 real *partial, accreal scale)
{
  int single = p->nThreads == 1, directly = THNN_(convDirectGradWeight)(g, p);
  int64_t wSize = p->nOther * p->K, none[3] = {0, p->K, p->area};
  TH_TRY(directly ? THTensor_(resizeNd)(state, columnBuffer, 3, none)
                  : THNN_(convResizeColumns)(state, columnBuffer, p));
  real *sums = single ? gw : partial, alpha = single ? (real)scale : 1;
  if (!single)
    THNN_(convZero)(partial, p->nThreads * wSize);
  if (directly)
    TH_TRY(THNN_(convDirectGradShares)(state, g, p, image, other, sums, alpha));
  else
    TH_TRY(THNN_(convGradWeightColumns)(state, g, p, image, other, sums, THTensor_(data)(columnBuffer), alpha));
  for (int t = 0; !single && t < p->nThreads; t++)
    for (int64_t k = 0; k < wSize; k++)
      gw[k] += (real)(scale * partial[t * wSize + k]);
  return 0;
}

/* The sum of n elements, in accreal, over 8 running sums (so the loop
 * vectorizes; the order is fixed, so the result does not vary). */
THNN_HELPER accreal THNN_(convSum)(const real *x, int64_t n)
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
THNN_HELPER void THNN_(convGradBias)(real *gb, const real *grad, int64_t batch, int64_t nPlane, int64_t area,
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
