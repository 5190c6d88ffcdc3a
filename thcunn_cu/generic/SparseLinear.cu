#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SparseLinear.cu"
#else

/* y[h] = b + sum of v * W[:, k] over the nonzero entries (k, v) of sample h
 * (thnn_c/generic/SparseLinear.c), COO [nnz, 3] rows (sample, feature,
 * value) or legacy [batch, nnz, 2] pairs (feature, value).  The input is
 * made contiguous and its entries checked on the device (the first bad one,
 * named with the CPU kernel's message); then one thread per (entry, output
 * unit) adds its product with atomicAdd. */

#include "THCIndexRange.cuh"   /* THCIndexRange_min */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SparseLinear_checkShapes)(THNNState *state, THTensor *input, bool legacy, int64_t *batch,
                                                   THTensor *gradOutput, THTensor *table, THTensor *bias,
                                                   THTensor *gradWeight, THTensor *gradBias);
extern "C" int THNN_CPU_(SparseLinear_checkEntry)(THNNState *state, bool legacy, int64_t e, int64_t perSample,
                                                  accreal sample, accreal feature, int64_t nIn, int64_t batch);

/* The contiguous entries of a call: entry e is (sample, feature, value). */
struct THNN_(SparseEntries) {
  const real *data;
  int64_t n, perSample;   /* entries; entries per sample (legacy) */
  bool legacy;
};

__device__ void THNN_(SparseLinear_entry)(THNN_(SparseEntries) in, int64_t e, accreal *sample, accreal *feature,
                                          real *value)
{
  const real *row = in.data + e * (in.legacy ? 2 : 3);
  *sample = in.legacy ? (accreal)(e / in.perSample) : row[0];
  *feature = row[in.legacy ? 0 : 1];
  *value = row[in.legacy ? 1 : 2];
}

__device__ bool THNN_(SparseLinear_isIndex)(accreal x, accreal bound)
{
  return x >= 0 && x < bound && x == floor(x);
}

/* One block: the first entry whose feature is not in [0, nIn) or whose
 * (COO) sample is not in [0, batch) (batch < 0: not a non-negative integer). */
__global__ void THNN_(SparseLinear_checkKernel)(THNN_(SparseEntries) in, int64_t nIn, int64_t batch,
                                                THCErrorSlot *slot)
{
  __shared__ int64_t scratch[THC_NUM_THREADS];
  int64_t first = in.n;
  accreal sampleBound = batch >= 0 ? (accreal)batch : (accreal)INT64_MAX;
  for (int64_t e = threadIdx.x; e < in.n && first == in.n; e += blockDim.x) {
    accreal sample, feature;
    real value;
    THNN_(SparseLinear_entry)(in, e, &sample, &feature, &value);
    if (!THNN_(SparseLinear_isIndex)(feature, (accreal)nIn)
        || (!in.legacy && !THNN_(SparseLinear_isIndex)(sample, sampleBound)))
      first = e;
  }
  first = THCBlockReduce(first, scratch, THCIndexRange_min());
  if (threadIdx.x == 0 && first < in.n)
    THCErrorSlot_record(slot, 0, first);
}

/* Checks the shapes (as the CPU kernel) and every entry of input, whose
 * contiguous copy (if needed) goes in tmp; *entries describes it. */
static int THNN_(SparseLinear_check)(THNNState *state, THTensor *input, bool legacy, int64_t batch,
                                     THTensor *gradOutput, THTensor *table, THTensor *bias, THTensor *gradWeight,
                                     THTensor *gradBias, THTensor *tmp, THNN_(SparseEntries) *entries)
{
  TH_TRY(THNN_CPU_(SparseLinear_checkShapes)(state, input, legacy, &batch, gradOutput, table, bias, gradWeight,
                                             gradBias));
  const THTensor *x = THCTensor_(contiguous)(state, input, tmp);
  if (!x)
    return -1;
  int64_t perSample = legacy ? input->size[1] : 1;
  THNN_(SparseEntries) in = {THTensor_(data)(x), legacy ? input->size[0] * perSample : input->size[0], perSample,
                             legacy};
  *entries = in;
  if (in.n == 0)
    return 0;
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(1, THC_NUM_THREADS, THNN_(SparseLinear_checkKernel))(in, table->size[1], batch, slot);
  THCErrorSlot bad;
  int launched = THCCheckLaunch(state, "SparseLinear_check");
  TH_TRY(THCErrorSlot_take(state, slot, &bad));
  TH_TRY(launched);
  if (!bad.flag)
    return 0;
  real row[3];   /* the bad entry, for the CPU kernel's message */
  int width = legacy ? 2 : 3;
  TH_TRY(THCStorage_(copyToHost)(state, row, x->storage, x->storageOffset + bad.where * width, width));
  accreal sample = legacy ? (accreal)(bad.where / perSample) : row[0], feature = row[legacy ? 0 : 1];
  if (THNN_CPU_(SparseLinear_checkEntry)(state, legacy, bad.where, perSample, sample, feature, table->size[1],
                                         batch) == 0)
    return THError(state, "SparseLinear: the device and host checks of entry %lld disagree", (long long)bad.where);
  return -1;
}

