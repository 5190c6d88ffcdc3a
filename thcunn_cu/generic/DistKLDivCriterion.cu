#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/DistKLDivCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/DistKLDivCriterion.c) */
extern "C" int THNN_CPU_(DistKLDivCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

/* targets <= 0 add nothing (0 log 0 = 0) */
struct THNN_(DistKLDivCriterion_loss) {
  __device__ accreal operator()(real x, real t) const { return t > 0 ? (accreal)t * (log((accreal)t) - x) : 0; }
};

struct THNN_(DistKLDivCriterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const { return t > 0 ? (real)(-norm * t) : 0; }
};

int THNN_(DistKLDivCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                           THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(DistKLDivCriterion_shapeCheck)(state, input, target));
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage,
                              THNN_(DistKLDivCriterion_loss)());
}

int THNN_(DistKLDivCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                              THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(DistKLDivCriterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0,
                               THNN_(DistKLDivCriterion_grad)());
}

#endif
