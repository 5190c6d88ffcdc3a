#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Sqrt.c"
#else

int THNN_(Sqrt_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output)
{
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

int THNN_(Sqrt_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal eps)
{
  TH_TRY(THNN_(Sqrt_shapeCheck)(state, input, NULL, NULL));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output);
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)sqrt(in[i] + eps);
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy / (2 y), and 0 where y = 0 (where the derivative is infinite) */
int THNN_(Sqrt_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output)
{
  TH_TRY(THNN_(Sqrt_shapeCheck)(state, input, gradOutput, output));
  THTensor gTmp = {0}, yTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *go = THTensor_(data)(g), *out = THTensor_(data)(y);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = out[i] == 0 ? 0 : go[i] / (2 * out[i]);
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&yTmp);
  return rc;
}

#endif
