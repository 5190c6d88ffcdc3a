#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Sigmoid.c"
#else

#include "generic/Pointwise.h"

int THNN_(Sigmoid_shapeCheck)(THNNState *state, THTensor *gradOutput, THTensor *output)
{
  return THNN_(Pointwise_checkSizes)(state, "output", output, gradOutput, NULL, NULL);
}

/* The loops (a: the input; backward a: gradOutput, b: the output).  exp(-x)
 * overflows to +inf for very negative x, which gives the right limit 0. */
THNN_POINTWISE_LOOP(THNN_(Sigmoid_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = 1 / (1 + THVector_exp(-a[i]));
}

THNN_POINTWISE_LOOP(THNN_(Sigmoid_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] * (1 - b[i]) * b[i];
}

int THNN_(Sigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Sigmoid_shapeCheck)(state, NULL, input));
  return THNN_(Pointwise_mapBy)(state, output, false, THNN_(Sigmoid_forward), NULL, input, NULL, NULL, true);
}

int THNN_(Sigmoid_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput,
                                   THTensor *output)
{
  TH_TRY(THNN_(Sigmoid_shapeCheck)(state, gradOutput, output));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(Sigmoid_backward), NULL, gradOutput, output, NULL);
}

#endif
