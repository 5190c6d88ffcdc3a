#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MultiMarginCriterion.c"
#else

/* Shapes and p (shared with the CUDA twin, which checks the target values on the device). */
int THNN_(MultiMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target,
                                           int p, THTensor *weights)
{
  if ((input->nDimension != 1 && input->nDimension != 2) || input->size[input->nDimension - 1] == 0)
    return THTensor_(shapeError)(state, "input", input, "1D [dim] or 2D [batch, dim] with dim >= 1");
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  int64_t dim = input->size[input->nDimension - 1];
  if (target->nDimension != 1 || target->size[0] != batch) {
    char actual[160];
    THLongTensor_describe(target, actual, sizeof actual);
    return THError(state, "target must be 1D of size [%lld] (one class index per sample), got %s",
                   (long long)batch, actual);
  }
  if (p != 1 && p != 2)
    return THError(state, "p must be 1 or 2, got %d", p);
  if (weights)
    TH_TRY(THTensor_(checkSizes)(state, "weights", weights, 1, &dim));
  return 0;
}

/* Shapes, p, and every target value, so the verbs may index freely; the
 * input's rows (*batch) and their length (*dim). */
static int THNN_(MultiMarginCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             int p, THTensor *weights, int64_t *batch, int64_t *dim)
{
  TH_TRY(THNN_(MultiMarginCriterion_shapeCheck)(state, input, target, p, weights));
  *batch = input->nDimension == 2 ? input->size[0] : 1;
  *dim = input->size[input->nDimension - 1];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t i = 0; i < *batch; i++) {
    int64_t c = t[i * target->stride[0]];
    if (c < 0 || c >= *dim)
      return THError(state, "target %lld at index %lld is out of range [0, %lld)",
                     (long long)c, (long long)i, (long long)*dim);
  }
  return 0;
}

int THNN_(MultiMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             THTensor *output, bool sizeAverage, int p, THTensor *weights,
                                             accreal margin)
{
  int64_t batch, dim;
  TH_TRY(THNN_(MultiMarginCriterion_check)(state, input, target, p, weights, &batch, &dim));
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  const int64_t *t = THLongTensor_data(target);
  accreal sum = 0;
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    int64_t c = t[i * target->stride[0]];
    accreal w = weights ? THTensor_(data)(weights)[c * weights->stride[0]] : 1;
    for (int64_t d = 0; d < dim; d++) {
      accreal z = margin - in[c] + in[d];
      if (d != c && z > 0)
        sum += w * (p == 1 ? z : z * z);
    }
  }
  sum /= dim;
  if (sizeAverage && batch > 0)
    sum /= batch;
  THTensor_(data)(output)[0] = (real)sum;
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(MultiMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                THTensor *gradInput, bool sizeAverage, int p,
                                                THTensor *weights, accreal margin)
{
  int64_t batch, dim;
  TH_TRY(THNN_(MultiMarginCriterion_check)(state, input, target, p, weights, &batch, &dim));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  const int64_t *t = THLongTensor_data(target);
  accreal g = 1.0 / (sizeAverage && batch > 0 ? (accreal)batch * dim : (accreal)dim);
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    real *gi = THTensor_(data)(gradInput) + i * dim;
    int64_t c = t[i * target->stride[0]];
    accreal w = weights ? THTensor_(data)(weights)[c * weights->stride[0]] : 1;
    accreal gTarget = 0;
    for (int64_t d = 0; d < dim; d++) {
      accreal z = margin - in[c] + in[d];
      accreal h = d != c && z > 0 ? w * g * (p == 1 ? 1 : 2 * z) : 0;
      gi[d] = (real)h;
      gTarget -= h;
    }
    gi[c] = (real)gTarget;
  }
  THTensor_(release)(&xTmp);
  return 0;
}

#endif
