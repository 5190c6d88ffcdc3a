#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/HardShrink.c"
#else

#include "generic/Pointwise.h"

int THNN_(HardShrink_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput)
{
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input, arg[0]: lambda; backward a: gradOutput, b: the input).
 * dL/dx = dL/dy where |x| > lambda, else 0; a NaN passes through. */
THNN_POINTWISE_LOOP(THNN_(HardShrink_forward))
{
  const real l = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = (a[i] >= -l && a[i] <= l) ? 0 : a[i];
}

THNN_POINTWISE_LOOP(THNN_(HardShrink_backward))
{
  const real l = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = (b[i] >= -l && b[i] <= l) ? 0 : a[i];
}

int THNN_(HardShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda)
{
  TH_TRY(THNN_(HardShrink_shapeCheck)(state, input, NULL));
  return THNN_(Pointwise_map)(state, output, false, THNN_(HardShrink_forward), &lambda, input, NULL, NULL);
}

int THNN_(HardShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, accreal lambda)
{
  TH_TRY(THNN_(HardShrink_shapeCheck)(state, input, gradOutput));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(HardShrink_backward), &lambda, gradOutput, input,
                              NULL);
}

#endif
