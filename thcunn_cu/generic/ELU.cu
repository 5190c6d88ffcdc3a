#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ELU.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/ELU.c) */
extern "C" int THNN_CPU_(ELU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                         THTensor *output, accreal alpha, bool inplace);

struct THNN_(ELU_forward) {
  accreal alpha;
  __device__ real operator()(real x, real, real, int64_t) const
  {
    return x > 0 ? x : (real)(alpha * expm1(x));
  }
};

/* v is the input, or in place the output (then alpha * exp(x) = y + alpha) */
struct THNN_(ELU_backward) {
  accreal alpha;
  bool inplace;
  __device__ real operator()(real go, real v, real, int64_t) const
  {
    if (v > 0)
      return go;
    return (real)(go * (inplace ? v + alpha : alpha * exp(v)));
  }
};

int THNN_(ELU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_CPU_(ELU_shapeCheck)(state, input, NULL, NULL, alpha, inplace));
  THNN_(ELU_forward) op = {alpha};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input);
}

int THNN_(ELU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                               THTensor *output, accreal alpha, bool inplace)
{
  TH_TRY(THNN_CPU_(ELU_shapeCheck)(state, input, gradOutput, output, alpha, inplace));
  THNN_(ELU_backward) op = {alpha, inplace};
  return THNN_(Activation_map)(state, __func__, gradInput, inplace, op, gradOutput, inplace ? output : input);
}

#endif
