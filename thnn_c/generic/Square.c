#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Square.c"
#else

int THNN_(Square_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput)
{
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  return 0;
}

int THNN_(Square_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Square_shapeCheck)(state, input, NULL));
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
    out[i] = in[i] * in[i];
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = 2 x dL/dy */
int THNN_(Square_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput)
{
  TH_TRY(THNN_(Square_shapeCheck)(state, input, gradOutput));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = 2 * in[i] * go[i];
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
