#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SparseLinear.c"
#else

/* y[h] = b + sum of v * W[:, k] over the nonzeros (k, v) of sample h, with W
 * [nOut, nIn] as in Linear.  Two input layouts, as in Torch7:
 *   COO     [nnz, 3]: each row (sample h, feature k, value v);
 *   legacy  [batch, nnz, 2]: row i of sample h is (feature k, value v).
 * Samples and features are 0-based and stored as reals; every entry is
 * checked to hold integers in range before any is used.  Entries whose
 * value is 0 are skipped, as Torch7 did. */

static int64_t THNN_(SparseLinear_nEntries)(const THTensor *input)
{
  return input->nDimension == 2 ? input->size[0] : input->size[0] * input->size[1];
}

/* Entry e: its value; *sample and *feature as stored (the legacy layout's
 * sample is the batch row). */
static real THNN_(SparseLinear_entry)(const THTensor *input, int64_t e, accreal *sample, accreal *feature)
{
  const real *d = THTensor_(data)(input);
  if (input->nDimension == 2) {
    const real *row = d + e * input->stride[0];
    *sample = row[0];
    *feature = row[input->stride[1]];
    return row[2 * input->stride[1]];
  }
  int64_t nnz = input->size[1], h = e / nnz;
  const real *row = d + h * input->stride[0] + (e % nnz) * input->stride[1];
  *sample = (accreal)h;
  *feature = row[0];
  return row[input->stride[2]];
}

static int THNN_(SparseLinear_isIndex)(accreal x, int64_t bound)
{
  return x >= 0 && x < (accreal)bound && x == floor(x);
}

/* The check of entry e (sample and feature as stored; perSample entries a
 * sample in the legacy layout): 0, or the error naming it.  Shared with the
 * CUDA twin, which finds the first bad entry on the device. */
int THNN_(SparseLinear_checkEntry)(THNNState *state, bool legacy, int64_t e, int64_t perSample,
                                          accreal sample, accreal feature, int64_t nIn, int64_t batch)
{
  if (legacy && !THNN_(SparseLinear_isIndex)(feature, nIn))
    return THError(state, "input[%lld, %lld, 0] = %g is not a feature index, an integer in [0, %lld)",
                   (long long)(e / perSample), (long long)(e % perSample), feature, (long long)nIn);
  if (!legacy && !THNN_(SparseLinear_isIndex)(feature, nIn))
    return THError(state, "input[%lld, 1] = %g is not a feature index, an integer in [0, %lld)",
                   (long long)e, feature, (long long)nIn);
  if (!legacy && batch >= 0 && !THNN_(SparseLinear_isIndex)(sample, batch))
    return THError(state, "input[%lld, 0] = %g is not a sample index, an integer in [0, %lld)",
                   (long long)e, sample, (long long)batch);
  if (!legacy && batch < 0 && !THNN_(SparseLinear_isIndex)(sample, INT64_MAX))
    return THError(state, "input[%lld, 0] = %g is not a sample index, a non-negative integer",
                   (long long)e, sample);
  return 0;
}

/* Checks the layout (legacy or COO) and whichever of gradOutput, bias,
 * gradWeight, gradBias are given, without reading an entry.  table is
 * weight or gradWeight, [nOut, nIn].  *batch bounds the COO sample column
 * (-1: only require non-negative integers); it becomes gradOutput's rows
 * with gradOutput, the batch of a legacy input. */
