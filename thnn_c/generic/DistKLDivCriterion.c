#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/DistKLDivCriterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(DistKLDivCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg[0]: the gradient's factor).
 * Elements with target <= 0 add nothing (as Torch7; 0 log 0 = 0). */
THNN_POINTWISE_SUM(THNN_(DistKLDivCriterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++)
    if (b[i] > 0)
      sum += (accreal)b[i] * (log((accreal)b[i]) - a[i]);
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(DistKLDivCriterion_grad))
{
  const accreal norm = arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] > 0 ? (real)(-norm * b[i]) : 0;
}

int THNN_(DistKLDivCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                           THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(DistKLDivCriterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(DistKLDivCriterion_sum), NULL, sizeAverage, input, target,
                              NULL);
}

int THNN_(DistKLDivCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                              THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(DistKLDivCriterion_shapeCheck)(state, input, target));
  accreal norm = THNN_(Pointwise_norm)(input, sizeAverage, 1.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(DistKLDivCriterion_grad), &norm, input, target,
                              NULL);
}

#endif
