#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/IndexLinear.c"
#else

/* A batch of sparse samples as Torch7's IndexLinear takes it: keys [nnz] and
 * values [nnz] of all samples one after the other, sizes [batch] saying how
 * many belong to each.  Feature key k uses row k + keysOffset of weight
 * (0-based), so y[j] = b + sum of v * W[k + keysOffset] over sample j.
 *
 * With max-normalisation weight is [nIn, 4 + nOut] and the first four
 * columns of a feature's row are (max |v| seen in training, its inverse, the
 * feature's update scale, the feature's bias c); the value used is then
 * u = (|v| > max ? sign(v) : v / max) + c, and the gradient has two halves
 * per entry: dL/dc's terms (scale * dL/dy) and dL/dW's (scale * u * dL/dy). */

static int THNN_(IndexLinear_normalized)(const THTensor *weight, const THTensor *bias)
{
  return weight->size[1] != bias->size[0];
}

/* The error for keys[i] = key, out of range with keysOffset (shared with
 * the CUDA twin, which finds it on the device). */
int THNN_(IndexLinear_keyError)(THNNState *state, int64_t i, int64_t key, int64_t keysOffset, int64_t nIn)
{
  return THError(state, "keys[%lld] = %lld with keysOffset %lld is out of range: rows are [0, %lld)",
                 (long long)i, (long long)key, (long long)keysOffset, (long long)nIn);
}

/* Checks every given tensor, all but the keys' values.  keys and values are
 * [nnz] (values may be NULL), sizes [batch] with non-negative entries
 * summing to nnz (or NULL; the entries are read from hostSizes, sizes itself
 * here, a host copy shaped as sizes in the CUDA twin), gradOutput [batch,
 * nOut], gradWeight [nnz, nOut] or [nnz, 2 nOut] with normalisation,
 * gradBias [nOut]. */
int THNN_(IndexLinear_checkShapes)(THNNState *state, THIndexTensor *keys, THTensor *values,
                                          THIndexTensor *sizes, THIndexTensor *hostSizes, THTensor *gradOutput,
                                          THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                          THTensor *gradBias)
{
  if (bias->nDimension != 1)
    return THTensor_(shapeError)(state, "bias", bias, "1D [nOut]");
  int64_t nOut = bias->size[0];
  if (weight->nDimension != 2 || (weight->size[1] != nOut && weight->size[1] != 4 + nOut))
    return THTensor_(shapeError)(state, "weight", weight, "2D [nIn, %lld] or [nIn, %lld] (normalized)",
                                 (long long)nOut, (long long)(4 + nOut));
  char actual[160];
  if (keys->nDimension != 1) {
    THLongTensor_describe(keys, actual, sizeof actual);
    return THError(state, "keys must be 1D [nnz], got %s", actual);
  }
  int64_t nnz = keys->size[0];
  if (values)
    TH_TRY(THTensor_(checkSizes)(state, "values", values, 1, &nnz));
  if (sizes) {
    if (sizes->nDimension != 1) {
      THLongTensor_describe(sizes, actual, sizeof actual);
      return THError(state, "sizes must be 1D [batch], got %s", actual);
    }
    int64_t total = 0;
    for (int64_t j = 0; j < sizes->size[0]; j++) {
      int64_t n = THLongTensor_data(hostSizes)[j * hostSizes->stride[0]];
      if (n < 0 || n > nnz - total)
        return THError(state, "sizes[%lld] = %lld: sizes must be non-negative and sum to the %lld keys",
                       (long long)j, (long long)n, (long long)nnz);
      total += n;
    }
    if (total != nnz)
      return THError(state, "sizes sum to %lld but there are %lld keys", (long long)total, (long long)nnz);
    if (gradOutput) {
      int64_t size[2] = {sizes->size[0], nOut};
      TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, 2, size));
    }
  }
  if (gradWeight) {
    int64_t size[2] = {nnz, THNN_(IndexLinear_normalized)(weight, bias) ? 2 * nOut : nOut};
    TH_TRY(THTensor_(checkSizes)(state, "gradWeight", gradWeight, 2, size));
  }
  if (gradBias)
    TH_TRY(THTensor_(checkSizes)(state, "gradBias", gradBias, 1, &nOut));
  return 0;
}

