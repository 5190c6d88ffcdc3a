#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionMap.cu"
#else

/* The twin of thnn_c/generic/SpatialConvolutionMap.c; its plane kernels are
 * generic/ConnectionMap.cu's, shared with SpatialFullConvolutionMap.cu. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialConvolutionMap_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH,
    THNNMapPlanes *p);

int THNN_(SpatialConvolutionMap_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  THCMapTable table = {};
  THTensor xTmp = {}, wTmp = {};
  int rc = THCMapTable_get(state, connTable, &table);
  if (rc == 0)
    rc = THNN_CPU_(SpatialConvolutionMap_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                     &table.host, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p);
  if (rc == 0) {
    int batched = input->nDimension == 4;
    int64_t outSize[4] = {batched ? input->size[0] : 1, nOutputPlane, p.posH, p.posW};
    const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
    const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
    rc = w && THCTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0
             ? THNN_(cuMap)(state, 0, &p, table.dev, 1, x, w, bias, output) : -1;
  }
  THCMapTable_release(&table);
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionMap_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH)
{
  THNNMapPlanes p;
  THCMapTable table = {};
  THTensor gTmp = {}, wTmp = {};
  int rc = THCMapTable_get(state, connTable, &table);
  if (rc == 0)
    rc = THNN_CPU_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                     &table.host, nInputPlane, nOutputPlane, kW, kH, dW, dH, &p);
  if (rc == 0) {
    const THTensor *gy = THCTensor_(contiguous)(state, gradOutput, &gTmp);
    const THTensor *w = gy ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
    rc = w && THCTensor_(resizeAs)(state, gradInput, input) == 0
             ? THNN_(cuMap)(state, 1, &p, table.dev, 0, gy, w, NULL, gradInput) : -1;
  }
  THCMapTable_release(&table);
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionMap_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THIndexTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH, int dW, int dH, accreal scale)
{
  THNNMapPlanes p;
  THCMapTable table = {};
  THTensor xTmp = {}, gTmp = {};
  int rc = THCMapTable_get(state, connTable, &table);
  if (rc == 0)
    rc = THNN_CPU_(SpatialConvolutionMap_shapeCheck)(state, input, gradOutput,
                                                     THTensor_(gradParams)(gradWeight, gradBias),
                                                     &table.host, nInputPlane, nOutputPlane,
                                                     kW, kH, dW, dH, &p);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradWeight", gradWeight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradBias", gradBias);
  if (rc == 0) {
    const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
    const THTensor *gy = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
    rc = gy ? THNN_(cuMapGradParameters)(state, &p, table.dev, 1, gy, x, gy, gradWeight, gradBias, scale) : -1;
  }
  THCMapTable_release(&table);
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
