#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalConvolution.c"
#else

#include "generic/Temporal.h"

/* A sequence is a row-major [nInputFrame, nIn] matrix, so the kW frames that
 * output frame t reads are one run of K = kW * nIn numbers starting at
 * t * dW * nIn, and weight row o is the matching run of K coefficients.
 * Output frames t1 < t2 < ... whose runs lie a fixed distance apart form
 * one gemm (BLAS column-major: the runs are the columns of a K x n matrix
 * with leading dimension = that distance).  BLAS wants the leading
 * dimension >= K, i.e. runs that do not overlap, so the frames are taken in
 * `step` interleaved groups j, j + step, j + 2 step, ... with
 * step * dW >= kW, as Torch7 did.  Writes to gradInput through such a group
 * then never touch one element twice within a call. */

int THNN_(TemporalConvolution_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor_(Params) params, int kW, int dW, int64_t *nOutputFrame)
{
  THTensor *weight = params.weight;
  TH_TRY(THNN_(Temporal_checkWindow)(state, kW, dW));
  if (weight->nDimension != 2 || weight->size[0] < 1 || weight->size[1] < 1 || weight->size[1] % kW != 0)
    return THTensor_(shapeError)(state, params.wName, weight,
                                 "2D [outputFrameSize, kW * inputFrameSize] with kW = %d", kW);
  int64_t nOut = weight->size[0], nIn = weight->size[1] / kW;
  return THNN_(Temporal_checkFrames)(state, input, gradOutput, params, nIn, nOut, kW, dW, false, nOutputFrame);
}

/* Frames in the interleaved gemm groups described above. */
static int64_t THNN_(TemporalConvolution_step)(int kW, int dW)
{
  return (kW - 1) / dW + 1;
}

int THNN_(TemporalConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                            THTensor *weight, THTensor *bias, int kW, int dW,
                                            int inputFrameSize, int outputFrameSize)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                               kW, dW, &nOutFrame));
  int64_t nOut = weight->size[0], nIn = weight->size[1] / kW, K = weight->size[1];
  if (nIn != inputFrameSize || nOut != outputFrameSize)
    return THTensor_(shapeError)(state, "weight", weight, "[outputFrameSize = %d, kW * inputFrameSize = %lld]",
                                 outputFrameSize, (long long)kW * inputFrameSize);
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW);
  int64_t outSize[3] = {batch, nOutFrame, nOut};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) : -1;
  const real *b = THTensor_(data)(bias);
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    real *ys = THTensor_(data)(output) + s * nOutFrame * nOut;
    for (int64_t t = 0; t < nOutFrame; t++)
      for (int64_t o = 0; o < nOut; o++)
        ys[t * nOut + o] = b[o * bias->stride[0]];
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THBlas_(gemm)(state, 't', 'n', nOut, (nOutFrame - 1 - j) / step + 1, K,
                         1, THTensor_(data)(w), K, xs + j * dW * nIn, step * dW * nIn,
                         1, ys + j * nOut, step * nOut);
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *weight, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                               kW, dW, &nOutFrame));
  int64_t nOut = weight->size[0], nIn = weight->size[1] / kW, K = weight->size[1];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW);
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THTensor_(resizeAs)(state, gradInput, input) : -1;
  if (rc == 0)
    memset(THTensor_(data)(gradInput), 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nOut;
    real *gis = THTensor_(data)(gradInput) + s * nInFrame * nIn;
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THBlas_(gemm)(state, 'n', 'n', K, (nOutFrame - 1 - j) / step + 1, nOut,
                         1, THTensor_(data)(w), K, gs + j * nOut, step * nOut,
                         1, gis + j * dW * nIn, step * dW * nIn);
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias,
                                                 int kW, int dW, accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalConvolution_shapeCheck)(state, input, gradOutput, THTensor_(gradParams)(gradWeight, gradBias),
                                               kW, dW, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nOut = gradWeight->size[0], nIn = gradWeight->size[1] / kW, K = gradWeight->size[1];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW);
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = g ? 0 : -1;
  real *gb = THTensor_(data)(gradBias);
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nOut;
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THBlas_(gemm)(state, 'n', 't', K, nOut, (nOutFrame - 1 - j) / step + 1,
                         (real)scale, xs + j * dW * nIn, step * dW * nIn, gs + j * nOut, step * nOut,
                         1, THTensor_(data)(gradWeight), K);
    for (int64_t o = 0; rc == 0 && o < nOut; o++) {
      accreal sum = 0;
      for (int64_t t = 0; t < nOutFrame; t++)
        sum += gs[t * nOut + o];
      gb[o] += (real)(scale * sum);
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
