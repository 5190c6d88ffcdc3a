#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/MultiMarginCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/MultiMarginCriterion.c) */
extern "C" int THNN_CPU_(MultiMarginCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                          int p, THTensor *weights);

/* The arguments of the kernels: x contiguous [batch, dim], t contiguous [batch]. */
struct THNN_(MultiMargin_args) {
  const real *x;
  const int64_t *t;
  const real *weights;   /* NULL: every class weighs 1 */
  int64_t wStride, batch, dim;
  int p;
  accreal margin;
};

/* The term of class d in row i, whose target is c (0 at d == c). */
__device__ accreal THNN_(MultiMargin_z)(const THNN_(MultiMargin_args) &a, int64_t i, int64_t c, int64_t d)
{
  accreal z = a.margin - a.x[i * a.dim + c] + a.x[i * a.dim + d];
  return d != c && z > 0 ? z : 0;
}

__device__ accreal THNN_(MultiMargin_weight)(const THNN_(MultiMargin_args) &a, int64_t c)
{
  return a.weights ? a.weights[c * a.wStride] : 1;
}

__global__ void THNN_(MultiMarginCriterion_forwardKernel)(THNN_(MultiMargin_args) a, accreal *acc)
{
  accreal sum = 0;
  THC_KERNEL_LOOP(k, a.batch * a.dim) {
    int64_t i = k / a.dim, c = a.t[i];
    accreal z = THNN_(MultiMargin_z)(a, i, c, k % a.dim);
    if (z > 0)
      sum += THNN_(MultiMargin_weight)(a, c) * (a.p == 1 ? z : z * z);
  }
  THNN_(Criterion_blockAdd)(sum, acc);
}

/* The gradient at class d != c of row i (target c), wg = its weight times g */
__device__ accreal THNN_(MultiMargin_grad)(const THNN_(MultiMargin_args) &a, int64_t i, int64_t c, int64_t d,
                                           accreal wg)
{
  accreal z = THNN_(MultiMargin_z)(a, i, c, d);
  return z > 0 ? wg * (a.p == 1 ? 1 : 2 * z) : 0;
}

/* at the target class: minus the sum of the others */
__global__ void THNN_(MultiMarginCriterion_backwardKernel)(THNN_(MultiMargin_args) a, accreal g, real *gi)
{
  THC_KERNEL_LOOP(k, a.batch * a.dim) {
    int64_t i = k / a.dim, d = k % a.dim, c = a.t[i];
    accreal wg = THNN_(MultiMargin_weight)(a, c) * g, h = 0;
    if (d != c)
      h = THNN_(MultiMargin_grad)(a, i, c, d, wg);
    else
      for (int64_t e = 0; e < a.dim; e++)
        h -= THNN_(MultiMargin_grad)(a, i, c, e, wg);
    gi[k] = (real)h;
  }
}

/* Shapes (the CPU's check), then x and t contiguous and every target checked
 * on the device (the CPU kernel's message for the first out of range). */
static int THNN_(MultiMargin_prepare)(THNNState *state, THTensor *input, THIndexTensor *target, int p,
                                      THTensor *weights, accreal margin, THTensor *xTmp, THLongTensor *tTmp,
                                      THNN_(MultiMargin_args) *a)
{
  TH_TRY(THNN_CPU_(MultiMarginCriterion_shapeCheck)(state, input, target, p, weights));
  const THTensor *x = THCTensor_(contiguous)(state, input, xTmp);
  const THLongTensor *t = x ? THCLongTensor_contiguous(state, target, tTmp) : NULL;
  if (!t)
    return -1;
  int64_t dim = input->size[input->nDimension - 1];
  THCErrorSlot bad;
  TH_TRY(THCFindBadTarget(state, t, 0, dim, false, 0, &bad));
  if (bad.flag)
    return THError(state, "target %lld at index %lld is out of range [0, %lld)", bad.value, bad.where,
                   (long long)dim);
  THNN_(MultiMargin_args) args = {THTensor_(data)(x), THLongTensor_data(t),
                                  weights ? THTensor_(data)(weights) : NULL, weights ? weights->stride[0] : 0,
                                  input->nDimension == 2 ? input->size[0] : 1, dim, p, margin};
  *a = args;
  return 0;
}

int THNN_(MultiMarginCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             THTensor *output, bool sizeAverage, int p, THTensor *weights,
                                             accreal margin)
{
  THTensor xTmp = {};
  THLongTensor tTmp = {};
  THDoubleTensor acc = {};
  THNN_(MultiMargin_args) a;
  int rc = -1;
  if (THNN_(MultiMargin_prepare)(state, input, target, p, weights, margin, &xTmp, &tTmp, &a) == 0
      && THCTensor_(resize1d)(state, output, 1) == 0 && THNN_(Criterion_accumulator)(state, &acc, 1) == 0) {
    THC_LAUNCH(THC_blocks(a.batch * a.dim), THC_NUM_THREADS, THNN_(MultiMarginCriterion_forwardKernel))(
        a, THDoubleTensor_data(&acc));
    THC_LAUNCH(1, 1, THNN_(Criterion_finishKernel))(THDoubleTensor_data(&acc), THTensor_(data)(output),
                                                    (accreal)a.dim,
                                                    (accreal)(sizeAverage && a.batch > 0 ? a.batch : 1));
    rc = THCCheckLaunch(state, "MultiMarginCriterion_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&tTmp);
  THCDoubleTensor_release(&acc);
  return rc;
}

int THNN_(MultiMarginCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                THTensor *gradInput, bool sizeAverage, int p,
                                                THTensor *weights, accreal margin)
{
  THTensor xTmp = {};
  THLongTensor tTmp = {};
  THNN_(MultiMargin_args) a;
  int rc = -1;
  if (THNN_(MultiMargin_prepare)(state, input, target, p, weights, margin, &xTmp, &tTmp, &a) == 0
      && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    accreal g = 1.0 / (sizeAverage && a.batch > 0 ? (accreal)a.batch * a.dim : (accreal)a.dim);
    THC_LAUNCH(THC_blocks(a.batch * a.dim), THC_NUM_THREADS, THNN_(MultiMarginCriterion_backwardKernel))(
        a, g, THTensor_(data)(gradInput));
    rc = THCCheckLaunch(state, "MultiMarginCriterion_updateGradInput");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&tTmp);
  return rc;
}

#endif
