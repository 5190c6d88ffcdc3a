#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Threshold.c"
#else

#include "THLoop.h"

int THNN_(Threshold_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       accreal threshold, accreal val, bool inplace)
{
  /* in place, the backward pass sees only the output; it can tell which
   * inputs passed the threshold only if the replacement value does not */
  if (inplace && !(val <= threshold))
    return THError(state, "in-place mode needs val <= threshold, got val=%g, threshold=%g", val, threshold);
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  return 0;
}

/* The loops, on n contiguous elements (vectorized, see THLoop.h); out may
 * be in and gi may be go (the in-place modes).  Written as "x <= t" so a NaN,
 * which compares false, passes through with its gradient, as in PyTorch. */
TH_VECTOR_CLONES static void THNN_(Threshold_forward)(const real *in, real *out, int64_t n, real t, real v)
{
  for (int64_t i = 0; i < n; i++)
    out[i] = in[i] <= t ? v : in[i];
}

TH_VECTOR_CLONES static void THNN_(Threshold_backward)(const real *in, const real *go, real *gi, int64_t n,
                                                       real t)
{
  for (int64_t i = 0; i < n; i++) {
    real g = go[i];  /* read unconditionally, so the select needs no branch */
    gi[i] = in[i] <= t ? 0 : g;
  }
}

/* Out-of-place: the result goes to a contiguous output.  In place: into
 * input itself, through a contiguous copy when input is strided. */
int THNN_(Threshold_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_(Threshold_shapeCheck)(state, input, NULL, threshold, val, inplace));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  THTensor *dst = inplace ? (x == input ? input : &xTmp) : output;
  if (!x || (!inplace && THTensor_(resizeAs)(state, output, input) != 0)) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(dst);
  const real t = (real)threshold, v = (real)val;
  int64_t n = THTensor_(nElement)(input);
#pragma omp parallel num_threads(THLoopThreads(n))
  {
    int64_t begin, end;
    THLoopRange(n, &begin, &end);
    THNN_(Threshold_forward)(in + begin, out + begin, end - begin, t, v);
  }
  if (inplace) {
    if (dst != input)
      THTensor_(copy)(input, dst);
    THTensor_(set)(output, input);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy where x > threshold, else 0.  In place, input holds the
 * forward output, and output > threshold <=> input > threshold as long as
 * val <= threshold (checked). */
int THNN_(Threshold_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_(Threshold_shapeCheck)(state, input, gradOutput, threshold, val, inplace));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  THTensor *dst = inplace ? (g == gradOutput ? gradOutput : &gTmp) : gradInput;
  int rc = -1;
  if (g && (inplace || THTensor_(resizeAs)(state, gradInput, input) == 0)) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gi = THTensor_(data)(dst);
    const real t = (real)threshold;
    int64_t n = THTensor_(nElement)(input);
#pragma omp parallel num_threads(THLoopThreads(n))
    {
      int64_t begin, end;
      THLoopRange(n, &begin, &end);
      THNN_(Threshold_backward)(in + begin, go + begin, gi + begin, end - begin, t);
    }
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
