#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMarginCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SoftMarginCriterion.c) */
extern "C" int THNN_CPU_(SoftMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

/* log(1 + exp(-z)), z = x t, written so that no exp overflows */
struct THNN_(SoftMarginCriterion_loss) {
  __device__ accreal operator()(real x, real t) const
  {
    accreal z = (accreal)x * t;
    return (z < 0 ? -z : 0) + log1p(exp(-fabs(z)));
  }
};

/* d/dx log(1 + exp(-t x)) = -t / (1 + exp(t x)) */
struct THNN_(SoftMarginCriterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const
  {
    return -norm * t / (1 + exp((accreal)x * t));
  }
};

int THNN_(SoftMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target,
                                            THTensor *output, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(SoftMarginCriterion_shapeCheck)(state, input, target));
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage,
                              THNN_(SoftMarginCriterion_loss)());
}

int THNN_(SoftMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                               THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(SoftMarginCriterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0,
                               THNN_(SoftMarginCriterion_grad)());
}

#endif
