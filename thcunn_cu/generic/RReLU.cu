#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/RReLU.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/RReLU.c).
 *
 * Randomness: neither side draws any.  As THNN.h says, in training the
 * caller draws the slopes into noise (U(lower, upper), one per element) and
 * hands the same tensor to the kernel; here noise is a device tensor, so a
 * caller that fills the CPU and the device noise with the same draws (from
 * one host generator, copied with to_device) gets the same results on both
 * sides.  The twin, like the CPU kernel, writes 1 into noise where x > 0. */
extern "C" int THNN_CPU_(RReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                           THTensor *noise, accreal lower, accreal upper, bool train);

/* noise: the slopes (contiguous) in training, NULL in evaluation */
struct THNN_(RReLU_forward) {
  real *noise;
  real meanSlope;
  __device__ real operator()(real x, real, real, int64_t i) const
  {
    if (x > 0 && noise)
      noise[i] = 1;
    return x > 0 ? x : x * (noise ? noise[i] : meanSlope);
  }
};

/* training: dL/dy * the slope used; evaluation: x > 0 ? dL/dy : dL/dy * mean slope */
struct THNN_(RReLU_backward) {
  bool train;
  real meanSlope;
  __device__ real operator()(real go, real x, real slope, int64_t) const
  {
    return train ? go * slope : x > 0 ? go : go * meanSlope;
  }
};

int THNN_(RReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *noise,
                              accreal lower, accreal upper, bool train, bool inplace)
{
  TH_TRY(THNN_CPU_(RReLU_shapeCheck)(state, input, NULL, noise, lower, upper, train));
  THNN_(RReLU_forward) op = {train ? THTensor_(data)(noise) : NULL, (real)((lower + upper) / 2)};
  return THNN_(Activation_map)(state, __func__, output, inplace, op, input);
}

int THNN_(RReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                 THTensor *noise, accreal lower, accreal upper, bool train, bool inplace)
{
  TH_TRY(THNN_CPU_(RReLU_shapeCheck)(state, input, gradOutput, noise, lower, upper, train));
  THNN_(RReLU_backward) op = {train, (real)((lower + upper) / 2)};
  return THNN_(Activation_map)(state, __func__, gradInput, inplace, op, gradOutput, input,
                               train ? noise : NULL);
}

#endif
