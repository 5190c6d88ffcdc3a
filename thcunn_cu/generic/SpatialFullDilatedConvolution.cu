#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFullDilatedConvolution.cu"
#else

/* The twin of thnn_c/generic/SpatialFullDilatedConvolution.c, the transpose
 * of SpatialDilatedConvolution: the output is the "image" of the engine in
 * im2col.cu, the input its "other" side. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialFullDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH, THNNConvGeometry *g, int64_t *nInputPlane);

/* The shape check, and the call it describes for the engine. */
static int THNN_(SpatialFullDilatedConvolution_call)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH, THCConvCall *c)
{
  THNNConvGeometry g = {};
  int64_t nIn = 0;
  TH_TRY(THNN_CPU_(SpatialFullDilatedConvolution_shapeCheck)(state, input, gradOutput, params,
                                                             kW, kH, dW, dH, padW, padH, dilationW, dilationH,
                                                             adjW, adjH, &g, &nIn));
  int batched = input->nDimension == 4;
  *c = THCConvCall{THCConv_volume(&g), batched ? input->size[0] : 1, nIn, batched, 2, 1};
  return 0;
}

int THNN_(SpatialFullDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH, int adjW, int adjH)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                                   kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH, &c));
  return THNN_(cuConvOutput)(state, &c, input, output, weight, bias, finput);
}

int THNN_(SpatialFullDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_call)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                   kW, kH, dW, dH, padW, padH, dilationW, dilationH, adjW, adjH, &c));
  return THNN_(cuConvGradInput)(state, &c, input, gradOutput, gradInput, weight, fgradInput);
}

int THNN_(SpatialFullDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    int adjW, int adjH, accreal scale)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialFullDilatedConvolution_call)(state, input, gradOutput,
                                                   THTensor_(gradParams)(gradWeight, gradBias),
                                                   kW, kH, dW, dH, padW, padH,
                                                   dilationW, dilationH, adjW, adjH, &c));
  return THNN_(cuConvGradParameters)(state, &c, input, gradOutput, gradWeight, gradBias, finput, scale);
}

#endif
