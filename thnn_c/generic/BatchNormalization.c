#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BatchNormalization.c"
#else

#include "THLoop.h"

/* A contiguous input [batch, nInput, ...] is batch x nInput planes of
 * `plane` elements (the product of the dims after the channel, 1 for 2D
 * input): plane (b, c) starts at (b * nInput + c) * plane.  Every pass walks
 * the memory in order, sample by sample (the fastest order: the hardware
 * streams it), and keeps per-channel sums in double.  Planes of
 * THNN_BN_LANES elements or more are summed plane by plane (planeSums);
 * smaller ones, 2D input above all, row by row: a sample is a row of
 * nInput * plane positions, each with its own accumulator, folded into its
 * channel at the end (rowSums).  Two helpers do every pass: channelSums, the
 * sums sum(g - h) and sum((x - m)(g - h)) per channel (with g = x they give
 * the mean and the squared deviations of the forward pass, with h = 0 the
 * sums of the backward pass), and apply, y = g a + x b + k per channel. */

#ifndef THNN_BN_SHARED
#define THNN_BN_SHARED
/* planeSums adds in blocks of THNN_BN_BLOCK elements, each block in `real`
 * over THNN_BN_LANES partial sums (element i goes to lane i % LANES:
 * independent additions the compiler turns into vector instructions), and
 * the blocks' sums in double.  A lane adds at most 32 values, so float
 * rounding stays near one ulp of a block's sum. */
enum { THNN_BN_LANES = 32, THNN_BN_BLOCK = 1024 };

typedef struct THBNShape {
  int64_t batch, nInput, plane;
} THBNShape;

static int THBNShape_rows(const THBNShape *s)
{
  return s->plane < THNN_BN_LANES;
}
#endif

/* Work space of one call: per channel, and per position for the row path. */
typedef struct THNN_(BNWork) {
  real *mean, *invstd, *zero, *a, *b, *k;    /* [nInput] each */
  accreal *first, *second;                   /* [nInput] each */
  real *e1, *e2, *e3;                        /* rows: [nInput * plane] each */
  accreal *acc1, *acc2;                      /* rows: [nInput * plane] each */
  void *memory;
} THNN_(BNWork);

static int THNN_(BatchNormalization_alloc)(THNNState *state, const THBNShape *s, THNN_(BNWork) *w)
{
  int64_t c = s->nInput, k = THBNShape_rows(s) ? s->nInput * s->plane : 0;
  char *p = THAlloc((size_t)c * (6 * sizeof(real) + 2 * sizeof(accreal))
                    + (size_t)k * (3 * sizeof(real) + 2 * sizeof(accreal)));
  w->memory = p;
  if (!p)
    return THError(state, "out of memory");
  w->first = (accreal *)p;
  w->second = w->first + c;
  w->acc1 = w->second + c;
  w->acc2 = w->acc1 + k;
  real *r = (real *)(w->acc2 + k);
  real **arrays[6] = {&w->mean, &w->invstd, &w->zero, &w->a, &w->b, &w->k};
  for (int i = 0; i < 6; i++, r += c)
    *arrays[i] = r;
  w->e1 = r;
  w->e2 = r + k;
  w->e3 = r + 2 * k;
  for (int64_t i = 0; i < c; i++)
    w->zero[i] = 0;
  return 0;
}

