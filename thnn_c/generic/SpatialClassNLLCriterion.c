#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialClassNLLCriterion.c"
#else

#include "generic/ClassNLL.h"

/* The shapes (shared with the CUDA twin, which checks the target values on the device). */
int THNN_(SpatialClassNLLCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target,
                                               THTensor *weights, THTensor *total_weight)
{
  if (input->nDimension != 4)
    return THTensor_(shapeError)(state, "input", input, "4D [batch, nClasses, height, width]");
  int64_t nClasses = input->size[1];
  if (target->nDimension != 3 || target->size[0] != input->size[0] || target->size[1] != input->size[2]
      || target->size[2] != input->size[3]) {
    char actual[160];
    THLongTensor_describe(target, actual, sizeof actual);
    return THError(state, "target must be 3D of size [%lld, %lld, %lld] (a class index per pixel), got %s",
                   (long long)input->size[0], (long long)input->size[2], (long long)input->size[3], actual);
  }
  if (weights)
    TH_TRY(THTensor_(checkSizes)(state, "weights", weights, 1, &nClasses));
  if (total_weight && THTensor_(nElement)(total_weight) != 1)
    return THTensor_(shapeError)(state, "total_weight", total_weight, "a 1-element tensor");
  return 0;
}

/* The targets: one per pixel. */
static THNNClassNLLLayout THNN_(SpatialClassNLLCriterion_layout)(const THTensor *input, const THIndexTensor *target)
{
  return (THNNClassNLLLayout){{target->size[0], target->size[1], target->size[2]},
                              {target->stride[0], target->stride[1], target->stride[2]},
                              {input->stride[0], input->stride[1], input->stride[2], input->stride[3]},
                              input->size[1]};
}

/* The shapes and every target value, so the verbs may index freely; fills *l. */
static int THNN_(SpatialClassNLLCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                 THTensor *weights, THTensor *total_weight, int64_t ignore_index,
                                                 THNNClassNLLLayout *l)
{
  TH_TRY(THNN_(SpatialClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  *l = THNN_(SpatialClassNLLCriterion_layout)(input, target);
  int64_t at[3], c;
  if (THNNClassNLL_badTarget(l, THLongTensor_data(target), ignore_index, at, &c))
    return THError(state, "target %lld at [%lld, %lld, %lld] is out of range [0, %lld)",
                   (long long)c, (long long)at[0], (long long)at[1], (long long)at[2], (long long)l->nClasses);
  return 0;
}

int THNN_(SpatialClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                 THTensor *output, bool sizeAverage, THTensor *weights,
                                                 THTensor *total_weight, int64_t ignore_index)
{
  THNNClassNLLLayout l;
  TH_TRY(THNN_(SpatialClassNLLCriterion_check)(state, input, target, weights, NULL, ignore_index, &l));
  return THNN_(ClassNLL_output)(state, &l, input, target, output, sizeAverage, weights, total_weight, ignore_index);
}

int THNN_(SpatialClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                    THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                                    THTensor *total_weight, int64_t ignore_index)
{
  THNNClassNLLLayout l;
  TH_TRY(THNN_(SpatialClassNLLCriterion_check)(state, input, target, weights, total_weight, ignore_index, &l));
  return THNN_(ClassNLL_gradInput)(state, &l, input, target, gradInput, sizeAverage, weights, total_weight,
                                   ignore_index);
}

#endif
