#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionMM.c"
#else

/* SpatialDilatedConvolution with dilation 1 (its public functions, declared in THNN.h). */

int THNN_(SpatialConvolutionMM_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH)
{
  return THNN_(SpatialDilatedConvolution_updateOutput)(state, input, output, weight, bias, finput,
                                                       kW, kH, dW, dH, padW, padH, 1, 1);
}

int THNN_(SpatialConvolutionMM_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH)
{
  return THNN_(SpatialDilatedConvolution_updateGradInput)(state, input, gradOutput, gradInput, weight, fgradInput,
                                                          kW, kH, dW, dH, padW, padH, 1, 1);
}

int THNN_(SpatialConvolutionMM_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, accreal scale)
{
  return THNN_(SpatialDilatedConvolution_accGradParameters)(state, input, gradOutput, gradWeight, gradBias, finput,
                                                            kW, kH, dW, dH, padW, padH, 1, 1, scale);
}

#endif
