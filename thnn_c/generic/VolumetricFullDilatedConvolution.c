#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricFullDilatedConvolution.c"
#else

#include "generic/vol2col.h"
#include "generic/unfold.h"

/* The transpose of VolumetricDilatedConvolution ("deconvolution"): every
 * input voxel (t, y, x) of plane c adds weight[c, o, a, b, e] * input[c, t, y, x]
 * to output voxel
 *     (t*dT - padT + a*dilationT, y*dH - padH + b*dilationH, x*dW - padW + e*dilationW)
 * of plane o, over a bias[o] start; voxels falling in the cropped padding
 * are dropped.  So the output is the "image" of the engine in vol2col.h,
 * the input its "other" side, and the weight, [nInputPlane,
 * nOutputPlane*kT*kH*kW] in memory, its matrix w.  Along each axis the output has
 *     (in - 1) * step - 2 * pad + (k - 1) * dilation + 1 + adj
 * voxels; adj (0 <= adj < step or adj < dilation) adds voxels at the far
 * end, choosing among the output sizes that the convolution with these
 * settings maps back to `in`.  The geometry is that convolution's over one
 * output sample, restricted to the `in` positions the input has (with
 * adj >= step it would have one more).  VolumetricFullConvolution is this
 * layer with dilation 1. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry,
 * nInputPlane and the column sizes. */
int THNN_(VolumetricFullDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH,
    THNNVolGeometry *g, int64_t *nInputPlane, int64_t *K, int64_t *area)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNVol_settings(state, g, kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH));
  if (adjT < 0 || adjW < 0 || adjH < 0 || !(adjT < dT || adjT < dilationT) || !(adjW < dW || adjW < dilationW) ||
      !(adjH < dH || adjH < dilationH))
    return THError(state, "output padding must be at least 0 and smaller than the stride or the dilation, "
                   "got adjT=%d, adjW=%d, adjH=%d with dT=%d, dW=%d, dH=%d, dilationT=%d, dilationW=%d, "
                   "dilationH=%d", adjT, adjW, adjH, dT, dW, dH, dilationT, dilationW, dilationH);
  if (!(weight->nDimension == 5 && weight->size[2] == kT && weight->size[3] == kH && weight->size[4] == kW))
    return THTensor_(shapeError)(state, params.wName, weight, "5D [nInputPlane, nOutputPlane, kT=%d, kH=%d, kW=%d]",
                                 kT, kH, kW);
  int64_t nIn = weight->size[0], nOut = weight->size[1];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, &nOut));

  int batched = input->nDimension == 5;
  if (!(input->nDimension == 4 || batched) || input->size[batched] != nIn)
    return THTensor_(shapeError)(state, "input", input,
                                 "4D [nInputPlane, T, H, W] or 5D [batch, nInputPlane, T, H, W] with %lld planes",
                                 (long long)nIn);
  const int64_t *in = input->size + batched + 1;
  if (in[0] < 1 || in[1] < 1 || in[2] < 1)
    return THTensor_(shapeError)(state, "input", input, "at least 1 x 1 x 1 (T x H x W)");
  int adj[3] = {adjT, adjH, adjW};
  int64_t out[3];
  for (int a = 0; a < 3; a++) {
    int64_t steps = THMulSizes(in[a] - 1, g->d[a]);
    if (steps < 0 || steps > INT64_MAX / 4)
      return THTensor_(shapeError)(state, "input", input, "small enough for the output size to fit in 64 bits");
    out[a] = steps - 2 * (int64_t)g->pad[a] + THNNConv_span(g->k[a], g->dilation[a]) + adj[a];
  }
  if (out[0] < 1 || out[1] < 1 || out[2] < 1)
    return THTensor_(shapeError)(state, "input", input,
                                 "large enough for an output of at least 1 x 1 x 1 (it would be %lld x %lld x %lld, "
                                 "T x H x W)", (long long)out[0], (long long)out[1], (long long)out[2]);
  *nInputPlane = nIn;
  g->nPlane = nOut;
  for (int a = 0; a < 3; a++) {
    g->in[a] = out[a];
    g->out[a] = in[a];
  }
  if (gradOutput) {
    int64_t size[5] = {input->size[0], nOut, out[0], out[1], out[2]};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, size + !batched));
  }
  return THNNVol_columnSizes(state, g, K, area);
}

int THNN_(VolumetricFullDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH)
{
  THNNVolGeometry g;
  int64_t nIn = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                            kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                            dilationT, dilationW, dilationH, adjT, adjW, adjH,
                                                            &g, &nIn, &K, &area));
  int batched = input->nDimension == 5;
  int64_t batch = batched ? input->size[0] : 1;
  int64_t outSize[5] = {batch, g.nPlane, g.in[0], g.in[1], g.in[2]};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 4 + batched, outSize + !batched) == 0 &&
      THNN_(volResizeColumns)(state, finput, K, area, batch) == 0)
    rc = THNN_(volMultiplyFold)(state, &g, batch, nIn, THTensor_(data)(x), THTensor_(data)(w), bias,
                                THTensor_(data)(output), THTensor_(data)(finput), K, area);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricFullDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH)
{
  THNNVolGeometry g;
  int64_t nIn = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                            kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                            dilationT, dilationW, dilationH, adjT, adjW, adjH,
                                                            &g, &nIn, &K, &area));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0 &&
      THNN_(volResizeColumns)(state, fgradInput, K, area, batch) == 0)
    rc = THNN_(volUnfoldMultiply)(state, &g, batch, nIn, THTensor_(data)(gy), THTensor_(data)(w), NULL,
                                  THTensor_(data)(gradInput), THTensor_(data)(fgradInput), K, area);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(VolumetricFullDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH, accreal scale)
{
  THNNVolGeometry g;
  int64_t nIn = 0, K = 0, area = 0;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_shapeCheck)(state, input, gradOutput,
                                                            THTensor_(gradParams)(gradWeight, gradBias),
                                                            kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                            dilationT, dilationW, dilationH, adjT, adjW, adjH,
                                                            &g, &nIn, &K, &area));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 5 ? input->size[0] : 1;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy && THNN_(volResizeColumns)(state, finput, K, area, batch) == 0)
    rc = THNN_(volGradWeight)(state, &g, batch, nIn, THTensor_(data)(gy), THTensor_(data)(x),
                              THTensor_(data)(gradWeight), THTensor_(data)(finput), K, area, scale);
  if (rc == 0 && gradBias)
    THNN_(volGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), batch, g.nPlane,
                       g.in[0] * g.in[1] * g.in[2], scale);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
