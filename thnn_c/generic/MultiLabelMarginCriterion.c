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

#ifndef THNN_LABEL_LISTS
#define THNN_LABEL_LISTS
/* The problem as the verbs index it: `batch` rows of `dim` classes; entry j
 * of row i's target list is THNNLabelLists_at(l, i, j), the list ending at
 * its first -1. */
typedef struct THNNLabelLists {
  int64_t batch, dim;
  const int64_t *t;
  int64_t rowStride, colStride;
} THNNLabelLists;

static inline int64_t THNNLabelLists_at(const THNNLabelLists *l, int64_t i, int64_t j)
{
  return l->t[i * l->rowStride + j * l->colStride];
}
#endif

/* The shapes and every target value, so the verbs may index freely; fills *l. */
static int THNN_(MultiLabelMarginCriterion_check)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                  THNNLabelLists *l)
{
  TH_TRY(THNN_(MultiLabelMarginCriterion_shapeCheck)(state, input, target));
  int batched = input->nDimension == 2;
  *l = (THNNLabelLists){batched ? input->size[0] : 1, input->size[input->nDimension - 1], THLongTensor_data(target),
                        batched ? target->stride[0] : 0, target->stride[target->nDimension - 1]};
  for (int64_t i = 0; i < l->batch; i++)
    for (int64_t j = 0; j < l->dim; j++) {
      int64_t c = THNNLabelLists_at(l, i, j);
      if (c < -1 || c >= l->dim)
        return THError(state, "target %lld at [%lld, %lld] is out of range [0, %lld) "
                       "(-1 ends a sample's list of classes)",
                       (long long)c, (long long)i, (long long)j, (long long)l->dim);
    }
  return 0;
}

/* What both verbs start with: isTarget (shaped as the input, contiguous)
 * set to 1 for each class in its sample's list, 0 elsewhere, and the input
 * read through a contiguous copy made in tmp.  That copy, or NULL (error set). */
static const THTensor *THNN_(MultiLabelMarginCriterion_prepare)(THNNState *state, THTensor *input,
                                                                const THNNLabelLists *l, THTensor *isTarget,
                                                                THTensor *tmp)
{
  if (THTensor_(resizeAs)(state, isTarget, input) != 0)
    return NULL;
  real *isT = THTensor_(data)(isTarget);
  if (l->batch > 0)  /* an empty isTarget may have no memory at all */
    memset(isT, 0, (size_t)(l->batch * l->dim) * sizeof(real));
  for (int64_t i = 0; i < l->batch; i++)
    for (int64_t j = 0; j < l->dim && THNNLabelLists_at(l, i, j) >= 0; j++)
      isT[i * l->dim + THNNLabelLists_at(l, i, j)] = 1;
  return THTensor_(contiguous)(state, input, tmp);
}

int THNN_(MultiLabelMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                  THTensor *output, THTensor *isTarget, bool sizeAverage)
{
  THNNLabelLists l;
  TH_TRY(THNN_(MultiLabelMarginCriterion_check)(state, input, target, &l));
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  THTensor xTmp = {0};
  const THTensor *x = THNN_(MultiLabelMarginCriterion_prepare)(state, input, &l, isTarget, &xTmp);
  if (!x)
    return -1;
  int64_t batch = l.batch, dim = l.dim;
  accreal sum = 0;
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    const real *isT = THTensor_(data)(isTarget) + i * dim;
    for (int64_t j = 0; j < dim && THNNLabelLists_at(&l, i, j) >= 0; j++) {
      accreal inTarget = in[THNNLabelLists_at(&l, i, j)];
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
  THNNLabelLists l;
  TH_TRY(THNN_(MultiLabelMarginCriterion_check)(state, input, target, &l));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  THTensor xTmp = {0};
  const THTensor *x = THNN_(MultiLabelMarginCriterion_prepare)(state, input, &l, isTarget, &xTmp);
  if (!x)
    return -1;
  int64_t batch = l.batch, dim = l.dim;
  accreal g = 1.0 / (sizeAverage && batch > 0 ? (accreal)batch * dim : (accreal)dim);
  for (int64_t i = 0; i < batch; i++) {
    const real *in = THTensor_(data)(x) + i * dim;
    const real *isT = THTensor_(data)(isTarget) + i * dim;
    real *gi = THTensor_(data)(gradInput) + i * dim;
    memset(gi, 0, (size_t)dim * sizeof(real));
    for (int64_t j = 0; j < dim && THNNLabelLists_at(&l, i, j) >= 0; j++) {
      int64_t c = THNNLabelLists_at(&l, i, j);
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
