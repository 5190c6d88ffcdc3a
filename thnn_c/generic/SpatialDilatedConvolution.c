#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDilatedConvolution.c"
#else

#include "generic/unfold.h"

/* output[o, y, x] = bias[o] + sum over c, i, j of
 *     weight[o, c, i, j] * input[c, y*dH - padH + i*dilationH, x*dW - padW + j*dilationW]
 * (0 outside the image), for each sample: the input is the "image" of the
 * batch engine in unfold.h, the output its "other" side, and the weight,
 * [nOutputPlane, nInputPlane*kH*kW] in memory, its matrix w.
 * SpatialConvolutionMM is this layer with dilation 1. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry
 * of one sample and nOutputPlane. */
int THNN_(SpatialDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    THNNConvGeometry *g, int64_t *nOutputPlane)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNConv_checkParameters(state, kW, kH, dW, dH, padW, padH, dilationW, dilationH));
  int64_t nIn = 0;
  TH_TRY(THNN_(convWeightPlanes)(state, weight, params.wName, "nOutputPlane", kW, kH, &nIn));
  *nOutputPlane = weight->size[0];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, nOutputPlane));
  if (THMulSizes(nIn, (int64_t)kW * kH) < 0)
    return THError(state, "%s: nInputPlane*kH*kW overflows", params.wName);

  TH_TRY(THTensor_(checkImages)(state, "input", input, nIn));
  int batched = input->nDimension == 4;
  int64_t spanH = THNNConv_span(kH, dilationH), spanW = THNNConv_span(kW, dilationW);
  int64_t minH = spanH - 2 * (int64_t)padH, minW = spanW - 2 * (int64_t)padW;
  if (minH < 1) minH = 1;
  if (minW < 1) minW = 1;
  int64_t inH = input->size[batched + 1], inW = input->size[batched + 2];
  if (inH < minH || inW < minW)
    return THTensor_(shapeError)(state, "input", input,
                                 "at least %lld high and %lld wide for this kernel, padding and dilation",
                                 (long long)minH, (long long)minW);
  *g = (THNNConvGeometry){kW, kH, dW, dH, padW, padH, dilationW, dilationH, nIn, inH, inW,
                          THNNConv_outputSize(inH, kH, dH, padH, dilationH),
                          THNNConv_outputSize(inW, kW, dW, padW, dilationW)};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, *nOutputPlane, g->outH, g->outW);
}

/* updateOutputPacked's check of packed (shared with the CUDA twin, which
 * hands in the header copied to the host): see convPackedCheck. */
int THNN_(SpatialDilatedConvolution_packedCheck)(THNNState *state, const THTensor *packed, int contiguous1d,
                                                 const real *header, int64_t nOut, int64_t K)
{
  return THNN_(convPackedCheck)(state, packed, contiguous1d, header, nOut, K);
}

/* updateOutput, with the weight's packed panels when packed is not NULL. */
static int THNN_(SpatialDilatedConvolution_forward)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, THTensor *packed, int kW, int kH, int dW, int dH, int padW, int padH,
    int dilationW, int dilationH)
{
  THNNConvGeometry g = {0};
  int64_t nOut = 0;
  TH_TRY(THNN_(SpatialDilatedConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                     kW, kH, dW, dH, padW, padH, dilationW, dilationH, &g, &nOut));
  int batched = input->nDimension == 4;
  THNNConvPlan p = THNNConv_plan(batched ? input->size[0] : 1, &g, nOut);
  int64_t outSize[4] = {p.batch, nOut, g.outH, g.outW};
  THTensor xTmp = {0}, wTmp = {0}, pTmp = {0};
  const THTensor *pk = packed && THTensor_(nElement)(packed) ? THTensor_(contiguous)(state, packed, &pTmp) : NULL;
  int rc = packed && THTensor_(nElement)(packed) && !pk ? -1 : 0;
  if (rc == 0 && pk)
    rc = THNN_(SpatialDilatedConvolution_packedCheck)(state, packed, pk->nDimension == 1,
                                                      THTensor_(nElement)(pk) >= THNN_CONV_PACKED_HEADER ?
                                                      THTensor_(data)(pk) : NULL, nOut, p.K);
  const THTensor *x = rc == 0 ? THTensor_(contiguous)(state, input, &xTmp) : NULL;
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0)
    rc = THNN_(convUnfoldMultiply)(state, &g, &p, THTensor_(data)(x), THTensor_(data)(w), bias,
                                   THTensor_(data)(output), finput,
                                   pk ? THTensor_(data)(pk) + THNN_CONV_PACKED_HEADER : NULL);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  THTensor_(release)(&pTmp);
  return rc;
}

