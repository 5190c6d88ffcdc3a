#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Abs.c"
#else

#include "generic/Pointwise.h"

int THNN_(Abs_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput)
{
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input; backward a: gradOutput, b: the input).
 * dL/dx = dL/dy * sign(x), with sign(0) = +1 as in Torch7. */
THNN_POINTWISE_LOOP(THNN_(Abs_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] >= 0 ? a[i] : -a[i];
}

THNN_POINTWISE_LOOP(THNN_(Abs_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] >= 0 ? a[i] : -a[i];
}

int THNN_(Abs_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Abs_shapeCheck)(state, input, NULL));
  return THNN_(Pointwise_map)(state, output, false, THNN_(Abs_forward), NULL, input, NULL, NULL);
}

int THNN_(Abs_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput)
{
  TH_TRY(THNN_(Abs_shapeCheck)(state, input, gradOutput));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(Abs_backward), NULL, gradOutput, input, NULL);
}

#endif
