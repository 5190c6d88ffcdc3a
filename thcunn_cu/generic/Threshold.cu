#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Threshold.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Threshold.c) */
extern "C" int THNN_CPU_(Threshold_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               accreal threshold, accreal val, bool inplace);

/* "x <= t" so that a NaN, which compares false, passes through (as on the CPU) */
struct THNN_(Threshold_forward) {
  real t, v;
  __device__ real operator()(real x, real, real, int64_t) const { return x <= t ? v : x; }
};

struct THNN_(Threshold_addForward) {
  real t, v;
  __device__ real operator()(real x, real y, real, int64_t) const
  {
    real s = x + y;
    return s <= t ? v : s;
  }
};

struct THNN_(Threshold_backward) {
  real t;
  __device__ real operator()(real go, real x, real, int64_t) const { return x <= t ? 0 : go; }
};

int THNN_(Threshold_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                  accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_CPU_(Threshold_shapeCheck)(state, input, NULL, threshold, val, inplace));
  THNN_(Threshold_forward) op = {(real)threshold, (real)val};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input);
}

int THNN_(Threshold_addUpdateOutput)(THNNState *state, THTensor *input, THTensor *other, THTensor *output,
                                     accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_CPU_(Threshold_shapeCheck)(state, input, NULL, threshold, val, inplace));
  TH_TRY(THTensor_(checkSameSize)(state, "other", other, "input", input));
  THNN_(Threshold_addForward) op = {(real)threshold, (real)val};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input, other);
}

/* In place, input holds the forward output, which is > threshold exactly
 * where the input was, as long as val <= threshold (checked). */
int THNN_(Threshold_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *gradInput, accreal threshold, accreal val, bool inplace)
{
  TH_TRY(THNN_CPU_(Threshold_shapeCheck)(state, input, gradOutput, threshold, val, inplace));
  THNN_(Threshold_backward) op = {(real)threshold};
  return THNN_(Activation_map)(state, __func__, gradInput, inplace, op, gradOutput, input);
}

#endif
