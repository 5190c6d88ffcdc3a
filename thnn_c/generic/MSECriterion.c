#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MSECriterion.c"
#else

int THNN_(MSECriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

int THNN_(MSECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                     THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(MSECriterion_shapeCheck)(state, input, target));
  THTensor xTmp = {0}, tTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  int rc = -1;
  if (t && THTensor_(resize1d)(state, output, 1) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    int64_t n = THTensor_(nElement)(input);
    accreal sum = 0;
    for (int64_t i = 0; i < n; i++) {
      accreal d = (accreal)in[i] - tg[i];
      sum += d * d;
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

int THNN_(MSECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(MSECriterion_shapeCheck)(state, input, target));
  THTensor xTmp = {0}, tTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  int rc = -1;
  if (t && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    real norm = (real)(sizeAverage && n > 0 ? 2.0 / n : 2.0);
    for (int64_t i = 0; i < n; i++)
      gi[i] = norm * (in[i] - tg[i]);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  return rc;
}

#endif
