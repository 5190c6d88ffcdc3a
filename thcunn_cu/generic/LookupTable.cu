#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LookupTable.cu"
#else

/* The table is [nIndex, nOutput]; the indices (1D or 2D, 0-based) are made
 * contiguous and checked on the device: the first out-of-range index in
 * row-major order gives the CPU kernel's message. */

/* shared with the CPU kernel (thnn_c/generic/LookupTable.c) */
extern "C" int THNN_CPU_(LookupTable_checkShapes)(THNNState *state, THIndexTensor *input, const char *inputName,
                                                  THTensor *gradOutput, THTensor *table, const char *tableName);
extern "C" int THNN_CPU_(LookupTable_indexError)(THNNState *state, THIndexTensor *input, const char *inputName,
                                                 int64_t e, int64_t k, int64_t nIndex);

#ifndef THC_LOOKUP_SHARED
#define THC_LOOKUP_SHARED
#include "THCIndexRange.cuh"

/* counts[k] += 1 for every index k (counts zeroed) */
__global__ void THCLookupTable_countKernel(const int64_t *idx, int64_t n, int64_t *counts)
{
  THC_KERNEL_LOOP(e, n) atomicAdd((unsigned long long *)&counts[idx[e]], 1ULL);
}
#endif

/* The contiguous indices in idxTmp's place when input is not (release
 * idxTmp); NULL with the error set, the CPU's message for a bad index. */
static const THIndexTensor *THNN_(LookupTable_indices)(THNNState *state, THIndexTensor *input,
                                                       const char *inputName, int64_t nIndex,
                                                       THIndexTensor *idxTmp)
{
  const THIndexTensor *idx = THCLongTensor_contiguous(state, input, idxTmp);
  int64_t n = THLongTensor_nElement(input);
  if (!idx || n == 0)
    return idx;
  THCErrorSlot bad;
  if (THCIndexRange_first(state, THLongTensor_data(idx), n, nIndex, &bad) != 0)
    return NULL;
  if (bad.flag) {
    THNN_CPU_(LookupTable_indexError)(state, input, inputName, bad.where, bad.value, nIndex);
    return NULL;
  }
  return idx;
}

__global__ void THNN_(LookupTable_gatherKernel)(const int64_t *idx, const real *w, int64_t s0, int64_t s1,
                                                real *y, int64_t nOutput, int64_t n)
{
  THC_KERNEL_LOOP(i, n) y[i] = w[idx[i / nOutput] * s0 + (i % nOutput) * s1];
}

int THNN_(LookupTable_updateOutput)(THNNState *state, THIndexTensor *input, THTensor *output, THTensor *weight)
{
  TH_TRY(THNN_CPU_(LookupTable_checkShapes)(state, input, "input", NULL, weight, "weight"));
  int nd = input->nDimension;
  int64_t nOutput = weight->size[1], size[3];
  for (int d = 0; d < nd; d++)
    size[d] = input->size[d];
  size[nd] = nOutput;
  THIndexTensor idxTmp = {};
  const THIndexTensor *idx = THNN_(LookupTable_indices)(state, input, "input", weight->size[0], &idxTmp);
  int rc = -1;
  if (idx && THCTensor_(resizeNd)(state, output, nd + 1, size) == 0) {
    int64_t n = THTensor_(nElement)(output);
    rc = 0;
    if (n > 0) {
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(LookupTable_gatherKernel))(
          THLongTensor_data(idx), THTensor_(data)(weight), weight->stride[0], weight->stride[1],
          THTensor_(data)(output), nOutput, n);
      rc = THCCheckLaunch(state, "LookupTable_updateOutput");
    }
  }
  THCLongTensor_release(&idxTmp);
  return rc;
}

/* gw[k] += s * go[e] for the index k of position e (not paddingValue), with
 * s = scale, or scale / (the count of k) when counts is given */
__global__ void THNN_(LookupTable_scatterKernel)(const int64_t *idx, const real *go, real *gw,
                                                 const int64_t *counts, int64_t paddingValue, accreal scale,
                                                 int64_t nOutput, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t e = i / nOutput, k = idx[e];
    if (k == paddingValue)
      continue;
    real s = (real)(counts ? scale / counts[k] : scale);
    atomicAdd(&gw[k * nOutput + i % nOutput], s * go[i]);
  }
}

