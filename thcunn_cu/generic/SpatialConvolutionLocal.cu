#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionLocal.cu"
#else

/* The twin of thnn_c/generic/SpatialConvolutionLocal.c: output pixel (y, x)
 * has its own kernel, the [nOutputPlane, nInputPlane, kH, kW] block p = y*oW + x
 * of the weight, and bias [nOutputPlane, oH, oW].  No weight is shared, so
 * every sum is done directly: a thread per output pixel, per input pixel
 * (gathering the pixels whose windows hold it), per weight and per bias entry. */

#ifndef THC_LOCAL_SHARED
#define THC_LOCAL_SHARED
#include "THConvGeometry.h"   /* THNNLocalGeometry, filled by the CPU shape check */
#endif

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialConvolutionLocal_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int64_t inputWidth, int64_t inputHeight,
    int64_t outputWidth, int64_t outputHeight, THNNLocalGeometry *g);

/* output [batch, nOut, oH, oW] = bias + each pixel's kernel over its window. */
__global__ void THNN_(SpatialConvolutionLocal_outputKernel)(THNNLocalGeometry g, const real *in, const real *w,
                                                            const real *bias, real *out, int64_t n)
{
  const int64_t area = g.oH * g.oW;
  THC_KERNEL_LOOP(k, n) {
    int64_t p = k % area, o = k / area % g.nOut, b = k / (area * g.nOut);
    int64_t y0 = p / g.oW * g.dH - g.padH, x0 = p % g.oW * g.dW - g.padW;
    const real *wp = w + (p * g.nOut + o) * g.nIn * g.kH * g.kW;
    accreal sum = bias[o * area + p];
    for (int64_t c = 0; c < g.nIn; c++)
      for (int i = 0; i < g.kH; i++)
        for (int j = 0; j < g.kW; j++) {
          int64_t iy = y0 + i, ix = x0 + j;
          if (iy >= 0 && iy < g.iH && ix >= 0 && ix < g.iW)
            sum += (accreal)wp[(c * g.kH + i) * g.kW + j] * in[((b * g.nIn + c) * g.iH + iy) * g.iW + ix];
        }
    out[k] = (real)sum;
  }
}

/* gradInput [batch, nIn, iH, iW]: each input pixel gathers from the output
 * pixels whose windows hold it. */
__global__ void THNN_(SpatialConvolutionLocal_gradInputKernel)(THNNLocalGeometry g, const real *gout, const real *w,
                                                               real *gin, int64_t n)
{
  const int64_t area = g.oH * g.oW;
  THC_KERNEL_LOOP(k, n) {
    int64_t ix = k % g.iW, iy = k / g.iW % g.iH, c = k / (g.iH * g.iW) % g.nIn, b = k / (g.iH * g.iW * g.nIn);
    accreal sum = 0;
    for (int i = 0; i < g.kH; i++)
      for (int j = 0; j < g.kW; j++) {
        int64_t qy = iy + g.padH - i, qx = ix + g.padW - j;   /* = y*dH, x*dW */
        if (qy < 0 || qx < 0 || qy % g.dH || qx % g.dW || qy / g.dH >= g.oH || qx / g.dW >= g.oW)
          continue;
        int64_t p = qy / g.dH * g.oW + qx / g.dW;
        for (int64_t o = 0; o < g.nOut; o++)
          sum += (accreal)w[(((p * g.nOut + o) * g.nIn + c) * g.kH + i) * g.kW + j] *
                 gout[(b * g.nOut + o) * area + p];
      }
    gin[k] = (real)sum;
  }
}

