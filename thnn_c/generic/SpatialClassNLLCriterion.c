#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialClassNLLCriterion.c"
#else

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

/* The shapes and every target value, so the verbs may index freely. */
static int THNN_(SpatialClassNLLCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                 THTensor *weights, THTensor *total_weight,
                                                 int64_t ignore_index)
{
  TH_TRY(THNN_(SpatialClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  int64_t nClasses = input->size[1];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t b = 0; b < target->size[0]; b++)
    for (int64_t h = 0; h < target->size[1]; h++)
      for (int64_t w = 0; w < target->size[2]; w++) {
        int64_t c = t[b * target->stride[0] + h * target->stride[1] + w * target->stride[2]];
        if (c != ignore_index && (c < 0 || c >= nClasses))
          return THError(state, "target %lld at [%lld, %lld, %lld] is out of range [0, %lld)",
                         (long long)c, (long long)b, (long long)h, (long long)w, (long long)nClasses);
      }
  return 0;
}

/* The weight of target class c: 0 when ignored. */
static real THNN_(SpatialClassNLLCriterion_weight)(const THTensor *weights, int64_t c, int64_t ignore_index)
{
  if (c == ignore_index)
    return 0;
  return weights ? THTensor_(data)(weights)[c * weights->stride[0]] : 1;
}

int THNN_(SpatialClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                 THTensor *output, bool sizeAverage, THTensor *weights,
                                                 THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_(SpatialClassNLLCriterion_check)(state, input, target, weights, NULL, ignore_index));
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  TH_TRY(THTensor_(resize1d)(state, total_weight, 1));
  const real *in = THTensor_(data)(input);
  const int64_t *t = THLongTensor_data(target);
  accreal loss = 0, totalWeight = 0;
  for (int64_t b = 0; b < target->size[0]; b++)
    for (int64_t h = 0; h < target->size[1]; h++)
      for (int64_t w = 0; w < target->size[2]; w++) {
        int64_t c = t[b * target->stride[0] + h * target->stride[1] + w * target->stride[2]];
        real wc = THNN_(SpatialClassNLLCriterion_weight)(weights, c, ignore_index);
        if (wc != 0) {
          loss -= (accreal)wc * in[b * input->stride[0] + c * input->stride[1] + h * input->stride[2]
                                   + w * input->stride[3]];
          totalWeight += wc;
        }
      }
  if (sizeAverage && totalWeight != 0)
    loss /= totalWeight;
  THTensor_(data)(output)[0] = (real)loss;
  THTensor_(data)(total_weight)[0] = (real)totalWeight;
  return 0;
}

int THNN_(SpatialClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                    THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                                    THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_(SpatialClassNLLCriterion_check)(state, input, target, weights, total_weight, ignore_index));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  int64_t nClasses = input->size[1], height = input->size[2], width = input->size[3];
  real *gi = THTensor_(data)(gradInput);
  if (gi)  /* NULL when there is no element */
    memset(gi, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
  real totalWeight = THTensor_(data)(total_weight)[0];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t b = 0; b < target->size[0]; b++)
    for (int64_t h = 0; h < height; h++)
      for (int64_t w = 0; w < width; w++) {
        int64_t c = t[b * target->stride[0] + h * target->stride[1] + w * target->stride[2]];
        real wc = THNN_(SpatialClassNLLCriterion_weight)(weights, c, ignore_index);
        if (wc != 0)
          gi[((b * nClasses + c) * height + h) * width + w] =
              sizeAverage && totalWeight != 0 ? -wc / totalWeight : -wc;
      }
  return 0;
}

#endif