/* checkShapes, and every key, so the verbs may index freely. */
int THNN_(IndexLinear_shapeCheck)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                         THTensor *values, THIndexTensor *sizes, THTensor *gradOutput,
                                         THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                         THTensor *gradBias)
{
  TH_TRY(THNN_(IndexLinear_checkShapes)(state, keys, values, sizes, sizes, gradOutput, weight, bias, gradWeight,
                                        gradBias));
  for (int64_t i = 0, nIn = weight->size[0]; i < keys->size[0]; i++) {
    int64_t key = THLongTensor_data(keys)[i * keys->stride[0]], row;
    if (__builtin_add_overflow(key, keysOffset, &row) || row < 0 || row >= nIn)
      return THNN_(IndexLinear_keyError)(state, i, key, keysOffset, nIn);
  }
  return 0;
}

/* Row of weight for entry i (validated by the shapeCheck). */
static real *THNN_(IndexLinear_row)(THTensor *weight, THIndexTensor *keys, int64_t keysOffset, int64_t i)
{
  int64_t key = THLongTensor_data(keys)[i * keys->stride[0]];
  return THTensor_(data)(weight) + (key + keysOffset) * weight->stride[0];
}

/* The normalised value of v for a feature row (see the top), updating the
 * row's max |v| when training. */
static real THNN_(IndexLinear_normalize)(real *row, int64_t colStride, real v, bool train)
{
  real a = fabs(v);
  if (train) {
    if (a > row[0]) {
      row[0] = a;
      row[colStride] = 1 / a;
    }
    row[2 * colStride] = 1;
  }
  real u = a > row[0] ? (v > 0) - (v < 0) : v * row[colStride];
  return u + row[3 * colStride];
}

int THNN_(IndexLinear_updateOutput)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                    THTensor *values, THIndexTensor *sizes, THTensor *output,
                                    THTensor *weight, THTensor *bias, THTensor *normalizedValues, bool train)
{
  TH_TRY(THNN_(IndexLinear_shapeCheck)(state, keys, keysOffset, values, sizes, NULL, weight, bias, NULL, NULL));
  int normalized = THNN_(IndexLinear_normalized)(weight, bias);
  if (normalized && train)
    TH_TRY(THTensor_(checkContiguous)(state, "weight", weight));
  int64_t nOut = bias->size[0], batch = sizes->size[0], ws = weight->stride[1];
  TH_TRY(THTensor_(resize2d)(state, output, batch, nOut));
  if (normalized)
    TH_TRY(THTensor_(resize1d)(state, normalizedValues, keys->size[0]));
  real *y = THTensor_(data)(output);
  const real *v = THTensor_(data)(values), *b = THTensor_(data)(bias);
  int64_t i = 0;
  for (int64_t j = 0; j < batch; j++) {
    real *yj = y + j * nOut;
    for (int64_t k = 0; k < nOut; k++)
      yj[k] = b[k * bias->stride[0]];
    int64_t end = i + THLongTensor_data(sizes)[j * sizes->stride[0]];
    for (; i < end; i++) {
      real *row = THNN_(IndexLinear_row)(weight, keys, keysOffset, i);
      real u = v[i * values->stride[0]];
      if (normalized) {
        u = THNN_(IndexLinear_normalize)(row, ws, u, train);
        THTensor_(data)(normalizedValues)[i] = u;
        row += 4 * ws;
      }
      for (int64_t k = 0; k < nOut; k++)
        yj[k] += u * row[k * ws];
    }
  }
  return 0;
}

int THNN_(IndexLinear_accGradParameters)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                         THTensor *values, THIndexTensor *sizes, THTensor *gradOutput,
                                         THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                         THTensor *bias, accreal scale)
{
  TH_TRY(THNN_(IndexLinear_shapeCheck)(state, keys, keysOffset, values, sizes, gradOutput, weight, bias,
                                       NULL, gradBias));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int normalized = THNN_(IndexLinear_normalized)(weight, bias);
  int64_t nOut = bias->size[0], batch = sizes->size[0], width = normalized ? 2 * nOut : nOut;
  TH_TRY(THTensor_(resize2d)(state, gradWeight, keys->size[0], width));
  THTensor gTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  if (!g)
    return -1;
  const real *go = THTensor_(data)(g), *v = THTensor_(data)(values);
  real *gw = THTensor_(data)(gradWeight), *gb = THTensor_(data)(gradBias);
  int64_t i = 0;
  for (int64_t j = 0; j < batch; j++) {
    const real *gj = go + j * nOut;
    for (int64_t k = 0; k < nOut; k++)
      gb[k] += (real)(scale * gj[k]);
    int64_t end = i + THLongTensor_data(sizes)[j * sizes->stride[0]];
    for (; i < end; i++) {
      real *gwi = gw + i * width;
      if (normalized) {
        for (int64_t k = 0; k < nOut; k++)
          gwi[k] = (real)(scale * gj[k]);
        gwi += nOut;
      }
      for (int64_t k = 0; k < nOut; k++)
        gwi[k] = (real)(scale * v[i * values->stride[0]] * gj[k]);
    }
  }
  THTensor_(release)(&gTmp);
  return 0;
}

