#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMarginCriterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(SoftMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg[0]: the gradient's factor).
 * log(1 + exp(-z)) written so that no exp overflows (Torch7 wrote it
 * directly); d/dx log(1 + exp(-t x)) = -t / (1 + exp(t x)). */
THNN_POINTWISE_SUM(THNN_(SoftMarginCriterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) {
    accreal z = (accreal)a[i] * b[i];
    sum += (z < 0 ? -z : 0) + log1p(exp(-fabs(z)));
  }
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(SoftMarginCriterion_grad))
{
  const accreal norm = arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)(-norm * b[i] / (1 + exp((accreal)a[i] * b[i])));
}

int THNN_(SoftMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                            THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(SoftMarginCriterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(SoftMarginCriterion_sum), NULL, sizeAverage, input, target,
                              NULL);
}

int THNN_(SoftMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                               THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(SoftMarginCriterion_shapeCheck)(state, input, target));
  accreal norm = THNN_(Pointwise_norm)(input, sizeAverage, 1.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(SoftMarginCriterion_grad), &norm, input, target,
                              NULL);
}

#endif
