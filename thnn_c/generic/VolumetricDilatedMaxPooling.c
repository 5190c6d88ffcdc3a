#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricDilatedMaxPooling.c"
#else

#include "generic/Pooling.h"

/* Max over dilated windows of each plane of [planes, T, H, W] or
 * [batch, planes, T, H, W]; the loops are in Pooling.h. */

int THNN_(VolumetricDilatedMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THIndexTensor *indices, int kT, int kW, int kH,
                                                         int dT, int dW, int dH, int padT, int padW, int padH,
                                                         int dilationT, int dilationW, int dilationH,
                                                         bool ceil_mode, THPoolShape *s, THPoolWindow *w)
{
  *w = THPoolWindow3d(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH);
  TH_TRY(THPoolInput(state, 3, input->nDimension, input->size, s));
  TH_TRY(THPoolOutputSize(state, s, w, ceil_mode));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, indices);
}

int THNN_(VolumetricDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    THIndexTensor *indices, int kT, int kW, int kH,
                                                    int dT, int dW, int dH, int padT, int padW, int padH,
                                                    int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(VolumetricDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kT, kW, kH, dT, dW, dH,
                                                       padT, padW, padH, dilationT, dilationW, dilationH,
                                                       ceil_mode, &s, &w));
  return THNN_(Pool_max)(state, input, output, indices, &s, &w);
}

/* The same output without indices, for inference (a module in evaluation
 * mode calls this). */
int THNN_(VolumetricDilatedMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output,
                                                          int kT, int kW, int kH, int dT, int dW, int dH,
                                                          int padT, int padW, int padH,
                                                          int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(VolumetricDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kT, kW, kH, dT, dW, dH,
                                                       padT, padW, padH, dilationT, dilationW, dilationH,
                                                       ceil_mode, &s, &w));
  return THNN_(Pool_maxValues)(state, input, output, &s, &w);
}

int THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, THIndexTensor *indices,
                                                       int kT, int kW, int kH, int dT, int dW, int dH,
                                                       int padT, int padW, int padH,
                                                       int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(VolumetricDilatedMaxPooling_shapeCheck)(state, input, gradOutput, indices, kT, kW, kH,
                                                       dT, dW, dH, padT, padW, padH,
                                                       dilationT, dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
