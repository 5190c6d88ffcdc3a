#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalSubSampling.c"
#else

#include "generic/Temporal.h"

/* Per feature c: y[t][c] = w[c] * S[t][c] + b[c] with S[t][c] the sum of
 * x[t*dW + k][c] over the window k = 0 .. kW-1.  All tensors are read
 * through contiguous copies: x[f][c] of sample s is at (s * nFrame + f) * nIn + c. */

int THNN_(TemporalSubSampling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor_(Params) params, int kW, int dW, int64_t *nOutputFrame)
{
  THTensor *weight = params.weight;
  TH_TRY(THNN_(Temporal_checkWindow)(state, kW, dW));
  if (weight->nDimension != 1 || weight->size[0] < 1)
    return THTensor_(shapeError)(state, params.wName, weight, "1D [inputFrameSize]");
  int64_t nIn = weight->size[0];
  return THNN_(Temporal_checkFrames)(state, input, gradOutput, params, nIn, nIn, kW, dW, false, nOutputFrame);
}

int THNN_(TemporalSubSampling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                            THTensor *weight, THTensor *bias, int kW, int dW,
                                            int inputFrameSize)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalSubSampling_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                               kW, dW, &nOutFrame));
  int64_t nIn = weight->size[0];
  if (nIn != inputFrameSize)
    return THTensor_(shapeError)(state, "weight", weight, "[inputFrameSize = %d]", inputFrameSize);
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t outSize[3] = {batch, nOutFrame, nIn};
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *w = THTensor_(data)(weight), *b = THTensor_(data)(bias);
  for (int64_t s = 0; s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    real *ys = THTensor_(data)(output) + s * nOutFrame * nIn;
    for (int64_t t = 0; t < nOutFrame; t++)
      for (int64_t c = 0; c < nIn; c++) {
        accreal sum = 0;
        for (int64_t k = 0; k < kW; k++)
          sum += xs[(t * dW + k) * nIn + c];
        ys[t * nIn + c] = (real)(w[c * weight->stride[0]] * sum + b[c * bias->stride[0]]);
      }
  }
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(TemporalSubSampling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *weight, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                               kW, dW, &nOutFrame));
  int64_t nIn = weight->size[0];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  THTensor gTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  if (!g || THTensor_(resizeAs)(state, gradInput, input) != 0) {
    THTensor_(release)(&gTmp);
    return -1;
  }
  const real *w = THTensor_(data)(weight);
  memset(THTensor_(data)(gradInput), 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
  for (int64_t s = 0; s < batch; s++) {
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nIn;
    real *gis = THTensor_(data)(gradInput) + s * nInFrame * nIn;
    for (int64_t t = 0; t < nOutFrame; t++)
      for (int64_t k = 0; k < kW; k++)
        for (int64_t c = 0; c < nIn; c++)
          gis[(t * dW + k) * nIn + c] += w[c * weight->stride[0]] * gs[t * nIn + c];
  }
  THTensor_(release)(&gTmp);
  return 0;
}

int THNN_(TemporalSubSampling_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias,
                                                 int kW, int dW, accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(gradParams)(gradWeight, gradBias),
                                               kW, dW, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nIn = gradWeight->size[0];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  real *gw = THTensor_(data)(gradWeight), *gb = THTensor_(data)(gradBias);
  for (int64_t s = 0; g && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nIn;
    for (int64_t c = 0; c < nIn; c++) {
      accreal dw = 0, db = 0;
      for (int64_t t = 0; t < nOutFrame; t++) {
        accreal sum = 0;
        for (int64_t k = 0; k < kW; k++)
          sum += xs[(t * dW + k) * nIn + c];
        dw += sum * gs[t * nIn + c];
        db += gs[t * nIn + c];
      }
      gw[c] += (real)(scale * dw);
      gb[c] += (real)(scale * db);
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return g ? 0 : -1;
}

#endif
