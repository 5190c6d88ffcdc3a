#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialSubSampling.cu"
#else

/* The twin of thnn_c/generic/SpatialSubSampling.c: plane k of the output is
 * bias[k] + weight[k] * the sums of input plane k over every kW x kH window
 * (no padding).  A thread per output pixel, per input pixel (gathering the
 * windows it lies in), and a block per weight (and bias) entry. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialSubSampling_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, THNNConvGeometry *g);

/* The sum of window (y, x) of one input plane. */
__device__ inline accreal THNN_(SpatialSubSampling_window)(const THNNConvGeometry &g, const real *plane, int64_t y,
                                                           int64_t x)
{
  accreal sum = 0;
  for (int i = 0; i < g.kH; i++)
    for (int j = 0; j < g.kW; j++)
      sum += plane[(y * g.dH + i) * g.inW + x * g.dW + j];
  return sum;
}

__global__ void THNN_(SpatialSubSampling_outputKernel)(THNNConvGeometry g, const real *in, const real *w, int64_t ws,
                                                       const real *b, int64_t bs, real *out, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t x = i % g.outW, y = i / g.outW % g.outH, nk = i / (g.outH * g.outW), k = nk % g.nPlane;
    out[i] = (real)(b[k * bs] + w[k * ws] * THNN_(SpatialSubSampling_window)(g, in + nk * g.inH * g.inW, y, x));
  }
}

/* Each input pixel: weight[k] * the gradients of the windows it lies in. */
__global__ void THNN_(SpatialSubSampling_gradInputKernel)(THNNConvGeometry g, const real *gout, const real *w,
                                                          int64_t ws, real *gin, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t ix = i % g.inW, iy = i / g.inW % g.inH, nk = i / (g.inH * g.inW);
    const real *plane = gout + nk * g.outH * g.outW;
    accreal sum = 0;
    for (int a = 0; a < g.kH; a++)
      for (int e = 0; e < g.kW; e++) {
        int64_t qy = iy - a, qx = ix - e;   /* = y*dH, x*dW */
        if (qy >= 0 && qx >= 0 && qy % g.dH == 0 && qx % g.dW == 0 && qy / g.dH < g.outH && qx / g.dW < g.outW)
          sum += plane[qy / g.dH * g.outW + qx / g.dW];
      }
    gin[i] = (real)(w[nk % g.nPlane * ws] * sum);
  }
}

/* A block per row r = 2k (gradWeight[k]) or 2k + 1 (gradBias[k]), each +=
 * scale * its sum over the batch and output plane k. */
__global__ void THNN_(SpatialSubSampling_gradParamsKernel)(THNNConvGeometry g, int64_t batch, const real *in,
                                                           const real *gout, real *gw, real *gb, accreal scale)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  const int64_t outArea = g.outH * g.outW;
  for (int64_t r = blockIdx.x; r < 2 * g.nPlane; r += gridDim.x) {
    int64_t k = r / 2;
    accreal s = 0;
    for (int64_t q = threadIdx.x; q < batch * outArea; q += blockDim.x) {
      int64_t nk = q / outArea * g.nPlane + k, a = q % outArea;
      real go = gout[nk * outArea + a];
      s += r % 2 ? (accreal)go
                 : go * THNN_(SpatialSubSampling_window)(g, in + nk * g.inH * g.inW, a / g.outW, a % g.outW);
    }
    s = THCBlockReduce(s, scratch, THCSum());
    if (threadIdx.x == 0)
      (r % 2 ? gb : gw)[k] += (real)(scale * s);
  }
}

int THNN_(SpatialSubSampling_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH)
{
  THNNConvGeometry g = {};
  TH_TRY(THNN_CPU_(SpatialSubSampling_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                  kW, kH, dW, dH, &g));
  int batched = input->nDimension == 4;
  int64_t outSize[4] = {batched ? input->size[0] : 1, g.nPlane, g.outH, g.outW};
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialSubSampling_outputKernel))(
        g, THTensor_(data)(x), THTensor_(data)(weight), weight->stride[0], THTensor_(data)(bias), bias->stride[0],
        THTensor_(data)(output), n);
    rc = THCCheckLaunch(state, "SpatialSubSampling_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(SpatialSubSampling_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH)
{
  THNNConvGeometry g = {};
  TH_TRY(THNN_CPU_(SpatialSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                  kW, kH, dW, dH, &g));
  THTensor gTmp = {};
  const THTensor *gy = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  int rc = -1;
  if (gy && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t n = THTensor_(nElement)(gradInput);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialSubSampling_gradInputKernel))(
        g, THTensor_(data)(gy), THTensor_(data)(weight), weight->stride[0], THTensor_(data)(gradInput), n);
    rc = THCCheckLaunch(state, "SpatialSubSampling_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  return rc;
}

int THNN_(SpatialSubSampling_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, accreal scale)
{
  THNNConvGeometry g = {};
  TH_TRY(THNN_CPU_(SpatialSubSampling_shapeCheck)(state, input, gradOutput,
                                                  THTensor_(gradParams)(gradWeight, gradBias), kW, kH, dW, dH, &g));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1;
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    int64_t rows = 2 * g.nPlane;
    unsigned blocks = (unsigned)(rows < 1 ? 1 : rows < THC_MAX_BLOCKS ? rows : THC_MAX_BLOCKS);
    THC_LAUNCH(blocks, THC_NUM_THREADS, THNN_(SpatialSubSampling_gradParamsKernel))(
        g, batch, THTensor_(data)(x), THTensor_(data)(gy), THTensor_(data)(gradWeight), THTensor_(data)(gradBias),
        scale);
    rc = THCCheckLaunch(state, "SpatialSubSampling_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
