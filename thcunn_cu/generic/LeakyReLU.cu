#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LeakyReLU.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/LeakyReLU.c) */
extern "C" int THNN_CPU_(LeakyReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               accreal negval, bool inplace);

struct THNN_(LeakyReLU_forward) {
  real slope;
  __device__ real operator()(real x, real, real, int64_t) const { return x > 0 ? x : x * slope; }
};

/* In place, x is the output: > 0 exactly where the input was (negval >= 0, checked). */
struct THNN_(LeakyReLU_backward) {
  real slope;
  __device__ real operator()(real go, real x, real, int64_t) const { return x > 0 ? go : go * slope; }
};

int THNN_(LeakyReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal negval, bool inplace)
{
  TH_TRY(THNN_CPU_(LeakyReLU_shapeCheck)(state, input, NULL, negval, inplace));
  THNN_(LeakyReLU_forward) op = {(real)negval};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input);
}

int THNN_(LeakyReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal negval, bool inplace)
{
  TH_TRY(THNN_CPU_(LeakyReLU_shapeCheck)(state, input, gradOutput, negval, inplace));
  THNN_(LeakyReLU_backward) op = {(real)negval};
  return THNN_(Activation_map)(state, __func__, gradInput, inplace, op, gradOutput, input);
}

#endif
