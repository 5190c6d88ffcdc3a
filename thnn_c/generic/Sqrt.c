#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Sqrt.c"
#else

#include "generic/Pointwise.h"

int THNN_(Sqrt_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output)
{
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, "output", output);
}

/* The loops (a: the input, arg[0]: eps; backward a: gradOutput, b: the output).
 * dL/dx = dL/dy / (2 y), and 0 where y = 0 (where the derivative is infinite). */
THNN_POINTWISE_LOOP(THNN_(Sqrt_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)sqrt(a[i] + arg[0]);
}

THNN_POINTWISE_LOOP(THNN_(Sqrt_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] == 0 ? 0 : a[i] / (2 * b[i]);
}

int THNN_(Sqrt_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal eps)
{
  TH_TRY(THNN_(Sqrt_shapeCheck)(state, input, NULL, NULL));
  return THNN_(Pointwise_map)(state, output, false, THNN_(Sqrt_forward), &eps, input, NULL, NULL);
}

int THNN_(Sqrt_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output)
{
  TH_TRY(THNN_(Sqrt_shapeCheck)(state, input, gradOutput, output));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(Sqrt_backward), NULL, gradOutput, output, NULL);
}

#endif
