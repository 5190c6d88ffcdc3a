#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/L1Cost.cu"
#else

/* Any input shape is valid (the CPU kernel has no shape check); no target. */

struct THNN_(L1Cost_loss) {
  __device__ accreal operator()(real x, real) const { return fabs((accreal)x); }
};

/* sign(x), 0 at 0 */
struct THNN_(L1Cost_grad) {
  __device__ accreal operator()(real x, real, accreal) const { return (x > 0) - (x < 0); }
};

int THNN_(L1Cost_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  return THNN_(Criterion_sum)(state, input, NULL, NULL, output, false, THNN_(L1Cost_loss)());
}

int THNN_(L1Cost_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput)
{
  return THNN_(Criterion_grad)(state, input, NULL, NULL, gradInput, 1, THNN_(L1Cost_grad)());
}

#endif
