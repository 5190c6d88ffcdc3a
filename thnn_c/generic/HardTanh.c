#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/HardTanh.c"
#else

#include "generic/Pointwise.h"

int THNN_(HardTanh_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      accreal min_val, accreal max_val)
{
  if (!(max_val > min_val))
    return THError(state, "max_val must be greater than min_val, got min_val=%g, max_val=%g", min_val, max_val);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input, arg: min_val and max_val; backward a:
 * gradOutput, b: the input).  A NaN passes through.  dL/dx = dL/dy where
 * min_val < x < max_val, else 0.  In place, the backward pass sees the
 * output as input, which lies strictly inside exactly where the input did. */
THNN_POINTWISE_LOOP(THNN_(HardTanh_forward))
{
  const real lo = (real)arg[0], hi = (real)arg[1];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] < lo ? lo : a[i] > hi ? hi : a[i];
}

THNN_POINTWISE_LOOP(THNN_(HardTanh_backward))
{
  const real lo = (real)arg[0], hi = (real)arg[1];
  for (int64_t i = 0; i < n; i++)
    out[i] = (b[i] <= lo || b[i] >= hi) ? 0 : a[i];
}

int THNN_(HardTanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_(HardTanh_shapeCheck)(state, input, NULL, min_val, max_val));
  const accreal arg[2] = {min_val, max_val};
  return THNN_(Pointwise_map)(state, output, inplace, THNN_(HardTanh_forward), arg, input, NULL, NULL);
}

int THNN_(HardTanh_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_(HardTanh_shapeCheck)(state, input, gradOutput, min_val, max_val));
  const accreal arg[2] = {min_val, max_val};
  return THNN_(Pointwise_map)(state, gradInput, inplace, THNN_(HardTanh_backward), arg, gradOutput, input, NULL);
}

#endif
