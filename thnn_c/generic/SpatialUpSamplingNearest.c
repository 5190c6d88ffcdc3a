#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialUpSamplingNearest.c"
#else

#include "generic/Resampling.h"

/* y[.., i, j] = x[.., i / scale, j / scale]; the gradient of an input pixel
 * is the sum over its scale x scale block.  The work is shared with the
 * padding layers (generic/Resampling.h): both copy through index maps. */

int THNN_(SpatialUpSamplingNearest_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      int scale_factor, THVolume *vin, THVolume *vout)
{
  return THNN_(Resampling_nearestCheck)(state, input, gradOutput, 2, scale_factor, vin, vout);
}

int THNN_(SpatialUpSamplingNearest_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                 int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialUpSamplingNearest_shapeCheck)(state, input, NULL, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, NULL, output, 2, &vin, &vout, scale_factor);
}

int THNN_(SpatialUpSamplingNearest_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialUpSamplingNearest_shapeCheck)(state, input, gradOutput, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, gradOutput, gradInput, 2, &vin, &vout, scale_factor);
}

#endif
