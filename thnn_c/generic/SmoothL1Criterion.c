#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SmoothL1Criterion.c"
#else

#include "generic/Pointwise.h"

int THNN_(SmoothL1Criterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* The formulas (a: the input, b: the target; arg[0]: the gradient's factor). */
THNN_POINTWISE_SUM(THNN_(SmoothL1Criterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) {
    accreal z = fabs((accreal)a[i] - b[i]);
    sum += z < 1 ? 0.5 * z * z : z - 0.5;
  }
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(SmoothL1Criterion_grad))
{
  const accreal norm = arg[0];
  for (int64_t i = 0; i < n; i++) {
    accreal d = (accreal)a[i] - b[i];
    out[i] = (real)(norm * (d < -1 ? -1 : d > 1 ? 1 : d));
  }
}

int THNN_(SmoothL1Criterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                          THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(SmoothL1Criterion_shapeCheck)(state, input, target));
  return THNN_(Pointwise_sum)(state, output, THNN_(SmoothL1Criterion_sum), NULL, sizeAverage, input, target, NULL);
}

int THNN_(SmoothL1Criterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                             THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(SmoothL1Criterion_shapeCheck)(state, input, target));
  accreal norm = THNN_(Pointwise_norm)(input, sizeAverage, 1.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(SmoothL1Criterion_grad), &norm, input, target, NULL);
}

#endif
