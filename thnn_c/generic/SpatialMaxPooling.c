#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialMaxPooling.c"
#else

/* SpatialDilatedMaxPooling with dilation 1, as in Torch7 (its shapeCheck
 * checks the arguments). */

int THNN_(SpatialMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                          THIndexTensor *indices, int kW, int kH, int dW, int dH,
                                          int padW, int padH, bool ceil_mode)
{
  return THNN_(SpatialDilatedMaxPooling_updateOutput)(state, input, output, indices, kW, kH, dW, dH,
                                                      padW, padH, 1, 1, ceil_mode);
}

int THNN_(SpatialMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output, int kW,
                                                int kH, int dW, int dH, int padW, int padH, bool ceil_mode)
{
  return THNN_(SpatialDilatedMaxPooling_updateOutputValues)(state, input, output, kW, kH, dW, dH, padW, padH,
                                                            1, 1, ceil_mode);
}

int THNN_(SpatialMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                             THTensor *gradInput, THIndexTensor *indices, int kW, int kH,
                                             int dW, int dH, int padW, int padH, bool ceil_mode)
{
  return THNN_(SpatialDilatedMaxPooling_updateGradInput)(state, input, gradOutput, gradInput, indices,
                                                         kW, kH, dW, dH, padW, padH, 1, 1, ceil_mode);
}

#endif
