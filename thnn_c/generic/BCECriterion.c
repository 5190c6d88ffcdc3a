#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BCECriterion.c"
#else

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

int THNN_(BCECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                     THTensor *output, bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_(BCECriterion_check)(state, input, target, weights));
  THTensor xTmp = {0}, tTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  const THTensor *w = t && weights ? THTensor_(contiguous)(state, weights, &wTmp) : NULL;
  int rc = -1;
  if (t && (w || !weights) && THTensor_(resize1d)(state, output, 1) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    const real *wt = w ? THTensor_(data)(w) : NULL;
    int64_t n = THTensor_(nElement)(input);
    accreal sum = 0;
    for (int64_t i = 0; i < n; i++) {
      accreal logX = fmax(log((accreal)in[i]), THNN_BCE_MIN_LOG);
      accreal log1mX = fmax(log1p(-(accreal)in[i]), THNN_BCE_MIN_LOG);
      accreal l = -(tg[i] * logX + (1 - (accreal)tg[i]) * log1mX);
      sum += wt ? wt[i] * l : l;
    }
    if (sizeAverage && n > 0)
      sum /= n;
    THTensor_(data)(output)[0] = (real)sum;
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

/* dL/dx = w (x - t) / max(x (1 - x), eps) */
int THNN_(BCECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_(BCECriterion_check)(state, input, target, weights));
  THTensor xTmp = {0}, tTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  const THTensor *w = t && weights ? THTensor_(contiguous)(state, weights, &wTmp) : NULL;
  int rc = -1;
  if (t && (w || !weights) && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    const real *wt = w ? THTensor_(data)(w) : NULL;
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    accreal norm = sizeAverage && n > 0 ? 1.0 / n : 1.0;
    for (int64_t i = 0; i < n; i++) {
      accreal xi = in[i];
      accreal g = norm * (xi - tg[i]) / fmax(xi * (1 - xi), THNN_BCE_EPS);
      gi[i] = (real)(wt ? wt[i] * g : g);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

#undef THNN_BCE_MIN_LOG
#undef THNN_BCE_EPS

#endif
