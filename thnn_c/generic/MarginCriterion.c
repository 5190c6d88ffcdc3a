#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MarginCriterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(MarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg: the margin, then the gradient's factor). */
THNN_POINTWISE_SUM(THNN_(MarginCriterion_sum))
{
  const accreal margin = arg[0];
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) {
    accreal z = margin - (accreal)a[i] * b[i];
    if (z > 0)
      sum += z;
  }
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(MarginCriterion_grad))
{
  const accreal margin = arg[0], norm = arg[1];
  for (int64_t i = 0; i < n; i++)
    out[i] = margin - (accreal)a[i] * b[i] > 0 ? (real)(-norm * b[i]) : 0;
}

int THNN_(MarginCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *output, bool sizeAverage, accreal margin)
{
  TH_TRY(THNN_(MarginCriterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(MarginCriterion_sum), &margin, sizeAverage, input, target, NULL);
}

int THNN_(MarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                           THTensor *gradInput, bool sizeAverage, accreal margin)
{
  TH_TRY(THNN_(MarginCriterion_shapeCheck)(state, input, target));
  const accreal arg[2] = {margin, THNN_(Pointwise_norm)(input, sizeAverage, 1.0)};
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(MarginCriterion_grad), arg, input, target, NULL);
}

#endif
