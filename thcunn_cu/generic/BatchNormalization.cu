#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/BatchNormalization.cu"
#else

/* One block per channel c: its threads walk the channel's batch * plane
 * elements of the contiguous input (element i of the channel is at
 * ((i / plane) * nInput + c) * plane + i % plane), sum them by block
 * reductions in accreal, and then write the channel's outputs.  The math and
 * its rounding to real are those of the CPU kernel
 * (thnn_c/generic/BatchNormalization.c). */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(BatchNormalization_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *weight, THTensor *bias, THTensor *running_mean,
                                                        THTensor *running_var, THTensor *save_mean,
                                                        THTensor *save_std, THTensor *gradInput,
                                                        THTensor *gradWeight, THTensor *gradBias, bool train,
                                                        bool backward);

/* A 1D tensor of nInput (NULL when missing) as a pointer and a stride. */
struct THNN_(BNVector) {
  real *data;
  int64_t stride;
};

static THNN_(BNVector) THNN_(BatchNormalization_vector)(THTensor *t)
{
  THNN_(BNVector) v = {t ? THTensor_(data)(t) : NULL, t ? t->stride[0] : 0};
  return v;
}

__device__ real THNN_(BatchNormalization_at)(THNN_(BNVector) v, int64_t c, real otherwise)
{
  return v.data ? v.data[c * v.stride] : otherwise;
}

/* The position of element i of channel c. */
__device__ int64_t THNN_(BatchNormalization_index)(int64_t i, int64_t c, int64_t nInput, int64_t plane)
{
  return ((i / plane) * nInput + c) * plane + i % plane;
}

/* sum(g - h) and sum((x - m) (g - h)) over channel c (every thread gets them) */
__device__ void THNN_(BatchNormalization_sums)(const real *x, const real *g, real m, real h, int64_t c,
                                               int64_t nInput, int64_t plane, int64_t n, accreal *first,
                                               accreal *second)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  accreal s1 = 0, s2 = 0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    int64_t at = THNN_(BatchNormalization_index)(i, c, nInput, plane);
    real d = g[at] - h;
    s1 += d;
    s2 += (accreal)(x[at] - m) * d;
  }
  *first = THCBlockReduce(s1, scratch, THCSum());
  *second = THCBlockReduce(s2, scratch, THCSum());
}

/* The batch mean of channel c (rounded to real) and its invstd (0 when the
 * variance and eps are both 0). */
__device__ void THNN_(BatchNormalization_batchStats)(const real *x, int64_t c, int64_t nInput, int64_t plane,
                                                     int64_t n, accreal eps, real *mean, real *invstd,
                                                     accreal *second)
{
  accreal first;
  THNN_(BatchNormalization_sums)(x, x, 0, 0, c, nInput, plane, n, &first, second);
  *mean = (real)(first / n);
  THNN_(BatchNormalization_sums)(x, x, *mean, *mean, c, nInput, plane, n, &first, second);
  *invstd = *second == 0 && eps == 0 ? 0 : (real)(1 / sqrt(*second / n + eps));
}

__global__ void THNN_(BatchNormalization_forwardKernel)(const real *x, real *y, THNN_(BNVector) weight,
                                                        THNN_(BNVector) bias, THNN_(BNVector) runMean,
                                                        THNN_(BNVector) runVar, real *saveMean, real *saveStd,
                                                        int64_t nInput, int64_t plane, int64_t n, bool train,
                                                        accreal momentum, accreal eps, bool clamp, real threshold,
                                                        real val)
{
  int64_t c = blockIdx.x;
  real mean = 0, invstd = 0;
  accreal second = 0;
  if (train && n > 0)
    THNN_(BatchNormalization_batchStats)(x, c, nInput, plane, n, eps, &mean, &invstd, &second);
  if (!train) {
    mean = THNN_(BatchNormalization_at)(runMean, c, 0);
    invstd = (real)(1 / sqrt(THNN_(BatchNormalization_at)(runVar, c, 0) + eps));
  }
  if (threadIdx.x == 0 && train) {
    if (n > 0) {
      real *rm = runMean.data + c, *rv = runVar.data + c;
      *rm = (real)(momentum * mean + (1 - momentum) * *rm);
      *rv = (real)(momentum * second / (n - 1) + (1 - momentum) * *rv);
    }
    saveMean[c] = mean;
    saveStd[c] = invstd;
  }
  accreal a = (accreal)invstd * THNN_(BatchNormalization_at)(weight, c, 1);
  real k = (real)(THNN_(BatchNormalization_at)(bias, c, 0) - mean * a);
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    int64_t at = THNN_(BatchNormalization_index)(i, c, nInput, plane);
    real z = x[at] * (real)a + k;
    y[at] = clamp && z <= threshold ? val : z;
  }
}

