#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDepthWiseConvolution.cu"
#else

/* The twin of thnn_c/generic/SpatialDepthWiseConvolution.c: kernel m of
 * input plane c makes output plane c*M + m (M = depthwiseMultiplier);
 * weight [M, nInputPlane, kH, kW], bias [M, nInputPlane].  Done directly:
 * a thread per output pixel, per input pixel (gathering what it was spread
 * to), and a block per weight (and bias) entry for the gradients. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialDepthWiseConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, THNNConvGeometry *g, int64_t *multiplier);

/* output [batch, nIn*M, outH, outW] */
__global__ void THNN_(SpatialDepthWiseConvolution_outputKernel)(THNNConvGeometry g, int64_t M, const real *in,
                                                                const real *w, const real *bias, int64_t bs0,
                                                                int64_t bs1, real *out, int64_t n)
{
  const int64_t nIn = g.nPlane, outArea = g.outH * g.outW, taps = (int64_t)g.kH * g.kW;
  THC_KERNEL_LOOP(k, n) {
    int64_t x = k % g.outW, y = k / g.outW % g.outH, plane = k / outArea;
    int64_t nc = plane / M, m = plane % M, c = nc % nIn;
    const real *wp = w + (m * nIn + c) * taps, *ip = in + nc * g.inH * g.inW;
    accreal sum = bias ? bias[m * bs0 + c * bs1] : 0;
    for (int i = 0; i < g.kH; i++)
      for (int j = 0; j < g.kW; j++) {
        int64_t iy = y * g.dH - g.padH + i, ix = x * g.dW - g.padW + j;
        if (iy >= 0 && iy < g.inH && ix >= 0 && ix < g.inW)
          sum += (accreal)wp[i * g.kW + j] * ip[iy * g.inW + ix];
      }
    out[k] = (real)sum;
  }
}

/* gradInput [batch, nIn, inH, inW]: each input pixel gathers what its taps spread. */
__global__ void THNN_(SpatialDepthWiseConvolution_gradInputKernel)(THNNConvGeometry g, int64_t M, const real *gout,
                                                                   const real *w, real *gin, int64_t n)
{
  const int64_t nIn = g.nPlane, outArea = g.outH * g.outW, taps = (int64_t)g.kH * g.kW;
  THC_KERNEL_LOOP(k, n) {
    int64_t ix = k % g.inW, iy = k / g.inW % g.inH, nc = k / (g.inH * g.inW), c = nc % nIn;
    accreal sum = 0;
    for (int i = 0; i < g.kH; i++)
      for (int j = 0; j < g.kW; j++) {
        int64_t qy = iy + g.padH - i, qx = ix + g.padW - j;   /* = y*dH, x*dW */
        if (qy < 0 || qx < 0 || qy % g.dH || qx % g.dW || qy / g.dH >= g.outH || qx / g.dW >= g.outW)
          continue;
        for (int64_t m = 0; m < M; m++)
          sum += (accreal)w[(m * nIn + c) * taps + i * g.kW + j] *
                 gout[(nc * M + m) * outArea + qy / g.dH * g.outW + qx / g.dW];
      }
    gin[k] = (real)sum;
  }
}

/* A block per row r = (m*nIn + c)*(taps + 1) + k: k < taps is the entry of
 * gradWeight[m, c, tap k], k == taps that of gradBias[m, c] (skipped
 * without gradBias); each += scale * its sum over the batch and the output plane. */
__global__ void THNN_(SpatialDepthWiseConvolution_gradParamsKernel)(THNNConvGeometry g, int64_t M, int64_t batch,
                                                                    const real *in, const real *gout, real *gw,
                                                                    real *gb, accreal scale)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  const int64_t nIn = g.nPlane, outArea = g.outH * g.outW, taps = (int64_t)g.kH * g.kW;
  for (int64_t r = blockIdx.x; r < M * nIn * (taps + 1); r += gridDim.x) {
    int64_t mc = r / (taps + 1), k = r % (taps + 1), m = mc / nIn, c = mc % nIn;
    if (k == taps && !gb)
      continue;
    int64_t offH = k / g.kW - g.padH, offW = k % g.kW - g.padW;
    accreal s = 0;
    for (int64_t q = threadIdx.x; q < batch * outArea; q += blockDim.x) {
      int64_t b = q / outArea, y = q % outArea / g.outW, x = q % g.outW;
      real go = gout[((b * nIn + c) * M + m) * outArea + y * g.outW + x];
      int64_t iy = y * g.dH + offH, ix = x * g.dW + offW;
      if (k == taps)
        s += go;
      else if (iy >= 0 && iy < g.inH && ix >= 0 && ix < g.inW)
        s += (accreal)go * in[((b * nIn + c) * g.inH + iy) * g.inW + ix];
    }
    s = THCBlockReduce(s, scratch, THCSum());
    if (threadIdx.x == 0) {
      real *dst = k == taps ? gb + mc : gw + mc * taps + k;
      *dst += (real)(scale * s);
    }
  }
}

int THNN_(SpatialDepthWiseConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH, int padW, int padH)
{
  THNNConvGeometry g = {};
  int64_t M = 0;
  TH_TRY(THNN_CPU_(SpatialDepthWiseConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                           kW, kH, dW, dH, padW, padH, &g, &M));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, outSize[4] = {batch, g.nPlane * M, g.outH, g.outW};
  THTensor xTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialDepthWiseConvolution_outputKernel))(
        g, M, THTensor_(data)(x), THTensor_(data)(w), bias ? THTensor_(data)(bias) : NULL,
        bias ? bias->stride[0] : 0, bias ? bias->stride[1] : 0, THTensor_(data)(output), n);
    rc = THCCheckLaunch(state, "SpatialDepthWiseConvolution_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDepthWiseConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH, int padW, int padH)
{
  THNNConvGeometry g = {};
  int64_t M = 0;
  TH_TRY(THNN_CPU_(SpatialDepthWiseConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                           kW, kH, dW, dH, padW, padH, &g, &M));
  THTensor gTmp = {}, wTmp = {};
  const THTensor *gy = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t n = THTensor_(nElement)(gradInput);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialDepthWiseConvolution_gradInputKernel))(
        g, M, THTensor_(data)(gy), THTensor_(data)(w), THTensor_(data)(gradInput), n);
    rc = THCCheckLaunch(state, "SpatialDepthWiseConvolution_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDepthWiseConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, int padW, int padH, accreal scale)
{
  THNNConvGeometry g = {};
  int64_t M = 0;
  TH_TRY(THNN_CPU_(SpatialDepthWiseConvolution_shapeCheck)(state, input, gradOutput,
                                                           THTensor_(gradParams)(gradWeight, gradBias),
                                                           kW, kH, dW, dH, padW, padH, &g, &M));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1, rows = M * g.nPlane * ((int64_t)kW * kH + 1);
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    unsigned blocks = (unsigned)(rows < 1 ? 1 : rows < THC_MAX_BLOCKS ? rows : THC_MAX_BLOCKS);
    THC_LAUNCH(blocks, THC_NUM_THREADS, THNN_(SpatialDepthWiseConvolution_gradParamsKernel))(
        g, M, batch, THTensor_(data)(x), THTensor_(data)(gy), THTensor_(data)(gradWeight),
        gradBias ? THTensor_(data)(gradBias) : NULL, scale);
    rc = THCCheckLaunch(state, "SpatialDepthWiseConvolution_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
