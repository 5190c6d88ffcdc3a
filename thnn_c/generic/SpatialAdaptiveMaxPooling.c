#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialAdaptiveMaxPooling.c"
#else

#include "generic/Pooling.h"

/* Max over the windows that split each plane of [planes, H, W] or
 * [batch, planes, H, W] into an owidth x oheight grid: output (i, j) reads
 * rows [floor(i H / oheight), ceil((i + 1) H / oheight)) and the columns
 * likewise.  The loops are in Pooling.h. */

int THNN_(SpatialAdaptiveMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THIndexTensor *indices, int owidth, int oheight,
                                                       THPoolShape *s)
{
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  TH_TRY(THPoolAdaptiveOutput(state, s, 1, oheight, owidth));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, indices);
}

int THNN_(SpatialAdaptiveMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  THIndexTensor *indices, int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialAdaptiveMaxPooling_shapeCheck)(state, input, NULL, NULL, owidth, oheight, &s));
  return THNN_(Pool_max)(state, input, output, indices, &s, NULL);
}

int THNN_(SpatialAdaptiveMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, THIndexTensor *indices,
                                                     int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialAdaptiveMaxPooling_shapeCheck)(state, input, gradOutput, indices, owidth, oheight, &s));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
