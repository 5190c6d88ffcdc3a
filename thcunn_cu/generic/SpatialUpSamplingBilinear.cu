#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialUpSamplingBilinear.cu"
#else

/* Bilinear up-sampling with the corners aligned; checks shared with the CPU kernel
 * (thnn_c/generic/SpatialUpSamplingBilinear.c), the work in generic/Resampling.cu. */
extern "C" int THNN_CPU_(SpatialUpSamplingBilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            int outputHeight, int outputWidth, THVolume *vin, THVolume *vout);

int THNN_(SpatialUpSamplingBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialUpSamplingBilinear_shapeCheck)(state, input, NULL, outputHeight, outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, NULL, output, 2, &vin, &vout);
}

int THNN_(SpatialUpSamplingBilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialUpSamplingBilinear_shapeCheck)(state, input, gradOutput, outputHeight, outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, gradOutput, gradInput, 2, &vin, &vout);
}

#endif