/* One step on the rows the entries name, shared by the two update verbs:
 * entry i moves its row by -lr * (its gradient), where row i of gradWeight
 * holds it.  Normalised rows scale lr and weightDecay by the feature's
 * update scale, and step the feature bias c first, for every entry, from
 * the weights before the step.  Weight decay is sparse: w -= decay * w for
 * each entry naming the row. */
static void THNN_(IndexLinear_step)(THTensor *weight, int64_t nOut, THIndexTensor *keys, int64_t keysOffset,
                                    const real *gradWeight, accreal weightDecay, accreal lr)
{
  int64_t nnz = keys->size[0], normalized = weight->size[1] != nOut, width = normalized ? 2 * nOut : nOut;
  for (int64_t i = 0; normalized && i < nnz; i++) {
    real *row = THNN_(IndexLinear_row)(weight, keys, keysOffset, i);
    accreal dc = 0;
    for (int64_t k = 0; k < nOut; k++)
      dc += (accreal)gradWeight[i * width + k] * row[4 + k];
    row[3] -= (real)(lr * row[2] * dc);
  }
  for (int64_t i = 0; i < nnz; i++) {
    real *row = THNN_(IndexLinear_row)(weight, keys, keysOffset, i);
    accreal rate = normalized ? lr * row[2] : lr, decay = normalized ? weightDecay * row[2] : weightDecay;
    const real *g = gradWeight + i * width + (normalized ? nOut : 0);
    real *w = row + (normalized ? 4 : 0);
    for (int64_t k = 0; k < nOut; k++)
      w[k] -= (real)(decay * w[k] + rate * g[k]);
  }
}

int THNN_(IndexLinear_accUpdateGradParameters)(THNNState *state, THIndexTensor *keys, int64_t keysOffset,
                                               THTensor *values, THIndexTensor *sizes, THTensor *gradOutput,
                                               THTensor *weight, THTensor *bias, accreal weightDecay,
                                               accreal scale)
{
  TH_TRY(THNN_(IndexLinear_shapeCheck)(state, keys, keysOffset, values, sizes, gradOutput, weight, bias,
                                       NULL, NULL));
  TH_TRY(THTensor_(checkContiguous)(state, "weight", weight));
  TH_TRY(THTensor_(checkContiguous)(state, "bias", bias));
  /* the gradient accGradParameters would give with scale 1, then one step of scale */
  THTensor gradWeight = {0}, gradBias = {0};
  int rc = THTensor_(resize1d)(state, &gradBias, bias->size[0]);
  if (rc == 0) {
    memset(THTensor_(data)(&gradBias), 0, (size_t)bias->size[0] * sizeof(real));
    rc = THNN_(IndexLinear_accGradParameters)(state, keys, keysOffset, values, sizes, gradOutput,
                                              &gradWeight, &gradBias, weight, bias, 1);
  }
  if (rc == 0) {
    real *b = THTensor_(data)(bias);
    const real *gb = THTensor_(data)(&gradBias);
    for (int64_t k = 0; k < bias->size[0]; k++)
      b[k] -= (real)(scale * gb[k]);
    THNN_(IndexLinear_step)(weight, bias->size[0], keys, keysOffset, THTensor_(data)(&gradWeight),
                            weightDecay, scale);
  }
  THTensor_(release)(&gradWeight);
  THTensor_(release)(&gradBias);
  return rc;
}

int THNN_(IndexLinear_updateParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                        THTensor *weight, THTensor *bias, THIndexTensor *runningKeys,
                                        int64_t keysOffset, accreal weightDecay, accreal learningRate)
{
  TH_TRY(THNN_(IndexLinear_shapeCheck)(state, runningKeys, keysOffset, NULL, NULL, NULL, weight, bias,
                                       gradWeight, gradBias));
  TH_TRY(THTensor_(checkContiguous)(state, "weight", weight));
  TH_TRY(THTensor_(checkContiguous)(state, "bias", bias));
  THTensor gTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradWeight, &gTmp);
  if (!g)
    return -1;
  real *b = THTensor_(data)(bias);
  for (int64_t k = 0; k < bias->size[0]; k++)
    b[k] -= (real)(learningRate * THTensor_(data)(gradBias)[k * gradBias->stride[0]]);
  THNN_(IndexLinear_step)(weight, bias->size[0], runningKeys, keysOffset, THTensor_(data)(g),
                          weightDecay, learningRate);
  THTensor_(release)(&gTmp);
  return 0;
}

#endif
