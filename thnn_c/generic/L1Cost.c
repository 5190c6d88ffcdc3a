#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/L1Cost.c"
#else

#include "generic/Pointwise.h"

/* Any input shape is valid, so there is no shape check.  The formulas
 * (a: the input): the sum of |x|, and its gradient sign(x), 0 at 0. */
THNN_POINTWISE_SUM(THNN_(L1Cost_sum))
{
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++)
    sum += fabs((accreal)a[i]);
  return sum;
}

THNN_POINTWISE_LOOP(THNN_(L1Cost_grad))
{
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)((a[i] > 0) - (a[i] < 0));
}

int THNN_(L1Cost_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  return THNN_(Pointwise_sum)(state, output, THNN_(L1Cost_sum), NULL, false, input, NULL, NULL);
}

int THNN_(L1Cost_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput)
{
  return THNN_(Pointwise_map)(state, gradInput, false, THNN_(L1Cost_grad), NULL, input, NULL, NULL);
}

#endif
