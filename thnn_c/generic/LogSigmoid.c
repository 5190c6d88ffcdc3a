#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSigmoid.c"
#else

#include "generic/Pointwise.h"

/* With e = exp(-|x|) (never overflows):
 *   log sigmoid(x) = min(x, 0) - log(1 + e)
 *   d/dx           = sigmoid(-x) = e / (1 + e) for x >= 0, 1 / (1 + e) for x < 0
 * The forward pass keeps e in buffer for the backward pass. */
int THNN_(LogSigmoid_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                        THTensor *buffer)
{
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, "buffer", buffer);
}

/* The loops: e from the input (a); the output from the input and e (a, b);
 * backward from gradOutput, the input and e (a, b, c). */
THNN_POINTWISE_LOOP(THNN_(LogSigmoid_exp))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)exp(-fabs(a[i]));
}

THNN_POINTWISE_LOOP(THNN_(LogSigmoid_forward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)((a[i] < 0 ? a[i] : 0) - log1p(b[i]));
}

THNN_POINTWISE_LOOP(THNN_(LogSigmoid_backward))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] * (b[i] >= 0 ? c[i] : 1) / (1 + c[i]);
}

int THNN_(LogSigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *buffer)
{
  TH_TRY(THNN_(LogSigmoid_shapeCheck)(state, input, NULL, NULL));
  TH_TRY(THNN_(Pointwise_mapBy)(state, buffer, false, THNN_(LogSigmoid_exp), NULL, input, NULL, NULL, true));
  return THNN_(Pointwise_mapBy)(state, output, false, THNN_(LogSigmoid_forward), NULL, input, buffer, NULL, true);
}

int THNN_(LogSigmoid_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *buffer)
{
  TH_TRY(THNN_(LogSigmoid_shapeCheck)(state, input, gradOutput, buffer));
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(LogSigmoid_backward), NULL, gradOutput, input, buffer);
}

#endif
