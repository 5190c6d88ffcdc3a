#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ClassNLLCriterion.c"
#else

#include "generic/ClassNLL.h"

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

/* The targets: one per sample (a batch of 1 for a 1D input). */
static THNNClassNLLLayout THNN_(ClassNLLCriterion_layout)(const THTensor *input, const THIndexTensor *target)
{
  int batched = input->nDimension == 2;
  return (THNNClassNLLLayout){{batched ? input->size[0] : 1, 1, 1}, {target->stride[0], 0, 0},
                              {batched ? input->stride[0] : 0, input->stride[input->nDimension - 1], 0, 0},
                              input->size[input->nDimension - 1]};
}

/* The shapes and every target value, so the verbs may index freely; fills *l. */
static int THNN_(ClassNLLCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                          THTensor *weights, THTensor *total_weight, int64_t ignore_index,
                                          THNNClassNLLLayout *l)
{
  TH_TRY(THNN_(ClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  *l = THNN_(ClassNLLCriterion_layout)(input, target);
  int64_t at[3], c;
  if (THNNClassNLL_badTarget(l, THLongTensor_data(target), ignore_index, at, &c))
    return THError(state, "target %lld at index %lld is out of range [0, %lld)",
                   (long long)c, (long long)at[0], (long long)l->nClasses);
  return 0;
}

int THNN_(ClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                          THTensor *output, bool sizeAverage, THTensor *weights,
                                          THTensor *total_weight, int64_t ignore_index)
{
  THNNClassNLLLayout l;
  TH_TRY(THNN_(ClassNLLCriterion_check)(state, input, target, weights, NULL, ignore_index, &l));
  return THNN_(ClassNLL_output)(state, &l, input, target, output, sizeAverage, weights, total_weight, ignore_index);
}

int THNN_(ClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                             THTensor *total_weight, int64_t ignore_index)
{
  THNNClassNLLLayout l;
  TH_TRY(THNN_(ClassNLLCriterion_check)(state, input, target, weights, total_weight, ignore_index, &l));
  return THNN_(ClassNLL_gradInput)(state, &l, input, target, gradInput, sizeAverage, weights, total_weight,
                                   ignore_index);
}

#endif
