#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BCECriterion.c"
#else

#include "generic/Pointwise.h"

/* Logs are clamped at -100 and the gradient's denominator x (1 - x) at 1e-12,
 * as PyTorch does, so probabilities of exactly 0 or 1 stay finite. */
#define THNN_BCE_MIN_LOG (-100.0)
#define THNN_BCE_EPS 1e-12

/* The shapes (shared with the CUDA twin, which checks the input values on the device). */
int THNN_(BCECriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target, THTensor *weights)
{
  TH_TRY(THTensor_(checkSameNumel)(state, "target", target, "input", input));
  if (weights)
    TH_TRY(THTensor_(checkSameNumel)(state, "weights", weights, "input", input));
  return 0;
}

/* Shapes, and every input value a probability in [0, 1]. */
static int THNN_(BCECriterion_check)(THNNState *state, THTensor *input, THTensor *target, THTensor *weights)
{
  TH_TRY(THNN_(BCECriterion_shapeCheck)(state, input, target, weights));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  const real *in = THTensor_(data)(x);
  int64_t n = THTensor_(nElement)(input), bad = -1;
  for (int64_t i = 0; i < n && bad < 0; i++)
    if (!(in[i] >= 0 && in[i] <= 1))
      bad = i;
  double value = bad >= 0 ? in[bad] : 0;
  THTensor_(release)(&xTmp);
  if (bad >= 0)
    return THError(state, "input must hold probabilities in [0, 1], got %g at flat index %lld",
                   value, (long long)bad);
  return 0;
}

/* The formulas (a: the input, b: the target, c: the weights or NULL; arg[0]:
 * the gradient's factor).  dL/dx = w (x - t) / max(x (1 - x), eps). */
THNN_POINTWISE_SUM(THNN_(BCECriterion_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) {
    accreal logX = fmax(log((accreal)a[i]), THNN_BCE_MIN_LOG);
    accreal log1mX = fmax(log1p(-(accreal)a[i]), THNN_BCE_MIN_LOG);
    accreal l = -(b[i] * logX + (1 - (accreal)b[i]) * log1mX);
    sum += c ? c[i] * l : l;
  }
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(BCECriterion_grad))
{
  const accreal norm = arg[0];
  for (int64_t i = 0; i < n; i++) {
    accreal xi = a[i];
    accreal g = norm * (xi - b[i]) / fmax(xi * (1 - xi), THNN_BCE_EPS);
    out[i] = (real)(c ? c[i] * g : g);
  }
}

int THNN_(BCECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                     THTensor *output, bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_(BCECriterion_check)(state, input, target, weights));
  return THNN_(Pointwise_sum)(state, output, THNN_(BCECriterion_sum), NULL, sizeAverage, input, target, weights);
}

int THNN_(BCECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_(BCECriterion_check)(state, input, target, weights));
  accreal norm = THNN_(Pointwise_norm)(input, sizeAverage, 1.0);
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(BCECriterion_grad), &norm, input, target, weights);
}

#endif
