#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ELU.c"
#else

int THNN_(ELU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output,
                                 accreal alpha, bool inplace)
{
  /* in place, the backward pass sees only the output, which tells the two
   * branches apart (y > 0 exactly where x > 0) only when alpha >= 0 */
  if (inplace && !(alpha >= 0))
    return THError(state, "in-place mode needs alpha >= 0, got alpha=%g", alpha);
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

int THNN_(ELU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_(ELU_shapeCheck)(state, input, NULL, NULL, alpha, inplace));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  THTensor *dst = inplace ? (x == input ? input : &xTmp) : output;
  if (!x || (!inplace && THTensor_(resizeAs)(state, output, input) != 0)) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(dst);
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++)
    out[i] = in[i] > 0 ? in[i] : (real)(alpha * expm1(in[i]));
  if (inplace) {
    if (dst != input)
      THTensor_(copy)(input, dst);
    THTensor_(set)(output, input);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy where x > 0, else dL/dy * alpha * exp(x).  Out of place
 * from the input; in place (input then holds y) as dL/dy * (y + alpha). */
int THNN_(ELU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                               THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_(ELU_shapeCheck)(state, input, gradOutput, output, alpha, inplace));
  THTensor vTmp = {0}, gTmp = {0};
  const THTensor *v = THTensor_(contiguous)(state, inplace ? output : input, &vTmp);
  const THTensor *g = v ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  THTensor *dst = inplace ? (g == gradOutput ? gradOutput : &gTmp) : gradInput;
  int rc = -1;
  if (g && (inplace || THTensor_(resizeAs)(state, gradInput, input) == 0)) {
    const real *val = THTensor_(data)(v), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(dst);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++) {
      if (val[i] > 0)
        gi[i] = go[i];
      else
        gi[i] = (real)(go[i] * (inplace ? val[i] + alpha : alpha * exp(val[i])));
    }
    if (inplace) {
      if (dst != gradOutput)
        THTensor_(copy)(gradOutput, dst);
      THTensor_(set)(gradInput, gradOutput);
    }
    rc = 0;
  }
  THTensor_(release)(&vTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
