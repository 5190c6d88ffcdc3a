#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMarginCriterion.c"
#else

int THNN_(SoftMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* log(1 + exp(-z)) written so that no exp overflows (Torch7 wrote it directly). */
int THNN_(SoftMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                            THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(SoftMarginCriterion_shapeCheck)(state, input, target));
  THTensor xTmp = {0}, tTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  int rc = -1;
  if (t && THTensor_(resize1d)(state, output, 1) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    int64_t n = THTensor_(nElement)(input);
    accreal sum = 0;
    for (int64_t i = 0; i < n; i++) {
      accreal z = (accreal)in[i] * tg[i];
      sum += (z < 0 ? -z : 0) + log1p(exp(-fabs(z)));
    }
    if (sizeAverage && n > 0)
      sum /= n;
    THTensor_(data)(output)[0] = (real)sum;
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  return rc;
}

/* d/dx log(1 + exp(-t x)) = -t / (1 + exp(t x)) */
int THNN_(SoftMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                               THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(SoftMarginCriterion_shapeCheck)(state, input, target));
  THTensor xTmp = {0}, tTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  int rc = -1;
  if (t && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    accreal norm = sizeAverage && n > 0 ? 1.0 / n : 1.0;
    for (int64_t i = 0; i < n; i++)
      gi[i] = (real)(-norm * tg[i] / (1 + exp((accreal)in[i] * tg[i])));
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  return rc;
}

#endif