/* updateOutput, and with `clamp` Threshold(threshold, val) on the output. */
static int THNN_(BatchNormalization_forward)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                             THTensor *bias, THTensor *running_mean, THTensor *running_var,
                                             THTensor *save_mean, THTensor *save_std, bool train, accreal momentum,
                                             accreal eps, bool clamp, accreal threshold, accreal val)
{
  TH_TRY(THNN_CPU_(BatchNormalization_shapeCheck)(state, input, NULL, weight, bias, running_mean, running_var, NULL,
                                                  NULL, NULL, NULL, NULL, train, false));
  int64_t batch = input->size[0], nInput = input->size[1];
  int64_t plane = batch > 0 && nInput > 0 ? THTensor_(nElement)(input) / (batch * nInput) : 0;
  if (train && (THCTensor_(resize1d)(state, save_mean, nInput) != 0
                || THCTensor_(resize1d)(state, save_std, nInput) != 0))
    return -1;
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeAs)(state, output, input) == 0) {
    rc = 0;
    if (nInput > 0) {
      THC_LAUNCH(nInput, THC_NUM_THREADS, THNN_(BatchNormalization_forwardKernel))(
          THTensor_(data)(x), THTensor_(data)(output), THNN_(BatchNormalization_vector)(weight),
          THNN_(BatchNormalization_vector)(bias), THNN_(BatchNormalization_vector)(running_mean),
          THNN_(BatchNormalization_vector)(running_var), train ? THTensor_(data)(save_mean) : NULL,
          train ? THTensor_(data)(save_std) : NULL, nInput, plane, batch * plane, train, momentum, eps,
          clamp, (real)threshold, (real)val);
      rc = THCCheckLaunch(state, clamp ? "BatchNormalization_evaluateThreshold" : "BatchNormalization_updateOutput");
    }
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(BatchNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                           THTensor *bias, THTensor *running_mean, THTensor *running_var,
                                           THTensor *save_mean, THTensor *save_std, bool train, accreal momentum,
                                           accreal eps)
{
  return THNN_(BatchNormalization_forward)(state, input, output, weight, bias, running_mean, running_var, save_mean,
                                           save_std, train, momentum, eps, false, 0, 0);
}

int THNN_(BatchNormalization_evaluateThreshold)(THNNState *state, THTensor *input, THTensor *output,
                                                THTensor *weight, THTensor *bias, THTensor *running_mean,
                                                THTensor *running_var, accreal eps, accreal threshold,
                                                accreal val)
{
  return THNN_(BatchNormalization_forward)(state, input, output, weight, bias, running_mean, running_var, NULL,
                                           NULL, false, 0, eps, true, threshold, val);
}

__global__ void THNN_(BatchNormalization_backwardKernel)(const real *x, const real *g, real *gradInput,
                                                         real *gradWeight, real *gradBias, THNN_(BNVector) weight,
                                                         THNN_(BNVector) runMean, THNN_(BNVector) runVar,
                                                         THNN_(BNVector) saveMean, THNN_(BNVector) saveStd,
                                                         int64_t nInput, int64_t plane, int64_t n, bool train,
                                                         accreal scale, accreal eps)
{
  int64_t c = blockIdx.x;
  real mean = 0, invstd = 0;
  accreal first, second;
  if (train && saveMean.data && saveStd.data) {
    mean = THNN_(BatchNormalization_at)(saveMean, c, 0);
    invstd = THNN_(BatchNormalization_at)(saveStd, c, 0);
  } else if (train && n > 0) {
    THNN_(BatchNormalization_batchStats)(x, c, nInput, plane, n, eps, &mean, &invstd, &second);
  } else if (!train) {
    mean = THNN_(BatchNormalization_at)(runMean, c, 0);
    invstd = (real)(1 / sqrt(THNN_(BatchNormalization_at)(runVar, c, 0) + eps));
  }
  THNN_(BatchNormalization_sums)(x, g, mean, 0, c, nInput, plane, n, &first, &second);   /* sum, dot */
  accreal A = (accreal)invstd * THNN_(BatchNormalization_at)(weight, c, 1);
  accreal B = -A * invstd * invstd * second / n;
  real a = (real)A, b = train ? (real)B : 0, k = train ? (real)(-A * first / n - mean * B) : 0;
  if (threadIdx.x == 0 && gradWeight)
    gradWeight[c] += (real)(scale * second * invstd);
  if (threadIdx.x == 0 && gradBias)
    gradBias[c] += (real)(scale * first);
  for (int64_t i = threadIdx.x; gradInput && i < n; i += blockDim.x) {
    int64_t at = THNN_(BatchNormalization_index)(i, c, nInput, plane);
    gradInput[at] = train ? g[at] * a + x[at] * b + k : g[at] * a + k;
  }
}

int THNN_(BatchNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       THTensor *gradInput, THTensor *gradWeight, THTensor *gradBias,
                                       THTensor *weight, THTensor *running_mean, THTensor *running_var,
                                       THTensor *save_mean, THTensor *save_std, bool train, accreal scale,
                                       accreal eps)
{
  TH_TRY(THNN_CPU_(BatchNormalization_shapeCheck)(state, input, gradOutput, weight, NULL, running_mean, running_var,
                                                  save_mean, save_std, gradInput, gradWeight, gradBias, train,
                                                  true));
  int64_t batch = input->size[0], nInput = input->size[1];
  int64_t plane = batch > 0 && nInput > 0 ? THTensor_(nElement)(input) / (batch * nInput) : 0;
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = g ? 0 : -1;
  if (g && nInput > 0) {
    THC_LAUNCH(nInput, THC_NUM_THREADS, THNN_(BatchNormalization_backwardKernel))(
        THTensor_(data)(x), THTensor_(data)(g), gradInput ? THTensor_(data)(gradInput) : NULL,
        gradWeight ? THTensor_(data)(gradWeight) : NULL, gradBias ? THTensor_(data)(gradBias) : NULL,
        THNN_(BatchNormalization_vector)(weight), THNN_(BatchNormalization_vector)(running_mean),
        THNN_(BatchNormalization_vector)(running_var), THNN_(BatchNormalization_vector)(save_mean),
        THNN_(BatchNormalization_vector)(save_std), nInput, plane, batch * plane, train, scale, eps);
    rc = THCCheckLaunch(state, "BatchNormalization_backward");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
