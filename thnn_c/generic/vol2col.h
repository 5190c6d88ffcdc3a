/* Shared by the volumetric convolutions: their geometry and its checks, and
 * the unfolding of a volume into columns (vol2col) and back (col2vol), with
 * the three matrix products a convolution and its transpose are made of.
 *
 * Geometry.  Axes are numbered in memory order: 0 = time (T), 1 = height (H),
 * 2 = width (W); the kernels take their arguments in Torch7's order (kT, kW,
 * kH, ...) and put them in this order once, in their shape check.  A kernel
 * of k[0] x k[1] x k[2] taps, dilation[a] apart along axis a (so it spans
 * (k - 1) * dilation + 1 voxels), slides over a volume padded with pad[a]
 * zeros on both ends of each axis, in steps of d[a].  Output voxel
 * (t, y, x) sees input voxel
 *     (t*d[0] - pad[0] + a*dilation[0], y*d[1] - pad[1] + b*dilation[1], x*d[2] - pad[2] + e*dilation[2])
 * through tap (a, b, e); there are (in + 2*pad - span) / d + 1 positions
 * along each axis.
 *
 * Columns.  The columns of one volume are a matrix [nPlane*kT*kH*kW, outT*outH*outW]:
 * row ((c*kT + a)*kH + b)*kW + e holds, for every output voxel, the input
 * voxel that tap (a, b, e) of plane c sees there (0 in the padding).  A
 * convolution is then one matrix product with the weight viewed as
 * [nOutputPlane, nPlane*kT*kH*kW] (the memory of [nOutputPlane, nPlane, kT, kH, kW]).
 *
 * The engine.  A convolution and its transpose (the "full" convolution) are
 * the same three products with the roles swapped.  Call "image" the side the
 * kernel slides over (the input of a convolution, the output of a full
 * convolution) and "other" the other side: nOther planes of `area` =
 * outT*outH*outW voxels.  With K = nPlane*kT*kH*kW and w a [nOther, K] matrix:
 *     volUnfoldMultiply:  other [nOther, area] = w * columns(image) [K, area]
 *     volMultiplyFold:    image = col2vol(w^T [K, nOther] * other [nOther, area])
 *     volGradWeight:      gw [nOther, K] += scale * other * columns(image)^T
 * BLAS is column-major, where a row-major [r, c] matrix is its transpose:
 * hence the transposition flags of the gemm calls.  Samples are done one
 * after the other through one column buffer [K, area].
 *
 * The unfolding of each frame (the H x W part of a tap, at one output time
 * t) is the spatial convolutions' own, convUnfoldTap / convFoldTap of
 * unfold.h (included below), as are the span and inside-range
 * helpers; this file adds the time axis, the 3D geometry and its checks, and
 * an engine that takes one sample at a time (the products inside are split
 * between threads by THBlas_(gemm)).  Names here start with Vol / vol. */
/* A generic header: each generic file that uses these helpers includes it,
 * and it defines them once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_VOL2COL_H_FLOAT)
#define THNN_VOL2COL_H_FLOAT
#define THNN_VOL2COL_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_VOL2COL_H_DOUBLE)
#define THNN_VOL2COL_H_DOUBLE
#define THNN_VOL2COL_H_NOW
#endif

#ifdef THNN_VOL2COL_H_NOW
#undef THNN_VOL2COL_H_NOW

#include "generic/unfold.h"

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_VOL2COL_SHARED
#define THNN_VOL2COL_SHARED

#include "THConvGeometry.h"   /* THNNVolGeometry */

/* Check the kernel settings (sizes, steps, dilations positive; pads at
 * least 0) and put them into g in T, H, W order; the arguments come in
 * Torch7's order T, W, H, as do the names in the messages.  0, or -1 with
 * the reason. */
