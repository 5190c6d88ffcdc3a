#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionMap.c"
#else

#include "generic/vol2col.h"

/* A convolution whose input and output planes are linked by a connection
 * table: row k of connTable, (i, o), 0-based, says that input plane i is
 * filtered by the kernel weight[k] ([kH, kW]) into output plane o:
 *     output[o] = bias[o] + sum over the rows k = (i, o) of weight[k] (*) input[i]
 * with (*) the valid cross-correlation in steps of dW, dH:
 *     (w (*) x)[y, x'] = sum over a, b of w[a, b] * x[y*dH + a, x'*dW + b].
 * The plane helpers and the checks of the table are in ConnectionMap.h,
 * shared with SpatialFullConvolutionMap. */

#include "generic/ConnectionMap.h"

/* Check every argument; fill the planes of one connection.  For
 * accGradParameters `weight` is gradWeight and `bias` gradBias. */
int THNN_(SpatialConvolutionMap_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput,
    THTensor *weight, const char *wName, THTensor *bias, const char *bName,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH,
    THNNMapPlanes *p)
{
  int batched = 0;
  TH_TRY(THNN_(mapCheckCommon)(state, input, weight, wName, bias, bName, connTable, nInputPlane, nOutputPlane,
                               kW, kH, dW, dH, &batched));
  int64_t iH = input->size[batched + 1], iW = input->size[batched + 2];
  if (iH < kH || iW < kW)
    return THTensor_(shapeError)(state, "input", input, "at least kH=%d high and kW=%d wide", kH, kW);
  *p = (THNNMapPlanes){kH, kW, dH, dW, iH, iW, (iH - kH) / dH + 1, (iW - kW) / dW + 1};
  if (gradOutput) {
    int64_t size[4] = {input->size[0], nOutputPlane, p->posH, p->posW};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, size + !batched));
  }
  return 0;
}

int THNN_(SpatialConvolutionMap_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, NULL, weight, "weight", bias, "bias", connTable,
                                                 nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t outSize[4] = {batch, nOutputPlane, p.posH, p.posW};
  int64_t inPlane = p.imageH * p.imageW, outPlane = p.posH * p.posW;
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    const real *b = THTensor_(data)(bias);
    real *y = THTensor_(data)(output);
    for (int64_t n = 0; n < batch; n++) {
      real *yn = y + n * nOutputPlane * outPlane;
      for (int64_t o = 0; o < nOutputPlane; o++)
        for (int64_t k = 0; k < outPlane; k++)
          yn[o * outPlane + k] = b[o * bias->stride[0]];
      for (int64_t k = 0; k < weight->size[0]; k++)
        THNN_(mapCorrelate)(&p, THTensor_(data)(x) + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane,
                            THTensor_(data)(w) + k * kH * kW, yn + THNNMap_entry(connTable, k, 1) * outPlane);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionMap_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput, weight, "weight", NULL, NULL, connTable,
                                                 nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t inPlane = p.imageH * p.imageW, outPlane = p.posH * p.posW;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    real *gx = THTensor_(data)(gradInput);
    memset(gx, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t k = 0; k < weight->size[0]; k++)
        THNN_(mapSpread)(&p, THTensor_(data)(gy) + (n * nOutputPlane + THNNMap_entry(connTable, k, 1)) * outPlane,
                         THTensor_(data)(w) + k * kH * kW, gx + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane);
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionMap_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH, accreal scale)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput, gradWeight, "gradWeight", gradBias,
                                                 "gradBias", connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH,
                                                 &p));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t inPlane = p.imageH * p.imageW, outPlane = p.posH * p.posW;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    for (int64_t k = 0; k < gradWeight->size[0]; k++)
      for (int64_t n = 0; n < batch; n++)
        THNN_(mapKernelGradient)(&p, THTensor_(data)(x) + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane,
                                 THTensor_(data)(gy) + (n * nOutputPlane + THNNMap_entry(connTable, k, 1)) * outPlane,
                                 THTensor_(data)(gradWeight) + k * kH * kW, scale);
    /* the plane sums of vol2col.h's volGradBias are what the bias needs here too */
    THNN_(volGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), batch, nOutputPlane, outPlane, scale);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
