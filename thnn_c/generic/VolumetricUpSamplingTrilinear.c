#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricUpSamplingTrilinear.c"
#else

#include "generic/Resampling.h"

/* SpatialUpSamplingBilinear along time too: output frame a samples input
 * frame a * (t - 1) / (outputDepth - 1), corners aligned
 * (generic/Resampling.h). */

int THNN_(VolumetricUpSamplingTrilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                           int outputDepth, int outputHeight, int outputWidth,
                                                           THVolume *vin, THVolume *vout)
{
  const int outSize[3] = {outputDepth, outputHeight, outputWidth};
  return THNN_(Resampling_linearCheck)(state, input, gradOutput, 3, outSize, vin, vout);
}

int THNN_(VolumetricUpSamplingTrilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                      int outputDepth, int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricUpSamplingTrilinear_shapeCheck)(state, input, NULL, outputDepth, outputHeight,
                                                         outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, NULL, output, 3, &vin, &vout);
}

int THNN_(VolumetricUpSamplingTrilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor *gradInput, int outputDepth, int outputHeight,
                                                         int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricUpSamplingTrilinear_shapeCheck)(state, input, gradOutput, outputDepth, outputHeight,
                                                         outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, gradOutput, gradInput, 3, &vin, &vout);
}

#endif