THNN_HELPER int THNNVol_settings(THNNState *state, THNNVolGeometry *g, int kT, int kW, int kH, int dT, int dW, int dH,
                            int padT, int padW, int padH, int dilationT, int dilationW, int dilationH)
{
  if (kT <= 0 || kW <= 0 || kH <= 0)
    return THError(state, "kernel size must be positive, got kT=%d, kW=%d, kH=%d", kT, kW, kH);
  if (dT <= 0 || dW <= 0 || dH <= 0)
    return THError(state, "stride must be positive, got dT=%d, dW=%d, dH=%d", dT, dW, dH);
  if (padT < 0 || padW < 0 || padH < 0)
    return THError(state, "padding must be at least 0, got padT=%d, padW=%d, padH=%d", padT, padW, padH);
  if (dilationT <= 0 || dilationW <= 0 || dilationH <= 0)
    return THError(state, "dilation must be positive, got dilationT=%d, dilationW=%d, dilationH=%d",
                   dilationT, dilationW, dilationH);
  *g = (THNNVolGeometry){{kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, {dilationT, dilationH, dilationW},
                         0, {0, 0, 0}, {0, 0, 0}};
  return 0;
}

/* kT*kH*kW, or -1 when it overflows. */
THNN_HELPER int64_t THNNVol_taps(const THNNVolGeometry *g)
{
  return THMulSizes(THMulSizes(g->k[0], g->k[1]), g->k[2]);
}

/* Fill in, out and return 1 when a convolution with g's kernel fits in a
 * volume of `in` voxels (T, H, W order) with at least one position along
 * each axis; else return 0 with need[] the smallest such volume. */
THNN_HELPER int THNNVol_setOutput(THNNVolGeometry *g, const int64_t *in, int64_t *need)
{
  int fits = 1;
  for (int a = 0; a < 3; a++) {
    int64_t room = THNNConv_span(g->k[a], g->dilation[a]) - 2 * (int64_t)g->pad[a];
    need[a] = room < 1 ? 1 : room;
    g->in[a] = in[a];
    g->out[a] = in[a] >= 1 ? THNNConv_outputSize(in[a], g->k[a], g->d[a], g->pad[a], g->dilation[a]) : 0;
    fits = fits && g->out[a] >= 1;
  }
  return fits;
}

/* What one tap (a, b, e) sees: the offset of its voxel from the output
 * position times the step, and the output positions where it lies inside. */
typedef struct THNNVolTap {
  int64_t offset[3];
  int64_t first[3], last[3];
} THNNVolTap;

THNN_HELPER THNNVolTap THNNVol_tap(const THNNVolGeometry *g, int a, int b, int e)
{
  THNNVolTap tap;
  int tapIndex[3] = {a, b, e};
  for (int x = 0; x < 3; x++) {
    tap.offset[x] = (int64_t)tapIndex[x] * g->dilation[x] - g->pad[x];
    THNNConv_inside(tap.offset[x], g->d[x], g->in[x], g->out[x], &tap.first[x], &tap.last[x]);
  }
  return tap;
}

/* Elements of the columns of one sample: K = nPlane*kT*kH*kW rows of
 * area = outT*outH*outW; -1 (error set) when a product overflows. */
THNN_HELPER int THNNVol_columnSizes(THNNState *state, const THNNVolGeometry *g, int64_t *K, int64_t *area)
{
  int64_t k = g->nPlane, n = 1;
  for (int a = 0; a < 3; a++) {
    k = THMulSizes(k, g->k[a]);
    n = THMulSizes(n, g->out[a]);
  }
  if (k < 0 || n < 0)
    return THError(state, "the unfolded volume (planes x taps, output voxels) is too large");
  *K = k;
  *area = n;
  return 0;
}

/* The H x W part of the geometry: what unfold.h's tap helpers take for one frame. */
THNN_HELPER THNNConvGeometry THNNVol_frame(const THNNVolGeometry *g)
{
  return (THNNConvGeometry){g->k[2], g->k[1], g->d[2], g->d[1], g->pad[2], g->pad[1], g->dilation[2],
                            g->dilation[1], 1, g->in[1], g->in[2], g->out[1], g->out[2]};
}

#endif /* THNN_VOL2COL_SHARED */

/* ---- per element type ---- */

/* The input of a convolution: 4D [nIn, T, H, W] or 5D [batch, nIn, T, H,
 * W], large enough for at least one kernel position along each axis.
 * Fills g's nPlane, in and out (its kernel settings already set) and
 * checks gradOutput, when given, is [(batch,) nOut, outT, outH, outW]. */
THNN_HELPER int THNN_(volConvCheckInput)(THNNState *state, const THTensor *input, const THTensor *gradOutput,
                                    int64_t nIn, int64_t nOut, THNNVolGeometry *g)
{
  int batched = input->nDimension == 5;
  if (!(input->nDimension == 4 || batched) || input->size[batched] != nIn)
    return THTensor_(shapeError)(state, "input", input,
                                 "4D [nInputPlane, T, H, W] or 5D [batch, nInputPlane, T, H, W] with %lld planes",
                                 (long long)nIn);
  int64_t need[3];
  g->nPlane = nIn;
  if (!THNNVol_setOutput(g, input->size + batched + 1, need))
    return THTensor_(shapeError)(state, "input", input,
                                 "at least %lld x %lld x %lld (T x H x W) for this kernel, padding and dilation",
                                 (long long)need[0], (long long)need[1], (long long)need[2]);
  if (THMulSizes(THMulSizes(g->out[0], g->out[1]), g->out[2]) < 0)
    return THError(state, "the output volume (%lld x %lld x %lld voxels, T x H x W) is too large",
                   (long long)g->out[0], (long long)g->out[1], (long long)g->out[2]);
  if (gradOutput) {
    int64_t size[5] = {input->size[0], nOut, g->out[0], g->out[1], g->out[2]};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, size + !batched));
  }
  return 0;
}

