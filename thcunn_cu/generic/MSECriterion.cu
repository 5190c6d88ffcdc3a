#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MSECriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/MSECriterion.c) */
extern "C" int THNN_CPU_(MSECriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

struct THNN_(MSECriterion_loss) {
  __device__ accreal operator()(real x, real t) const
  {
    accreal d = (accreal)x - t;
    return d * d;
  }
};

struct THNN_(MSECriterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const { return (real)norm * (x - t); }
};

int THNN_(MSECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target, THTensor *output,
                                     bool sizeAverage)
{
  TH_TRY(THNN_CPU_(MSECriterion_shapeCheck)(state, input, target));
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage, THNN_(MSECriterion_loss)());
}

int THNN_(MSECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(MSECriterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 2.0 / n : 2.0,
                               THNN_(MSECriterion_grad)());
}

#endif
