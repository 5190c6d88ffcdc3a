#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/RReLU.c"
#else

/* In training the slope of each element comes from noise (drawn by the
 * caller); in evaluation every x <= 0 gets the mean slope (lower + upper) / 2. */

/* The forward pass writes noise in place, so it must be contiguous there;
 * the backward pass only reads it (gradOutput given), through a copy if need be. */
static int THNN_(RReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *noise,
                                   accreal lower, accreal upper, bool train)
{
  /* non-negative slopes keep the sign, so in place the output tells where x > 0 */
  if (!(lower >= 0 && upper >= lower))
    return THError(state, "the bounds must satisfy 0 <= lower <= upper, got lower=%g, upper=%g", lower, upper);
  if (train) {
    if (!noise)
      return THError(state, "noise is required in training mode (the caller draws the slopes into it)");
    TH_TRY(THTensor_(checkSameSize)(state, "noise", noise, "input", input));
    if (!gradOutput)
      TH_TRY(THTensor_(checkContiguous)(state, "noise", noise));
  }
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  return 0;
}

int THNN_(RReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *noise,
                              accreal lower, accreal upper, bool train, bool inplace)
{
  TH_TRY(THNN_(RReLU_shapeCheck)(state, input, NULL, noise, lower, upper, train));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  THTensor *dst = inplace ? (x == input ? input : &xTmp) : output;
  if (!x || (!inplace && THTensor_(resizeAs)(state, output, input) != 0)) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(dst);
  real *slope = train ? THTensor_(data)(noise) : NULL;
  const real meanSlope = (real)((lower + upper) / 2);
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++) {
    if (train && in[i] > 0)
      slope[i] = 1;
    out[i] = in[i] > 0 ? in[i] : in[i] * (train ? slope[i] : meanSlope);
  }
  if (inplace) {
    if (dst != input)
      THTensor_(copy)(input, dst);
    THTensor_(set)(output, input);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* Training: dL/dx = dL/dy * noise (the slope used at each element).
 * Evaluation: dL/dx = dL/dy where x > 0, else dL/dy * (lower + upper) / 2. */
int THNN_(RReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                 THTensor *noise, accreal lower, accreal upper, bool train, bool inplace)
{
  TH_TRY(THNN_(RReLU_shapeCheck)(state, input, gradOutput, noise, lower, upper, train));
  THTensor xTmp = {0}, gTmp = {0}, nTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  const THTensor *slopes = g && train ? THTensor_(contiguous)(state, noise, &nTmp) : NULL;
  THTensor *dst = inplace ? (g == gradOutput ? gradOutput : &gTmp) : gradInput;
  int rc = -1;
  if (g && (!train || slopes) && (inplace || THTensor_(resizeAs)(state, gradInput, input) == 0)) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    const real *slope = train ? THTensor_(data)(slopes) : NULL;
    real *gi = THTensor_(data)(dst);
    const real meanSlope = (real)((lower + upper) / 2);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = train ? go[i] * slope[i] : in[i] > 0 ? go[i] : go[i] * meanSlope;
    if (inplace) {
      if (dst != gradOutput)
        THTensor_(copy)(gradOutput, dst);
      THTensor_(set)(gradInput, gradOutput);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&nTmp);
  return rc;
}

#endif
