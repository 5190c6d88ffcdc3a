#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFullConvolutionMap.c"
#else

#include "generic/vol2col.h"
#include "generic/ConnectionMap.h"

/* The transpose of SpatialConvolutionMap: row k = (i, o) of connTable
 * spreads every pixel of input plane i over a kH x kW patch of output
 * plane o, weighted by weight[k]:
 *     output[o, y*dH + a, x*dW + b] += weight[k, a, b] * input[i, y, x]
 * on top of bias[o].  The output is [(iH - 1)*dH + kH, (iW - 1)*dW + kW].
 * The output plane is the "image" of the plane helpers of
 * ConnectionMap.h, the input plane its positions;
 * so this layer's forward pass is the backward pass of a SpatialConvolutionMap
 * whose table has its two columns swapped, and the other way round. */

/* Check every argument; fill the planes of one connection.  For
 * accGradParameters `weight` is gradWeight and `bias` gradBias. */
int THNN_(SpatialFullConvolutionMap_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput,
    THTensor *weight, const char *wName, THTensor *bias, const char *bName,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH,
    THNNMapPlanes *p)
{
  int batched = 0;
  TH_TRY(THNN_(mapCheckCommon)(state, input, weight, wName, bias, bName, connTable, nInputPlane, nOutputPlane,
                               kW, kH, dW, dH, &batched));
  int64_t iH = input->size[batched + 1], iW = input->size[batched + 2];
  if (iH < 1 || iW < 1)
    return THTensor_(shapeError)(state, "input", input, "at least 1 high and 1 wide");
  int64_t stepsH = THMulSizes(iH - 1, dH), stepsW = THMulSizes(iW - 1, dW);
  if (stepsH < 0 || stepsW < 0 || stepsH > INT64_MAX / 4 || stepsW > INT64_MAX / 4)
    return THTensor_(shapeError)(state, "input", input, "small enough for the output size to fit in 64 bits");
  *p = (THNNMapPlanes){kH, kW, dH, dW, stepsH + kH, stepsW + kW, iH, iW};
  if (gradOutput) {
    int64_t size[4] = {input->size[0], nOutputPlane, p->imageH, p->imageW};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, size + !batched));
  }
  return 0;
}

int THNN_(SpatialFullConvolutionMap_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, NULL, weight, "weight", bias, "bias", connTable,
                                                     nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t outSize[4] = {batch, nOutputPlane, p.imageH, p.imageW};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    int64_t inPlane = p.posH * p.posW, outPlane = p.imageH * p.imageW;
    const real *b = THTensor_(data)(bias);
    real *y = THTensor_(data)(output);
    for (int64_t n = 0; n < batch; n++) {
      real *yn = y + n * nOutputPlane * outPlane;
      for (int64_t o = 0; o < nOutputPlane; o++)
        for (int64_t k = 0; k < outPlane; k++)
          yn[o * outPlane + k] = b[o * bias->stride[0]];
      for (int64_t k = 0; k < weight->size[0]; k++)
        THNN_(mapSpread)(&p, THTensor_(data)(x) + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane,
                         THTensor_(data)(w) + k * kH * kW, yn + THNNMap_entry(connTable, k, 1) * outPlane);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialFullConvolutionMap_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, gradOutput, weight, "weight", NULL, NULL,
                                                     connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t inPlane = p.posH * p.posW, outPlane = p.imageH * p.imageW;
    real *gx = THTensor_(data)(gradInput);
    memset(gx, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t k = 0; k < weight->size[0]; k++)
        THNN_(mapCorrelate)(&p, THTensor_(data)(gy) + (n * nOutputPlane + THNNMap_entry(connTable, k, 1)) * outPlane,
                            THTensor_(data)(w) + k * kH * kW,
                            gx + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane);
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialFullConvolutionMap_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH, accreal scale)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, gradOutput, gradWeight, "gradWeight", gradBias,
                                                     "gradBias", connTable, nInputPlane, nOutputPlane, kW, kH, dW,
                                                     dH, &p));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    int64_t inPlane = p.posH * p.posW, outPlane = p.imageH * p.imageW;
    for (int64_t k = 0; k < gradWeight->size[0]; k++)
      for (int64_t n = 0; n < batch; n++)
        THNN_(mapKernelGradient)(&p,
                                 THTensor_(data)(gy) + (n * nOutputPlane + THNNMap_entry(connTable, k, 1)) * outPlane,
                                 THTensor_(data)(x) + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane,
                                 THTensor_(data)(gradWeight) + k * kH * kW, scale);
    THNN_(volGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), batch, nOutputPlane, outPlane, scale);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
