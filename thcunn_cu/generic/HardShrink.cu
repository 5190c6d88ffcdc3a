#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/HardShrink.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/HardShrink.c) */
extern "C" int THNN_CPU_(HardShrink_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput);

/* y = 0 on [-lambda, lambda], else x (a NaN passes through) */
struct THNN_(HardShrink_forward) {
  real l;
  __device__ real operator()(real x, real, real, int64_t) const { return (x >= -l && x <= l) ? 0 : x; }
};

struct THNN_(HardShrink_backward) {
  real l;
  __device__ real operator()(real go, real x, real, int64_t) const { return (x >= -l && x <= l) ? 0 : go; }
};

int THNN_(HardShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda)
{
  TH_TRY(THNN_CPU_(HardShrink_shapeCheck)(state, input, NULL));
  THNN_(HardShrink_forward) op = {(real)lambda};
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(HardShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, accreal lambda)
{
  TH_TRY(THNN_CPU_(HardShrink_shapeCheck)(state, input, gradOutput));
  THNN_(HardShrink_backward) op = {(real)lambda};
  return THNN_(Activation_map)(state, __func__, gradInput, false, op, gradOutput, input);
}

#endif
