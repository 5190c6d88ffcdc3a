#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialConvolutionLocal.c"
#else

/* A convolution whose weights are not shared: output pixel (y, x) has its
 * own kernel,
 *     output[o, y, x] = bias[o, y, x] + sum over c, i, j of
 *         weight[y, x, o, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]
 * (0 outside the image).  Every weight is used once per sample, so there is
 * nothing for a matrix product to share and the sums are done directly; the
 * weight of one pixel is a [nOutputPlane, nInputPlane*kH*kW] block, which
 * is also how Torch7's 3D view [oH*oW, nOutputPlane, nInputPlane*kH*kW]
 * lays it out. */

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_LOCAL_SHARED
#define THNN_LOCAL_SHARED

#include "THConvGeometry.h"   /* THNNLocalGeometry */

/* The taps i in [first, last) of a kernel of k taps whose pixel
 * pos*step - pad + i lies in [0, size). */
static void THNNLocal_taps(int64_t pos, int step, int pad, int k, int64_t size, int64_t *first, int64_t *last)
{
  int64_t start = pos * step - pad;
  *first = start < 0 ? -start : 0;
  *last = size - start < k ? size - start : k;
  if (*first > k)
    *first = k;
  if (*last < *first)
    *last = *first;
}

/* What the verbs do at one output pixel (see SpatialConvolutionLocal_pixel). */
enum { THNN_LOCAL_FORWARD, THNN_LOCAL_BACKWARD, THNN_LOCAL_GRADIENT };

#endif /* THNN_LOCAL_SHARED */

/* ---- per element type ---- */

/* Check every argument (params: see THTensor_(Params)); fill the geometry. */
int THNN_(SpatialConvolutionLocal_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight,
    THNNLocalGeometry *g)
{
  THTensor *weight = params.weight, *bias = params.bias;
  if (kW <= 0 || kH <= 0)
    return THError(state, "kernel size must be positive, got kW=%d, kH=%d", kW, kH);
  if (dW <= 0 || dH <= 0)
    return THError(state, "stride must be positive, got dW=%d, dH=%d", dW, dH);
  if (padW < 0 || padH < 0)
    return THError(state, "padding must be at least 0, got padW=%d, padH=%d", padW, padH);
  if (inputWidth < 1 || inputHeight < 1 || inputWidth > INT64_MAX / 4 || inputHeight > INT64_MAX / 4)
    return THError(state, "inputWidth and inputHeight must be positive sizes, got %lld and %lld",
                   (long long)inputWidth, (long long)inputHeight);
  int64_t roomW = inputWidth + 2 * (int64_t)padW - kW, roomH = inputHeight + 2 * (int64_t)padH - kH;
  if (roomW < 0 || roomH < 0)
    return THError(state, "the input (inputWidth=%lld, inputHeight=%lld) padded by padW=%d, padH=%d must be at "
                   "least as large as the kernel (kW=%d, kH=%d)", (long long)inputWidth, (long long)inputHeight,
                   padW, padH, kW, kH);
  if (outputWidth != roomW / dW + 1 || outputHeight != roomH / dH + 1)
    return THError(state, "outputWidth and outputHeight must be %lld and %lld for this input size, kernel, stride "
                   "and padding, got %lld and %lld", (long long)(roomW / dW + 1), (long long)(roomH / dH + 1),
                   (long long)outputWidth, (long long)outputHeight);
  int64_t oH = outputHeight, oW = outputWidth, taps = (int64_t)kW * kH;
  if (weight->nDimension == 6 && weight->size[0] == oH && weight->size[1] == oW && weight->size[4] == kH &&
      weight->size[5] == kW) {
    g->nOut = weight->size[2];
    g->nIn = weight->size[3];
  } else if (weight->nDimension == 3 && weight->size[0] == THMulSizes(oH, oW) && weight->size[2] % taps == 0) {
    g->nOut = weight->size[1];
    g->nIn = weight->size[2] / taps;
  } else {
    return THTensor_(shapeError)(state, params.wName, weight,
                                 "6D [oH=%lld, oW=%lld, nOutputPlane, nInputPlane, kH=%d, kW=%d] or "
                                 "3D [oH*oW=%lld, nOutputPlane, nInputPlane*kH*kW]",
                                 (long long)oH, (long long)oW, kH, kW, (long long)THMulSizes(oH, oW));
  }
  int64_t biasSize[3] = {g->nOut, oH, oW};
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 3, biasSize));
  int batched = input->nDimension == 4;
  if (!(input->nDimension == 3 || batched) || input->size[batched] != g->nIn ||
      input->size[batched + 1] != inputHeight || input->size[batched + 2] != inputWidth)
    return THTensor_(shapeError)(state, "input", input,
                                 "3D [nInputPlane=%lld, iH=%lld, iW=%lld] or 4D [batch, %lld, %lld, %lld]",
                                 (long long)g->nIn, (long long)inputHeight, (long long)inputWidth,
                                 (long long)g->nIn, (long long)inputHeight, (long long)inputWidth);
  TH_TRY(THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, g->nOut, oH, oW));
  g->kW = kW;
  g->kH = kH;
  g->dW = dW;
  g->dH = dH;
  g->padW = padW;
  g->padH = padH;
  g->iH = inputHeight;
  g->iW = inputWidth;
  g->oH = oH;
  g->oW = oW;
  return 0;
}

