#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftPlus.c"
#else

int THNN_(SoftPlus_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output,
                                      accreal beta)
{
  if (!(beta > 0))
    return THError(state, "beta must be > 0, got %g", beta);
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

int THNN_(SoftPlus_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal beta, accreal threshold)
{
  TH_TRY(THNN_(SoftPlus_shapeCheck)(state, input, NULL, NULL, beta));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output);
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++) {
    accreal bx = beta * in[i];
    out[i] = bx > threshold ? in[i] : (real)(log1p(exp(bx)) / beta);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy * sigmoid(beta x), or dL/dy where beta x > threshold.
 * Computed from the input (Torch7 used the output; the input is exact). */
int THNN_(SoftPlus_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, THTensor *output, accreal beta, accreal threshold)
{
  TH_TRY(THNN_(SoftPlus_shapeCheck)(state, input, gradOutput, output, beta));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++) {
      accreal bx = beta * in[i];
      gi[i] = bx > threshold ? go[i] : (real)(go[i] / (1 + exp(-bx)));
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
