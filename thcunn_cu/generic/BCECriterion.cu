#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BCECriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/BCECriterion.c), whose clamps these are */
extern "C" int THNN_CPU_(BCECriterion_shapeCheck)(THNNState *state, THTensor *input, THTensor *target,
                                                  THTensor *weights);
#define THNN_BCE_MIN_LOG (-100.0)
#define THNN_BCE_EPS 1e-12

struct THNN_(BCECriterion_loss) {
  __device__ accreal operator()(real x, real t) const
  {
    accreal logX = fmax(log((accreal)x), THNN_BCE_MIN_LOG);
    accreal log1mX = fmax(log1p(-(accreal)x), THNN_BCE_MIN_LOG);
    return -(t * logX + (1 - (accreal)t) * log1mX);
  }
};

/* dL/dx = (x - t) / max(x (1 - x), eps), the weight applied by the caller */
struct THNN_(BCECriterion_grad) {
  __device__ accreal operator()(real x, real t, accreal norm) const
  {
    accreal xi = x;
    return norm * (xi - t) / fmax(xi * (1 - xi), THNN_BCE_EPS);
  }
};

struct THNN_(BCECriterion_notProbability) {
  const real *x;
  __device__ bool operator()(int64_t i) const { return !(x[i] >= 0 && x[i] <= 1); }
  __device__ long long value(int64_t) const { return 0; }
};

/* Every value of x (the contiguous input) a probability, checked on the
 * device: the CPU kernel's message for the first that is not. */
static int THNN_(BCECriterion_checkProbabilities)(THNNState *state, const THTensor *x)
{
  THCErrorSlot bad;
  THNN_(BCECriterion_notProbability) notProbability = {THTensor_(data)(x)};
  TH_TRY(THCFindFirst(state, notProbability, THTensor_(nElement)(x), &bad));
  if (!bad.flag)
    return 0;
  real value;
  TH_TRY(THCStorage_(copyToHost)(state, &value, x->storage, x->storageOffset + bad.where, 1));
  return THError(state, "input must hold probabilities in [0, 1], got %g at flat index %lld", (double)value,
                 bad.where);
}

int THNN_(BCECriterion_updateOutput)(THNNState *state, THTensor *input, THTensor *target, THTensor *output,
                                     bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_CPU_(BCECriterion_shapeCheck)(state, input, target, weights));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THNN_(BCECriterion_checkProbabilities)(state, x) == 0)
    rc = THNN_(Criterion_sum)(state, x, target, weights, output, sizeAverage, THNN_(BCECriterion_loss)());
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(BCECriterion_updateGradInput)(THNNState *state, THTensor *input, THTensor *target,
                                        THTensor *gradInput, bool sizeAverage, THTensor *weights)
{
  TH_TRY(THNN_CPU_(BCECriterion_shapeCheck)(state, input, target, weights));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int64_t n = THTensor_(nElement)(input);
  int rc = -1;
  if (x && THNN_(BCECriterion_checkProbabilities)(state, x) == 0)
    rc = THNN_(Criterion_grad)(state, x, target, weights, gradInput, sizeAverage && n > 0 ? 1.0 / n : 1.0,
                               THNN_(BCECriterion_grad)());
  THCTensor_(release)(&xTmp);
  return rc;
}

#undef THNN_BCE_MIN_LOG
#undef THNN_BCE_EPS

#endif
