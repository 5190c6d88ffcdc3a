#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftPlus.c"
#else

#include "generic/Pointwise.h"

int THNN_(SoftPlus_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output,
                                      accreal beta)
{
  if (!(beta > 0))
    return THError(state, "beta must be > 0, got %g", beta);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, "output", output);
}

/* The loops (a: the input, arg: beta and threshold; backward a: gradOutput,
 * b: the input).  dL/dx = dL/dy * sigmoid(beta x), or dL/dy where beta x >
 * threshold.  Computed from the input (Torch7 used the output; the input is exact). */
THNN_POINTWISE_LOOP(THNN_(SoftPlus_forward))
{
  const accreal beta = arg[0], threshold = arg[1];
  for (int64_t i = 0; i < n; i++) {
    accreal bx = beta * a[i];
    out[i] = bx > threshold ? a[i] : (real)(log1p(exp(bx)) / beta);
  }
}

THNN_POINTWISE_LOOP(THNN_(SoftPlus_backward))
{
  const accreal beta = arg[0], threshold = arg[1];
  for (int64_t i = 0; i < n; i++) {
    accreal bx = beta * b[i];
    out[i] = bx > threshold ? a[i] : (real)(a[i] / (1 + exp(-bx)));
  }
}

int THNN_(SoftPlus_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal beta, accreal threshold)
{
  TH_TRY(THNN_(SoftPlus_shapeCheck)(state, input, NULL, NULL, beta));
  const accreal arg[2] = {beta, threshold};
  return THNN_(Pointwise_mapBy)(state, output, false, THNN_(SoftPlus_forward), arg, input, NULL, NULL, true);
}

int THNN_(SoftPlus_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, THTensor *output, accreal beta, accreal threshold)
{
  TH_TRY(THNN_(SoftPlus_shapeCheck)(state, input, gradOutput, output, beta));
  const accreal arg[2] = {beta, threshold};
  return THNN_(Pointwise_mapBy)(state, gradInput, false, THNN_(SoftPlus_backward), arg, gradOutput, input, NULL, true);
}

#endif
