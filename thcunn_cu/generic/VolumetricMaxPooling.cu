#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricMaxPooling.cu"
#else

/* VolumetricDilatedMaxPooling with dilation 1, as the CPU kernel. */

int THNN_(VolumetricMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                             THIndexTensor *indices, int kT, int kW, int kH,
                                             int dT, int dW, int dH, int padT, int padW, int padH,
                                             bool ceil_mode)
{
  return THNN_(VolumetricDilatedMaxPooling_updateOutput)(state, input, output, indices, kT, kW, kH,
                                                         dT, dW, dH, padT, padW, padH, 1, 1, 1, ceil_mode);
}

int THNN_(VolumetricMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output,
                                                   int kT, int kW, int kH, int dT, int dW, int dH,
                                                   int padT, int padW, int padH, bool ceil_mode)
{
  return THNN_(VolumetricDilatedMaxPooling_updateOutputValues)(state, input, output, kT, kW, kH, dT, dW, dH,
                                                               padT, padW, padH, 1, 1, 1, ceil_mode);
}

int THNN_(VolumetricMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *gradInput, THIndexTensor *indices,
                                                int kT, int kW, int kH, int dT, int dW, int dH,
                                                int padT, int padW, int padH, bool ceil_mode)
{
  return THNN_(VolumetricDilatedMaxPooling_updateGradInput)(state, input, gradOutput, gradInput, indices,
                                                            kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                                            1, 1, 1, ceil_mode);
}

#endif