int THNN_(SparseLinear_checkShapes)(THNNState *state, THTensor *input, bool legacy, int64_t *batch,
                                           THTensor *gradOutput, THTensor *table, THTensor *bias,
                                           THTensor *gradWeight, THTensor *gradBias)
{
  if (table->nDimension != 2)
    return THTensor_(shapeError)(state, table == gradWeight ? "gradWeight" : "weight", table, "2D [nOut, nIn]");
  int64_t nOut = table->size[0];
  if (legacy && !(input->nDimension == 3 && input->size[2] == 2))
    return THTensor_(shapeError)(state, "input", input, "3D [batch, nnz, 2] of (feature, value) pairs");
  if (!legacy && !(input->nDimension == 2 && input->size[1] == 3))
    return THTensor_(shapeError)(state, "input", input, "2D [nnz, 3] of (sample, feature, value) rows");
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, "bias", bias, 1, &nOut));
  if (gradWeight && gradWeight != table)
    TH_TRY(THTensor_(checkSameSize)(state, "gradWeight", gradWeight, "weight", table));
  if (gradBias)
    TH_TRY(THTensor_(checkSizes)(state, "gradBias", gradBias, 1, &nOut));
  if (legacy)
    *batch = input->size[0];
  if (gradOutput) {
    if (gradOutput->nDimension != 2 || gradOutput->size[1] != nOut || (legacy && gradOutput->size[0] != *batch))
      return THTensor_(shapeError)(state, "gradOutput", gradOutput, "2D [%s, %lld]",
                                   legacy ? "batch" : "nSamples", (long long)nOut);
    *batch = gradOutput->size[0];
  }
  return 0;
}

/* checkShapes, and every entry (checkEntry). */
int THNN_(SparseLinear_shapeCheck)(THNNState *state, THTensor *input, bool legacy, int64_t batch,
                                          THTensor *gradOutput, THTensor *table, THTensor *bias,
                                          THTensor *gradWeight, THTensor *gradBias)
{
  TH_TRY(THNN_(SparseLinear_checkShapes)(state, input, legacy, &batch, gradOutput, table, bias, gradWeight,
                                         gradBias));
  int64_t n = THNN_(SparseLinear_nEntries)(input);
  for (int64_t e = 0; e < n; e++) {
    accreal sample, feature;
    THNN_(SparseLinear_entry)(input, e, &sample, &feature);
    TH_TRY(THNN_(SparseLinear_checkEntry)(state, legacy, e, legacy ? input->size[1] : 1, sample, feature,
                                          table->size[1], batch));
  }
  return 0;
}

/* The distinct features of the entries with a nonzero value (the columns of
 * W the input touched), sorted.  NULL (error set) when memory runs out. */
static int64_t *THNN_(SparseLinear_features)(THNNState *state, THTensor *input, int64_t *count)
{
  int64_t n = THNN_(SparseLinear_nEntries)(input), kept = 0;
  int64_t *features = THAlloc((size_t)n * sizeof *features);
  if (!features) {
    THError(state, "out of memory collecting %lld features", (long long)n);
    return NULL;
  }
  for (int64_t e = 0; e < n; e++) {
    accreal sample, feature;
    if (THNN_(SparseLinear_entry)(input, e, &sample, &feature) != 0)
      features[kept++] = (int64_t)feature;
  }
  *count = THSortUnique(features, kept, NULL);
  return features;
}

static int THNN_(SparseLinear_output)(THNNState *state, THTensor *input, bool legacy, int64_t batch,
                                      THTensor *output, THTensor *weight, THTensor *bias)
{
  if (batch < 0)
    return THError(state, "batchSize must be non-negative, got %lld", (long long)batch);
  TH_TRY(THNN_(SparseLinear_shapeCheck)(state, input, legacy, batch, NULL, weight, bias, NULL, NULL));
  int64_t nOut = weight->size[0];
  batch = legacy ? input->size[0] : batch;
  TH_TRY(THTensor_(resize2d)(state, output, batch, nOut));
  real *y = THTensor_(data)(output);
  const real *w = THTensor_(data)(weight), *b = THTensor_(data)(bias);
  for (int64_t h = 0; h < batch; h++)
    for (int64_t j = 0; j < nOut; j++)
      y[h * nOut + j] = b[j * bias->stride[0]];
  int64_t n = THNN_(SparseLinear_nEntries)(input);
  for (int64_t e = 0; e < n; e++) {
    accreal sample, feature;
    real v = THNN_(SparseLinear_entry)(input, e, &sample, &feature);
    if (v == 0)
      continue;
    real *yh = y + (int64_t)sample * nOut;
    const real *column = w + (int64_t)feature * weight->stride[1];
    for (int64_t j = 0; j < nOut; j++)
      yh[j] += v * column[j * weight->stride[0]];
  }
  return 0;
}

