#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricDilatedConvolution.cu"
#else

/* The twin of thnn_c/generic/VolumetricDilatedConvolution.c: the input is
 * the "image" of the engine in im2col.cu, the output its "other" side. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(VolumetricDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, THNNVolGeometry *g, int64_t *nOutputPlane, int64_t *K,
    int64_t *area);

/* The shape check, and the call it describes for the engine. */
static int THNN_(VolumetricDilatedConvolution_call)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, THCConvCall *c)
{
  THNNVolGeometry g = {};
  int64_t nOut = 0, K = 0, area = 0;
  TH_TRY(THNN_CPU_(VolumetricDilatedConvolution_shapeCheck)(state, input, gradOutput, params,
                                                            kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                            dilationT, dilationW, dilationH, &g, &nOut, &K, &area));
  int batched = input->nDimension == 5;
  *c = THCConvCall{g, batched ? input->size[0] : 1, nOut, batched, 3, 0};
  return 0;
}

int THNN_(VolumetricDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricDilatedConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                                  kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                  dilationT, dilationW, dilationH, &c));
  return THNN_(cuConvOutput)(state, &c, input, output, weight, bias, finput);
}

int THNN_(VolumetricDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricDilatedConvolution_call)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                  kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                  dilationT, dilationW, dilationH, &c));
  return THNN_(cuConvGradInput)(state, &c, input, gradOutput, gradInput, weight, fgradInput);
}

int THNN_(VolumetricDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int dilationT, int dilationW, int dilationH, accreal scale)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricDilatedConvolution_call)(state, input, gradOutput,
                                                  THTensor_(gradParams)(gradWeight, gradBias),
                                                  kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                  dilationT, dilationW, dilationH, &c));
  return THNN_(cuConvGradParameters)(state, &c, input, gradOutput, gradWeight, gradBias, finput, scale);
}

#endif
