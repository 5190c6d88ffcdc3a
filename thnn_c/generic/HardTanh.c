#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/HardTanh.c"
#else

int THNN_(HardTanh_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      accreal min_val, accreal max_val)
{
  if (!(max_val > min_val))
    return THError(state, "max_val must be greater than min_val, got min_val=%g, max_val=%g", min_val, max_val);
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  return 0;
}

int THNN_(HardTanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_(HardTanh_shapeCheck)(state, input, NULL, min_val, max_val));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  THTensor *dst = inplace ? (x == input ? input : &xTmp) : output;
  if (!x || (!inplace && THTensor_(resizeAs)(state, output, input) != 0)) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(dst);
  const real lo = (real)min_val, hi = (real)max_val;
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++)
    out[i] = in[i] < lo ? lo : in[i] > hi ? hi : in[i];   /* NaN passes through */
  if (inplace) {
    if (dst != input)
      THTensor_(copy)(input, dst);
    THTensor_(set)(output, input);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy where min_val < x < max_val, else 0.  In place, input holds
 * the output, which lies strictly inside exactly where the input did. */
int THNN_(HardTanh_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_(HardTanh_shapeCheck)(state, input, gradOutput, min_val, max_val));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  THTensor *dst = inplace ? (g == gradOutput ? gradOutput : &gTmp) : gradInput;
  int rc = -1;
  if (g && (inplace || THTensor_(resizeAs)(state, gradInput, input) == 0)) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(dst);
    const real lo = (real)min_val, hi = (real)max_val;
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = (in[i] <= lo || in[i] >= hi) ? 0 : go[i];
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
