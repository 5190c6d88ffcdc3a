#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricDilatedConvolution.c"
#else

#include "generic/vol2col.h"

/* output[o, t, y, x] = bias[o] + sum over c, a, b, e of weight[o, c, a, b, e] *
 *     input[c, t*dT - padT + a*dilationT, y*dH - padH + b*dilationH, x*dW - padW + e*dilationW]
 * (0 outside the volume), for each sample: the input is the "image" of the
 * engine in vol2col.h, the output its "other" side, and the weight,
 * [nOutputPlane, nInputPlane*kT*kH*kW] in memory, its matrix w.
 * VolumetricConvolutionMM is this layer with dilation 1. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry
 * of one sample, nOutputPlane and the column sizes. */
int THNN_(VolumetricDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH,
    THNNVolGeometry *g, int64_t *nOutputPlane, int64_t *K, int64_t *area)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNVol_settings(state, g, kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH));
  int64_t taps = THNNVol_taps(g), nIn;
  if (weight->nDimension == 5 && weight->size[2] == kT && weight->size[3] == kH && weight->size[4] == kW)
    nIn = weight->size[1];
  else if (weight->nDimension == 2 && taps > 0 && weight->size[1] % taps == 0)
    nIn = weight->size[1] / taps;
  else
    return THTensor_(shapeError)(state, params.wName, weight,
                                 "5D [nOutputPlane, nInputPlane, kT=%d, kH=%d, kW=%d] or "
                                 "2D [nOutputPlane, nInputPlane*kT*kH*kW] with kT*kH*kW = %lld",
                                 kT, kH, kW, (long long)taps);
  *nOutputPlane = weight->size[0];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, nOutputPlane));
  TH_TRY(THNN_(volConvCheckInput)(state, input, gradOutput, nIn, *nOutputPlane, g));
  return THNNVol_columnSizes(state, g, K, area);
}

int THNN_(VolumetricDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH)
{
  THNNVolGeometry g;
  int64_t nOut = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricDilatedConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                        kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                        dilationT, dilationW, dilationH, &g, &nOut, &K, &area));
  int batched = input->nDimension == 5;
  int64_t batch = batched ? input->size[0] : 1;
  int64_t outSize[5] = {batch, nOut, g.out[0], g.out[1], g.out[2]};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 4 + batched, outSize + !batched) == 0 &&
      THNN_(volResizeColumns)(state, finput, K, area, batch) == 0)
    rc = THNN_(volUnfoldMultiply)(state, &g, batch, nOut, THTensor_(data)(x), THTensor_(data)(w), bias,
                                  THTensor_(data)(output), THTensor_(data)(finput), K, area);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH)
{
  THNNVolGeometry g;
  int64_t nOut = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricDilatedConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                        kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                        dilationT, dilationW, dilationH, &g, &nOut, &K, &area));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0 &&
      THNN_(volResizeColumns)(state, fgradInput, K, area, batch) == 0)
    rc = THNN_(volMultiplyFold)(state, &g, batch, nOut, THTensor_(data)(gy), THTensor_(data)(w), NULL,
                                THTensor_(data)(gradInput), THTensor_(data)(fgradInput), K, area);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, accreal scale)
{
  THNNVolGeometry g;
  int64_t nOut = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricDilatedConvolution_shapeCheck)(state, input, gradOutput,
                                                        THTensor_(gradParams)(gradWeight, gradBias),
                                                        kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                        dilationT, dilationW, dilationH, &g, &nOut, &K, &area));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy && THNN_(volResizeColumns)(state, finput, K, area, batch) == 0)
    rc = THNN_(volGradWeight)(state, &g, batch, nOut, THTensor_(data)(x), THTensor_(data)(gy),
                              THTensor_(data)(gradWeight), THTensor_(data)(finput), K, area, scale);
  if (rc == 0 && gradBias)
    THNN_(volGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), batch, nOut, area, scale);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
