#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSigmoid.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/LogSigmoid.c), which explains
 * the formulas: with e = exp(-|x|), kept in buffer for the backward pass,
 *   y = min(x, 0) - log(1 + e),   dy/dx = (x >= 0 ? e : 1) / (1 + e) */
extern "C" int THNN_CPU_(LogSigmoid_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *buffer);

struct THNN_(LogSigmoid_forward) {
  real *e;   /* the buffer, contiguous */
  __device__ real operator()(real x, real, real, int64_t i) const
  {
    e[i] = exp(-fabs(x));
    return (x < 0 ? x : 0) - log1p(e[i]);
  }
};

struct THNN_(LogSigmoid_backward) {
  __device__ real operator()(real go, real x, real e, int64_t) const
  {
    return go * (x >= 0 ? e : 1) / (1 + e);
  }
};

int THNN_(LogSigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *buffer)
{
  TH_TRY(THNN_CPU_(LogSigmoid_shapeCheck)(state, input, NULL, NULL));
  TH_TRY(THCTensor_(resizeAs)(state, buffer, input));
  THNN_(LogSigmoid_forward) op = {THTensor_(data)(buffer)};
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(LogSigmoid_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *buffer)
{
  TH_TRY(THNN_CPU_(LogSigmoid_shapeCheck)(state, input, gradOutput, buffer));
  return THNN_(Activation_map)(state, __func__, gradInput, false, THNN_(LogSigmoid_backward)(), gradOutput,
                               input, buffer);
}

#endif
