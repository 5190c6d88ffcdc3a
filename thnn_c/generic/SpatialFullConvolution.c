#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFullConvolution.c"
#else

/* SpatialFullDilatedConvolution with dilation 1 (its public functions, declared in THNN.h). */

int THNN_(SpatialFullConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kW, int kH, int dW, int dH, int padW, int padH, int adjW, int adjH)
{
  return THNN_(SpatialFullDilatedConvolution_updateOutput)(state, input, output, weight, bias, finput,
                                                           kW, kH, dW, dH, padW, padH, 1, 1, adjW, adjH);
}

int THNN_(SpatialFullConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH, int adjW, int adjH)
{
  return THNN_(SpatialFullDilatedConvolution_updateGradInput)(state, input, gradOutput, gradInput, weight,
                                                              fgradInput, kW, kH, dW, dH, padW, padH, 1, 1,
                                                              adjW, adjH);
}

int THNN_(SpatialFullConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int adjW, int adjH, accreal scale)
{
  return THNN_(SpatialFullDilatedConvolution_accGradParameters)(state, input, gradOutput, gradWeight, gradBias,
                                                                finput, kW, kH, dW, dH, padW, padH, 1, 1,
                                                                adjW, adjH, scale);
}

#endif
