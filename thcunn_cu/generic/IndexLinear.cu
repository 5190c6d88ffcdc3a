#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/IndexLinear.cu"
#else

/* y[j] = b + sum of u W[k + keysOffset] over the (key k, value v) of sample j
 * (thnn_c/generic/IndexLinear.c, where the normalisation u of v is).  The
 * sizes come to the host (the CPU kernel's checks, and each sample's first
 * entry, sent back as offsets [batch + 1]); keys are checked on the device.
 * Where the CPU kernel's result depends on the order of the entries (the
 * running max |v| of training, the steps of rows named by several keys) the
 * twin keeps that order: one thread walks the entries, or one thread per
 * output column walks them; the rest is one thread per (sample, column). */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(IndexLinear_checkShapes)(THNNState *state, THIndexTensor *keys, THTensor *values,
                                                  THIndexTensor *sizes, THIndexTensor *hostSizes,
                                                  THTensor *gradOutput, THTensor *weight, THTensor *bias,
                                                  THTensor *gradWeight, THTensor *gradBias);
extern "C" int THNN_CPU_(IndexLinear_keyError)(THNNState *state, int64_t i, int64_t key, int64_t keysOffset,
                                               int64_t nIn);

#ifndef THC_INDEX_LINEAR_SHARED
#define THC_INDEX_LINEAR_SHARED
#include "THCIndexRange.cuh"

/* One block: the first key whose row key + offset (overflow included) is outside [0, nIn). */
__global__ void THCIndexLinear_keysKernel(const int64_t *keys, int64_t n, int64_t offset, int64_t nIn,
                                          THCErrorSlot *slot)
{
  __shared__ int64_t scratch[THC_NUM_THREADS];
  int64_t first = n;
  for (int64_t i = threadIdx.x; i < n && first == n; i += blockDim.x) {
    int64_t k = keys[i];
    bool overflow = offset > 0 ? k > INT64_MAX - offset : k < INT64_MIN - offset;
    if (overflow || k + offset < 0 || k + offset >= nIn)
      first = i;
  }
  first = THCBlockReduce(first, scratch, THCIndexRange_min());
  if (threadIdx.x == 0 && first < n)
    THCErrorSlot_record(slot, keys[first], first);
}

/* What the checks leave for the kernels: contiguous keys, sample offsets. */
struct THCIndexLinearCall {
  THLongTensor keysTmp, offsets;   /* release both */
  const int64_t *keys;
  int64_t nnz, batch;
};

static void THCIndexLinear_release(THCIndexLinearCall *c)
{
  THCLongTensor_release(&c->keysTmp);
  THCLongTensor_release(&c->offsets);
}

/* The keys, contiguous, checked on the device (the CPU's message for a bad one). */
static int THCIndexLinear_keys(THNNState *state, THLongTensor *keys, int64_t keysOffset, int64_t nIn,
                               THCIndexLinearCall *c, int (*keyError)(THNNState *, int64_t, int64_t, int64_t,
                                                                      int64_t))
{
  const THLongTensor *k = THCLongTensor_contiguous(state, keys, &c->keysTmp);
  if (!k)
    return -1;
  c->keys = THLongTensor_data(k);
  c->nnz = keys->size[0];
  if (c->nnz == 0)
    return 0;
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(1, THC_NUM_THREADS, THCIndexLinear_keysKernel)(c->keys, c->nnz, keysOffset, nIn, slot);
  THCErrorSlot bad;
  int launched = THCCheckLaunch(state, "IndexLinear_keys");
  TH_TRY(THCErrorSlot_take(state, slot, &bad));
  TH_TRY(launched);
  return bad.flag ? keyError(state, bad.where, bad.value, keysOffset, nIn) : 0;
}

/* sizes on the host: buffer (THAlloc'd, to THFree) and a host tensor shaped
 * as sizes over it, for the CPU checks; sizes itself when not 1D (the checks
 * refuse it before reading). */
