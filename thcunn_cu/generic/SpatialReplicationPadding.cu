#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialReplicationPadding.cu"
#else

/* Replicated borders; checks shared with the CPU kernel (thnn_c/generic/SpatialReplicationPadding.c),
 * the work in generic/Resampling.cu. */
extern "C" int THNN_CPU_(SpatialReplicationPadding_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            const int64_t pads[6], THVolume *vin, THVolume *vout);

int THNN_(SpatialReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int pad_l, int pad_r, int pad_t, int pad_b)
{
  const int64_t pads[6] = {pad_l, pad_r, pad_t, pad_b, 0, 0};
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialReplicationPadding_shapeCheck)(state, input, NULL, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, NULL, output, 2, &vin, &vout, pads, false);
}

int THNN_(SpatialReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  int pad_l, int pad_r, int pad_t, int pad_b)
{
  const int64_t pads[6] = {pad_l, pad_r, pad_t, pad_b, 0, 0};
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(SpatialReplicationPadding_shapeCheck)(state, input, gradOutput, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, gradOutput, gradInput, 2, &vin, &vout, pads, false);
}

#endif
