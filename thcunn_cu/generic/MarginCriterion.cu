#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MarginCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/MarginCriterion.c) */
extern "C" int THNN_CPU_(MarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

struct THNN_(MarginCriterion_loss) {
  accreal margin;
  __device__ accreal operator()(real x, real t) const
  {
    accreal z = margin - (accreal)x * t;
    return z > 0 ? z : 0;
  }
};

struct THNN_(MarginCriterion_grad) {
  accreal margin;
  __device__ accreal operator()(real x, real t, accreal norm) const
  {
    return margin - (accreal)x * t > 0 ? (real)(-norm * t) : 0;
  }
};

int THNN_(MarginCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target, THTensor *output,
                                        bool sizeAverage, accreal margin)
{
  TH_TRY(THNN_CPU_(MarginCriterion_shapeCheck)(state, input, target));
  THNN_(MarginCriterion_loss) loss = {margin};
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage, loss);
}

int THNN_(MarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                           THTensor *gradInput, bool sizeAverage, accreal margin)
{
  TH_TRY(THNN_CPU_(MarginCriterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  THNN_(MarginCriterion_grad) grad = {margin};
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0, grad);
}

#endif
