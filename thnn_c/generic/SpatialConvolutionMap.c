#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionMap.c"
#else


/* A convolution whose input and output planes are linked by a connection
 * table: row k of connTable, (i, o), 0-based, says that input plane i is
 * filtered by the kernel weight[k] ([kH, kW]) into output plane o:
 *     output[o] = bias[o] + sum over the rows k = (i, o) of weight[k] (*) input[i]
 * with (*) the valid cross-correlation in steps of dW, dH:
 *     (w (*) x)[y, x'] = sum over a, b of w[a, b] * x[y*dH + a, x'*dW + b].
 * The plane helpers and the checks of the table are in ConnectionMap.h,
 * shared with SpatialFullConvolutionMap. */

#include "generic/ConnectionMap.h"

/* Check every argument (params: see THTensor_(Params)); fill the planes of
 * one connection. */
int THNN_(SpatialConvolutionMap_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH,
    THNNMapPlanes *p)
{
  int batched = 0;
  TH_TRY(THNN_(mapCheckCommon)(state, input, params, connTable, nInputPlane, nOutputPlane,
                               kW, kH, dW, dH, &batched));
  int64_t iH = input->size[batched + 1], iW = input->size[batched + 2];
  if (iH < kH || iW < kW)
    return THTensor_(shapeError)(state, "input", input, "at least kH=%d high and kW=%d wide", kH, kW);
  *p = (THNNMapPlanes){kH, kW, dH, dW, iH, iW, (iH - kH) / dH + 1, (iW - kW) / dW + 1};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, nOutputPlane, p->posH, p->posW);
}

int THNN_(SpatialConvolutionMap_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                 connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapOutput)(state, input, output, weight, bias, connTable, nOutputPlane, &p, false);
}

int THNN_(SpatialConvolutionMap_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                 connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapGradInput)(state, input, gradOutput, gradInput, weight, connTable, nOutputPlane, &p,
                             false);
}

int THNN_(SpatialConvolutionMap_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH, accreal scale)
{
  THNNMapPlanes p;
  TH_TRY(THNN_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput,
                                                 THTensor_(gradParams)(gradWeight, gradBias),
                                                 connTable, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p));
  return THNN_(mapAccGrad)(state, input, gradOutput, gradWeight, gradBias, connTable, nOutputPlane, &p, scale,
                         false);
}

#endif
