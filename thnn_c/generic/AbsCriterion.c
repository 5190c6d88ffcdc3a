#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/AbsCriterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(AbsCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg[0]: the gradient's factor).
 * As Torch7: the gradient at x == t is +1 (PyTorch's l1_loss uses 0 there). */
THNN_POINTWISE_SUM(THNN_(AbsCriterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++)
    sum += fabs((accreal)a[i] - b[i]);
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(AbsCriterion_grad))
{
  const real norm = (real)arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] - b[i] >= 0 ? norm : -norm;
}

int THNN_(AbsCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                     THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(AbsCriterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(AbsCriterion_sum), NULL, sizeAverage, input, target, NULL);
}

int THNN_(AbsCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(AbsCriterion_shapeCheck)(state, input, target));
  accreal norm = (real)THNN_(Pointwise_norm)(input, sizeAverage, 1.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(AbsCriterion_grad), &norm, input, target, NULL);
}

#endif