int THNN_(BatchNormalization_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *weight, THTensor *bias,
                                                THTensor *running_mean, THTensor *running_var,
                                                THTensor *save_mean, THTensor *save_std,
                                                THTensor *gradInput, THTensor *gradWeight, THTensor *gradBias,
                                                bool train, bool backward)
{
  if (running_mean->nDimension != 1)
    return THTensor_(shapeError)(state, "running_mean", running_mean, "1D [nInput]");
  int64_t nInput = running_mean->size[0];
  long long c = (long long)nInput;
  TH_TRY(THTensor_(checkSizes)(state, "running_var", running_var, 1, &nInput));
  if (train && !backward) {           /* written only then */
    TH_TRY(THTensor_(checkContiguous)(state, "running_mean", running_mean));
    TH_TRY(THTensor_(checkContiguous)(state, "running_var", running_var));
  }
  if (input->nDimension < 2 || input->size[1] != nInput)
    return THTensor_(shapeError)(state, "input", input, "[batch, %lld, ...] (2D or more, %lld channels at dim 1)",
                                 c, c);
  int64_t perChannel = THTensor_(nElement)(input) / (nInput > 0 ? nInput : 1);
  if (train && !backward && perChannel == 1)
    return THTensor_(shapeError)(state, "input", input, "more than one value per channel in training");
  if (weight)
    TH_TRY(THTensor_(checkSizes)(state, "weight", weight, 1, &nInput));
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, "bias", bias, 1, &nInput));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (backward && save_mean)
    TH_TRY(THTensor_(checkSizes)(state, "save_mean", save_mean, 1, &nInput));
  if (backward && save_std)
    TH_TRY(THTensor_(checkSizes)(state, "save_std", save_std, 1, &nInput));
  if (gradInput) {
    TH_TRY(THTensor_(checkSameSize)(state, "gradInput", gradInput, "input", input));
    TH_TRY(THTensor_(checkContiguous)(state, "gradInput", gradInput));
  }
  if (gradWeight) {
    TH_TRY(THTensor_(checkSizes)(state, "gradWeight", gradWeight, 1, &nInput));
    TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  }
  if (gradBias) {
    TH_TRY(THTensor_(checkSizes)(state, "gradBias", gradBias, 1, &nInput));
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  }
  return 0;
}

/* Element c of a 1D tensor (any stride), or `otherwise` for a missing one. */
static real THNN_(BatchNormalization_at)(const THTensor *t, int64_t c, real otherwise)
{
  return t ? THTensor_(data)(t)[c * t->stride[0]] : otherwise;
}

/* adds sum(g - h) and sum((x - m) (g - h)) over [0, n) to *first, *second */
static void THNN_(BatchNormalization_planeSums)(const real *x, const real *g, int64_t n, real m, real h,
                                                accreal *first, accreal *second)
{
  for (int64_t start = 0; start < n; start += THNN_BN_BLOCK) {
    const real *px = x + start, *pg = g + start;
    int64_t len = n - start < THNN_BN_BLOCK ? n - start : THNN_BN_BLOCK, i = 0;
    real lane1[THNN_BN_LANES] = {0}, lane2[THNN_BN_LANES] = {0}, s1 = 0, s2 = 0;
    for (; i + THNN_BN_LANES <= len; i += THNN_BN_LANES)
      for (int k = 0; k < THNN_BN_LANES; k++) {
        real d = pg[i + k] - h;
        lane1[k] += d;
        lane2[k] += (px[i + k] - m) * d;
      }
    for (; i < len; i++) {
      real d = pg[i] - h;
      s1 += d;
      s2 += (px[i] - m) * d;
    }
    for (int k = 0; k < THNN_BN_LANES; k++) {
      s1 += lane1[k];
      s2 += lane2[k];
    }
    *first += s1;
    *second += s2;
  }
}

/* The same for rows of n positions, position j with its own m[j], h[j] and
 * accumulators acc1[j], acc2[j]. */
static void THNN_(BatchNormalization_rowSums)(const real *x, const real *g, int64_t n, const real *m,
                                              const real *h, accreal *acc1, accreal *acc2)
{
  for (int64_t j = 0; j < n; j++) {
    real d = g[j] - h[j];
    acc1[j] += d;
    acc2[j] += (accreal)((x[j] - m[j]) * d);
  }
}

/* e[c * plane + s] = v[c]: a per-channel value at every position of a row */
static void THNN_(BatchNormalization_expand)(const real *v, const THBNShape *s, real *e)
{
  for (int64_t c = 0; c < s->nInput; c++)
    for (int64_t p = 0; p < s->plane; p++)
      e[c * s->plane + p] = v[c];
}

/* w->first[c] = sum(g - h[c]), w->second[c] = sum((x - m[c]) (g - h[c])),
 * each over every element of channel c. */
static void THNN_(BatchNormalization_channelSums)(const real *x, const real *g, const THBNShape *s,
                                                  const real *m, const real *h, THNN_(BNWork) *w)
{
  int64_t C = s->nInput, P = s->plane, row = C * P;
  for (int64_t c = 0; c < C; c++)
    w->first[c] = w->second[c] = 0;
  if (!THBNShape_rows(s)) {
    for (int64_t b = 0; b < s->batch; b++)
      for (int64_t c = 0; c < C; c++)
        THNN_(BatchNormalization_planeSums)(x + b * row + c * P, g + b * row + c * P, P, m[c], h[c],
                                            w->first + c, w->second + c);
    return;
  }
  THNN_(BatchNormalization_expand)(m, s, w->e1);
  THNN_(BatchNormalization_expand)(h, s, w->e2);
  for (int64_t j = 0; j < row; j++)
    w->acc1[j] = w->acc2[j] = 0;
  for (int64_t b = 0; b < s->batch; b++)
    THNN_(BatchNormalization_rowSums)(x + b * row, g + b * row, row, w->e1, w->e2, w->acc1, w->acc2);
  for (int64_t j = 0; j < row; j++) {
    w->first[j / P] += w->acc1[j];
    w->second[j / P] += w->acc2[j];
  }
}

