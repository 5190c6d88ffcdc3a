#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/HardTanh.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/HardTanh.c) */
extern "C" int THNN_CPU_(HardTanh_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              accreal min_val, accreal max_val);

/* a NaN passes through */
struct THNN_(HardTanh_forward) {
  real lo, hi;
  __device__ real operator()(real x, real, real, int64_t) const { return x < lo ? lo : x > hi ? hi : x; }
};

/* In place, x is the output, strictly inside (lo, hi) exactly where the input was. */
struct THNN_(HardTanh_backward) {
  real lo, hi;
  __device__ real operator()(real go, real x, real, int64_t) const { return (x <= lo || x >= hi) ? 0 : go; }
};

int THNN_(HardTanh_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                 accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_CPU_(HardTanh_shapeCheck)(state, input, NULL, min_val, max_val));
  THNN_(HardTanh_forward) op = {(real)min_val, (real)max_val};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input);
}

int THNN_(HardTanh_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *gradInput, accreal min_val, accreal max_val, bool inplace)
{
  TH_TRY(THNN_CPU_(HardTanh_shapeCheck)(state, input, gradOutput, min_val, max_val));
  THNN_(HardTanh_backward) op = {(real)min_val, (real)max_val};
  return THNN_(Activation_map)(state, __func__, gradInput, inplace, op, gradOutput, input);
}

#endif
