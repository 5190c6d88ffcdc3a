#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialReplicationPadding.c"
#else

#include "generic/Resampling.h"

/* Output column j copies input column u = j - pad_l, clamped to the
 * first or last column when u falls outside the input (likewise for rows);
 * a negative pad crops.  The work is shared with the other padding layers
 * (generic/Resampling.h). */

int THNN_(SpatialReplicationPadding_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       const int64_t pads[6], THVolume *vin, THVolume *vout)
{
  return THNN_(Resampling_paddingCheck)(state, input, gradOutput, 2, pads, TH_PAD_REPLICATE, vin, vout);
}

int THNN_(SpatialReplicationPadding_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  int pad_l, int pad_r, int pad_t, int pad_b)
{
  const int64_t pads[6] = {pad_l, pad_r, pad_t, pad_b, 0, 0};
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialReplicationPadding_shapeCheck)(state, input, NULL, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, NULL, output, 2, &vin, &vout, pads, TH_PAD_REPLICATE);
}

int THNN_(SpatialReplicationPadding_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, int pad_l, int pad_r, int pad_t, int pad_b)
{
  const int64_t pads[6] = {pad_l, pad_r, pad_t, pad_b, 0, 0};
  THVolume vin, vout;
  TH_TRY(THNN_(SpatialReplicationPadding_shapeCheck)(state, input, gradOutput, pads, &vin, &vout));
  return THNN_(Resampling_pad)(state, input, gradOutput, gradInput, 2, &vin, &vout, pads, TH_PAD_REPLICATE);
}

#endif
