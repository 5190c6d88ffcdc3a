#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftPlus.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SoftPlus.c) */
extern "C" int THNN_CPU_(SoftPlus_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *output, accreal beta);

struct THNN_(SoftPlus_forward) {
  accreal beta, threshold;
  __device__ real operator()(real x, real, real, int64_t) const
  {
    accreal bx = beta * x;
    return bx > threshold ? x : (real)(log1p(exp(bx)) / beta);
  }
};

/* dL/dy * sigmoid(beta x), from the input as on the CPU */
struct THNN_(SoftPlus_backward) {
  accreal beta, threshold;
  __device__ real operator()(real go, real x, real, int64_t) const
  {
    accreal bx = beta * x;
    return bx > threshold ? go : (real)(go / (1 + exp(-bx)));
  }
};

int THNN_(SoftPlus_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal beta, accreal threshold)
{
  TH_TRY(THNN_CPU_(SoftPlus_shapeCheck)(state, input, NULL, NULL, beta));
  THNN_(SoftPlus_forward) op = {beta, threshold};
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(SoftPlus_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, THTensor *output, accreal beta, accreal threshold)
{
  TH_TRY(THNN_CPU_(SoftPlus_shapeCheck)(state, input, gradOutput, output, beta));
  THNN_(SoftPlus_backward) op = {beta, threshold};
  return THNN_(Activation_map)(state, __func__, gradInput, false, op, gradOutput, input);
}

#endif