/* y = g a[c] + x b[c] + k[c] for every element of channel c; without the
 * middle term when x is NULL (y may be g). */
static void THNN_(BatchNormalization_apply)(const real *g, const real *x, real *y, const THBNShape *s,
                                            const real *a, const real *b, const real *k, THNN_(BNWork) *w)
{
  int64_t C = s->nInput, P = s->plane, row = C * P;
  int rows = THBNShape_rows(s);
  if (rows) {
    THNN_(BatchNormalization_expand)(a, s, w->e1);
    THNN_(BatchNormalization_expand)(k, s, w->e3);
    if (x)
      THNN_(BatchNormalization_expand)(b, s, w->e2);
  }
  for (int64_t n = 0; n < s->batch; n++)
    for (int64_t c = 0; c < (rows ? 1 : C); c++) {
      int64_t offset = n * row + (rows ? 0 : c * P), len = rows ? row : P;
      const real *pg = g + offset, *px = x ? x + offset : NULL;
      real *py = y + offset;
      if (rows && x)
        for (int64_t j = 0; j < len; j++)
          py[j] = pg[j] * w->e1[j] + px[j] * w->e2[j] + w->e3[j];
      else if (rows)
        for (int64_t j = 0; j < len; j++)
          py[j] = pg[j] * w->e1[j] + w->e3[j];
      else if (x)
        for (int64_t j = 0; j < len; j++)
          py[j] = pg[j] * a[c] + px[j] * b[c] + k[c];
      else
        for (int64_t j = 0; j < len; j++)
          py[j] = pg[j] * a[c] + k[c];
    }
}

/* One plane of n elements: y = x a + k, then with `clamp` y = y <= t ? v : y
 * (Threshold's rule: a NaN passes). */
TH_VECTOR_CLONES static void THNN_(BatchNormalization_affinePlane)(const real *x, real *y, int64_t n,
                                                                   real a, real k, int clamp, real t,
                                                                   real v)
{
  if (clamp)
    for (int64_t i = 0; i < n; i++) {
      real z = x[i] * a + k;
      y[i] = z <= t ? v : z;
    }
  else
    for (int64_t i = 0; i < n; i++)
      y[i] = x[i] * a + k;
}

/* y = x a[c] + k[c] for every element of channel c, then with `clamp`
 * y = y <= t ? v : y.  Planes of THNN_BN_LANES elements or more are split
 * among the threads plane by plane; smaller ones go through apply (rows),
 * then a clamping pass.  y may not be x. */
static void THNN_(BatchNormalization_affine)(const real *x, real *y, const THBNShape *s, const real *a,
                                             const real *k, int clamp, real t, real v, THNN_(BNWork) *w)
{
  int64_t planes = s->batch * s->nInput, P = s->plane;
  if (THBNShape_rows(s)) {
    THNN_(BatchNormalization_apply)(x, NULL, y, s, a, NULL, k, w);
    for (int64_t i = 0; clamp && i < planes * P; i++)
      y[i] = y[i] <= t ? v : y[i];
    return;
  }
#pragma omp parallel for num_threads(THLoopThreads(planes * P)) schedule(static)
  for (int64_t i = 0; i < planes; i++) {
    int64_t c = i % s->nInput;
    THNN_(BatchNormalization_affinePlane)(x + i * P, y + i * P, P, a[c], k[c], clamp, t, v);
  }
}

/* The batch statistics of every channel into w->mean and w->invstd (the mean
 * rounded to real, as save_mean keeps it; invstd = 1 / sqrt(var + eps) with
 * the biased variance, 0 when both are 0: Torch7's rule); w->second gets the
 * sums of squared deviations. */
