#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricAveragePooling.c"
#else

#include "generic/Pooling.h"

/* Mean over the windows of each plane of [planes, T, H, W] or
 * [batch, planes, T, H, W]; the loops are in Pooling.h. */

int THNN_(VolumetricAveragePooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      int kT, int kW, int kH, int dT, int dW, int dH,
                                                      int padT, int padW, int padH, bool ceil_mode,
                                                      THPoolShape *s, THPoolWindow *w)
{
  *w = THPoolWindow3d(kT, kW, kH, dT, dW, dH, padT, padW, padH, 1, 1, 1);
  TH_TRY(THPoolInput(state, 3, input->nDimension, input->size, s));
  TH_TRY(THPoolOutputSize(state, s, w, ceil_mode));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, NULL);
}

int THNN_(VolumetricAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                 int kT, int kW, int kH, int dT, int dW, int dH,
                                                 int padT, int padW, int padH, bool ceil_mode,
                                                 bool count_include_pad)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(VolumetricAveragePooling_shapeCheck)(state, input, NULL, kT, kW, kH, dT, dW, dH,
                                                    padT, padW, padH, ceil_mode, &s, &w));
  return THNN_(Pool_average)(state, input, NULL, output, &s, &w,
                             count_include_pad ? TH_POOL_COUNT_PADDING : TH_POOL_COUNT_INPUT);
}

int THNN_(VolumetricAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, int kT, int kW, int kH,
                                                    int dT, int dW, int dH, int padT, int padW, int padH,
                                                    bool ceil_mode, bool count_include_pad)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(VolumetricAveragePooling_shapeCheck)(state, input, gradOutput, kT, kW, kH, dT, dW, dH,
                                                    padT, padW, padH, ceil_mode, &s, &w));
  return THNN_(Pool_average)(state, input, gradOutput, gradInput, &s, &w,
                             count_include_pad ? TH_POOL_COUNT_PADDING : TH_POOL_COUNT_INPUT);
}

#endif
