#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricUpSamplingTrilinear.cu"
#else

/* Trilinear up-sampling with the corners aligned; checks shared with the CPU kernel
 * (thnn_c/generic/VolumetricUpSamplingTrilinear.c), the work in generic/Resampling.cu. */
extern "C" int THNN_CPU_(VolumetricUpSamplingTrilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            int outputDepth, int outputHeight, int outputWidth, THVolume *vin, THVolume *vout);

int THNN_(VolumetricUpSamplingTrilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int outputDepth, int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(VolumetricUpSamplingTrilinear_shapeCheck)(state, input, NULL, outputDepth, outputHeight, outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, NULL, output, 3, &vin, &vout);
}

int THNN_(VolumetricUpSamplingTrilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  int outputDepth, int outputHeight, int outputWidth)
{
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(VolumetricUpSamplingTrilinear_shapeCheck)(state, input, gradOutput, outputDepth, outputHeight, outputWidth, &vin, &vout));
  return THNN_(Resampling_linear)(state, input, gradOutput, gradInput, 3, &vin, &vout);
}

#endif
