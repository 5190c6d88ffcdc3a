#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MultiLabelMarginCriterion.c"
#else

/* Targets are 0-based class indices; a sample's list ends at its first -1
 * (Torch7: 1-based, ending at the first 0).  Every target value must lie in
 * [-1, dim), also after the end of the list.
 *
 * The shapes (shared with the CUDA twin, which checks the target values on the device). */
int THNN_(MultiLabelMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target)
{
  if ((input->nDimension != 1 && input->nDimension != 2) || input->size[input->nDimension - 1] == 0)
    return THTensor_(shapeError)(state, "input", input, "1D [dim] or 2D [batch, dim] with dim >= 1");
  int same = target->nDimension == input->nDimension;
  for (int d = 0; same && d < input->nDimension; d++)
    same = target->size[d] == input->size[d];
  if (!same) {
    char expected[160], actual[160];
    THTensor_(describe)(input, expected, sizeof expected);
    THLongTensor_describe(target, actual, sizeof actual);
    return THError(state, "target must be shaped as input (%s), got %s", expected, actual);
  }
  return 0;
}

/* The shapes and every target value, so the verbs may index freely; the
 * input's rows (*batch) and their length (*dim). */
static int THNN_(MultiLabelMarginCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                  int64_t *batch, int64_t *dim)
{
  TH_TRY(THNN_(MultiLabelMarginCriterion_shapeCheck)(state, input, target));
  *batch = input->nDimension == 2 ? input->size[0] : 1;
  *dim = input->size[input->nDimension - 1];
  int64_t rowStride = input->nDimension == 2 ? target->stride[0] : 0;
  int64_t colStride = target->stride[target->nDimension - 1];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t i = 0; i < *batch; i++)
    for (int64_t j = 0; j < *dim; j++) {
      int64_t c = t[i * rowStride + j * colStride];
      if (c < -1 || c >= *dim)
        return THError(state, "target %lld at [%lld, %lld] is out of range [0, %lld) "
                       "(-1 ends a sample's list of classes)",
                       (long long)c, (long long)i, (long long)j, (long long)*dim);
    }
  return 0;
}

/* Fill isTarget (shaped as target, contiguous): 1 for each class in its sample's list. */
static void THNN_(MultiLabelMarginCriterion_markTargets)(THTensor *isTarget, THIndexTensor *target,
                                                          int64_t batch, int64_t dim)
{
  int64_t rowStride = target->nDimension == 2 ? target->stride[0] : 0;
  int64_t colStride = target->stride[target->nDimension - 1];
  const int64_t *t = THLongTensor_data(target);
  real *isT = THTensor_(data)(isTarget);
  if (batch > 0)  /* an empty isTarget may have no memory at all */
    memset(isT, 0, (size_t)(batch * dim) * sizeof(real));
  for (int64_t i = 0; i < batch; i++)
    for (int64_t j = 0; j < dim && t[i * rowStride + j * colStride] >= 0; j++)
      isT[i * dim + t[i * rowStride + j * colStride]] = 1;
}

int THNN_(MultiLabelMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                  THTensor *output, THTensor *isTarget, bool sizeAverage)
{
  int64_t batch, dim;
  TH_TRY(THNN_(MultiLabelMarginCriterion_check)(state, input, target, &batch, &dim));
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  TH_TRY(THTensor_(resizeAs)(state, isTarget, input));
  THNN_(MultiLabelMarginCriterion_markTargets)(isTarget, target, batch, dim);
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  int64_t rowStride = input->nDimension == 2 ? target->stride[0] : 0;
  int64_t colStride = target->stride[target->nDimension - 1];
  const int64_t *t = THLongTensor_data(target);
  accreal sum = 0;
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    const real *isT = THTensor_(data)(isTarget) + i * dim;
    for (int64_t j = 0; j < dim && t[i * rowStride + j * colStride] >= 0; j++) {
      accreal inTarget = in[t[i * rowStride + j * colStride]];
      for (int64_t d = 0; d < dim; d++) {
        accreal z = 1 - inTarget + in[d];
        if (!isT[d] && z > 0)
          sum += z;
      }
    }
  }
  sum /= dim;
  if (sizeAverage && batch > 0)
    sum /= batch;
  THTensor_(data)(output)[0] = (real)sum;
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(MultiLabelMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                     THTensor *gradInput, THTensor *isTarget, bool sizeAverage)
{
  int64_t batch, dim;
  TH_TRY(THNN_(MultiLabelMarginCriterion_check)(state, input, target, &batch, &dim));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  TH_TRY(THTensor_(resizeAs)(state, isTarget, input));
  THNN_(MultiLabelMarginCriterion_markTargets)(isTarget, target, batch, dim);
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  int64_t rowStride = input->nDimension == 2 ? target->stride[0] : 0;
  int64_t colStride = target->stride[target->nDimension - 1];
  const int64_t *t = THLongTensor_data(target);
  accreal g = 1.0 / (sizeAverage && batch > 0 ? (accreal)batch * dim : (accreal)dim);
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    const real *isT = THTensor_(data)(isTarget) + i * dim;
    real *gi = THTensor_(data)(gradInput) + i * dim;
    memset(gi, 0, (size_t)dim * sizeof(real));
    for (int64_t j = 0; j < dim && t[i * rowStride + j * colStride] >= 0; j++) {
      int64_t c = t[i * rowStride + j * colStride];
      accreal inTarget = in[c];
      for (int64_t d = 0; d < dim; d++)
        if (!isT[d] && 1 - inTarget + in[d] > 0) {  /* count the violations first, exactly */
          gi[c] -= 1;
          gi[d] += 1;
        }
    }
    for (int64_t d = 0; d < dim; d++)
      gi[d] = (real)(gi[d] * g);
  }
  THTensor_(release)(&xTmp);
  return 0;
}

#endif
