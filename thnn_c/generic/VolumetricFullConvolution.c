#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricFullConvolution.c"
#else

/* VolumetricFullDilatedConvolution with dilation 1 (its public functions, declared in THNN.h). */

int THNN_(VolumetricFullConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH, int adjT, int adjW, int adjH)
{
  return THNN_(VolumetricFullDilatedConvolution_updateOutput)(state, input, output, weight, bias, finput,
                                                              kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                              1, 1, 1, adjT, adjW, adjH);
}

int THNN_(VolumetricFullConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int adjT, int adjW, int adjH)
{
  return THNN_(VolumetricFullDilatedConvolution_updateGradInput)(state, input, gradOutput, gradInput, weight,
                                                                 fgradInput, kT, kW, kH, dT, dW, dH,
                                                                 padT, padW, padH, 1, 1, 1, adjT, adjW, adjH);
}

int THNN_(VolumetricFullConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    int adjT, int adjW, int adjH, accreal scale)
{
  return THNN_(VolumetricFullDilatedConvolution_accGradParameters)(state, input, gradOutput, gradWeight,
                                                                   gradBias, finput, kT, kW, kH, dT, dW, dH,
                                                                   padT, padW, padH, 1, 1, 1, adjT, adjW, adjH,
                                                                   scale);
}

#endif
