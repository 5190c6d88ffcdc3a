#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LookupTable.c"
#else

#include "THLoop.h"

/* The table is [nIndex, nOutput]; an index input is 1D [n] or 2D [batch, n]
 * of 0-based row numbers, read in row-major order through its strides. */

static int64_t THNN_(LookupTable_indexAt)(const THIndexTensor *input, int64_t e)
{
  const int64_t *d = THLongTensor_data(input);
  if (input->nDimension == 1)
    return d[e * input->stride[0]];
  int64_t n = input->size[1];
  return d[(e / n) * input->stride[0] + (e % n) * input->stride[1]];
}

/* The error for index k at row-major position e of input (named inputName)
 * outside [0, nIndex): shared with the CUDA twin, which finds it on the device. */
int THNN_(LookupTable_indexError)(THNNState *state, THIndexTensor *input, const char *inputName,
                                         int64_t e, int64_t k, int64_t nIndex)
{
  if (input->nDimension == 1)
    return THError(state, "%s[%lld] = %lld is out of range [0, %lld)", inputName,
                   (long long)e, (long long)k, (long long)nIndex);
  return THError(state, "%s[%lld, %lld] = %lld is out of range [0, %lld)", inputName,
                 (long long)(e / input->size[1]), (long long)(e % input->size[1]),
                 (long long)k, (long long)nIndex);
}

/* Checks the table, the shape of the index tensor (named inputName) and
 * gradOutput when given, without reading an index (the CUDA twin's check). */
int THNN_(LookupTable_checkShapes)(THNNState *state, THIndexTensor *input, const char *inputName,
                                          THTensor *gradOutput, THTensor *table, const char *tableName)
{
  if (table->nDimension != 2)
    return THTensor_(shapeError)(state, tableName, table, "2D [nIndex, nOutput]");
  int64_t nOutput = table->size[1];
  int nd = input->nDimension;
  if (nd != 1 && nd != 2) {
    char actual[160];
    THLongTensor_describe(input, actual, sizeof actual);
    return THError(state, "%s must be 1D [n] or 2D [batch, n] indices, got %s", inputName, actual);
  }
  if (gradOutput) {
    int64_t size[3] = {input->size[0], nd == 2 ? input->size[1] : nOutput, nOutput};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, nd + 1, size));
  }
  return 0;
}

/* checkShapes, and every index in range, so the verbs may index freely. */
int THNN_(LookupTable_shapeCheck)(THNNState *state, THIndexTensor *input, const char *inputName,
                                         THTensor *gradOutput, THTensor *table, const char *tableName)
{
  TH_TRY(THNN_(LookupTable_checkShapes)(state, input, inputName, gradOutput, table, tableName));
  int64_t nIndex = table->size[0], numel = THLongTensor_nElement(input);
  for (int64_t e = 0; e < numel; e++) {
    int64_t k = THNN_(LookupTable_indexAt)(input, e);
    if (k < 0 || k >= nIndex)
      return THNN_(LookupTable_indexError)(state, input, inputName, e, k, nIndex);
  }
  return 0;
}

/* A sorted copy of the indices, each distinct value once; counts (NULL or
 * room for every index) gets their multiplicities.  NULL (error set) when
 * memory runs out; free with THFree. */
static int64_t *THNN_(LookupTable_distinct)(THNNState *state, THIndexTensor *input, int64_t *counts, int64_t *n)
{
  int64_t numel = THLongTensor_nElement(input);
  int64_t *rows = THAlloc((size_t)numel * sizeof *rows);
  if (!rows) {
    THError(state, "out of memory sorting %lld indices", (long long)numel);
    return NULL;
  }
  for (int64_t e = 0; e < numel; e++)
    rows[e] = THNN_(LookupTable_indexAt)(input, e);
  *n = THSortUnique(rows, numel, counts);
  return rows;
}

