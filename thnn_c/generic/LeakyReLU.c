#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LeakyReLU.c"
#else

int THNN_(LeakyReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       accreal negval, bool inplace)
{
  /* in place, the backward pass sees only the output: y > 0 exactly where
   * x > 0 needs a non-negative slope */
  if (inplace && !(negval >= 0))
    return THError(state, "in-place mode needs negval >= 0, got negval=%g", negval);
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  return 0;
}

int THNN_(LeakyReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal negval, bool inplace)
{
  TH_TRY(THNN_(LeakyReLU_shapeCheck)(state, input, NULL, negval, inplace));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  THTensor *dst = inplace ? (x == input ? input : &xTmp) : output;
  if (!x || (!inplace && THTensor_(resizeAs)(state, output, input) != 0)) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(dst);
  const real slope = (real)negval;
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++)
    out[i] = in[i] > 0 ? in[i] : in[i] * slope;
  if (inplace) {
    if (dst != input)
      THTensor_(copy)(input, dst);
    THTensor_(set)(output, input);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy where x > 0, else negval * dL/dy */
int THNN_(LeakyReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal negval, bool inplace)
{
  TH_TRY(THNN_(LeakyReLU_shapeCheck)(state, input, gradOutput, negval, inplace));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  THTensor *dst = inplace ? (g == gradOutput ? gradOutput : &gTmp) : gradInput;
  int rc = -1;
  if (g && (inplace || THTensor_(resizeAs)(state, gradInput, input) == 0)) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(dst);
    const real slope = (real)negval;
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = in[i] > 0 ? go[i] : go[i] * slope;
    if (inplace) {
      if (dst != gradOutput)
        THTensor_(copy)(gradOutput, dst);
      THTensor_(set)(gradInput, gradOutput);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
