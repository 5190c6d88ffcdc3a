#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricUpSamplingNearest.c"
#else

#include "generic/Resampling.h"

/* y[.., a, i, j] = x[.., a / scale, i / scale, j / scale]; the gradient of
 * an input voxel is the sum over its scale^3 block (generic/Resampling.h). */

int THNN_(VolumetricUpSamplingNearest_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         int scale_factor, THVolume *vin, THVolume *vout)
{
  return THNN_(Resampling_nearestCheck)(state, input, gradOutput, 3, scale_factor, vin, vout);
}

int THNN_(VolumetricUpSamplingNearest_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricUpSamplingNearest_shapeCheck)(state, input, NULL, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, NULL, output, 3, &vin, &vout, scale_factor);
}

int THNN_(VolumetricUpSamplingNearest_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricUpSamplingNearest_shapeCheck)(state, input, gradOutput, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, gradOutput, gradInput, 3, &vin, &vout, scale_factor);
}

#endif
