#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalRowConvolution.c"
#else

#include "generic/Temporal.h"

/* A depth-wise convolution: feature c has its own kernel w[c][0][0 .. kW-1],
 *   y[t][c] = b[c] + sum_k w[c][0][k] x[t*dW + k][c].
 * Each feature costs kW multiply-adds per output frame, so the loops run
 * directly over contiguous copies (Torch7 unfolded the input into an
 * finput buffer for a batched gemm; the arithmetic is the same).  In a
 * sample, element (frame f, feature c) lives at f * fs + c * cs: (fs, cs) =
 * (nIn, 1) frames first, (1, nFrame) with featFirst. */

int THNN_(TemporalRowConvolution_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor_(Params) params,
                                                    int kW, int dW, bool featFirst, int64_t *nOutputFrame)
{
  THTensor *weight = params.weight;
  TH_TRY(THNN_(Temporal_checkWindow)(state, kW, dW));
  if (weight->nDimension != 3 || weight->size[0] < 1 || weight->size[1] != 1 || weight->size[2] != kW)
    return THTensor_(shapeError)(state, params.wName, weight, "3D [inputFrameSize, 1, kW = %d]", kW);
  int64_t nIn = weight->size[0];
  return THNN_(Temporal_checkFrames)(state, input, gradOutput, params, nIn, nIn, kW, dW, featFirst, nOutputFrame);
}

int THNN_(TemporalRowConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                               THTensor *weight, THTensor *bias, int kW, int dW,
                                               bool featFirst)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalRowConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                  kW, dW, featFirst, &nOutFrame));
  int nd = input->nDimension, frameDim = featFirst ? nd - 1 : nd - 2;
  int64_t nIn = weight->size[0], nInFrame = input->size[frameDim];
  int64_t batch = nd == 3 ? input->size[0] : 1;
  int64_t outSize[3] = {input->size[0], input->size[1], nd == 3 ? input->size[2] : 0};
  outSize[frameDim] = nOutFrame;
  int64_t xfs = featFirst ? 1 : nIn, xcs = featFirst ? nInFrame : 1;
  int64_t yfs = featFirst ? 1 : nIn, ycs = featFirst ? nOutFrame : 1;
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THTensor_(resizeNd)(state, output, nd, outSize) : -1;
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    real *ys = THTensor_(data)(output) + s * nOutFrame * nIn;
    for (int64_t c = 0; c < nIn; c++) {
      const real *wc = THTensor_(data)(w) + c * kW;
      accreal b = bias ? THTensor_(data)(bias)[c * bias->stride[0]] : 0;
      for (int64_t t = 0; t < nOutFrame; t++) {
        accreal sum = b;
        for (int64_t k = 0; k < kW; k++)
          sum += (accreal)wc[k] * xs[(t * dW + k) * xfs + c * xcs];
        ys[t * yfs + c * ycs] = (real)sum;
      }
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalRowConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradInput, THTensor *weight, int kW, int dW,
                                                  bool featFirst)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalRowConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                  kW, dW, featFirst, &nOutFrame));
  int nd = input->nDimension, frameDim = featFirst ? nd - 1 : nd - 2;
  int64_t nIn = weight->size[0], nInFrame = input->size[frameDim];
  int64_t batch = nd == 3 ? input->size[0] : 1;
  int64_t xfs = featFirst ? 1 : nIn, xcs = featFirst ? nInFrame : 1;
  int64_t yfs = featFirst ? 1 : nIn, ycs = featFirst ? nOutFrame : 1;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THTensor_(resizeAs)(state, gradInput, input) : -1;
  if (rc == 0)
    memset(THTensor_(data)(gradInput), 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nIn;
    real *gis = THTensor_(data)(gradInput) + s * nInFrame * nIn;
    for (int64_t c = 0; c < nIn; c++) {
      const real *wc = THTensor_(data)(w) + c * kW;
      for (int64_t t = 0; t < nOutFrame; t++)
        for (int64_t k = 0; k < kW; k++)
          gis[(t * dW + k) * xfs + c * xcs] += wc[k] * gs[t * yfs + c * ycs];
    }
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalRowConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradWeight, THTensor *gradBias,
                                                    int kW, int dW, bool featFirst, accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalRowConvolution_shapeCheck)(state, input, gradOutput,
                                                  THTensor_(gradParams)(gradWeight, gradBias),
                                                  kW, dW, featFirst, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int nd = input->nDimension, frameDim = featFirst ? nd - 1 : nd - 2;
  int64_t nIn = gradWeight->size[0], nInFrame = input->size[frameDim];
  int64_t batch = nd == 3 ? input->size[0] : 1;
  int64_t xfs = featFirst ? 1 : nIn, xcs = featFirst ? nInFrame : 1;
  int64_t yfs = featFirst ? 1 : nIn, ycs = featFirst ? nOutFrame : 1;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  for (int64_t s = 0; g && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nIn;
    for (int64_t c = 0; c < nIn; c++) {
      real *gwc = THTensor_(data)(gradWeight) + c * kW;
      accreal db = 0;
      for (int64_t t = 0; t < nOutFrame; t++)
        db += gs[t * yfs + c * ycs];
      for (int64_t k = 0; k < kW; k++) {
        accreal dw = 0;
        for (int64_t t = 0; t < nOutFrame; t++)
          dw += (accreal)gs[t * yfs + c * ycs] * xs[(t * dW + k) * xfs + c * xcs];
        gwc[k] += (real)(scale * dw);
      }
      if (gradBias)
        THTensor_(data)(gradBias)[c] += (real)(scale * db);
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return g ? 0 : -1;
}

#endif