/* every row of y [batch, nOut] = b (stride bStride) */
__global__ void THNN_(SparseLinear_biasKernel)(real *y, const real *b, int64_t bStride, int64_t nOut, int64_t n)
{
  THC_KERNEL_LOOP(i, n) y[i] = b[(i % nOut) * bStride];
}

/* y[sample][j] += v * W[j][feature] for thread (entry, j) */
__global__ void THNN_(SparseLinear_outputKernel)(THNN_(SparseEntries) in, real *y, const real *w, int64_t ws0,
                                                 int64_t ws1, int64_t nOut)
{
  THC_KERNEL_LOOP(i, in.n * nOut) {
    int64_t e = i / nOut, j = i % nOut;
    accreal sample, feature;
    real v;
    THNN_(SparseLinear_entry)(in, e, &sample, &feature, &v);
    if (v != 0)
      atomicAdd(&y[(int64_t)sample * nOut + j], v * w[j * ws0 + (int64_t)feature * ws1]);
  }
}

static int THNN_(SparseLinear_output)(THNNState *state, THTensor *input, bool legacy, int64_t batch,
                                      THTensor *output, THTensor *weight, THTensor *bias)
{
  if (batch < 0)
    return THError(state, "batchSize must be non-negative, got %lld", (long long)batch);
  THTensor xTmp = {};
  THNN_(SparseEntries) in = {};
  int rc = THNN_(SparseLinear_check)(state, input, legacy, batch, NULL, weight, bias, NULL, NULL, &xTmp, &in);
  int64_t nOut = weight->size[0];
  batch = legacy ? input->size[0] : batch;
  if (rc == 0)
    rc = THCTensor_(resize2d)(state, output, batch, nOut);
  if (rc == 0 && batch * nOut > 0) {
    THC_LAUNCH(THC_blocks(batch * nOut), THC_NUM_THREADS, THNN_(SparseLinear_biasKernel))(
        THTensor_(data)(output), THTensor_(data)(bias), bias->stride[0], nOut, batch * nOut);
    if (in.n > 0)
      THC_LAUNCH(THC_blocks(in.n * nOut), THC_NUM_THREADS, THNN_(SparseLinear_outputKernel))(
          in, THTensor_(data)(output), THTensor_(data)(weight), weight->stride[0], weight->stride[1], nOut);
    rc = THCCheckLaunch(state, "SparseLinear_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

/* gw[j][feature] += scale * v * go[sample][j] for thread (entry, j) */
__global__ void THNN_(SparseLinear_gradWeightKernel)(THNN_(SparseEntries) in, const real *go, real *gw,
                                                     accreal scale, int64_t nIn, int64_t nOut)
{
  THC_KERNEL_LOOP(i, in.n * nOut) {
    int64_t e = i / nOut, j = i % nOut;
    accreal sample, feature;
    real v;
    THNN_(SparseLinear_entry)(in, e, &sample, &feature, &v);
    if (v != 0)
      atomicAdd(&gw[j * nIn + (int64_t)feature], (real)(scale * v * go[(int64_t)sample * nOut + j]));
  }
}

/* gb[j] += scale * go[h][j], row by row */
__global__ void THNN_(SparseLinear_gradBiasKernel)(const real *go, real *gb, accreal scale, int64_t batch,
                                                   int64_t nOut)
{
  THC_KERNEL_LOOP(j, nOut) {
    for (int64_t h = 0; h < batch; h++)
      gb[j] += (real)(scale * go[h * nOut + j]);
  }
}

/* gw[j][k] += weightDecay * W[j][k] */
__global__ void THNN_(SparseLinear_decayKernel)(real *gw, const real *w, int64_t ws0, int64_t ws1,
                                                accreal weightDecay, int64_t nIn, int64_t n)
{
  THC_KERNEL_LOOP(i, n) gw[i] += (real)(weightDecay * w[(i / nIn) * ws0 + (i % nIn) * ws1]);
}

static int THNN_(SparseLinear_accGrad)(THNNState *state, THTensor *input, bool legacy, THTensor *gradOutput,
                                       THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                       THTensor *bias, accreal weightDecay, accreal scale)
{
  THTensor xTmp = {}, gTmp = {};
  THNN_(SparseEntries) in = {};
  int rc = THNN_(SparseLinear_check)(state, input, legacy, -1, gradOutput, weight, bias, gradWeight, gradBias,
                                     &xTmp, &in);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradWeight", gradWeight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradBias", gradBias);
  const THTensor *g = rc == 0 ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (g) {
    int64_t nOut = weight->size[0], nIn = weight->size[1], batch = gradOutput->size[0];
    real *gw = THTensor_(data)(gradWeight);
    if (in.n * nOut > 0)
      THC_LAUNCH(THC_blocks(in.n * nOut), THC_NUM_THREADS, THNN_(SparseLinear_gradWeightKernel))(
          in, THTensor_(data)(g), gw, scale, nIn, nOut);
    if (nOut > 0)
      THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(SparseLinear_gradBiasKernel))(
          THTensor_(data)(g), THTensor_(data)(gradBias), scale, batch, nOut);
    if (weightDecay != 0 && nOut * nIn > 0)
      THC_LAUNCH(THC_blocks(nOut * nIn), THC_NUM_THREADS, THNN_(SparseLinear_decayKernel))(
          gw, THTensor_(data)(weight), weight->stride[0], weight->stride[1], weightDecay, nIn, nOut * nIn);
    rc = THCCheckLaunch(state, "SparseLinear_accGradParameters");
  } else {
    rc = -1;
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

/* touched[feature] = 1 for every entry with a nonzero value (touched zeroed) */
__global__ void THNN_(SparseLinear_markKernel)(THNN_(SparseEntries) in, int64_t *touched)
{
  THC_KERNEL_LOOP(e, in.n) {
    accreal sample, feature;
    real v;
    THNN_(SparseLinear_entry)(in, e, &sample, &feature, &v);
    if (v != 0)
      touched[(int64_t)feature] = 1;
  }
}

/* The columns of the features lastInput touched, marked in touched (a
 * Long tensor of nIn, to release). */
static int THNN_(SparseLinear_touched)(THNNState *state, THNN_(SparseEntries) in, int64_t nIn,
                                       THLongTensor *touched)
{
  TH_TRY(THCLongTensor_resize1d(state, touched, nIn));
  TH_TRY(THCLongTensor_fill(state, touched, 0));
  if (in.n > 0)
    THC_LAUNCH(THC_blocks(in.n), THC_NUM_THREADS, THNN_(SparseLinear_markKernel))(in, THLongTensor_data(touched));
  return THCCheckLaunch(state, "SparseLinear_touched");
}

/* gw[j][k] = 0 for the touched columns k */
__global__ void THNN_(SparseLinear_zeroKernel)(real *gw, const int64_t *touched, int64_t nIn, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    if (touched[i % nIn])
      gw[i] = 0;
  }
}

static int THNN_(SparseLinear_zeroGrad)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                        THTensor *lastInput, bool legacy)
{
  THTensor xTmp = {};
  THLongTensor touched = {};
  THNN_(SparseEntries) in = {};
  int rc = THNN_(SparseLinear_check)(state, lastInput, legacy, -1, NULL, gradWeight, NULL, gradWeight, gradBias,
                                     &xTmp, &in);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradWeight", gradWeight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "gradBias", gradBias);
  int64_t nOut = gradWeight->size[0], nIn = gradWeight->size[1];
  if (rc == 0)
    rc = THNN_(SparseLinear_touched)(state, in, nIn, &touched);
  if (rc == 0)
    rc = THCTensor_(fill)(state, gradBias, 0);
  if (rc == 0 && nOut * nIn > 0) {
    THC_LAUNCH(THC_blocks(nOut * nIn), THC_NUM_THREADS, THNN_(SparseLinear_zeroKernel))(
        THTensor_(data)(gradWeight), THLongTensor_data(&touched), nIn, nOut * nIn);
    rc = THCCheckLaunch(state, "SparseLinear_zeroGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&touched);
  return rc;
}

/* w[j][k] -= lr * gw[j][k] for the touched columns k */
__global__ void THNN_(SparseLinear_updateKernel)(real *w, const real *gw, int64_t gws0, int64_t gws1,
                                                 const int64_t *touched, accreal learningRate, int64_t nIn,
                                                 int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t j = i / nIn, k = i % nIn;
    if (touched[k])
      w[i] -= (real)(learningRate * gw[j * gws0 + k * gws1]);
  }
}

/* b[j] -= lr * gb[j] */
__global__ void THNN_(SparseLinear_biasStepKernel)(real *b, const real *gb, int64_t gbs, accreal learningRate,
                                                   int64_t nOut)
{
  THC_KERNEL_LOOP(j, nOut) b[j] -= (real)(learningRate * gb[j * gbs]);
}

static int THNN_(SparseLinear_update)(THNNState *state, THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                      THTensor *gradBias, THTensor *lastInput, bool legacy, accreal learningRate)
{
  THTensor xTmp = {};
  THLongTensor touched = {};
  THNN_(SparseEntries) in = {};
  int rc = THNN_(SparseLinear_check)(state, lastInput, legacy, -1, NULL, weight, bias, gradWeight, gradBias,
                                     &xTmp, &in);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "weight", weight);
  if (rc == 0)
    rc = THTensor_(checkContiguous)(state, "bias", bias);
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  if (rc == 0)
    rc = THNN_(SparseLinear_touched)(state, in, nIn, &touched);
  if (rc == 0 && nOut > 0) {
    THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(SparseLinear_biasStepKernel))(
        THTensor_(data)(bias), THTensor_(data)(gradBias), gradBias->stride[0], learningRate, nOut);
    if (nIn > 0)
      THC_LAUNCH(THC_blocks(nOut * nIn), THC_NUM_THREADS, THNN_(SparseLinear_updateKernel))(
          THTensor_(data)(weight), THTensor_(data)(gradWeight), gradWeight->stride[0], gradWeight->stride[1],
          THLongTensor_data(&touched), learningRate, nIn, nOut * nIn);
    rc = THCCheckLaunch(state, "SparseLinear_updateParameters");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&touched);
  return rc;
}