static void THNN_(BatchNormalization_batchStats)(const real *x, const THBNShape *s, accreal eps, THNN_(BNWork) *w)
{
  int64_t n = s->batch * s->plane;
  THNN_(BatchNormalization_channelSums)(x, x, s, w->zero, w->zero, w);
  for (int64_t c = 0; c < s->nInput; c++)
    w->mean[c] = (real)(w->first[c] / n);
  THNN_(BatchNormalization_channelSums)(x, x, s, w->mean, w->mean, w);
  for (int64_t c = 0; c < s->nInput; c++)
    w->invstd[c] = w->second[c] == 0 && eps == 0 ? 0 : (real)(1 / sqrt(w->second[c] / n + eps));
}

/* The running statistics as mean and invstd. */
static void THNN_(BatchNormalization_runningStats)(const THTensor *running_mean, const THTensor *running_var,
                                                   accreal eps, THNN_(BNWork) *w, int64_t nInput)
{
  for (int64_t c = 0; c < nInput; c++) {
    w->mean[c] = THNN_(BatchNormalization_at)(running_mean, c, 0);
    w->invstd[c] = (real)(1 / sqrt(THNN_(BatchNormalization_at)(running_var, c, 0) + eps));
  }
}

/* y = x a + k per channel from mean and invstd: a = invstd weight, k = bias - mean a. */
static void THNN_(BatchNormalization_scaleShift)(const THTensor *weight, const THTensor *bias, THNN_(BNWork) *w,
                                                 int64_t nInput)
{
  for (int64_t c = 0; c < nInput; c++) {
    accreal a = (accreal)w->invstd[c] * THNN_(BatchNormalization_at)(weight, c, 1);
    w->a[c] = (real)a;
    w->k[c] = (real)(THNN_(BatchNormalization_at)(bias, c, 0) - w->mean[c] * a);
  }
}

/* input's layout; batch 0 or an empty plane give plane 0 (n = 0) */
static THBNShape THNN_(BatchNormalization_shape)(const THTensor *input)
{
  THBNShape s = {input->size[0], input->size[1], 0};
  if (s.batch > 0 && s.nInput > 0)
    s.plane = THTensor_(nElement)(input) / (s.batch * s.nInput);
  return s;
}

/* updateOutput, and with `clamp` Threshold(threshold, val) on the output in
 * the same pass. */
static int THNN_(BatchNormalization_forward)(THNNState *state, THTensor *input, THTensor *output,
                                             THTensor *weight, THTensor *bias,
                                             THTensor *running_mean, THTensor *running_var,
                                             THTensor *save_mean, THTensor *save_std,
                                             bool train, accreal momentum, accreal eps,
                                             int clamp, accreal threshold, accreal val)
{
  TH_TRY(THNN_(BatchNormalization_shapeCheck)(state, input, NULL, weight, bias, running_mean, running_var,
                                              NULL, NULL, NULL, NULL, NULL, train, false));
  THBNShape s = THNN_(BatchNormalization_shape)(input);
  int64_t n = s.batch * s.plane;
  if (train && (THTensor_(resize1d)(state, save_mean, s.nInput) != 0
                || THTensor_(resize1d)(state, save_std, s.nInput) != 0))
    return -1;
  THNN_(BNWork) w;
  TH_TRY(THNN_(BatchNormalization_alloc)(state, &s, &w));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    THFree(w.memory);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  if (train && n > 0)
    THNN_(BatchNormalization_batchStats)(in, &s, eps, &w);
  else if (!train)
    THNN_(BatchNormalization_runningStats)(running_mean, running_var, eps, &w, s.nInput);
  for (int64_t c = 0; c < s.nInput; c++) {
    if (train && n == 0) {             /* nothing to learn from: running statistics unchanged */
      w.mean[c] = w.invstd[c] = 0;
    } else if (train) {
      real *rm = THTensor_(data)(running_mean) + c, *rv = THTensor_(data)(running_var) + c;
      *rm = (real)(momentum * w.mean[c] + (1 - momentum) * *rm);
      *rv = (real)(momentum * w.second[c] / (n - 1) + (1 - momentum) * *rv);
    }
    if (train) {
      THTensor_(data)(save_mean)[c] = w.mean[c];
      THTensor_(data)(save_std)[c] = w.invstd[c];
    }
  }
  THNN_(BatchNormalization_scaleShift)(weight, bias, &w, s.nInput);
  THNN_(BatchNormalization_affine)(in, THTensor_(data)(output), &s, w.a, w.k, clamp, (real)threshold, (real)val,
                                   &w);
  THTensor_(release)(&xTmp);
  THFree(w.memory);
  return 0;
}