int THNN_(SpatialDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH)
{
  return THNN_(SpatialDilatedConvolution_forward)(state, input, output, weight, bias, finput, NULL,
                                                  kW, kH, dW, dH, padW, padH, dilationW, dilationH);
}

/* packWeight's shape check (shared with the CUDA twin): weight 2-d or 4-d,
 * bias NULL or [nOutputPlane]; *nOut, *K the weight's planes and values per plane. */
int THNN_(SpatialDilatedConvolution_packCheck)(THNNState *state, THTensor *weight, THTensor *bias, int64_t *nOut,
                                               int64_t *K)
{
  if (weight->nDimension != 2 && weight->nDimension != 4)
    return THTensor_(shapeError)(state, "weight", weight,
                                 "[nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW]");
  *nOut = weight->size[0];
  *K = *nOut ? THTensor_(nElement)(weight) / *nOut : 0;
  if (bias && (bias->nDimension != 1 || bias->size[0] != *nOut))
    return THTensor_(shapeError)(state, "bias", bias, "[%lld] (nOutputPlane)", (long long)*nOut);
  return 0;
}

int THNN_(SpatialDilatedConvolution_packWeight)(THNNState *state, THTensor *weight, THTensor *bias, THTensor *packed)
{
  int64_t nOut, K;
  TH_TRY(THNN_(SpatialDilatedConvolution_packCheck)(state, weight, bias, &nOut, &K));
  THTensor wTmp = {0};
  const THTensor *w = THTensor_(contiguous)(state, weight, &wTmp);
  int rc = w ? THNN_(convPackWeight)(state, THTensor_(data)(w), bias, nOut, K, packed) : -1;
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDilatedConvolution_updateOutputPacked)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, THTensor *packed, int kW, int kH, int dW, int dH, int padW, int padH,
    int dilationW, int dilationH)
{
  return THNN_(SpatialDilatedConvolution_forward)(state, input, output, weight, bias, finput, packed,
                                                  kW, kH, dW, dH, padW, padH, dilationW, dilationH);
}

/* With steps of 1, gradInput (each input pixel collects weight times
 * gradOutput over the output pixels it fed) is itself a convolution: of
 * gradOutput, padded by span - 1 - pad, with the weight's taps reversed and
 * its planes swapped, w'[c, o, i, j] = w[o, c, kH-1-i, kW-1-j].  Fills that
 * convolution's geometry t and plan tp and says whether to run it as one:
 * FLIPPED_WINOGRAD (float 3x3 and 5x5, where convWinogradWorth says) by
 * Winograd's F(2x2, k), else FLIPPED_DIRECT by unfold.h's direct loops
 * (where convDirectGradInput says); 0 else (the matrix products and
 * folding). */
#ifndef FLIPPED_DIRECT
#define FLIPPED_DIRECT 1
#define FLIPPED_WINOGRAD 2
#endif
static int THNN_(SpatialDilatedConvolution_flipped)(const THNNConvGeometry *g, const THNNConvPlan *p,
                                                    THNNConvGeometry *t, THNNConvPlan *tp)
{
  int64_t padW = THNNConv_span(g->kW, g->dilationW) - 1 - g->padW;
  int64_t padH = THNNConv_span(g->kH, g->dilationH) - 1 - g->padH;
  if (g->dW != 1 || g->dH != 1 || padW > INT_MAX || padH > INT_MAX)
    return 0;
  *t = (THNNConvGeometry){g->kW, g->kH, 1, 1, (int)padW, (int)padH, g->dilationW, g->dilationH,
                          p->nOther, g->outH, g->outW, g->inH, g->inW};
  *tp = THNNConv_plan(p->batch, t, g->nPlane);
#ifdef TH_REAL_IS_FLOAT
  if (THNN_(convWinogradWorth)(t, tp))
    return FLIPPED_WINOGRAD;
#endif
  if (THNN_(convDirectGradInput)(t, tp))
    return FLIPPED_DIRECT;
  return 0;
}