int THNN_(LookupTable_updateOutput)(THNNState *state, THIndexTensor *input, THTensor *output,
                                    THTensor *weight)
{
  TH_TRY(THNN_(LookupTable_shapeCheck)(state, input, "input", NULL, weight, "weight"));
  int nd = input->nDimension;
  int64_t nOutput = weight->size[1], size[3];
  for (int d = 0; d < nd; d++)
    size[d] = input->size[d];
  size[nd] = nOutput;
  TH_TRY(THTensor_(resizeNd)(state, output, nd + 1, size));
  real *y = THTensor_(data)(output);
  const real *w = THTensor_(data)(weight);
  int64_t numel = THLongTensor_nElement(input);
#pragma omp parallel for num_threads(THLoopThreads(numel * nOutput))
  for (int64_t e = 0; e < numel; e++) {
    const real *row = w + THNN_(LookupTable_indexAt)(input, e) * weight->stride[0];
    real *dst = y + e * nOutput;
    if (weight->stride[1] == 1) {
      memcpy(dst, row, (size_t)nOutput * sizeof(real));
    } else {
      for (int64_t j = 0; j < nOutput; j++)
        dst[j] = row[j * weight->stride[1]];
    }
  }
  return 0;
}

int THNN_(LookupTable_accGradParameters)(THNNState *state, THIndexTensor *input, THTensor *gradOutput,
                                         THTensor *gradWeight, bool scaleGradByFreq,
                                         int64_t paddingValue, accreal scale)
{
  TH_TRY(THNN_(LookupTable_shapeCheck)(state, input, "input", gradOutput, gradWeight, "gradWeight"));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  int64_t nOutput = gradWeight->size[1], numel = THLongTensor_nElement(input), nDistinct = 0;
  int64_t *counts = NULL, *rows = NULL;
  if (scaleGradByFreq) {
    counts = THAlloc((size_t)numel * sizeof *counts);
    if (!counts)
      return THError(state, "out of memory counting %lld indices", (long long)numel);
    rows = THNN_(LookupTable_distinct)(state, input, counts, &nDistinct);
    if (!rows) {
      THFree(counts);
      return -1;
    }
  }
  THTensor gTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  if (g) {
    const real *go = THTensor_(data)(g);
    real *gw = THTensor_(data)(gradWeight);
    for (int64_t e = 0; e < numel; e++) {
      int64_t k = THNN_(LookupTable_indexAt)(input, e);
      if (k == paddingValue)
        continue;
      real s = (real)(scaleGradByFreq ? scale / counts[THFindSorted(rows, nDistinct, k)] : scale);
      real *row = gw + k * nOutput;
      const real *ge = go + e * nOutput;
      for (int64_t j = 0; j < nOutput; j++)
        row[j] += s * ge[j];
    }
  }
  THTensor_(release)(&gTmp);
  THFree(rows);
  THFree(counts);
  return g ? 0 : -1;
}

/* The p-norm of n values (p > 0; infinity gives the largest magnitude). */
static accreal THNN_(LookupTable_norm)(const real *x, int64_t n, accreal p)
{
  accreal acc = 0;
  for (int64_t j = 0; j < n; j++) {
    accreal a = fabs((accreal)x[j]);
    if (isinf(p))
      acc = a > acc ? a : acc;
    else
      acc += p == 1 ? a : p == 2 ? a * a : pow(a, p);
  }
  return isinf(p) || p == 1 ? acc : p == 2 ? sqrt(acc) : pow(acc, 1 / p);
}

int THNN_(LookupTable_renorm)(THNNState *state, THIndexTensor *idx, THTensor *weight,
                              accreal maxNorm, accreal normType)
{
  TH_TRY(THNN_(LookupTable_shapeCheck)(state, idx, "idx", NULL, weight, "weight"));
  TH_TRY(THTensor_(checkContiguous)(state, "weight", weight));
  if (!(normType > 0))
    return THError(state, "normType must be positive, got %g", normType);
  if (!(maxNorm >= 0))
    return THError(state, "maxNorm must be non-negative, got %g", maxNorm);
  int64_t nOutput = weight->size[1], nDistinct = 0;
  int64_t *rows = THNN_(LookupTable_distinct)(state, idx, NULL, &nDistinct);
  if (!rows)
    return -1;
  real *w = THTensor_(data)(weight);
  for (int64_t i = 0; i < nDistinct; i++) {
    real *row = w + rows[i] * nOutput;
    accreal norm = THNN_(LookupTable_norm)(row, nOutput, normType);
    if (norm > maxNorm) {
      accreal s = maxNorm / (norm + 1e-7);
      for (int64_t j = 0; j < nOutput; j++)
        row[j] = (real)(row[j] * s);
    }
  }
  THFree(rows);
  return 0;
}

#endif
