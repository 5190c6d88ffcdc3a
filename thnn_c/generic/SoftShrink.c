#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftShrink.c"
#else

#include "generic/Pointwise.h"

int THNN_(SoftShrink_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, accreal lambda)
{
  if (!(lambda >= 0))
    return THError(state, "lambda must be >= 0, got %g", lambda);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input, arg[0]: lambda; backward a: gradOutput, b: the input).
 * dL/dx = dL/dy where |x| > lambda, else 0; NaN * 0 keeps a NaN. */
THNN_POINTWISE_LOOP(THNN_(SoftShrink_forward))
{
  const real l = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] > l ? a[i] - l : a[i] < -l ? a[i] + l : a[i] * 0;
}

THNN_POINTWISE_LOOP(THNN_(SoftShrink_backward))
{
  const real l = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = (b[i] >= -l && b[i] <= l) ? 0 : a[i];
}

int THNN_(SoftShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda)
{
  TH_TRY(THNN_(SoftShrink_shapeCheck)(state, input, NULL, lambda));
  return THNN_(Pointwise_map)(state, output, false, THNN_(SoftShrink_forward), &lambda, input, NULL, NULL);
}

int THNN_(SoftShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, accreal lambda)
{
  TH_TRY(THNN_(SoftShrink_shapeCheck)(state, input, gradOutput, lambda));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(SoftShrink_backward), &lambda, gradOutput, input,
                              NULL);
}

#endif