/* columns [K, area] <- the voxels each tap of each plane sees (see the
 * top): for tap (a, b, e) and output time t, the frame of input time
 * t*dT - padT + a*dilationT unfolded through (b, e), or zeros outside. */
THNN_HELPER void THNN_(vol2col)(const THNNVolGeometry *g, const real *vol, real *columns)
{
  const THNNConvGeometry frame = THNNVol_frame(g);
  const int64_t frameSize = g->in[1] * g->in[2], slab = g->out[1] * g->out[2];
  real *row = columns;
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int a = 0; a < g->k[0]; a++)
      for (int b = 0; b < g->k[1]; b++)
        for (int e = 0; e < g->k[2]; e++, row += g->out[0] * slab) {
          THNNVolTap tap = THNNVol_tap(g, a, b, e);
          memset(row, 0, (size_t)(tap.first[0] * slab) * sizeof(real));
          memset(row + tap.last[0] * slab, 0, (size_t)((g->out[0] - tap.last[0]) * slab) * sizeof(real));
          for (int64_t t = tap.first[0]; t < tap.last[0]; t++)
            THNN_(convUnfoldTap)(&frame, vol + (c * g->in[0] + t * g->d[0] + tap.offset[0]) * frameSize,
                                 tap.offset[1], tap.offset[2], 0, frame.outH, row + t * slab);
        }
}

/* vol [nPlane, inT, inH, inW] += the columns folded back: every entry is
 * added to the voxel vol2col would have copied it from (entries in the
 * padding are dropped).  The columns are scratch: unfold.h's fold may zero
 * entries that fall in the padding. */
THNN_HELPER void THNN_(col2vol)(const THNNVolGeometry *g, real *columns, real *vol)
{
  const THNNConvGeometry frame = THNNVol_frame(g);
  const int64_t frameSize = g->in[1] * g->in[2], slab = g->out[1] * g->out[2];
  real *row = columns;
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int a = 0; a < g->k[0]; a++)
      for (int b = 0; b < g->k[1]; b++)
        for (int e = 0; e < g->k[2]; e++, row += g->out[0] * slab) {
          THNNVolTap tap = THNNVol_tap(g, a, b, e);
          for (int64_t t = tap.first[0]; t < tap.last[0]; t++)
            THNN_(convFoldTap)(&frame, row + t * slab, tap.offset[1], tap.offset[2],
                               vol + (c * g->in[0] + t * g->d[0] + tap.offset[0]) * frameSize);
        }
}

/* Give the column buffer the shape [K, area].  Every sample overwrites all
 * of it; without samples it is zeroed, so that it never holds
 * uninitialised memory. */
