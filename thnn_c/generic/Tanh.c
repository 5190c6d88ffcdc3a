#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Tanh.c"
#else

#include "generic/Pointwise.h"

int THNN_(Tanh_shapeCheck)(THNNState *state, THTensor *gradOutput, THTensor *output)
{
  return THNN_(Pointwise_checkSizes)(state, "output", output, gradOutput, NULL, NULL);
}

/* The loops (a: the input; backward a: gradOutput, b: the output). */
THNN_POINTWISE_LOOP(THNN_(Tanh_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = THVector_tanh(a[i]);
}

THNN_POINTWISE_LOOP(THNN_(Tanh_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] * (1 - b[i] * b[i]);
}

int THNN_(Tanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Tanh_shapeCheck)(state, NULL, input));
  return THNN_(Pointwise_mapBy)(state, output, false, THNN_(Tanh_forward), NULL, input, NULL, NULL, true);
}

int THNN_(Tanh_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output)
{
  TH_TRY(THNN_(Tanh_shapeCheck)(state, gradOutput, output));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(Tanh_backward), NULL, gradOutput, output, NULL);
}

#endif
