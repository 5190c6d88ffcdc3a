#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ELU.c"
#else

#include "generic/Pointwise.h"

int THNN_(ELU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output,
                                 accreal alpha, bool inplace)
{
  /* in place, the backward pass sees only the output, which tells the two
   * branches apart (y > 0 exactly where x > 0) only when alpha >= 0 */
  if (inplace && !(alpha >= 0))
    return THError(state, "in-place mode needs alpha >= 0, got alpha=%g", alpha);
  return THNN_(Pointwise_checkSizes)(state, "input", input, gradOutput, "output", output);
}

/* The loops (a: the input, arg[0]: alpha; backward a: gradOutput, b: the
 * input, or in place the output).  dL/dx = dL/dy where x > 0, else
 * dL/dy * alpha * exp(x); in place, from the output y, as dL/dy * (y + alpha). */
THNN_POINTWISE_LOOP(THNN_(ELU_forward))
{
  const accreal alpha = arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = a[i] > 0 ? a[i] : (real)(alpha * expm1(a[i]));
}

THNN_POINTWISE_LOOP(THNN_(ELU_backward))
{
  const accreal alpha = arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] > 0 ? a[i] : (real)(a[i] * (alpha * exp(b[i])));
}

THNN_POINTWISE_LOOP(THNN_(ELU_backwardInPlace))
{
  const accreal alpha = arg[0];
  for (int64_t i = 0; i < n; i++)
    out[i] = b[i] > 0 ? a[i] : (real)(a[i] * (b[i] + alpha));
}

int THNN_(ELU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_(ELU_shapeCheck)(state, input, NULL, NULL, alpha, inplace));
  return THNN_(Pointwise_mapBy)(state, output, inplace, THNN_(ELU_forward), &alpha, input, NULL, NULL, true);
}

int THNN_(ELU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                               THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_(ELU_shapeCheck)(state, input, gradOutput, output, alpha, inplace));
  return THNN_(Pointwise_mapBy)(state, gradInput, inplace, inplace ? THNN_(ELU_backwardInPlace) : THNN_(ELU_backward),
                                &alpha, gradOutput, inplace ? output : input, NULL, !inplace);
}

#endif
