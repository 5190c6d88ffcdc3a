#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialAdaptiveAveragePooling.c"
#else

#include "generic/Pooling.h"

/* Mean over the windows that split each plane of [planes, H, W] or
 * [batch, planes, H, W] into an owidth x oheight grid (the windows of
 * SpatialAdaptiveMaxPooling); the sum is divided by the window's height,
 * then by its width, as PyTorch does.  The loops are in Pooling.h. */

int THNN_(SpatialAdaptiveAveragePooling_shapeCheck)(THNNState *state, THTensor *input,
                                                           THTensor *gradOutput, int owidth, int oheight,
                                                           THPoolShape *s)
{
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  TH_TRY(THPoolAdaptiveOutput(state, s, 1, oheight, owidth));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, NULL);
}

int THNN_(SpatialAdaptiveAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                      int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialAdaptiveAveragePooling_shapeCheck)(state, input, NULL, owidth, oheight, &s));
  return THNN_(Pool_average)(state, input, NULL, output, &s, NULL, TH_POOL_ADAPTIVE);
}

int THNN_(SpatialAdaptiveAveragePooling_updateGradInput)(THNNState *state, THTensor *input,
                                                         THTensor *gradOutput, THTensor *gradInput,
                                                         int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialAdaptiveAveragePooling_shapeCheck)(state, input, gradOutput, owidth, oheight, &s));
  return THNN_(Pool_average)(state, input, gradOutput, gradInput, &s, NULL, TH_POOL_ADAPTIVE);
}

#endif