static int THNN_(SparseLinear_accGrad)(THNNState *state, THTensor *input, bool legacy, THTensor *gradOutput,
                                       THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                       THTensor *bias, accreal weightDecay, accreal scale)
{
  TH_TRY(THNN_(SparseLinear_shapeCheck)(state, input, legacy, -1, gradOutput, weight, bias, gradWeight, gradBias));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nOut = weight->size[0], nIn = weight->size[1], batch = gradOutput->size[0];
  THTensor gTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  if (!g)
    return -1;
  const real *go = THTensor_(data)(g);
  real *gw = THTensor_(data)(gradWeight), *gb = THTensor_(data)(gradBias);
  int64_t n = THNN_(SparseLinear_nEntries)(input);
  for (int64_t e = 0; e < n; e++) {
    accreal sample, feature;
    real v = THNN_(SparseLinear_entry)(input, e, &sample, &feature);
    if (v == 0)
      continue;
    const real *gh = go + (int64_t)sample * nOut;
    real *column = gw + (int64_t)feature;
    for (int64_t j = 0; j < nOut; j++)
      column[j * nIn] += (real)(scale * v * gh[j]);
  }
  for (int64_t h = 0; h < batch; h++)
    for (int64_t j = 0; j < nOut; j++)
      gb[j] += (real)(scale * go[h * nOut + j]);
  if (weightDecay != 0) {
    const real *w = THTensor_(data)(weight);
    for (int64_t j = 0; j < nOut; j++)
      for (int64_t k = 0; k < nIn; k++)
        gw[j * nIn + k] += (real)(weightDecay * w[j * weight->stride[0] + k * weight->stride[1]]);
  }
  THTensor_(release)(&gTmp);
  return 0;
}

static int THNN_(SparseLinear_zeroGrad)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                        THTensor *lastInput, bool legacy)
{
  TH_TRY(THNN_(SparseLinear_shapeCheck)(state, lastInput, legacy, -1, NULL, gradWeight, NULL, gradWeight, gradBias));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nOut = gradWeight->size[0], nIn = gradWeight->size[1], count = 0;
  int64_t *features = THNN_(SparseLinear_features)(state, lastInput, &count);
  if (!features)
    return -1;
  real *gw = THTensor_(data)(gradWeight);
  memset(THTensor_(data)(gradBias), 0, (size_t)nOut * sizeof(real));
  for (int64_t i = 0; i < count; i++)
    for (int64_t j = 0; j < nOut; j++)
      gw[j * nIn + features[i]] = 0;
  THFree(features);
  return 0;
}

static int THNN_(SparseLinear_update)(THNNState *state, THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                      THTensor *gradBias, THTensor *lastInput, bool legacy, accreal learningRate)
{
  TH_TRY(THNN_(SparseLinear_shapeCheck)(state, lastInput, legacy, -1, NULL, weight, bias, gradWeight, gradBias));
  TH_TRY(THTensor_(checkContiguous)(state, "weight", weight));
  TH_TRY(THTensor_(checkContiguous)(state, "bias", bias));
  int64_t nOut = weight->size[0], nIn = weight->size[1], count = 0;
  int64_t *features = THNN_(SparseLinear_features)(state, lastInput, &count);
  if (!features)
    return -1;
  real *w = THTensor_(data)(weight), *b = THTensor_(data)(bias);
  const real *gw = THTensor_(data)(gradWeight), *gb = THTensor_(data)(gradBias);
  for (int64_t j = 0; j < nOut; j++)
    b[j] -= (real)(learningRate * gb[j * gradBias->stride[0]]);
  for (int64_t i = 0; i < count; i++)
    for (int64_t j = 0; j < nOut; j++)
      w[j * nIn + features[i]] -= (real)(learningRate * gw[j * gradWeight->stride[0] +
                                                          features[i] * gradWeight->stride[1]]);
  THFree(features);
  return 0;
}

int THNN_(SparseLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                     THTensor *weight, THTensor *bias, int64_t batchSize)
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
                                               THTensor *gradWeight, THTensor *gradBias,
                                               THTensor *lastInput, accreal learningRate)
{
  return THNN_(SparseLinear_update)(state, weight, bias, gradWeight, gradBias, lastInput, true, learningRate);
}

#endif
