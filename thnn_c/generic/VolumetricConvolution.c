#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricConvolution.c"
#else

#include "generic/vol2col.h"

/* output[o, t, y, x] = bias[o] + sum over c, a, b, e of weight[o, c, a, b, e] *
 *     input[c, t*dT - padT + a, y*dH - padH + b, x*dW - padW + e]
 * (0 outside the volume), computed directly, one tap at a time: for each
 * (output plane, input plane, tap) a sweep over the output voxels where the
 * tap lands inside the input (the geometry of vol2col.h).  No work space;
 * VolumetricConvolutionMM computes the same through columns and GEMM. */

#ifndef THNN_VOLUMETRIC_CONVOLUTION_SHARED
#define THNN_VOLUMETRIC_CONVOLUTION_SHARED
/* What a sweep of one tap does between an input plane x and an output plane y. */
enum { THNN_VOL_FORWARD, THNN_VOL_BACKWARD, THNN_VOL_GRADIENT };
#endif

/* FORWARD: y += w * (what the tap sees of x); BACKWARD: x += w * y folded
 * back through the tap; GRADIENT: returns the sum of y * what the tap sees
 * of x (x and y are not written). */
static accreal THNN_(VolumetricConvolution_sweep)(const THNNVolGeometry *g, const THNNVolTap *tap, int mode,
                                                  real w, real *x, real *y)
{
  accreal sum = 0;
  for (int64_t t = tap->first[0]; t < tap->last[0]; t++)
    for (int64_t r = tap->first[1]; r < tap->last[1]; r++) {
      real *yRow = y + (t * g->out[1] + r) * g->out[2];
      /* the input index of output column x: xRow + x * d[2] */
      int64_t xRow = ((t * g->d[0] + tap->offset[0]) * g->in[1] + r * g->d[1] + tap->offset[1]) * g->in[2]
                     + tap->offset[2];
      int64_t first = tap->first[2], last = tap->last[2], step = g->d[2];
      if (mode == THNN_VOL_FORWARD)
        for (int64_t c = first; c < last; c++)
          yRow[c] += w * x[xRow + c * step];
      else if (mode == THNN_VOL_BACKWARD)
        for (int64_t c = first; c < last; c++)
          x[xRow + c * step] += w * yRow[c];
      else
        for (int64_t c = first; c < last; c++)
          sum += (accreal)yRow[c] * x[xRow + c * step];
    }
  return sum;
}

/* Every tap of one output plane's kernel wo ([nInputPlane, kT, kH, kW],
 * contiguous) swept in mode FORWARD or BACKWARD between the input planes
 * of one sample, x (nPlane planes of inPlane voxels), and that output plane y.
 * Inlined, so that each caller's sweeps are compiled for its constant mode. */
static inline __attribute__((always_inline)) void THNN_(VolumetricConvolution_sweepKernel)(
    const THNNVolGeometry *g, int mode, const real *wo, int64_t inPlane, real *x, real *y)
{
  for (int64_t c = 0; c < g->nPlane; c++)
    for (int a = 0; a < g->k[0]; a++)
      for (int b = 0; b < g->k[1]; b++)
        for (int e = 0; e < g->k[2]; e++) {
          THNNVolTap tap = THNNVol_tap(g, a, b, e);
          THNN_(VolumetricConvolution_sweep)(g, &tap, mode, *wo++, x + c * inPlane, y);
        }
}

/* Check every argument (params: see THTensor_(Params)) and fill the
 * geometry of one sample and nOutputPlane. */
int THNN_(VolumetricConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    THNNVolGeometry *g, int64_t *nOutputPlane)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNVol_settings(state, g, kT, kW, kH, dT, dW, dH, padT, padW, padH, 1, 1, 1));
  if (!(weight->nDimension == 5 && weight->size[2] == kT && weight->size[3] == kH && weight->size[4] == kW))
    return THTensor_(shapeError)(state, params.wName, weight, "5D [nOutputPlane, nInputPlane, kT=%d, kH=%d, kW=%d]",
                                 kT, kH, kW);
  *nOutputPlane = weight->size[0];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, nOutputPlane));
  return THNN_(volConvCheckInput)(state, input, gradOutput, weight->size[1], *nOutputPlane, g);
}