int THNN_(BatchNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                           THTensor *weight, THTensor *bias,
                                           THTensor *running_mean, THTensor *running_var,
                                           THTensor *save_mean, THTensor *save_std,
                                           bool train, accreal momentum, accreal eps)
{
  return THNN_(BatchNormalization_forward)(state, input, output, weight, bias, running_mean, running_var,
                                           save_mean, save_std, train, momentum, eps, 0, 0, 0);
}

/* Evaluation, then Threshold(threshold, val) on the output, in one pass:
 * what updateOutput and an in-place Threshold leave in output, to the bit. */
int THNN_(BatchNormalization_evaluateThreshold)(THNNState *state, THTensor *input, THTensor *output,
                                                THTensor *weight, THTensor *bias, THTensor *running_mean,
                                                THTensor *running_var, accreal eps, accreal threshold,
                                                accreal val)
{
  return THNN_(BatchNormalization_forward)(state, input, output, weight, bias, running_mean, running_var,
                                           NULL, NULL, false, 0, eps, 1, threshold, val);
}

/* Training, with xhat = (x - mean) * invstd and the sums per channel:
 *   dL/dx = w invstd (g - sum(g) / n - xhat sum(xhat g) / n)
 *         = g A + x B + C,  A = w invstd,  B = -A invstd^2 dot / n,
 *                           C = -A sum / n - mean B,  dot = sum((x - mean) g)
 * Evaluation: dL/dx = g w invstd.  dL/dw = sum(xhat g) = dot invstd and
 * dL/db = sum(g), in either mode. */
int THNN_(BatchNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       THTensor *gradInput, THTensor *gradWeight, THTensor *gradBias,
                                       THTensor *weight, THTensor *running_mean, THTensor *running_var,
                                       THTensor *save_mean, THTensor *save_std,
                                       bool train, accreal scale, accreal eps)
{
  TH_TRY(THNN_(BatchNormalization_shapeCheck)(state, input, gradOutput, weight, NULL, running_mean, running_var,
                                              save_mean, save_std, gradInput, gradWeight, gradBias, train, true));
  THBNShape s = THNN_(BatchNormalization_shape)(input);
  int64_t n = s.batch * s.plane;
  THNN_(BNWork) w;
  TH_TRY(THNN_(BatchNormalization_alloc)(state, &s, &w));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (!g) {
    THTensor_(release)(&xTmp);
    THFree(w.memory);
    return -1;
  }
  const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
  if (train && save_mean && save_std) {
    for (int64_t c = 0; c < s.nInput; c++) {
      w.mean[c] = THNN_(BatchNormalization_at)(save_mean, c, 0);
      w.invstd[c] = THNN_(BatchNormalization_at)(save_std, c, 0);
    }
  } else if (train && n > 0) {
    THNN_(BatchNormalization_batchStats)(in, &s, eps, &w);
  } else if (train) {
    for (int64_t c = 0; c < s.nInput; c++)
      w.mean[c] = w.invstd[c] = 0;
  } else {
    THNN_(BatchNormalization_runningStats)(running_mean, running_var, eps, &w, s.nInput);
  }
  THNN_(BatchNormalization_channelSums)(in, go, &s, w.mean, w.zero, &w);   /* first: sum, second: dot */
  for (int64_t c = 0; c < s.nInput; c++) {
    accreal A = (accreal)w.invstd[c] * THNN_(BatchNormalization_at)(weight, c, 1);
    accreal B = -A * w.invstd[c] * w.invstd[c] * w.second[c] / n;
    w.a[c] = (real)A;
    w.b[c] = (real)B;
    w.k[c] = (real)(-A * w.first[c] / n - w.mean[c] * B);
    if (gradWeight)
      THTensor_(data)(gradWeight)[c] += (real)(scale * w.second[c] * w.invstd[c]);
    if (gradBias)
      THTensor_(data)(gradBias)[c] += (real)(scale * w.first[c]);
  }
  if (gradInput && train)
    THNN_(BatchNormalization_apply)(go, in, THTensor_(data)(gradInput), &s, w.a, w.b, w.k, &w);
  else if (gradInput)
    THNN_(BatchNormalization_apply)(go, NULL, THTensor_(data)(gradInput), &s, w.a, NULL, w.zero, &w);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  THFree(w.memory);
  return 0;
}

#endif
