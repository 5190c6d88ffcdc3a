#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MSECriterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(MSECriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg[0]: the gradient's factor). */
THNN_POINTWISE_SUM(THNN_(MSECriterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) {
    accreal d = (accreal)a[i] - b[i];
    sum += d * d;
  }
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(MSECriterion_grad))
{
  const real norm = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = norm * (a[i] - b[i]);
}

int THNN_(MSECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                     THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(MSECriterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(MSECriterion_sum), NULL, sizeAverage, input, target, NULL);
}

int THNN_(MSECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(MSECriterion_shapeCheck)(state, input, target));
  accreal norm = (real)THNN_(Pointwise_norm)(input, sizeAverage, 2.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(MSECriterion_grad), &norm, input, target, NULL);
}

#endif