static int THCIndexLinear_hostSizes(THNNState *state, THLongTensor *sizes, THLongTensor *host,
                                    THLongStorage *storage, int64_t **buffer)
{
  *host = *sizes;
  *buffer = NULL;
  if (sizes->nDimension != 1)
    return 0;
  THLongTensor tmp = {};
  const THLongTensor *s = THCLongTensor_contiguous(state, sizes, &tmp);
  int64_t n = sizes->size[0];
  *buffer = (int64_t *)THAlloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t));
  int rc = !s ? -1 : !*buffer ? THError(state, "out of memory copying sizes") :
           THCLongStorage_copyToHost(state, *buffer, s->storage, s->storageOffset, n);
  THCLongTensor_release(&tmp);
  storage->data = *buffer;
  storage->size = n;
  storage->flag = 0;
  host->storage = storage;
  host->storageOffset = 0;
  host->stride[0] = 1;
  return rc;
}

/* offsets[j] = the first entry of sample j, offsets[batch] = nnz, on the device. */
static int THCIndexLinear_offsets(THNNState *state, const int64_t *sizes, int64_t batch, THLongTensor *offsets)
{
  int64_t *host = (int64_t *)THAlloc((size_t)(batch + 1) * sizeof(int64_t));
  if (!host)
    return THError(state, "out of memory computing offsets");
  host[0] = 0;
  for (int64_t j = 0; j < batch; j++)
    host[j + 1] = host[j] + sizes[j];
  int rc = THCLongTensor_resize1d(state, offsets, batch + 1);
  if (rc == 0)
    rc = THCLongStorage_copyFromHost(state, offsets->storage, 0, host, batch + 1);
  THFree(host);
  return rc;
}
#endif

/* The checks of the CPU kernel, and c filled (release it on every path). */
static int THNN_(IndexLinear_check)(THNNState *state, THIndexTensor *keys, int64_t keysOffset, THTensor *values,
                                    THIndexTensor *sizes, THTensor *gradOutput, THTensor *weight, THTensor *bias,
                                    THTensor *gradWeight, THTensor *gradBias, THCIndexLinearCall *c)
{
  THLongTensor hostSizes = {};
  THLongStorage storage = {};
  int64_t *buffer = NULL;
  int rc = sizes ? THCIndexLinear_hostSizes(state, sizes, &hostSizes, &storage, &buffer) : 0;
  if (rc == 0)
    rc = THNN_CPU_(IndexLinear_checkShapes)(state, keys, values, sizes, sizes ? &hostSizes : NULL, gradOutput,
                                            weight, bias, gradWeight, gradBias);
  if (rc == 0)
    rc = THCIndexLinear_keys(state, keys, keysOffset, weight->size[0], c, THNN_CPU_(IndexLinear_keyError));
  c->batch = sizes ? sizes->size[0] : 0;
  if (rc == 0 && sizes)
    rc = THCIndexLinear_offsets(state, buffer, c->batch, &c->offsets);
  THFree(buffer);
  return rc;
}

/* Training, one thread, entries in order: the feature's max |v| (columns 0
 * and 1, and its update scale, column 2, set to 1) grows with each value, and
 * nv[i] = v / (max so far) + c (contiguous weight of `cols` columns). */
__global__ void THNN_(IndexLinear_trainNormKernel)(const int64_t *keys, int64_t offset, const real *v, int64_t vs,
                                                   real *w, int64_t cols, real *nv, int64_t nnz)
{
  for (int64_t i = 0; i < nnz; i++) {
    real *row = w + (keys[i] + offset) * cols, x = v[i * vs], a = fabs(x);
    if (a > row[0]) {
      row[0] = a;
      row[1] = 1 / a;
    }
    row[2] = 1;
    nv[i] = (a > row[0] ? (real)((x > 0) - (x < 0)) : x * row[1]) + row[3];
  }
}

/* Evaluation: nv[i] from the feature's statistics as they are (weight strides ws0, ws1). */
__global__ void THNN_(IndexLinear_evalNormKernel)(const int64_t *keys, int64_t offset, const real *v, int64_t vs,
                                                  const real *w, int64_t ws0, int64_t ws1, real *nv, int64_t nnz)
{
  THC_KERNEL_LOOP(i, nnz) {
    const real *row = w + (keys[i] + offset) * ws0;
    real x = v[i * vs], a = fabs(x);
    nv[i] = (a > row[0] ? (real)((x > 0) - (x < 0)) : x * row[ws1]) + row[3 * ws1];
  }
}

