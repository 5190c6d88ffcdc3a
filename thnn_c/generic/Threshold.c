#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Threshold.c"
#else

#include "generic/Pointwise.h"

int THNN_(Threshold_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       accreal threshold, accreal val, bool inplace)
{
  /* in place, the backward pass sees only the output; it can tell which
   * inputs passed the threshold only if the replacement value does not */
  if (inplace && !(val <= threshold))
    return THError(state, "in-place mode needs val <= threshold, got val=%g, threshold=%g", val, threshold);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, NULL, NULL);
}

/* The loops (a: the input, arg: threshold and val; backward a: gradOutput, b:
 * the input).  Written as "x <= t" so a NaN, which compares false, passes
 * through with its gradient, as in PyTorch.  In place, the forward pass
 * writes the input and the backward pass gradOutput; the backward pass then
 * sees the output as input, and output > threshold <=> input > threshold as
 * long as val <= threshold (checked). */
THNN_POINTWISE_LOOP(THNN_(Threshold_forward))
{
  const real t = (real)arg[0], v = (real)arg[1];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] <= t ? v : a[i];
}

/* The forward loop on a + b (a: the input, b: the other summand). */
THNN_POINTWISE_LOOP(THNN_(Threshold_addForward))
{
  const real t = (real)arg[0], v = (real)arg[1];
  for (int64_t i = 0; i < n; i++) {
    real s = a[i] + b[i];
    out[i] = s <= t ? v : s;
  }
}

THNN_POINTWISE_LOOP(THNN_(Threshold_backward))
{
  const real t = (real)arg[0];
  for (int64_t i = 0; i < n; i++) {
    real g = a[i];  /* read unconditionally, so the select needs no branch */
    out[i] = b[i] <= t ? 0 : g;
  }
}

int THNN_(Threshold_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_(Threshold_shapeCheck)(state, input, NULL, threshold, val, inplace));
  const accreal arg[2] = {threshold, val};
  return THNN_(Pointwise_map)(state, output, inplace, THNN_(Threshold_forward), arg, input, NULL, NULL);
}

/* updateOutput of input + other (one pass: CAddTable then an in-place ReLU). */
int THNN_(Threshold_addUpdateOutput)(THNNState *state, THTensor *input, THTensor *other, THTensor *output,
                                     accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_(Threshold_shapeCheck)(state, input, NULL, threshold, val, inplace));
  TH_TRY(THNN_(Pointwise_checkSizes)(state, "input", input, NULL, "other", other));
  const accreal arg[2] = {threshold, val};
  return THNN_(Pointwise_map)(state, output, inplace, THNN_(Threshold_addForward), arg, input, other, NULL);
}

/* dL/dx = dL/dy where x > threshold, else 0. */
int THNN_(Threshold_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_(Threshold_shapeCheck)(state, input, gradOutput, threshold, val, inplace));
  return THNN_(Pointwise_map)(state, gradInput, inplace, THNN_(Threshold_backward), &threshold, gradOutput, input,
                              NULL);
}

#endif
