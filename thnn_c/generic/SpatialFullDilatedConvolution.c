#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFullDilatedConvolution.c"
#else

#include "generic/unfold.h"

/* The transpose of SpatialDilatedConvolution ("deconvolution"): every input
 * pixel (y, x) of plane c adds weight[c, o, i, j] * input[c, y, x] to output
 * pixel (y*dH - padH + i*dilationH, x*dW - padW + j*dilationW) of plane o,
 * over a bias[o] start; pixels falling in the padding are dropped.  So the
 * output is the "image" of the batch engine in unfold.h, the input its
 * "other" side, and the weight, [nInputPlane, nOutputPlane*kH*kW] in memory,
 * its matrix w.  The output is
 *     (in - 1) * step - 2 * pad + (k - 1) * dilation + 1 + adj
 * pixels along each axis; adj (0 <= adj < step or adj < dilation) adds rows
 * and columns at the far end that a convolution with these settings would
 * not read, choosing among the output sizes that convolution maps to `in`.
 * SpatialFullConvolution is this layer with dilation 1. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry
 * of the convolution whose image is one output sample, and nInputPlane. */
int THNN_(SpatialFullDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH, int adjW, int adjH,
    THNNConvGeometry *g, int64_t *nInputPlane)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNConv_checkParameters(state, kW, kH, dW, dH, padW, padH, dilationW, dilationH));
  if (adjW < 0 || adjH < 0 || !(adjW < dW || adjW < dilationW) || !(adjH < dH || adjH < dilationH))
    return THError(state, "output padding must be at least 0 and smaller than the stride or the dilation, "
                   "got adjW=%d, adjH=%d with dW=%d, dH=%d, dilationW=%d, dilationH=%d",
                   adjW, adjH, dW, dH, dilationW, dilationH);
  if (!(weight->nDimension == 4 && weight->size[2] == kH && weight->size[3] == kW))
    return THTensor_(shapeError)(state, params.wName, weight, "4D [nInputPlane, nOutputPlane, kH=%d, kW=%d]", kH, kW);
  int64_t nIn = weight->size[0], nOut = weight->size[1];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, &nOut));
  if (THMulSizes(nOut, (int64_t)kW * kH) < 0)
    return THError(state, "%s: nOutputPlane*kH*kW overflows", params.wName);

  TH_TRY(THTensor_(checkImages)(state, "input", input, nIn));
  int batched = input->nDimension == 4;
  int64_t inH = input->size[batched + 1], inW = input->size[batched + 2];
  if (inH < 1 || inW < 1)
    return THTensor_(shapeError)(state, "input", input, "at least 1 high and 1 wide");
  int64_t stepsH = THMulSizes(inH - 1, dH), stepsW = THMulSizes(inW - 1, dW);
  if (stepsH < 0 || stepsW < 0 || stepsH > INT64_MAX / 4 || stepsW > INT64_MAX / 4)
    return THTensor_(shapeError)(state, "input", input, "small enough for the output size to fit in 64 bits");
  int64_t outH = stepsH - 2 * (int64_t)padH + THNNConv_span(kH, dilationH) + adjH;
  int64_t outW = stepsW - 2 * (int64_t)padW + THNNConv_span(kW, dilationW) + adjW;
  if (outH < 1 || outW < 1)
    return THTensor_(shapeError)(state, "input", input,
                                 "large enough for an output of at least 1x1 (it would be %lld high and %lld wide)",
                                 (long long)outH, (long long)outW);
  *nInputPlane = nIn;
  *g = (THNNConvGeometry){kW, kH, dW, dH, padW, padH, dilationW, dilationH, nOut, outH, outW, inH, inW};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, nOut, outH, outW);
}

int THNN_(SpatialFullDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH, int adjW, int adjH)
{
  THNNConvGeometry g = {0};
  int64_t nIn = 0;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                         kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH,
                                                         &g, &nIn));
  int batched = input->nDimension == 4;
  THNNConvPlan p = THNNConv_plan(batched ? input->size[0] : 1, &g, nIn);
  int64_t outSize[4] = {p.batch, g.nPlane, g.inH, g.inW};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0 &&
      THNN_(convResizeColumns)(state, finput, &p) == 0)
    rc = THNN_(convMultiplyFold)(state, &g, &p, THTensor_(data)(x), THTensor_(data)(w), bias,
                                 THTensor_(data)(output), THTensor_(data)(finput));
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialFullDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH)
{
  THNNConvGeometry g = {0};
  int64_t nIn = 0;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                         kW, kH, dW, dH, padW, padH, dilationW, dilationH,
                                                         adjW, adjH, &g, &nIn));
  THNNConvPlan p = THNNConv_plan(input->nDimension == 4 ? input->size[0] : 1, &g, nIn);
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0)
    rc = THNN_(convUnfoldMultiply)(state, &g, &p, THTensor_(data)(gy), THTensor_(data)(w), NULL,
                                   THTensor_(data)(gradInput), fgradInput, NULL);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialFullDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH, accreal scale)
{
  THNNConvGeometry g = {0};
  int64_t nIn = 0;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_shapeCheck)(state, input, gradOutput,
                                                         THTensor_(gradParams)(gradWeight, gradBias),
                                                         kW, kH, dW, dH, padW, padH,
                                                         dilationW, dilationH, adjW, adjH, &g, &nIn));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  THNNConvPlan p = THNNConv_plan(input->nDimension == 4 ? input->size[0] : 1, &g, nIn);
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  real *partial = THAlloc(p.nThreads > 1 ? (size_t)(p.nThreads * nIn * p.K) * sizeof(real) : 0);
  int rc = -1;
  if (!partial)
    rc = THError(state, "out of memory for the per-thread weight gradients");
  else if (gy)
    rc = THNN_(convGradWeight)(state, &g, &p, THTensor_(data)(gy), THTensor_(data)(x),
                               THTensor_(data)(gradWeight), finput, partial, scale);
  if (rc == 0 && gradBias)
    THNN_(convGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), p.batch, g.nPlane, g.inH * g.inW, scale);
  THFree(partial);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