THNN_HELPER int THNN_(volResizeColumns)(THNNState *state, THTensor *columns, int64_t K, int64_t area, int64_t batch)
{
  TH_TRY(THTensor_(resize2d)(state, columns, K, area));
  if (batch == 0)
    memset(THTensor_(data)(columns), 0, (size_t)(K * area) * sizeof(real));
  return 0;
}

/* Each of nPlane planes of `area` elements set to its bias value (bias may
 * be strided), or to 0 without a bias. */
THNN_HELPER void THNN_(volFillBias)(real *data, const THTensor *bias, int64_t nPlane, int64_t area)
{
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  for (int64_t p = 0; p < nPlane; p++) {
    real v = b ? b[p * bias->stride[0]] : 0;
    for (int64_t i = 0; i < area; i++)
      data[p * area + i] = v;
  }
}

/* other = w * columns(image) for each of `batch` samples, each plane o of
 * other starting from bias[o] (bias may be NULL).  w is [nOther, K],
 * contiguous; columns has room for [K, area]. */
THNN_HELPER int THNN_(volUnfoldMultiply)(THNNState *state, const THNNVolGeometry *g, int64_t batch, int64_t nOther,
                                    const real *image, const real *w, const THTensor *bias, real *other,
                                    real *columns, int64_t K, int64_t area)
{
  const int64_t imageSize = g->nPlane * g->in[0] * g->in[1] * g->in[2];
  for (int64_t n = 0; n < batch; n++) {
    real *out = other + n * nOther * area;
    THNN_(vol2col)(g, image + n * imageSize, columns);
    THNN_(volFillBias)(out, bias, nOther, area);
    TH_TRY(THBlas_(gemm)(state, 'n', 'n', area, nOther, K, 1, columns, area, w, K, 1, out, area));
  }
  return 0;
}

/* image = col2vol(w^T * other) for each of `batch` samples, each image plane
 * c starting from bias[c] (0 when bias is NULL).  w is [nOther, K]. */
THNN_HELPER int THNN_(volMultiplyFold)(THNNState *state, const THNNVolGeometry *g, int64_t batch, int64_t nOther,
                                  const real *other, const real *w, const THTensor *bias, real *image,
                                  real *columns, int64_t K, int64_t area)
{
  const int64_t planeSize = g->in[0] * g->in[1] * g->in[2];
  for (int64_t n = 0; n < batch; n++) {
    real *img = image + n * g->nPlane * planeSize;
    TH_TRY(THBlas_(gemm)(state, 'n', 't', area, K, nOther, 1, other + n * nOther * area, area, w, K,
                         0, columns, area));
    THNN_(volFillBias)(img, bias, g->nPlane, planeSize);
    THNN_(col2vol)(g, columns, img);
  }
  return 0;
}

/* gw [nOther, K] += scale * the sum over samples of other * columns(image)^T
 * (gw contiguous). */
THNN_HELPER int THNN_(volGradWeight)(THNNState *state, const THNNVolGeometry *g, int64_t batch, int64_t nOther,
                                const real *image, const real *other, real *gw, real *columns,
                                int64_t K, int64_t area, accreal scale)
{
  const int64_t imageSize = g->nPlane * g->in[0] * g->in[1] * g->in[2];
  for (int64_t n = 0; n < batch; n++) {
    THNN_(vol2col)(g, image + n * imageSize, columns);
    TH_TRY(THBlas_(gemm)(state, 't', 'n', K, nOther, area, (real)scale, columns, area,
                         other + n * nOther * area, area, 1, gw, K));
  }
  return 0;
}

/* gb[c] += scale * the sum of plane c over every sample (batch samples of
 * nPlane planes of `area` elements; gb contiguous). */
THNN_HELPER void THNN_(volGradBias)(real *gb, const real *grad, int64_t batch, int64_t nPlane, int64_t area,
                               accreal scale)
{
  for (int64_t c = 0; c < nPlane; c++) {
    accreal s = 0;
    for (int64_t n = 0; n < batch; n++)
      for (int64_t i = 0; i < area; i++)
        s += grad[(n * nPlane + c) * area + i];
    gb[c] += (real)(scale * s);
  }
}

#endif
