#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Sqrt.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Sqrt.c) */
extern "C" int THNN_CPU_(Sqrt_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                          THTensor *output);

struct THNN_(Sqrt_forward) {
  accreal eps;
  __device__ real operator()(real x, real, real, int64_t) const { return (real)sqrt(x + eps); }
};

/* dL/dy / (2 y), and 0 where y = 0 (where the derivative is infinite) */
struct THNN_(Sqrt_backward) {
  __device__ real operator()(real go, real y, real, int64_t) const { return y == 0 ? 0 : go / (2 * y); }
};

int THNN_(Sqrt_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal eps)
{
  TH_TRY(THNN_CPU_(Sqrt_shapeCheck)(state, input, NULL, NULL));
  THNN_(Sqrt_forward) op = {eps};
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(Sqrt_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                THTensor *output)
{
  TH_TRY(THNN_CPU_(Sqrt_shapeCheck)(state, input, gradOutput, output));
  return THNN_(Activation_map)(state, __func__, gradInput, false, THNN_(Sqrt_backward)(), gradOutput, output);
}

#endif