/* Thread (j, k): y[j][k] = b[k] + sum of u W[key][first + k] over the entries of sample j, in order. */
__global__ void THNN_(IndexLinear_outputKernel)(const int64_t *keys, int64_t offset, const int64_t *offsets,
                                                const real *u, int64_t us, const real *w, int64_t ws0,
                                                int64_t ws1, int64_t first, const real *b, int64_t bs, real *y,
                                                int64_t nOut, int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t j = t / nOut, k = t % nOut;
    real sum = b[k * bs];
    for (int64_t i = offsets[j]; i < offsets[j + 1]; i++)
      sum += u[i * us] * w[(keys[i] + offset) * ws0 + (first + k) * ws1];
    y[t] = sum;
  }
}

int THNN_(IndexLinear_updateOutput)(THNNState *state, THIndexTensor *keys, int64_t keysOffset, THTensor *values,
                                    THIndexTensor *sizes, THTensor *output, THTensor *weight, THTensor *bias,
                                    THTensor *normalizedValues, bool train)
{
  THCIndexLinearCall c = {};
  int rc = THNN_(IndexLinear_check)(state, keys, keysOffset, values, sizes, NULL, weight, bias, NULL, NULL, &c);
  int normalized = weight->size[1] != bias->size[0];
  if (rc == 0 && normalized && train)
    rc = THTensor_(checkContiguous)(state, "weight", weight);
  int64_t nOut = bias->size[0], n = c.batch * nOut;
  if (rc == 0)
    rc = THCTensor_(resize2d)(state, output, c.batch, nOut);
  if (rc == 0 && normalized)
    rc = THCTensor_(resize1d)(state, normalizedValues, c.nnz);
  if (rc == 0) {
    const real *v = THTensor_(data)(values), *w = THTensor_(data)(weight);
    int64_t vs = values->stride[0], ws0 = weight->stride[0], ws1 = weight->stride[1];
    real *nv = normalized ? THTensor_(data)(normalizedValues) : NULL;
    if (normalized && train)
      THC_LAUNCH(1, 1, THNN_(IndexLinear_trainNormKernel))(c.keys, keysOffset, v, vs, THTensor_(data)(weight),
                                                           weight->size[1], nv, c.nnz);
    else if (normalized && c.nnz > 0)
      THC_LAUNCH(THC_blocks(c.nnz), THC_NUM_THREADS, THNN_(IndexLinear_evalNormKernel))(
          c.keys, keysOffset, v, vs, w, ws0, ws1, nv, c.nnz);
    if (n > 0)
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(IndexLinear_outputKernel))(
          c.keys, keysOffset, THLongTensor_data(&c.offsets), normalized ? nv : v, normalized ? 1 : vs, w, ws0, ws1,
          normalized ? 4 : 0, THTensor_(data)(bias), bias->stride[0], THTensor_(data)(output), nOut, n);
    rc = THCCheckLaunch(state, "IndexLinear_updateOutput");
  }
  THCIndexLinear_release(&c);
  return rc;
}

/* Thread (j, k): gb[k] += scale * go[j][k] over the samples j in order (j = 0 only) and, for the
 * entries i of sample j, gw[i] = (scale go[j][k] when normalized, then) scale v[i] go[j][k]. */
__global__ void THNN_(IndexLinear_gradKernel)(const int64_t *offsets, const real *v, int64_t vs, const real *go,
                                              real *gw, real *gb, accreal scale, int64_t batch, int64_t nOut,
                                              bool normalized)
{
  int64_t width = normalized ? 2 * nOut : nOut;
  THC_KERNEL_LOOP(t, batch * nOut) {
    int64_t j = t / nOut, k = t % nOut;
    for (int64_t h = 0; j == 0 && h < batch; h++)
      gb[k] += (real)(scale * go[h * nOut + k]);
    for (int64_t i = offsets[j]; i < offsets[j + 1]; i++) {
      real *gwi = gw + i * width;
      if (normalized)
        gwi[k] = (real)(scale * go[t]);
      gwi[(normalized ? nOut : 0) + k] = (real)(scale * v[i * vs] * go[t]);
    }
  }
}