/* gradInput = gradOutput convolved with the flipped weight (see above), as
 * `how` says; the column buffer is emptied, as it is not used.  1 when
 * Winograd's path declined the values (the caller takes the other path). */
static int THNN_(SpatialDilatedConvolution_gradInputFlipped)(THNNState *state, const THNNConvGeometry *t,
                                                            const THNNConvPlan *tp, const real *gy, const real *w,
                                                            real *gradInput, THTensor *columnBuffer, int how)
{
  int64_t nIn = tp->nOther, nOut = t->nPlane, kH = t->kH, kW = t->kW, none[3] = {0, tp->K, tp->area};
  TH_TRY(THTensor_(resizeNd)(state, columnBuffer, 3, none));
  real *flipped = THAlloc((size_t)(nIn * tp->K) * sizeof(real));
  if (!flipped)
    return THError(state, "out of memory for the flipped weight");
  for (int64_t c = 0; c < nIn; c++)
    for (int64_t o = 0; o < nOut; o++)
      for (int64_t i = 0; i < kH; i++)
        for (int64_t j = 0; j < kW; j++)
          flipped[((c * nOut + o) * kH + i) * kW + j] = w[((o * nIn + c) * kH + kH - 1 - i) * kW + kW - 1 - j];
#ifdef TH_REAL_IS_FLOAT
  int rc = how == FLIPPED_WINOGRAD ? THNN_(convWinogradMultiply)(state, t, tp, gy, flipped, NULL, gradInput)
                                   : THNN_(convDirectMultiply)(state, t, tp, gy, flipped, NULL, gradInput);
#else
  (void)how;
  int rc = THNN_(convDirectMultiply)(state, t, tp, gy, flipped, NULL, gradInput);
#endif
  THFree(flipped);
  return rc;
}

int THNN_(SpatialDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH)
{
  THNNConvGeometry g = {0};
  int64_t nOut = 0;
  TH_TRY(THNN_(SpatialDilatedConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                     kW, kH, dW, dH, padW, padH, dilationW, dilationH, &g, &nOut));
  THNNConvPlan p = THNNConv_plan(input->nDimension == 4 ? input->size[0] : 1, &g, nOut);
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  THNNConvGeometry t;
  THNNConvPlan tp;
  int rc = w ? THTensor_(resizeAs)(state, gradInput, input) : -1;
  int how = rc == 0 ? THNN_(SpatialDilatedConvolution_flipped)(&g, &p, &t, &tp) : 0;
  if (how)
    rc = THNN_(SpatialDilatedConvolution_gradInputFlipped)(state, &t, &tp, THTensor_(data)(gy), THTensor_(data)(w),
                                                           THTensor_(data)(gradInput), fgradInput, how);
  int fold = rc == 1 || (rc == 0 && !how);   /* (1: Winograd's path declined) */
  if (fold && (rc = THNN_(convResizeColumns)(state, fgradInput, &p)) == 0)
    rc = THNN_(convMultiplyFold)(state, &g, &p, THTensor_(data)(gy), THTensor_(data)(w), NULL,
                                 THTensor_(data)(gradInput), THTensor_(data)(fgradInput));
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    accreal scale)
{
  THNNConvGeometry g = {0};
  int64_t nOut = 0;
  TH_TRY(THNN_(SpatialDilatedConvolution_shapeCheck)(state, input, gradOutput,
                                                     THTensor_(gradParams)(gradWeight, gradBias),
                                                     kW, kH, dW, dH, padW, padH, dilationW, dilationH, &g, &nOut));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  THNNConvPlan p = THNNConv_plan(input->nDimension == 4 ? input->size[0] : 1, &g, nOut);
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  real *partial = THAlloc(p.nThreads > 1 ? (size_t)(p.nThreads * nOut * p.K) * sizeof(real) : 0);
  int rc = -1;
  if (!partial)
    rc = THError(state, "out of memory for the per-thread weight gradients");
  else if (gy)
    rc = THNN_(convGradWeight)(state, &g, &p, THTensor_(data)(x), THTensor_(data)(gy),
                               THTensor_(data)(gradWeight), finput, partial, scale);
  if (rc == 0 && gradBias)
    THNN_(convGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), p.batch, nOut, p.area, scale);
  THFree(partial);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
