#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricReplicationPadding.c"
#else

#include "generic/Resampling.h"

/* SpatialReplicationPadding with a third dim, time: output frame a copies
 * input frame a - pfront clamped into the input (a negative pad crops).
 * The work is shared with the other padding layers (generic/Resampling.h). */

int THNN_(VolumetricReplicationPadding_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          const int64_t pads[6], THVolume *vin, THVolume *vout)
{
  return THNN_(Resampling_paddingCheck)(state, input, gradOutput, 3, pads, TH_PAD_REPLICATE, vin, vout);
}

int THNN_(VolumetricReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                     int pleft, int pright, int ptop, int pbottom,
                                                     int pfront, int pback)
{
  const int64_t pads[6] = {pleft, pright, ptop, pbottom, pfront, pback};
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricReplicationPadding_shapeCheck)(state, input, NULL, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, NULL, output, 3, &vin, &vout, pads, TH_PAD_REPLICATE);
}

int THNN_(VolumetricReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradInput, int pleft, int pright, int ptop,
                                                        int pbottom, int pfront, int pback)
{
  const int64_t pads[6] = {pleft, pright, ptop, pbottom, pfront, pback};
  THVolume vin, vout;
  TH_TRY(THNN_(VolumetricReplicationPadding_shapeCheck)(state, input, gradOutput, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, gradOutput, gradInput, 3, &vin, &vout, pads, TH_PAD_REPLICATE);
}

#endif
