#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Square.c"
#else

#include "generic/Pointwise.h"

int THNN_(Square_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput)
{
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input; backward a: gradOutput, b: the input).
 * dL/dx = 2 x dL/dy */
THNN_POINTWISE_LOOP(THNN_(Square_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] * a[i];
}

THNN_POINTWISE_LOOP(THNN_(Square_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = 2 * b[i] * a[i];
}

int THNN_(Square_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Square_shapeCheck)(state, input, NULL));
  return THNN_(Pointwise_map)(state, output, false, THNN_(Square_forward), NULL, input, NULL, NULL);
}

int THNN_(Square_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput)
{
  TH_TRY(THNN_(Square_shapeCheck)(state, input, gradOutput));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(Square_backward), NULL, gradOutput, input, NULL);
}

#endif
