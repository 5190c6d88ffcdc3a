#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialAveragePooling.c"
#else

#include "generic/Pooling.h"

/* Mean over the windows of each plane of [planes, H, W] or
 * [batch, planes, H, W]; the loops are in Pooling.h. */

int THNN_(SpatialAveragePooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                   int kW, int kH, int dW, int dH, int padW, int padH,
                                                   bool ceil_mode, THPoolShape *s, THPoolWindow *w)
{
  *w = THPoolWindow2d(kW, kH, dW, dH, padW, padH, 1, 1);
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  TH_TRY(THPoolOutputSize(state, s, w, ceil_mode));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, NULL);
}

int THNN_(SpatialAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                              int kW, int kH, int dW, int dH, int padW, int padH,
                                              bool ceil_mode, bool count_include_pad)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(SpatialAveragePooling_shapeCheck)(state, input, NULL, kW, kH, dW, dH, padW, padH, ceil_mode,
                                                 &s, &w));
  return THNN_(Pool_average)(state, input, NULL, output, &s, &w,
                             count_include_pad ? TH_POOL_COUNT_PADDING : TH_POOL_COUNT_INPUT);
}

int THNN_(SpatialAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradInput, int kW, int kH, int dW, int dH,
                                                 int padW, int padH, bool ceil_mode, bool count_include_pad)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(SpatialAveragePooling_shapeCheck)(state, input, gradOutput, kW, kH, dW, dH, padW, padH,
                                                 ceil_mode, &s, &w));
  return THNN_(Pool_average)(state, input, gradOutput, gradInput, &s, &w,
                             count_include_pad ? TH_POOL_COUNT_PADDING : TH_POOL_COUNT_INPUT);
}

#endif