int THNN_(LookupTable_accGradParameters)(THNNState *state, THIndexTensor *input, THTensor *gradOutput,
                                         THTensor *gradWeight, bool scaleGradByFreq, int64_t paddingValue,
                                         accreal scale)
{
  TH_TRY(THNN_CPU_(LookupTable_checkShapes)(state, input, "input", gradOutput, gradWeight, "gradWeight"));
  int64_t nIndex = gradWeight->size[0], nOutput = gradWeight->size[1];
  THIndexTensor idxTmp = {}, counts = {};
  THTensor gTmp = {};
  const THIndexTensor *idx = THNN_(LookupTable_indices)(state, input, "input", nIndex, &idxTmp);
  int rc = idx ? THTensor_(checkContiguous)(state, "gradWeight", gradWeight) : -1;
  int64_t numel = THLongTensor_nElement(input), n = numel * nOutput;
  if (rc == 0 && scaleGradByFreq && numel > 0) {
    rc = THCLongTensor_resize1d(state, &counts, nIndex) || THCLongTensor_fill(state, &counts, 0) ? -1 : 0;
    if (rc == 0) {
      THC_LAUNCH(THC_blocks(numel), THC_NUM_THREADS, THCLookupTable_countKernel)(
          THLongTensor_data(idx), numel, THLongTensor_data(&counts));
      rc = THCCheckLaunch(state, "LookupTable_accGradParameters");
    }
  }
  const THTensor *g = rc == 0 ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (g && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(LookupTable_scatterKernel))(
        THLongTensor_data(idx), THTensor_(data)(g), THTensor_(data)(gradWeight),
        scaleGradByFreq ? THLongTensor_data(&counts) : NULL, paddingValue, scale, nOutput, n);
    rc = THCCheckLaunch(state, "LookupTable_accGradParameters");
  } else if (!g) {
    rc = -1;
  }
  THCLongTensor_release(&idxTmp);
  THCLongTensor_release(&counts);
  THCTensor_(release)(&gTmp);
  return rc;
}

/* Rows of the table the indices name are marked in seen (zeroed), then every
 * marked row whose p-norm exceeds maxNorm is scaled to maxNorm / (norm + 1e-7),
 * one block per row. */
__global__ void THNN_(LookupTable_markKernel)(const int64_t *idx, int64_t n, int64_t *seen)
{
  THC_KERNEL_LOOP(e, n) seen[idx[e]] = 1;
}

__global__ void THNN_(LookupTable_renormKernel)(real *w, const int64_t *seen, int64_t nIndex, int64_t nOutput,
                                                accreal maxNorm, accreal p)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t r = blockIdx.x; r < nIndex; r += gridDim.x) {
    if (!seen[r])
      continue;
    real *row = w + r * nOutput;
    accreal acc = 0;
    for (int64_t j = threadIdx.x; j < nOutput; j += blockDim.x) {
      accreal a = fabs((accreal)row[j]);
      if (isinf(p))
        acc = a > acc ? a : acc;
      else
        acc += p == 1 ? a : p == 2 ? a * a : pow(a, p);
    }
    acc = isinf(p) ? THCBlockReduce(acc, scratch, THCMax()) : THCBlockReduce(acc, scratch, THCSum());
    accreal norm = isinf(p) || p == 1 ? acc : p == 2 ? sqrt(acc) : pow(acc, 1 / p);
    if (norm > maxNorm)
      for (int64_t j = threadIdx.x; j < nOutput; j += blockDim.x)
        row[j] = (real)(row[j] * (maxNorm / (norm + 1e-7)));
  }
}

int THNN_(LookupTable_renorm)(THNNState *state, THIndexTensor *idx, THTensor *weight, accreal maxNorm,
                              accreal normType)
{
  TH_TRY(THNN_CPU_(LookupTable_checkShapes)(state, idx, "idx", NULL, weight, "weight"));
  int64_t nIndex = weight->size[0], nOutput = weight->size[1], numel = THLongTensor_nElement(idx);
  THIndexTensor idxTmp = {}, seen = {};
  const THIndexTensor *rows = THNN_(LookupTable_indices)(state, idx, "idx", nIndex, &idxTmp);
  int rc = rows ? THTensor_(checkContiguous)(state, "weight", weight) : -1;
  if (rc == 0 && !(normType > 0))
    rc = THError(state, "normType must be positive, got %g", normType);
  if (rc == 0 && !(maxNorm >= 0))
    rc = THError(state, "maxNorm must be non-negative, got %g", maxNorm);
  if (rc == 0 && numel > 0) {
    rc = THCLongTensor_resize1d(state, &seen, nIndex) || THCLongTensor_fill(state, &seen, 0) ? -1 : 0;
    if (rc == 0) {
      THC_LAUNCH(THC_blocks(numel), THC_NUM_THREADS, THNN_(LookupTable_markKernel))(
          THLongTensor_data(rows), numel, THLongTensor_data(&seen));
      THC_LAUNCH(THC_blocks(nIndex * THC_NUM_THREADS), THC_NUM_THREADS, THNN_(LookupTable_renormKernel))(
          THTensor_(data)(weight), THLongTensor_data(&seen), nIndex, nOutput, maxNorm, normType);
      rc = THCCheckLaunch(state, "LookupTable_renorm");
    }
  }
  THCLongTensor_release(&idxTmp);
  THCLongTensor_release(&seen);
  return rc;
}

#endif