int THNN_(IndexLinear_accGradParameters)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                         THTensor *values, THIndexTensor *sizes, THTensor *gradOutput,
                                         THTensor *gradWeight, THTensor *gradBias, THTensor *weight, THTensor *bias,
                                         accreal scale)
{
  THCIndexLinearCall c = {};
  THTensor gTmp = {};
  int rc = THNN_(IndexLinear_check)(state, keys, keysOffset, values, sizes, gradOutput, weight, bias, NULL,
                                    gradBias, &c);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradBias", gradBias);
  int normalized = weight->size[1] != bias->size[0];
  int64_t nOut = bias->size[0];
  if (rc == 0)
    rc = THCTensor_(resize2d)(state, gradWeight, c.nnz, normalized ? 2 * nOut : nOut);
  const THTensor *g = rc == 0 ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (g && c.batch * nOut > 0) {
    THC_LAUNCH(THC_blocks(c.batch * nOut), THC_NUM_THREADS, THNN_(IndexLinear_gradKernel))(
        THLongTensor_data(&c.offsets), THTensor_(data)(values), values->stride[0], THTensor_(data)(g),
        THTensor_(data)(gradWeight), THTensor_(data)(gradBias), scale, c.batch, nOut, normalized);
    rc = THCCheckLaunch(state, "IndexLinear_accGradParameters");
  } else if (!g) {
    rc = -1;
  }
  THCIndexLinear_release(&c);
  THCTensor_(release)(&gTmp);
  return rc;
}

/* dc[i] = sum_k g[i][k] W[key][4 + k] (the normalized rows' bias gradient, from the weights before the step) */
__global__ void THNN_(IndexLinear_biasDotKernel)(const int64_t *keys, int64_t offset, const real *g, const real *w,
                                                 int64_t cols, double *dc, int64_t nOut, int64_t nnz)
{
  THC_KERNEL_LOOP(i, nnz) {
    const real *row = w + (keys[i] + offset) * cols;
    accreal sum = 0;
    for (int64_t k = 0; k < nOut; k++)
      sum += (accreal)g[i * 2 * nOut + k] * row[4 + k];
    dc[i] = sum;
  }
}

/* One thread, entries in order: the feature bias c -= lr * (update scale) * dc[i]. */
__global__ void THNN_(IndexLinear_biasStepKernel)(const int64_t *keys, int64_t offset, const double *dc, real *w,
                                                  int64_t cols, accreal lr, int64_t nnz)
{
  for (int64_t i = 0; i < nnz; i++) {
    real *row = w + (keys[i] + offset) * cols;
    row[3] -= (real)(lr * row[2] * dc[i]);
  }
}

/* Thread k, entries in order: w[key][k] -= decay w[key][k] + rate g[i][k] (rate and decay
 * scaled by the feature's update scale when normalized). */
__global__ void THNN_(IndexLinear_stepKernel)(const int64_t *keys, int64_t offset, const real *g, real *w,
                                              int64_t cols, accreal weightDecay, accreal lr, int64_t nOut,
                                              int64_t nnz, bool normalized)
{
  int64_t width = normalized ? 2 * nOut : nOut;
  THC_KERNEL_LOOP(k, nOut) {
    for (int64_t i = 0; i < nnz; i++) {
      real *row = w + (keys[i] + offset) * cols;
      accreal rate = normalized ? lr * row[2] : lr, decay = normalized ? weightDecay * row[2] : weightDecay;
      real *x = row + (normalized ? 4 : 0) + k;
      *x -= (real)(decay * *x + rate * g[i * width + (normalized ? nOut : 0) + k]);
    }
  }
}

/* b[k] -= lr * gb[k] */
__global__ void THNN_(IndexLinear_biasKernel)(real *b, const real *gb, int64_t gbs, accreal lr, int64_t nOut)
{
  THC_KERNEL_LOOP(k, nOut) b[k] -= (real)(lr * gb[k * gbs]);
}

