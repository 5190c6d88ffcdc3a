#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/L1Cost.c"
#else

/* Any input shape is valid, so there is no shape check. */

int THNN_(L1Cost_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THTensor_(resize1d)(state, output, 1) == 0) {
    const real *in = THTensor_(data)(x);
    int64_t n = THTensor_(nElement)(input);
    accreal sum = 0;
    for (int64_t i = 0; i < n; i++)
      sum += fabs((accreal)in[i]);
    THTensor_(data)(output)[0] = (real)sum;
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  return rc;
}

/* sign(x), 0 at 0 */
int THNN_(L1Cost_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput)
{
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = (real)((in[i] > 0) - (in[i] < 0));
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  return rc;
}

#endif
