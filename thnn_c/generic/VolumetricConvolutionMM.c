#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricConvolutionMM.c"
#else

/* VolumetricDilatedConvolution with dilation 1 (its public functions, declared in THNN.h). */

int THNN_(VolumetricConvolutionMM_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias, THTensor *finput,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  return THNN_(VolumetricDilatedConvolution_updateOutput)(state, input, output, weight, bias, finput,
                                                          kT, kW, kH, dT, dW, dH, padT, padW, padH, 1, 1, 1);
}

int THNN_(VolumetricConvolutionMM_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  return THNN_(VolumetricDilatedConvolution_updateGradInput)(state, input, gradOutput, gradInput, weight,
                                                             fgradInput, kT, kW, kH, dT, dW, dH,
                                                             padT, padW, padH, 1, 1, 1);
}

int THNN_(VolumetricConvolutionMM_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    accreal scale)
{
  return THNN_(VolumetricDilatedConvolution_accGradParameters)(state, input, gradOutput, gradWeight, gradBias,
                                                               finput, kT, kW, kH, dT, dW, dH,
                                                               padT, padW, padH, 1, 1, 1, scale);
}

#endif
