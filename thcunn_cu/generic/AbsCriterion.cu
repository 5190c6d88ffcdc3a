#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/AbsCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/AbsCriterion.c) */
extern "C" int THNN_CPU_(AbsCriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target);

struct THNN_(AbsCriterion_loss) {
  __device__ accreal operator()(real x, real t) const { return fabs((accreal)x - t); }
};

/* +1 at x == t, as the CPU kernel (Torch7) */
struct THNN_(AbsCriterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const
  {
    return x - t >= 0 ? (real)norm : -(real)norm;
  }
};

int THNN_(AbsCriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target, THTensor *output,
                                     bool sizeAverage)
{
  TH_TRY(THNN_CPU_(AbsCriterion_shapeCheck)(state, input, target));
  return THNN_(Criterion_sum)(state, input, target, NULL, output, sizeAverage, THNN_(AbsCriterion_loss)());
}

int THNN_(AbsCriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage)
{
  TH_TRY(THNN_CPU_(AbsCriterion_shapeCheck)(state, input, target));
  int64_t n = THTensor_(nElement)(input);
  return THNN_(Criterion_grad)(state, input, target, NULL, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0,
                               THNN_(AbsCriterion_grad)());
}

#endif
