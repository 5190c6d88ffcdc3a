#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ClassNLLCriterion.c"
#else

#include "THLoop.h"

/* The shapes (shared with the CUDA twin, which checks the target values on the device). */
int THNN_(ClassNLLCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target,
                                        THTensor *weights, THTensor *total_weight)
{
  if (input->nDimension != 1 && input->nDimension != 2)
    return THTensor_(shapeError)(state, "input", input, "1D [nClasses] or 2D [batch, nClasses]");
  int64_t nClasses = input->size[input->nDimension - 1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  if (target->nDimension != 1 || target->size[0] != batch) {
    char actual[160];
    THLongTensor_describe(target, actual, sizeof actual);
    return THError(state, "target must be 1D of size [%lld] (one class index per sample), got %s",
                   (long long)batch, actual);
  }
  if (weights)
    TH_TRY(THTensor_(checkSizes)(state, "weights", weights, 1, &nClasses));
  if (total_weight && THTensor_(nElement)(total_weight) != 1)
    return THTensor_(shapeError)(state, "total_weight", total_weight, "a 1-element tensor");
  return 0;
}

/* The shapes and every target value, so the verbs may index freely. */
static int THNN_(ClassNLLCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                          THTensor *weights, THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_(ClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  int64_t nClasses = input->size[input->nDimension - 1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  const int64_t *t = THLongTensor_data(target);
  for (int64_t i = 0; i < batch; i++) {
    int64_t c = t[i * target->stride[0]];
    if (c != ignore_index && (c < 0 || c >= nClasses))
      return THError(state, "target %lld at index %lld is out of range [0, %lld)",
                     (long long)c, (long long)i, (long long)nClasses);
  }
  return 0;
}

/* The weight of sample i's target: 0 when ignored. */
static real THNN_(ClassNLLCriterion_weight)(const THTensor *weights, int64_t c, int64_t ignore_index)
{
  if (c == ignore_index)
    return 0;
  return weights ? THTensor_(data)(weights)[c * weights->stride[0]] : 1;
}

int THNN_(ClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                          THTensor *output, bool sizeAverage, THTensor *weights,
                                          THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_(ClassNLLCriterion_check)(state, input, target, weights, NULL, ignore_index));
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  TH_TRY(THTensor_(resize1d)(state, total_weight, 1));
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  int64_t rowStride = input->nDimension == 2 ? input->stride[0] : 0;
  int64_t colStride = input->stride[input->nDimension - 1];
  const real *in = THTensor_(data)(input);
  const int64_t *t = THLongTensor_data(target);
  accreal loss = 0, totalWeight = 0;
  for (int64_t i = 0; i < batch; i++) {
    int64_t c = t[i * target->stride[0]];
    real w = THNN_(ClassNLLCriterion_weight)(weights, c, ignore_index);
    if (w != 0) {
      loss -= (accreal)w * in[i * rowStride + c * colStride];
      totalWeight += w;
    }
  }
  if (sizeAverage && totalWeight != 0)
    loss /= totalWeight;
  THTensor_(data)(output)[0] = (real)loss;
  THTensor_(data)(total_weight)[0] = (real)totalWeight;
  return 0;
}

int THNN_(ClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                             THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_(ClassNLLCriterion_check)(state, input, target, weights, total_weight, ignore_index));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  int64_t nClasses = input->size[input->nDimension - 1];
  real *gi = THTensor_(data)(gradInput);
  /* Zeroed by as many threads as LogSoftMax's backward, which usually reads
   * it next, splitting it alike (in halves for two threads): each thread
   * then finds its part in its own core's cache. */
  int64_t n = THTensor_(nElement)(gradInput);
#pragma omp parallel num_threads(THLoopThreads(n))
  {
    int64_t begin, end;
    THLoopRange(n, &begin, &end);
    memset(gi + begin, 0, (size_t)(end - begin) * sizeof(real));
  }
  real totalWeight = THTensor_(data)(total_weight)[0];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t i = 0; i < batch; i++) {
    int64_t c = t[i * target->stride[0]];
    real w = THNN_(ClassNLLCriterion_weight)(weights, c, ignore_index);
    if (w != 0)
      gi[i * nClasses + c] = sizeAverage && totalWeight != 0 ? -w / totalWeight : -w;
  }
  return 0;
}

#endif
