#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Tanh.c"
#else

#include "THLoop.h"

int THNN_(Tanh_shapeCheck)(THNNState *state, THTensor *gradOutput, THTensor *output)
{
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "output", output));
  return 0;
}

/* The loops, on n contiguous elements (vectorized, see THLoop.h). */
TH_VECTOR_CLONES static void THNN_(Tanh_forward)(const real *in, real *out, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    out[i] = THVector_tanh(in[i]);
}

TH_VECTOR_CLONES static void THNN_(Tanh_backward)(const real *go, const real *out, real *gi, int64_t n)
{
  for (int64_t i = 0; i < n; i++)
    gi[i] = go[i] * (1 - out[i] * out[i]);
}

int THNN_(Tanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_(Tanh_shapeCheck)(state, NULL, input));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output);
  int64_t n = THTensor_(nElement)(input);
#pragma omp parallel num_threads(THLoopThreads(n))
  {
    int64_t begin, end;
    THLoopRange(n, &begin, &end);
    THNN_(Tanh_forward)(in + begin, out + begin, end - begin);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(Tanh_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output)
{
  TH_TRY(THNN_(Tanh_shapeCheck)(state, gradOutput, output));
  THTensor gTmp = {0}, yTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y && THTensor_(resizeAs)(state, gradInput, output) == 0) {
    const real *go = THTensor_(data)(g), *out = THTensor_(data)(y);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(output);
#pragma omp parallel num_threads(THLoopThreads(n))
    {
      int64_t begin, end;
      THLoopRange(n, &begin, &end);
      THNN_(Tanh_backward)(go + begin, out + begin, gi + begin, end - begin);
    }
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&yTmp);
  return rc;
}

#endif
