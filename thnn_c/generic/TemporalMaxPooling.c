#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalMaxPooling.c"
#else

#include "generic/Temporal.h"

/* y[t][c] = max over k < kW of x[t*dW + k][c]; indices[t][c] = that k (the
 * offset inside the window, as Torch7 stored it, 0-based).  The first
 * maximum wins; a NaN wins over any number, so it propagates.  The index
 * always lies in [0, kW), even for a window of -inf.  Backward sends
 * gradOutput[t][c] to x[t*dW + indices[t][c]][c], adding up where windows
 * overlap. */

int THNN_(TemporalMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THIndexTensor *indices, int kW, int dW, int64_t *nOutputFrame)
{
  TH_TRY(THNN_(Temporal_checkWindow)(state, kW, dW));
  int nd = input->nDimension;
  if (nd != 2 && nd != 3)
    return THTensor_(shapeError)(state, "input", input,
                                 "2D [nInputFrame, frameSize] or 3D [batch, nInputFrame, frameSize]");
  if (input->size[nd - 2] < kW)
    return THTensor_(shapeError)(state, "input", input, "at least kW = %d frames long", kW);
  *nOutputFrame = (input->size[nd - 2] - kW) / dW + 1;
  int64_t size[3] = {input->size[0], *nOutputFrame, input->size[nd - 1]};
  if (gradOutput)
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, nd, nd == 2 ? size + 1 : size));
  if (indices)
    TH_TRY(THLongTensor_checkSizes(state, "indices", indices, nd, nd == 2 ? size + 1 : size));
  return 0;
}

int THNN_(TemporalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                           THIndexTensor *indices, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalMaxPooling_shapeCheck)(state, input, NULL, NULL, kW, dW, &nOutFrame));
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], nC = input->size[nd - 1];
  int64_t outSize[3] = {batch, nOutFrame, nC};
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) != 0 ||
      THLongTensor_resizeNd(state, indices, nd, nd == 3 ? outSize : outSize + 1) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  for (int64_t s = 0; s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nC;
    real *ys = THTensor_(data)(output) + s * nOutFrame * nC;
    int64_t *is = THLongTensor_data(indices) + s * nOutFrame * nC;
    for (int64_t t = 0; t < nOutFrame; t++)
      for (int64_t c = 0; c < nC; c++) {
        const real *window = xs + t * dW * nC + c;
        int64_t best = 0;
        for (int64_t k = 1; k < kW && !isnan(window[best * nC]); k++)
          if (window[k * nC] > window[best * nC] || isnan(window[k * nC]))
            best = k;
        ys[t * nC + c] = window[best * nC];
        is[t * nC + c] = best;
      }
  }
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(TemporalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, THIndexTensor *indices, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_(TemporalMaxPooling_shapeCheck)(state, input, gradOutput, indices, kW, dW, &nOutFrame));
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], nC = input->size[nd - 1];
  THTensor gTmp = {0};
  THLongTensor iTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THLongTensor *ind = g ? THLongTensor_contiguous(state, indices, &iTmp) : NULL;
  int rc = ind ? 0 : -1;
  const int64_t *idx = ind ? THLongTensor_data(ind) : NULL;
  for (int64_t i = 0, n = THLongTensor_nElement(indices); rc == 0 && i < n; i++)
    if (idx[i] < 0 || idx[i] >= kW)
      rc = THError(state, "indices must lie in [0, kW = %d), got %lld at flat position %lld",
                   kW, (long long)idx[i], (long long)i);
  if (rc == 0)
    rc = THTensor_(resizeAs)(state, gradInput, input);
  if (rc == 0) {
    memset(THTensor_(data)(gradInput), 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t s = 0; s < batch; s++) {
      const real *gs = THTensor_(data)(g) + s * nOutFrame * nC;
      const int64_t *is = idx + s * nOutFrame * nC;
      real *gis = THTensor_(data)(gradInput) + s * nInFrame * nC;
      for (int64_t t = 0; t < nOutFrame; t++)
        for (int64_t c = 0; c < nC; c++)
          gis[(t * dW + is[t * nC + c]) * nC + c] += gs[t * nC + c];
    }
  }
  THTensor_(release)(&gTmp);
  THLongTensor_release(&iTmp);
  return rc;
}

#endif