int THNN_(SparseLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                     THTensor *bias, int64_t batchSize)
{
  return THNN_(SparseLinear_output)(state, input, false, batchSize, output, weight, bias);
}

int THNN_(SparseLinear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                          THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                          THTensor *bias, accreal weightDecay, accreal scale)
{
  return THNN_(SparseLinear_accGrad)(state, input, false, gradOutput, gradWeight, gradBias, weight, bias,
                                     weightDecay, scale);
}

int THNN_(SparseLinear_zeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                           THTensor *lastInput)
{
  return THNN_(SparseLinear_zeroGrad)(state, gradWeight, gradBias, lastInput, false);
}

int THNN_(SparseLinear_updateParameters)(THNNState *state, THTensor *weight, THTensor *bias,
                                         THTensor *gradWeight, THTensor *gradBias, THTensor *lastInput,
                                         accreal learningRate)
{
  return THNN_(SparseLinear_update)(state, weight, bias, gradWeight, gradBias, lastInput, false, learningRate);
}

int THNN_(SparseLinear_legacyUpdateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                           THTensor *weight, THTensor *bias)
{
  return THNN_(SparseLinear_output)(state, input, true, 0, output, weight, bias);
}

int THNN_(SparseLinear_legacyAccGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                                THTensor *bias, accreal weightDecay, accreal scale)
{
  return THNN_(SparseLinear_accGrad)(state, input, true, gradOutput, gradWeight, gradBias, weight, bias,
                                     weightDecay, scale);
}

int THNN_(SparseLinear_legacyZeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                                 THTensor *lastInput)
{
  return THNN_(SparseLinear_zeroGrad)(state, gradWeight, gradBias, lastInput, true);
}

int THNN_(SparseLinear_legacyUpdateParameters)(THNNState *state, THTensor *weight, THTensor *bias,
                                               THTensor *gradWeight, THTensor *gradBias, THTensor *lastInput,
                                               accreal learningRate)
{
  return THNN_(SparseLinear_update)(state, weight, bias, gradWeight, gradBias, lastInput, true, learningRate);
}

#endif