/* The bias step, then the rows' step (the CPU kernel's IndexLinear_step); g contiguous. */
static int THNN_(IndexLinear_step)(THNNState *state, THTensor *weight, THTensor *bias, const THTensor *gradBias,
                                   const int64_t *keys, int64_t nnz, int64_t keysOffset, const real *g,
                                   accreal weightDecay, accreal lr)
{
  int64_t nOut = bias->size[0], cols = weight->size[1];
  bool normalized = cols != nOut;
  real *w = THTensor_(data)(weight);
  THDoubleTensor dc = {};
  if (nOut > 0)
    THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(IndexLinear_biasKernel))(
        THTensor_(data)(bias), THTensor_(data)(gradBias), gradBias->stride[0], lr, nOut);
  if (normalized && nnz > 0) {
    TH_TRY(THCDoubleTensor_resize1d(state, &dc, nnz));
    THC_LAUNCH(THC_blocks(nnz), THC_NUM_THREADS, THNN_(IndexLinear_biasDotKernel))(
        keys, keysOffset, g, w, cols, THDoubleTensor_data(&dc), nOut, nnz);
    THC_LAUNCH(1, 1, THNN_(IndexLinear_biasStepKernel))(keys, keysOffset, THDoubleTensor_data(&dc), w, cols, lr,
                                                         nnz);
  }
  if (nOut > 0 && nnz > 0)
    THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(IndexLinear_stepKernel))(
        keys, keysOffset, g, w, cols, weightDecay, lr, nOut, nnz, normalized);
  int rc = THCCheckLaunch(state, "IndexLinear_step");
  THCDoubleTensor_release(&dc);
  return rc;
}

int THNN_(IndexLinear_accUpdateGradParameters)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                               THTensor *values, THIndexTensor *sizes, THTensor *gradOutput,
                                               THTensor *weight, THTensor *bias, accreal weightDecay, accreal scale)
{
  THCIndexLinearCall c = {};
  int rc = THNN_(IndexLinear_check)(state, keys, keysOffset, values, sizes, gradOutput, weight, bias, NULL, NULL,
                                    &c);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "weight", weight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "bias", bias);
  /* the gradient accGradParameters would give with scale 1, then one step of scale */
  THTensor gradWeight = {}, gradBias = {};
  if (rc == 0)
    rc = THCTensor_(resize1d)(state, &gradBias, bias->size[0]);
  if (rc == 0)
    rc = THCTensor_(fill)(state, &gradBias, 0);
  if (rc == 0)
    rc = THNN_(IndexLinear_accGradParameters)(state, keys, keysOffset, values, sizes, gradOutput, &gradWeight,
                                              &gradBias, weight, bias, 1);
  if (rc == 0)
    rc = THNN_(IndexLinear_step)(state, weight, bias, &gradBias, c.keys, c.nnz, keysOffset,
                                 THTensor_(data)(&gradWeight), weightDecay, scale);
  THCIndexLinear_release(&c);
  THCTensor_(release)(&gradWeight);
  THCTensor_(release)(&gradBias);
  return rc;
}

int THNN_(IndexLinear_updateParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                        THTensor *weight, THTensor *bias, THIndexTensor *runningKeys,
                                        int64_t keysOffset, accreal weightDecay, accreal learningRate)
{
  THCIndexLinearCall c = {};
  THTensor gTmp = {};
  int rc = THNN_(IndexLinear_check)(state, runningKeys, keysOffset, NULL, NULL, NULL, weight, bias, gradWeight,
                                    gradBias, &c);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "weight", weight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "bias", bias);
  const THTensor *g = rc == 0 ? THCTensor_(contiguous)(state, gradWeight, &gTmp) : NULL;
  rc = g ? THNN_(IndexLinear_step)(state, weight, bias, gradBias, c.keys, c.nnz, keysOffset, THTensor_(data)(g),
                                   weightDecay, learningRate)
         : -1;
  THCIndexLinear_release(&c);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
