#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDilatedMaxPooling.c"
#else

#include "generic/Pooling.h"

/* Max over dilated windows of each plane of [planes, H, W] or
 * [batch, planes, H, W]; the loops are in Pooling.h. */

int THNN_(SpatialDilatedMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THIndexTensor *indices, int kW, int kH, int dW, int dH,
                                                      int padW, int padH, int dilationW, int dilationH,
                                                      bool ceil_mode, THPoolShape *s, THPoolWindow *w)
{
  *w = THPoolWindow2d(kW, kH, dW, dH, padW, padH, dilationW, dilationH);
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  TH_TRY(THPoolOutputSize(state, s, w, ceil_mode));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, indices);
}

int THNN_(SpatialDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                 THIndexTensor *indices, int kW, int kH, int dW, int dH,
                                                 int padW, int padH, int dilationW, int dilationH,
                                                 bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(SpatialDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kW, kH, dW, dH, padW, padH,
                                                    dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_max)(state, input, output, indices, &s, &w);
}

/* The same output without indices, for inference (nothing to write but the
 * values; a module in evaluation mode calls this). */
int THNN_(SpatialDilatedMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output,
                                                       int kW, int kH, int dW, int dH, int padW, int padH,
                                                       int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(SpatialDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kW, kH, dW, dH, padW, padH,
                                                    dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_maxValues)(state, input, output, &s, &w);
}

int THNN_(SpatialDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, THIndexTensor *indices,
                                                    int kW, int kH, int dW, int dH, int padW, int padH,
                                                    int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_(SpatialDilatedMaxPooling_shapeCheck)(state, input, gradOutput, indices, kW, kH, dW, dH,
                                                    padW, padH, dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
