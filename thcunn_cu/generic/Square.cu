#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Square.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Square.c) */
extern "C" int THNN_CPU_(Square_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput);

struct THNN_(Square_forward) {
  __device__ real operator()(real x, real, real, int64_t) const { return x * x; }
};

struct THNN_(Square_backward) {
  __device__ real operator()(real go, real x, real, int64_t) const { return 2 * x * go; }
};

int THNN_(Square_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_CPU_(Square_shapeCheck)(state, input, NULL));
  return THNN_(Activation_map)(state, __func__, output, false, THNN_(Square_forward)(), input);
}

int THNN_(Square_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                  THTensor *gradInput)
{
  TH_TRY(THNN_CPU_(Square_shapeCheck)(state, input, gradOutput));
  THNN_(Square_backward) op = {};
  return THNN_(Activation_map)(state, __func__, gradInput, false, op, gradOutput, input);
}

#endif
