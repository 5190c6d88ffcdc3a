#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LeakyReLU.c"
#else

#include "generic/Pointwise.h"

int THNN_(LeakyReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       accreal negval, bool inplace)
{
  /* in place, the backward pass sees only the output: y > 0 exactly where
   * x > 0 needs a non-negative slope */
  if (inplace && !(negval >= 0))
    return THError(state, "in-place mode needs negval >= 0, got negval=%g", negval);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input, arg[0]: negval; backward a: gradOutput, b: the
 * input).  dL/dx = dL/dy where x > 0, else negval * dL/dy; in place the
 * backward pass sees the output, positive exactly where the input was. */
THNN_POINTWISE_LOOP(THNN_(LeakyReLU_forward))
{
  const real slope = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] > 0 ? a[i] : a[i] * slope;
}

THNN_POINTWISE_LOOP(THNN_(LeakyReLU_backward))
{
  const real slope = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] > 0 ? a[i] : a[i] * slope;
}

int THNN_(LeakyReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal negval, bool inplace)
{
  TH_TRY(THNN_(LeakyReLU_shapeCheck)(state, input, NULL, negval, inplace));
  return THNN_(Pointwise_map)(state, output, inplace, THNN_(LeakyReLU_forward), &negval, input, NULL, NULL);
}

int THNN_(LeakyReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal negval, bool inplace)
{
  TH_TRY(THNN_(LeakyReLU_shapeCheck)(state, input, gradOutput, negval, inplace));
  return THNN_(Pointwise_map)(state, gradInput, inplace, THNN_(LeakyReLU_backward), &negval, gradOutput, input,
                              NULL);
}

#endif