/* FORWARD: out[o] += sum of w[o, c, i, j] * in[c, pixel of tap (i, j)];
 * BACKWARD: in[c, pixel of tap (i, j)] += sum over o of w[o, c, i, j] * out[o];
 * GRADIENT: w[o, c, i, j] += scale * out[o] * in[c, pixel of tap (i, j)].
 * w is the pixel's [nOut, nIn, kH, kW] block, in one sample's image, out
 * the pixel of plane 0 of the sample's output (planes oH*oW apart). */
static void THNN_(SpatialConvolutionLocal_pixel)(const THNNLocalGeometry *g, int mode, int64_t y, int64_t x,
                                                 real *w, real *in, real *out, real scale)
{
  int64_t i0, i1, j0, j1;
  THNNLocal_taps(y, g->dH, g->padH, g->kH, g->iH, &i0, &i1);
  THNNLocal_taps(x, g->dW, g->padW, g->kW, g->iW, &j0, &j1);
  const int64_t area = g->oH * g->oW, taps = (int64_t)g->kH * g->kW;
  for (int64_t o = 0; o < g->nOut; o++) {
    accreal sum = 0;
    for (int64_t c = 0; c < g->nIn; c++) {
      real *wc = w + (o * g->nIn + c) * taps;
      /* the input index of tap (i, j): corner + i * iW + j (inside for the taps in range) */
      int64_t corner = c * g->iH * g->iW + (y * g->dH - g->padH) * g->iW + (x * g->dW - g->padW);
      for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) {
          if (mode == THNN_LOCAL_FORWARD)
            sum += (accreal)wc[i * g->kW + j] * in[corner + i * g->iW + j];
          else if (mode == THNN_LOCAL_BACKWARD)
            in[corner + i * g->iW + j] += wc[i * g->kW + j] * out[o * area];
          else
            wc[i * g->kW + j] += scale * out[o * area] * in[corner + i * g->iW + j];
        }
    }
    if (mode == THNN_LOCAL_FORWARD)
      out[o * area] += (real)sum;
  }
}

int THNN_(SpatialConvolutionLocal_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_(SpatialConvolutionLocal_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                   kW, kH, dW, dH, padW, padH, inputWidth, inputHeight,
                                                   outputWidth, outputHeight, &g));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1;
  int64_t outSize[4] = {batch, g.nOut, g.oH, g.oW};
  THTensor xTmp = {0}, wTmp = {0}, bTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  const THTensor *b = w ? THTensor_(contiguous)(state, bias, &bTmp) : NULL;
  int rc = -1;
  if (b && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    const int64_t area = g.oH * g.oW, pixelWeights = g.nOut * g.nIn * g.kH * g.kW;
    const int64_t imageSize = g.nIn * g.iH * g.iW;
    real *y = THTensor_(data)(output);
    for (int64_t n = 0; n < batch; n++) {
      memcpy(y + n * g.nOut * area, THTensor_(data)(b), (size_t)(g.nOut * area) * sizeof(real));
      for (int64_t p = 0; p < area; p++)
        THNN_(SpatialConvolutionLocal_pixel)(&g, THNN_LOCAL_FORWARD, p / g.oW, p % g.oW,
                                             THTensor_(data)(w) + p * pixelWeights,
                                             THTensor_(data)(x) + n * imageSize, y + n * g.nOut * area + p, 0);
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  THTensor_(release)(&bTmp);
  return rc;
}

int THNN_(SpatialConvolutionLocal_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_(SpatialConvolutionLocal_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                   kW, kH, dW, dH, padW, padH, inputWidth, inputHeight,
                                                   outputWidth, outputHeight, &g));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const int64_t area = g.oH * g.oW, pixelWeights = g.nOut * g.nIn * g.kH * g.kW;
    const int64_t imageSize = g.nIn * g.iH * g.iW;
    real *gx = THTensor_(data)(gradInput);
    memset(gx, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t p = 0; p < area; p++)
        THNN_(SpatialConvolutionLocal_pixel)(&g, THNN_LOCAL_BACKWARD, p / g.oW, p % g.oW,
                                             THTensor_(data)(w) + p * pixelWeights, gx + n * imageSize,
                                             THTensor_(data)(gy) + n * g.nOut * area + p, 0);
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialConvolutionLocal_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, int padW, int padH,
    int64_t inputWidth, int64_t inputHeight, int64_t outputWidth, int64_t outputHeight, accreal scale)
{
  THNNLocalGeometry g;
  TH_TRY(THNN_(SpatialConvolutionLocal_shapeCheck)(state, input, gradOutput,
                                                   THTensor_(gradParams)(gradWeight, gradBias),
                                                   kW, kH, dW, dH, padW, padH,
                                                   inputWidth, inputHeight, outputWidth, outputHeight, &g));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    const int64_t area = g.oH * g.oW, pixelWeights = g.nOut * g.nIn * g.kH * g.kW;
    const int64_t imageSize = g.nIn * g.iH * g.iW;
    real *gyd = THTensor_(data)(gy);
    for (int64_t n = 0; n < batch; n++)
      for (int64_t p = 0; p < area; p++)
        THNN_(SpatialConvolutionLocal_pixel)(&g, THNN_LOCAL_GRADIENT, p / g.oW, p % g.oW,
                                             THTensor_(data)(gradWeight) + p * pixelWeights,
                                             THTensor_(data)(x) + n * imageSize, gyd + n * g.nOut * area + p,
                                             (real)scale);
    if (gradBias) {
      real *gb = THTensor_(data)(gradBias);
      for (int64_t k = 0; k < g.nOut * area; k++) {
        accreal sum = 0;
        for (int64_t n = 0; n < batch; n++)
          sum += gyd[n * g.nOut * area + k];
        gb[k] += (real)(scale * sum);
      }
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