int THNN_(VolumetricConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  THNNVolGeometry g;
  int64_t nOut = 0;
  TH_TRY(THNN_(VolumetricConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                 kT, kW, kH, dT, dW, dH, padT, padW, padH, &g, &nOut));
  int batched = input->nDimension == 5;
  int64_t batch = batched ? input->size[0] : 1, nIn = g.nPlane;
  int64_t outSize[5] = {batch, nOut, g.out[0], g.out[1], g.out[2]};
  int64_t inPlane = g.in[0] * g.in[1] * g.in[2], outPlane = g.out[0] * g.out[1] * g.out[2];
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 4 + batched, outSize + !batched) == 0) {
    real *xd = THTensor_(data)(x), *wd = THTensor_(data)(w), *yd = THTensor_(data)(output);
    for (int64_t n = 0; n < batch; n++)
      for (int64_t o = 0; o < nOut; o++) {
        real *y = yd + (n * nOut + o) * outPlane;
        real start = bias ? THTensor_(data)(bias)[o * bias->stride[0]] : 0;
        for (int64_t i = 0; i < outPlane; i++)
          y[i] = start;
        THNN_(VolumetricConvolution_sweepKernel)(&g, THNN_VOL_FORWARD, wd + o * nIn * kT * kH * kW, inPlane,
                                                 xd + n * nIn * inPlane, y);
      }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  THNNVolGeometry g;
  int64_t nOut = 0;
  TH_TRY(THNN_(VolumetricConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                 kT, kW, kH, dT, dW, dH, padT, padW, padH, &g, &nOut));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1, nIn = g.nPlane;
  int64_t inPlane = g.in[0] * g.in[1] * g.in[2], outPlane = g.out[0] * g.out[1] * g.out[2];
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    real *gyd = THTensor_(data)(gy), *wd = THTensor_(data)(w), *gxd = THTensor_(data)(gradInput);
    memset(gxd, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t o = 0; o < nOut; o++)
        THNN_(VolumetricConvolution_sweepKernel)(&g, THNN_VOL_BACKWARD, wd + o * nIn * kT * kH * kW, inPlane,
                                                 gxd + n * nIn * inPlane, gyd + (n * nOut + o) * outPlane);
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH, accreal scale)
{
  THNNVolGeometry g;
  int64_t nOut = 0;
  TH_TRY(THNN_(VolumetricConvolution_shapeCheck)(state, input, gradOutput,
                                                 THTensor_(gradParams)(gradWeight, gradBias),
                                                 kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                 &g, &nOut));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1, nIn = g.nPlane;
  int64_t inPlane = g.in[0] * g.in[1] * g.in[2], outPlane = g.out[0] * g.out[1] * g.out[2];
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    real *xd = THTensor_(data)(x), *gyd = THTensor_(data)(gy), *gw = THTensor_(data)(gradWeight);
    for (int64_t o = 0; o < nOut; o++)
      for (int64_t c = 0; c < nIn; c++)
        for (int a = 0; a < kT; a++)
          for (int b = 0; b < kH; b++)
            for (int e = 0; e < kW; e++) {
              THNNVolTap tap = THNNVol_tap(&g, a, b, e);
              accreal sum = 0;
              for (int64_t n = 0; n < batch; n++)
                sum += THNN_(VolumetricConvolution_sweep)(&g, &tap, THNN_VOL_GRADIENT, 0,
                                                          xd + (n * nIn + c) * inPlane,
                                                          gyd + (n * nOut + o) * outPlane);
              *gw++ += (real)(scale * sum);
            }
    if (gradBias)
      THNN_(volGradBias)(THTensor_(data)(gradBias), gyd, batch, nOut, outPlane, scale);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
