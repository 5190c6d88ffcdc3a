#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialSubSampling.c"
#else

#include "generic/unfold.h"

/* Each plane k: the sum over every kW x kH window, scaled by its own weight
 * and shifted by its own bias (no padding):
 *     output[k, y, x] = bias[k] + weight[k] * sum over i < kH, j < kW of input[k, y*dH + i, x*dW + j]
 * with weight and bias [nInputPlane]. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry
 * of one sample. */
int THNN_(SpatialSubSampling_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, THNNConvGeometry *g)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNConv_checkParameters(state, kW, kH, dW, dH, 0, 0, 1, 1));
  if (weight->nDimension != 1)
    return THTensor_(shapeError)(state, params.wName, weight, "1D [nInputPlane]");
  int64_t nIn = weight->size[0];
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, &nIn));
  TH_TRY(THTensor_(checkImages)(state, "input", input, nIn));
  int batched = input->nDimension == 4;
  int64_t inH = input->size[batched + 1], inW = input->size[batched + 2];
  if (inH < kH || inW < kW)
    return THTensor_(shapeError)(state, "input", input, "at least %d high and %d wide (the kernel)", kH, kW);
  *g = (THNNConvGeometry){kW, kH, dW, dH, 0, 0, 1, 1, nIn, inH, inW,
                          THNNConv_outputSize(inH, kH, dH, 0, 1), THNNConv_outputSize(inW, kW, dW, 0, 1)};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, nIn, g->outH, g->outW);
}

/* out (one output plane) = the window sums of the input plane in. */
static void THNN_(SpatialSubSampling_windowSums)(const THNNConvGeometry *g, const real *in, real *out)
{
  THNN_(convZero)(out, g->outH * g->outW);
  for (int64_t y = 0; y < g->outH; y++)
    for (int i = 0; i < g->kH; i++) {
      const real *r = in + (y * g->dH + i) * g->inW;
      real *o = out + y * g->outW;
      for (int j = 0; j < g->kW; j++)
        if (g->dW == 1)
          for (int64_t x = 0; x < g->outW; x++)
            o[x] += r[x + j];
        else
          for (int64_t x = 0; x < g->outW; x++)
            o[x] += r[x * g->dW + j];
    }
}

int THNN_(SpatialSubSampling_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH)
{
  THNNConvGeometry g = {0};
  TH_TRY(THNN_(SpatialSubSampling_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                              kW, kH, dW, dH, &g));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = g.nPlane;
  int64_t outSize[4] = {batch, nIn, g.outH, g.outW};
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    const real *in = THTensor_(data)(x), *w = THTensor_(data)(weight), *b = THTensor_(data)(bias);
    real *out = THTensor_(data)(output);
    int64_t inArea = g.inH * g.inW, outArea = g.outH * g.outW;
#ifdef _OPENMP
    int nThreads = THNNConv_threads(batch * nIn, (double)batch * nIn * outArea * kW * kH);
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, 1) if (nThreads > 1)
#endif
    for (int64_t nk = 0; nk < batch * nIn; nk++) {
      int64_t k = nk % nIn;
      real wk = w[k * weight->stride[0]], bk = b[k * bias->stride[0]];
      real *o = out + nk * outArea;
      THNN_(SpatialSubSampling_windowSums)(&g, in + nk * inArea, o);
      for (int64_t a = 0; a < outArea; a++)
        o[a] = bk + wk * o[a];
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  return rc;
}

int THNN_(SpatialSubSampling_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH)
{
  THNNConvGeometry g = {0};
  TH_TRY(THNN_(SpatialSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                              kW, kH, dW, dH, &g));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1, nIn = g.nPlane;
  THTensor gTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  int rc = -1;
  if (gy && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *go = THTensor_(data)(gy), *w = THTensor_(data)(weight);
    real *gi = THTensor_(data)(gradInput);
    int64_t inArea = g.inH * g.inW, outArea = g.outH * g.outW;
#ifdef _OPENMP
    int nThreads = THNNConv_threads(batch * nIn, (double)batch * nIn * outArea * kW * kH);
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, 1) if (nThreads > 1)
#endif
    for (int64_t nk = 0; nk < batch * nIn; nk++) {
      real wk = w[(nk % nIn) * weight->stride[0]];
      real *plane = gi + nk * inArea;
      THNN_(convZero)(plane, inArea);
      for (int64_t y = 0; y < g.outH; y++)
        for (int i = 0; i < kH; i++) {
          const real *o = go + nk * outArea + y * g.outW;
          real *r = plane + (y * dH + i) * g.inW;
          for (int j = 0; j < kW; j++)
            for (int64_t x = 0; x < g.outW; x++)
              r[x * dW + j] += wk * o[x];
        }
    }
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  return rc;
}

int THNN_(SpatialSubSampling_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, accreal scale)
{
  THNNConvGeometry g = {0};
  TH_TRY(THNN_(SpatialSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(gradParams)(gradWeight, gradBias),
                                              kW, kH, dW, dH, &g));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1, nIn = g.nPlane;
  int64_t inArea = g.inH * g.inW, outArea = g.outH * g.outW;
  int nThreads = THNNConv_threads(nIn, (double)batch * nIn * outArea * kW * kH);
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  real *sums = gy ? THAlloc((size_t)nThreads * (size_t)outArea * sizeof(real)) : NULL;
  int rc = -1;
  if (gy && !sums)
    rc = THError(state, "out of memory for the window sums");
  else if (sums) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(gy);
    real *gw = THTensor_(data)(gradWeight), *gb = THTensor_(data)(gradBias);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, 1) if (nThreads > 1)
#endif
    for (int64_t k = 0; k < nIn; k++) {
      real *windows = sums + THNNConv_threadId() * outArea;
      accreal sw = 0, sb = 0;
      for (int64_t n = 0; n < batch; n++) {
        const real *o = go + (n * nIn + k) * outArea;
        THNN_(SpatialSubSampling_windowSums)(&g, in + (n * nIn + k) * inArea, windows);
        for (int64_t a = 0; a < outArea; a++) {
          sw += (accreal)o[a] * windows[a];
          sb += o[a];
        }
      }
      gw[k] += (real)(scale * sw);
      gb[k] += (real)(scale * sb);
    }
    rc = 0;
  }
  THFree(sums);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
