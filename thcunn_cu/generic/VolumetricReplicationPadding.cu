#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricReplicationPadding.cu"
#else

/* Replicated borders; checks shared with the CPU kernel (thnn_c/generic/VolumetricReplicationPadding.c),
 * the work in generic/Resampling.cu. */
extern "C" int THNN_CPU_(VolumetricReplicationPadding_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            const int64_t pads[6], THVolume *vin, THVolume *vout);

int THNN_(VolumetricReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int pleft, int pright, int ptop, int pbottom, int pfront, int pback)
{
  const int64_t pads[6] = {pleft, pright, ptop, pbottom, pfront, pback};
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(VolumetricReplicationPadding_shapeCheck)(state, input, NULL, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, NULL, output, 3, &vin, &vout, pads, false);
}

int THNN_(VolumetricReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  int pleft, int pright, int ptop, int pbottom, int pfront, int pback)
{
  const int64_t pads[6] = {pleft, pright, ptop, pbottom, pfront, pback};
  THVolume vin, vout;
  TH_TRY(THNN_CPU_(VolumetricReplicationPadding_shapeCheck)(state, input, gradOutput, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, gradOutput, gradInput, 3, &vin, &vout, pads, false);
}

#endif
