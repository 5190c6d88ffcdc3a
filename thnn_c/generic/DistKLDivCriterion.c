#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/DistKLDivCriterion.c"
#else

int THNN_(DistKLDivCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target)
{
  return THTensor_(checkSameNumel)(state, "target", target, "input", input);
}

/* Elements with target <= 0 add nothing (as Torch7; 0 log 0 = 0). */
int THNN_(DistKLDivCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                           THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_(DistKLDivCriterion_shapeCheck)(state, input, target));
  THTensor xTmp = {0}, tTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x ? THTensor_(contiguous)(state, target, &tTmp) : NULL;
  int rc = -1;
  if (t && THTensor_(resize1d)(state, output, 1) == 0) {
    const real *in = THTensor_(data)(x), *tg = THTensor_(data)(t);
    int64_t n = THTensor_(nElement)(input);
    accreal sum = 0;
    for (int64_t i = 0; i < n; i++)
      if (tg[i] > 0)
        sum += (accreal)tg[i] * (log((accreal)tg[i]) - in[i]);
    if (sizeAverage && n > 0)
      sum /= n;
    THTensor_(data)(output)[0] = (real)sum;
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&tTmp);
  return rc;
}

int THNN_(DistKLDivCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                              THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_(DistKLDivCriterion_shapeCheck)(state, input, target));
  THTensor tTmp = {0};
  const THTensor *t = THTensor_(contiguous)(state, target, &tTmp);
  int rc = -1;
  if (t && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *tg = THTensor_(data)(t);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    accreal norm = sizeAverage && n > 0 ? 1.0 / n : 1.0;
    for (int64_t i = 0; i < n; i++)
      gi[i] = tg[i] > 0 ? (real)(-norm * tg[i]) : 0;
    rc = 0;
  }
  THTensor_(release)(&tTmp);
  return rc;
}

#endif
