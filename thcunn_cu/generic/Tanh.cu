#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Tanh.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Tanh.c) */
extern "C" int THNN_CPU_(Tanh_shapeCheck)(THNNState *state, THTensor *gradOutput, THTensor *output);

struct THNN_(Tanh_forward) {
  __device__ real operator()(real x, real, real, int64_t) const { return tanh(x); }
};

struct THNN_(Tanh_backward) {
  __device__ real operator()(real go, real y, real, int64_t) const { return go * (1 - y * y); }
};

int THNN_(Tanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_CPU_(Tanh_shapeCheck)(state, NULL, input));
  return THNN_(Activation_map)(state, __func__, output, false, THNN_(Tanh_forward)(), input);
}

int THNN_(Tanh_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput, THTensor *output)
{
  TH_TRY(THNN_CPU_(Tanh_shapeCheck)(state, gradOutput, output));
  return THNN_(Activation_map)(state, __func__, gradInput, false, THNN_(Tanh_backward)(), gradOutput, output);
}

#endif
