#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BatchNormalization.c"
#else

/* A contiguous input [batch, nInput, ...] is batch x nInput planes of
 * `plane` elements (the product of the dims after the channel, 1 for 2D
 * input): channel c is the `batch` planes starting at (b * nInput + c) *
 * plane.  Every pass below walks one channel at a time, plane by plane, so
 * the inner loops run over contiguous memory and a channel's data stays in
 * cache between its passes.  Sums are accumulated in double per plane. */

static int THNN_(BatchNormalization_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
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

#ifndef THNN_BN_LANES
/* The sums below keep this many partial sums, element i going to lane
 * i % THNN_BN_LANES: independent additions the compiler turns into vector
 * instructions (one running double would make every addition wait for the
 * previous one).  The result depends only on n, not on the data's address. */
#define THNN_BN_LANES 8
#endif

/* sum of x[0..n) */
static accreal THNN_(BatchNormalization_sum)(const real *x, int64_t n)
{
  accreal lane[THNN_BN_LANES] = {0}, s = 0;
  int64_t i = 0;
  for (; i + THNN_BN_LANES <= n; i += THNN_BN_LANES)
    for (int k = 0; k < THNN_BN_LANES; k++)
      lane[k] += x[i + k];
  for (; i < n; i++)
    s += x[i];
  for (int k = 0; k < THNN_BN_LANES; k++)
    s += lane[k];
  return s;
}

/* sum of (x - mean)^2 over x[0..n) */
static accreal THNN_(BatchNormalization_sumSquares)(const real *x, int64_t n, real mean)
{
  accreal lane[THNN_BN_LANES] = {0}, s = 0;
  int64_t i = 0;
  for (; i + THNN_BN_LANES <= n; i += THNN_BN_LANES)
    for (int k = 0; k < THNN_BN_LANES; k++) {
      accreal d = x[i + k] - mean;
      lane[k] += d * d;
    }
  for (; i < n; i++) {
    accreal d = x[i] - mean;
    s += d * d;
  }
  for (int k = 0; k < THNN_BN_LANES; k++)
    s += lane[k];
  return s;
}

/* adds the sum of g and of (x - mean) * g over [0..n) to *sum and *dot */
static void THNN_(BatchNormalization_sumDot)(const real *x, const real *g, int64_t n, real mean,
                                             accreal *sum, accreal *dot)
{
  accreal laneS[THNN_BN_LANES] = {0}, laneD[THNN_BN_LANES] = {0}, s = 0, d = 0;
  int64_t i = 0;
  for (; i + THNN_BN_LANES <= n; i += THNN_BN_LANES)
    for (int k = 0; k < THNN_BN_LANES; k++) {
      laneS[k] += g[i + k];
      laneD[k] += (accreal)(x[i + k] - mean) * g[i + k];
    }
  for (; i < n; i++) {
    s += g[i];
    d += (accreal)(x[i] - mean) * g[i];
  }
  for (int k = 0; k < THNN_BN_LANES; k++) {
    s += laneS[k];
    d += laneD[k];
  }
  *sum += s;
  *dot += d;
}

/* y = x * a + b (x and y may be one array) */
static void THNN_(BatchNormalization_affine)(const real *x, real *y, int64_t n, real a, real b)
{
  for (int64_t i = 0; i < n; i++)
    y[i] = x[i] * a + b;
}

/* y = g * a + x * b + c */
static void THNN_(BatchNormalization_affine2)(const real *g, const real *x, real *y, int64_t n,
                                              real a, real b, real c)
{
  for (int64_t i = 0; i < n; i++)
    y[i] = g[i] * a + x[i] * b + c;
}

/* The batch statistics of channel c: the mean (rounded to real, as kept in
 * save_mean), invstd = 1 / sqrt(var + eps) with the biased variance (0 when
 * both are 0, Torch7's rule), and the sum of squared deviations. */
static void THNN_(BatchNormalization_batchStats)(const real *in, int64_t batch, int64_t nInput, int64_t plane,
                                                 int64_t c, accreal eps, real *mean, real *invstd, accreal *squares)
{
  int64_t n = batch * plane;
  accreal sum = 0, sq = 0;
  for (int64_t b = 0; b < batch; b++)
    sum += THNN_(BatchNormalization_sum)(in + (b * nInput + c) * plane, plane);
  *mean = (real)(sum / n);
  for (int64_t b = 0; b < batch; b++)
    sq += THNN_(BatchNormalization_sumSquares)(in + (b * nInput + c) * plane, plane, *mean);
  *invstd = sq == 0 && eps == 0 ? 0 : (real)(1 / sqrt(sq / n + eps));
  *squares = sq;
}

/* The mean and 1 / sqrt(var + eps) of channel c in evaluation. */
static void THNN_(BatchNormalization_runningStats)(const THTensor *running_mean, const THTensor *running_var,
                                                   int64_t c, accreal eps, real *mean, real *invstd)
{
  *mean = THNN_(BatchNormalization_at)(running_mean, c, 0);
  *invstd = (real)(1 / sqrt(THNN_(BatchNormalization_at)(running_var, c, 0) + eps));
}

int THNN_(BatchNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                           THTensor *weight, THTensor *bias,
                                           THTensor *running_mean, THTensor *running_var,
                                           THTensor *save_mean, THTensor *save_std,
                                           bool train, accreal momentum, accreal eps)
{
  TH_TRY(THNN_(BatchNormalization_shapeCheck)(state, input, NULL, weight, bias, running_mean, running_var,
                                              NULL, NULL, NULL, NULL, NULL, train, false));
  int64_t nInput = input->size[1], batch = input->size[0];
  int64_t plane = nInput > 0 && batch > 0 ? THTensor_(nElement)(input) / (batch * nInput) : 0;
  int64_t n = batch * plane;
  if (train && (THTensor_(resize1d)(state, save_mean, nInput) != 0
                || THTensor_(resize1d)(state, save_std, nInput) != 0))
    return -1;
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output);
  for (int64_t c = 0; c < nInput; c++) {
    real mean, invstd;
    if (train && n == 0) {            /* nothing to learn from: running statistics unchanged */
      mean = invstd = 0;
      THTensor_(data)(save_mean)[c] = THTensor_(data)(save_std)[c] = 0;
    } else if (train) {
      accreal squares;
      THNN_(BatchNormalization_batchStats)(in, batch, nInput, plane, c, eps, &mean, &invstd, &squares);
      THTensor_(data)(save_mean)[c] = mean;
      THTensor_(data)(save_std)[c] = invstd;
      real *rm = THTensor_(data)(running_mean) + c, *rv = THTensor_(data)(running_var) + c;
      *rm = (real)(momentum * mean + (1 - momentum) * *rm);
      *rv = (real)(momentum * squares / (n - 1) + (1 - momentum) * *rv);
    } else {
      THNN_(BatchNormalization_runningStats)(running_mean, running_var, c, eps, &mean, &invstd);
    }
    accreal a = (accreal)invstd * THNN_(BatchNormalization_at)(weight, c, 1);
    accreal b = THNN_(BatchNormalization_at)(bias, c, 0) - mean * a;
    for (int64_t k = 0; k < batch; k++) {
      int64_t offset = (k * nInput + c) * plane;
      THNN_(BatchNormalization_affine)(in + offset, out + offset, plane, (real)a, (real)b);
    }
  }
  THTensor_(release)(&xTmp);
  return 0;
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
  int64_t nInput = input->size[1], batch = input->size[0];
  int64_t plane = nInput > 0 && batch > 0 ? THTensor_(nElement)(input) / (batch * nInput) : 0;
  int64_t n = batch * plane;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (!g) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
  for (int64_t c = 0; c < nInput; c++) {
    real mean, invstd;
    if (train && save_mean && save_std) {
      mean = THNN_(BatchNormalization_at)(save_mean, c, 0);
      invstd = THNN_(BatchNormalization_at)(save_std, c, 0);
    } else if (train) {
      accreal squares;
      THNN_(BatchNormalization_batchStats)(in, batch, nInput, plane, c, eps, &mean, &invstd, &squares);
    } else {
      THNN_(BatchNormalization_runningStats)(running_mean, running_var, c, eps, &mean, &invstd);
    }
    accreal sum = 0, dot = 0;
    for (int64_t b = 0; b < batch; b++) {
      int64_t offset = (b * nInput + c) * plane;
      THNN_(BatchNormalization_sumDot)(in + offset, go + offset, plane, mean, &sum, &dot);
    }
    if (gradInput) {
      accreal A = (accreal)invstd * THNN_(BatchNormalization_at)(weight, c, 1);
      accreal B = -A * invstd * invstd * dot / n, C = -A * sum / n - mean * B;
      for (int64_t b = 0; b < batch; b++) {
        int64_t offset = (b * nInput + c) * plane;
        real *gi = THTensor_(data)(gradInput) + offset;
        if (train)
          THNN_(BatchNormalization_affine2)(go + offset, in + offset, gi, plane, (real)A, (real)B, (real)C);
        else
          THNN_(BatchNormalization_affine)(go + offset, gi, plane, (real)A, 0);
      }
    }
    if (gradWeight)
      THTensor_(data)(gradWeight)[c] += (real)(scale * dot * invstd);
    if (gradBias)
      THTensor_(data)(gradBias)[c] += (real)(scale * sum);
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return 0;
}

#endif
