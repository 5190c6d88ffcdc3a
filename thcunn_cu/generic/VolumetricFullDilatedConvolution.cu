#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricFullDilatedConvolution.cu"
#else

/* The twin of thnn_c/generic/VolumetricFullDilatedConvolution.c, the
 * transpose of VolumetricDilatedConvolution: the output is the "image" of
 * the engine in im2col.cu, the input its "other" side. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(VolumetricFullDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH,
    THNNVolGeometry *g, int64_t *nInputPlane, int64_t *K, int64_t *area);

/* The shape check, and the call it describes for the engine. */
static int THNN_(VolumetricFullDilatedConvolution_call)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH, THCConvCall *c)
{
  THNNVolGeometry g = {};
  int64_t nIn = 0, K = 0, area = 0;
  TH_TRY(THNN_CPU_(VolumetricFullDilatedConvolution_shapeCheck)(state, input, gradOutput, params,
                                                                kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                                dilationT, dilationW, dilationH, adjT, adjW, adjH,
                                                                &g, &nIn, &K, &area));
  int batched = input->nDimension == 5;
  *c = THCConvCall{g, batched ? input->size[0] : 1, nIn, batched, 3, 1};
  return 0;
}

int THNN_(VolumetricFullDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                                      kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                      dilationT, dilationW, dilationH, adjT, adjW, adjH, &c));
  return THNN_(cuConvOutput)(state, &c, input, output, weight, bias, finput);
}

int THNN_(VolumetricFullDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_call)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                      kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                      dilationT, dilationW, dilationH, adjT, adjW, adjH, &c));
  return THNN_(cuConvGradInput)(state, &c, input, gradOutput, gradInput, weight, fgradInput);
}

int THNN_(VolumetricFullDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, int adjT, int adjW, int adjH, accreal scale)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricFullDilatedConvolution_call)(state, input, gradOutput,
                                                      THTensor_(gradParams)(gradWeight, gradBias),
                                                      kT, kW, kH, dT, dW, dH,
                                                      padT, padW, padH, dilationT, dilationW, dilationH,
                                                      adjT, adjW, adjH, &c));
  return THNN_(cuConvGradParameters)(state, &c, input, gradOutput, gradWeight, gradBias, finput, scale);
}

#endif
