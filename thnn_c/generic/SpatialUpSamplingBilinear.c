#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialUpSamplingBilinear.c"
#else

#include "generic/Resampling.h"

/* Output row i samples input row i * (h - 1) / (outputHeight - 1), blending
 * the rows on either side (likewise for columns), so the corner pixels of
 * input and output coincide.  Positions and weights are computed in double
 * for both types; the work is shared with the trilinear layer
 * (generic/Resampling.h). */

int THNN_(SpatialUpSamplingBilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       int outputHeight, int outputWidth,
                                                       THVolume *vin, THVolume *vout)
{
  const int outSize[2] = {outputHeight, outputWidth};
  return THNN_(Resampling_linearCheck)(state, input, gradOutput, 2, outSize, vin, vout);
}

int THNN_(SpatialUpSamplingBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialUpSamplingBilinear_shapeCheck)(state, input, NULL, outputHeight, outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, NULL, output, 2, &vin, &vout);
}

int THNN_(SpatialUpSamplingBilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialUpSamplingBilinear_shapeCheck)(state, input, gradOutput, outputHeight, outputWidth,
                                                     &vin, &vout));
  return THNN_(Resampling_linear)(state, input, gradOutput, gradInput, 2, &vin, &vout);
}

#endif
