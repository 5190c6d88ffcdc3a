#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SmoothL1Criterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SmoothL1Criterion.c) */
extern "C" int THNN_CPU_(SmoothL1Criterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

struct THNN_(SmoothL1Criterion_loss) {
  __device__ accreal operator()(real x, real t) const
  {
    accreal z = fabs((accreal)x - t);
    return z < 1 ? 0.5 * z * z : z - 0.5;
  }
};

/* x - t clamped to [-1, 1] */
struct THNN_(SmoothL1Criterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const
  {
    accreal d = (accreal)x - t;
    return norm * (d < -1 ? -1 : d > 1 ? 1 : d);
  }
};

int THNN_(SmoothL1Criterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                          THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(SmoothL1Criterion_shapeCheck)(state, input, target));
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage, THNN_(SmoothL1Criterion_loss)());
}

int THNN_(SmoothL1Criterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                             THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(SmoothL1Criterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0,
                               THNN_(SmoothL1Criterion_grad)());
}

#endif
