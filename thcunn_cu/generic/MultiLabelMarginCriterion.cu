#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MultiLabelMarginCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/MultiLabelMarginCriterion.c) */
extern "C" int THNN_CPU_(MultiLabelMarginCriterion_shapeCheck)(THNNState *state, THTensor *input,
                                                               THIndexTensor *target);

/* x, t and isTarget contiguous [batch, dim]; row i of t lists its classes up to the first -1. */
struct THNN_(MultiLabel_args) {
  const real *x;
  const int64_t *t;
  real *isTarget;
  int64_t batch, dim;
};

/* isTarget: 1 for each class in its row's list (one thread per row) */
__global__ void THNN_(MultiLabelMarginCriterion_markKernel)(THNN_(MultiLabel_args) a)
{
  THC_KERNEL_LOOP(i, a.batch) {
    const int64_t *row = a.t + i * a.dim;
    real *isT = a.isTarget + i * a.dim;
    for (int64_t d = 0; d < a.dim; d++)
      isT[d] = 0;
    for (int64_t j = 0; j < a.dim && row[j] >= 0; j++)
      isT[row[j]] = 1;
  }
}

/* Element k = (i, d), d not a target: the terms 1 - x[c] + x[d] > 0 over the row's targets c. */
__global__ void THNN_(MultiLabelMarginCriterion_forwardKernel)(THNN_(MultiLabel_args) a, accreal *acc)
{
  accreal sum = 0;
  THC_KERNEL_LOOP(k, a.batch * a.dim) {
    const int64_t *row = a.t + k / a.dim * a.dim;
    const real *x = a.x + k / a.dim * a.dim;
    for (int64_t j = 0; j < a.dim && row[j] >= 0; j++) {
      accreal z = 1 - (accreal)x[row[j]] + a.x[k];
      if (!a.isTarget[k] && z > 0)
        sum += z;
    }
  }
  THNN_(Criterion_blockAdd)(sum, acc);
}

/* Each violation (target c, non-target d) adds g at d and -g at c. */
__global__ void THNN_(MultiLabelMarginCriterion_backwardKernel)(THNN_(MultiLabel_args) a, accreal g, real *gi)
{
  THC_KERNEL_LOOP(k, a.batch * a.dim) {
    int64_t d = k % a.dim;
    const int64_t *row = a.t + k / a.dim * a.dim;
    const real *x = a.x + k / a.dim * a.dim, *isT = a.isTarget + k / a.dim * a.dim;
    accreal count = 0;
    for (int64_t j = 0; j < a.dim && row[j] >= 0; j++) {
      if (!isT[d] && 1 - (accreal)x[row[j]] + x[d] > 0)
        count += 1;               /* d is a non-target: one per target it violates */
      if (row[j] == d)
        for (int64_t e = 0; e < a.dim; e++)
          if (!isT[e] && 1 - (accreal)x[d] + x[e] > 0)
            count -= 1;           /* d is this target: one per non-target violating it */
    }
    gi[k] = (real)(count * g);
  }
}

/* Shapes (the CPU's check), x and t contiguous, every target value checked on
 * the device (the CPU kernel's message for the first bad one), isTarget marked. */
static int THNN_(MultiLabel_prepare)(THNNState *state, THTensor *input, THIndexTensor *target, THTensor *isTarget,
                                     THTensor *xTmp, THLongTensor *tTmp, THNN_(MultiLabel_args) *a)
{
  TH_TRY(THNN_CPU_(MultiLabelMarginCriterion_shapeCheck)(state, input, target));
  const THTensor *x = THCTensor_(contiguous)(state, input, xTmp);
  const THLongTensor *t = x ? THCLongTensor_contiguous(state, target, tTmp) : NULL;
  if (!t)
    return -1;
  int64_t dim = input->size[input->nDimension - 1];
  THCErrorSlot bad;
  TH_TRY(THCFindBadTarget(state, t, -1, dim, false, 0, &bad));
  if (bad.flag)
    return THError(state, "target %lld at [%lld, %lld] is out of range [0, %lld) "
                   "(-1 ends a sample's list of classes)",
                   bad.value, bad.where / dim, bad.where % dim, (long long)dim);
  TH_TRY(THCTensor_(resizeAs)(state, isTarget, input));
  THNN_(MultiLabel_args) args = {THTensor_(data)(x), THLongTensor_data(t), THTensor_(data)(isTarget),
                                 input->nDimension == 2 ? input->size[0] : 1, dim};
  *a = args;
  THC_LAUNCH(THC_blocks(a->batch), THC_NUM_THREADS, THNN_(MultiLabelMarginCriterion_markKernel))(args);
  return THCCheckLaunch(state, "MultiLabelMarginCriterion_markTargets");
}

int THNN_(MultiLabelMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                  THTensor *output, THTensor *isTarget, bool sizeAverage)
{
  THTensor xTmp = {};
  THLongTensor tTmp = {};
  THDoubleTensor acc = {};
  THNN_(MultiLabel_args) a;
  int rc = -1;
  if (THNN_(MultiLabel_prepare)(state, input, target, isTarget, &xTmp, &tTmp, &a) == 0
      && THCTensor_(resize1d)(state, output, 1) == 0 && THNN_(Criterion_accumulator)(state, &acc, 1) == 0) {
    THC_LAUNCH(THC_blocks(a.batch * a.dim), THC_NUM_THREADS, THNN_(MultiLabelMarginCriterion_forwardKernel))(
        a, THDoubleTensor_data(&acc));
    THC_LAUNCH(1, 1, THNN_(Criterion_finishKernel))(THDoubleTensor_data(&acc), THTensor_(data)(output),
                                                    (accreal)a.dim,
                                                    (accreal)(sizeAverage && a.batch > 0 ? a.batch : 1));
    rc = THCCheckLaunch(state, "MultiLabelMarginCriterion_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&tTmp);
  THCDoubleTensor_release(&acc);
  return rc;
}

int THNN_(MultiLabelMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                     THTensor *gradInput, THTensor *isTarget, bool sizeAverage)
{
  THTensor xTmp = {};
  THLongTensor tTmp = {};
  THNN_(MultiLabel_args) a;
  int rc = -1;
  if (THNN_(MultiLabel_prepare)(state, input, target, isTarget, &xTmp, &tTmp, &a) == 0
      && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    accreal g = 1.0 / (sizeAverage && a.batch > 0 ? (accreal)a.batch * a.dim : (accreal)a.dim);
    THC_LAUNCH(THC_blocks(a.batch * a.dim), THC_NUM_THREADS, THNN_(MultiLabelMarginCriterion_backwardKernel))(
        a, g, THTensor_(data)(gradInput));
    rc = THCCheckLaunch(state, "MultiLabelMarginCriterion_updateGradInput");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&tTmp);
  return rc;
}

#endif
