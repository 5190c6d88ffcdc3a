#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Abs.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Abs.c) */
extern "C" int THNN_CPU_(Abs_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput);

struct THNN_(Abs_forward) {
  __device__ real operator()(real x, real, real, int64_t) const { return x >= 0 ? x : -x; }
};

/* sign(0) = +1, as in Torch7 */
struct THNN_(Abs_backward) {
  __device__ real operator()(real go, real x, real, int64_t) const { return x >= 0 ? go : -go; }
};

int THNN_(Abs_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_CPU_(Abs_shapeCheck)(state, input, NULL));
  return THNN_(Activation_map)(state, __func__, output, false, THNN_(Abs_forward)(), input);
}

int THNN_(Abs_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput)
{
  TH_TRY(THNN_CPU_(Abs_shapeCheck)(state, input, gradOutput));
  return THNN_(Activation_map)(state, __func__, gradInput, false, THNN_(Abs_backward)(), gradOutput, input);
}

#endif
