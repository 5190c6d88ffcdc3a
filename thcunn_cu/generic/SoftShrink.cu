#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftShrink.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SoftShrink.c) */
extern "C" int THNN_CPU_(SoftShrink_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                accreal lambda);

/* x * 0 in the middle, so a NaN stays NaN */
struct THNN_(SoftShrink_forward) {
  real l;
  __device__ real operator()(real x, real, real, int64_t) const
  {
    return x > l ? x - l : x < -l ? x + l : x * 0;
  }
};

struct THNN_(SoftShrink_backward) {
  real l;
  __device__ real operator()(real go, real x, real, int64_t) const { return (x >= -l && x <= l) ? 0 : go; }
};

int THNN_(SoftShrink_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal lambda)
{
  TH_TRY(THNN_CPU_(SoftShrink_shapeCheck)(state, input, NULL, lambda));
  THNN_(SoftShrink_forward) op = {(real)lambda};
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(SoftShrink_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, accreal lambda)
{
  TH_TRY(THNN_CPU_(SoftShrink_shapeCheck)(state, input, gradOutput, lambda));
  THNN_(SoftShrink_backward) op = {(real)lambda};
  return THNN_(Activation_map)(state, __func__, gradInput, false, op, gradOutput, input);
}

#endif
