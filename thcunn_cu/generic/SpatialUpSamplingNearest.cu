#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialUpSamplingNearest.cu"
#else

/* Each output element copies input element (position / scale_factor);
 * checks shared with the CPU kernel (thnn_c/generic/SpatialUpSamplingNearest.c), the work
 * in generic/Resampling.cu. */
extern "C" int THNN_CPU_(SpatialUpSamplingNearest_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            int scale_factor, THVolume *vin, THVolume *vout);

int THNN_(SpatialUpSamplingNearest_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialUpSamplingNearest_shapeCheck)(state, input, NULL, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, NULL, output, 2, &vin, &vout, scale_factor);
}

int THNN_(SpatialUpSamplingNearest_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  int scale_factor)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialUpSamplingNearest_shapeCheck)(state, input, gradOutput, scale_factor, &vin, &vout));
  return THNN_(Resampling_nearest)(state, input, gradOutput, gradInput, 2, &vin, &vout, scale_factor);
}

#endif