/* gw[p, o, c, i, j] += scale * the sum over samples of gout[o, p] * what tap (i, j) of p sees of plane c. */
__global__ void THNN_(SpatialConvolutionLocal_gradWeightKernel)(THNNLocalGeometry g, int64_t batch, const real *in,
                                                                const real *gout, real *gw, accreal scale, int64_t n)
{
  const int64_t area = g.oH * g.oW;
  THC_KERNEL_LOOP(k, n) {
    int64_t j = k % g.kW, i = k / g.kW % g.kH, c = k / (g.kW * g.kH) % g.nIn, po = k / (g.kW * g.kH * g.nIn);
    int64_t o = po % g.nOut, p = po / g.nOut;
    int64_t iy = p / g.oW * g.dH - g.padH + i, ix = p % g.oW * g.dW - g.padW + j;
    if (iy < 0 || iy >= g.iH || ix < 0 || ix >= g.iW)
      continue;
    accreal sum = 0;
    for (int64_t b = 0; b < batch; b++)
      sum += (accreal)gout[(b * g.nOut + o) * area + p] * in[((b * g.nIn + c) * g.iH + iy) * g.iW + ix];
    gw[k] += (real)(scale * sum);
  }
}

/* gb[o, y, x] += scale * the sum over samples of gout[o, y, x]. */
__global__ void THNN_(SpatialConvolutionLocal_gradBiasKernel)(int64_t batch, const real *gout, real *gb,
                                                              accreal scale, int64_t n)
{
  THC_KERNEL_LOOP(k, n) {
    accreal sum = 0;
    for (int64_t b = 0; b < batch; b++)
      sum += gout[b * n + k];
    gb[k] += (real)(scale * sum);
  }
}

int THNN_(SpatialConvolutionLocal_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_CPU_(SpatialConvolutionLocal_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                       kW, kH, dW, dH, padW, padH, inputWidth, inputHeight,
                                                       outputWidth, outputHeight, &g));
  int batched = input->nDimension == 4;
  int64_t outSize[4] = {batched ? input->size[0] : 1, g.nOut, g.oH, g.oW};
  THTensor xTmp = {}, wTmp = {}, bTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  const THTensor *b = w ? THCTensor_(contiguous)(state, bias, &bTmp) : NULL;
  int rc = -1;
  if (b && THCTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialConvolutionLocal_outputKernel))(
        g, THTensor_(data)(x), THTensor_(data)(w), THTensor_(data)(b), THTensor_(data)(output), n);
    rc = THCCheckLaunch(state, "SpatialConvolutionLocal_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  THCTensor_(release)(&bTmp);
  return rc;
}

int THNN_(SpatialConvolutionLocal_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_CPU_(SpatialConvolutionLocal_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                       kW, kH, dW, dH, padW, padH, inputWidth, inputHeight,
                                                       outputWidth, outputHeight, &g));
  THTensor gTmp = {}, wTmp = {};
  const THTensor *gy = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t n = THTensor_(nElement)(gradInput);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(SpatialConvolutionLocal_gradInputKernel))(
        g, THTensor_(data)(gy), THTensor_(data)(w), THTensor_(data)(gradInput), n);
    rc = THCCheckLaunch(state, "SpatialConvolutionLocal_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionLocal_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight, accreal scale)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_CPU_(SpatialConvolutionLocal_shapeCheck)(state, input, gradOutput,
                                                       THTensor_(gradParams)(gradWeight, gradBias),
                                                       kW, kH, dW, dH, padW, padH,
                                                       inputWidth, inputHeight, outputWidth, outputHeight, &g));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1;
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    int64_t nw = THTensor_(nElement)(gradWeight), nb = g.nOut * g.oH * g.oW;
    THC_LAUNCH(THC_blocks(nw), THC_NUM_THREADS, THNN_(SpatialConvolutionLocal_gradWeightKernel))(
        g, batch, THTensor_(data)(x), THTensor_(data)(gy), THTensor_(data)(gradWeight), scale, nw);
    rc = THCCheckLaunch(state, "SpatialConvolutionLocal_accGradParameters");
    if (rc == 0 && gradBias) {
      THC_LAUNCH(THC_blocks(nb), THC_NUM_THREADS, THNN_(SpatialConvolutionLocal_gradBiasKernel))(
          batch, THTensor_(data)(gy), THTensor_(data)(gradBias), scale, nb);
      rc = THCCheckLaunch(state, "SpatialConvolutionLocal_accGradParameters");
    }
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
