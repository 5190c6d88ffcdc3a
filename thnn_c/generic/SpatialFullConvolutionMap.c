#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFullConvolutionMap.c"
#else

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

/* Check every argument (params: see THTensor_(Params)); fill the planes of
 * one connection. */
int THNN_(SpatialFullConvolutionMap_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH,
    THNNMapPlanes *p)
{
  int batched = 0;
  TH_TRY(THNN_(mapCheckCommon)(state, input, params, connTable, nInputPlane, nOutputPlane,
                               kW, kH, dW, dH, &batched));
  int64_t iH = input->size[batched + 1], iW = input->size[batched + 2];
  if (iH < 1 || iW < 1)
    return THTensor_(shapeError)(state, "input", input, "at least 1 high and 1 wide");
  int64_t stepsH = THMulSizes(iH - 1, dH), stepsW = THMulSizes(iW - 1, dW);
  if (stepsH < 0 || stepsW < 0 || stepsH > INT64_MAX / 4 || stepsW > INT64_MAX / 4)
    return THTensor_(shapeError)(state, "input", input, "small enough for the output size to fit in 64 bits");
  *p = (THNNMapPlanes){kH, kW, dH, dW, stepsH + kH, stepsW + kW, iH, iW};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, nOutputPlane, p->imageH, p->imageW);
}

int THNN_(SpatialFullConvolutionMap_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                     connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapOutput)(state, input, output, weight, bias, connTable, nOutputPlane, &p, true);
}

int THNN_(SpatialFullConvolutionMap_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                     connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapGradInput)(state, input, gradOutput, gradInput, weight, connTable, nOutputPlane, &p,
                             true);
}

int THNN_(SpatialFullConvolutionMap_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH, accreal scale)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialFullConvolutionMap_shapeCheck)(state, input, gradOutput,
                                                     THTensor_(gradParams)(gradWeight, gradBias),
                                                     connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapAccGrad)(state, input, gradOutput, gradWeight, gradBias, connTable, nOutputPlane, &p, scale,
                         true);
}

#endif
