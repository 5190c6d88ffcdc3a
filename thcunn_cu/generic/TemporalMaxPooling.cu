#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalMaxPooling.cu"
#else

/* y[t][c] = max over k < kW of x[t*dW + k][c], indices[t][c] = that k
 * (thnn_c/generic/TemporalMaxPooling.c: the first maximum wins, a NaN wins
 * over any number).  Backward, one thread per input element adds the
 * gradients of the windows whose maximum it is, in frame order. */

#include "THCIndexRange.cuh"

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(TemporalMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THIndexTensor *indices, int kW, int dW,
                                                        int64_t *nOutputFrame);

__global__ void THNN_(TemporalMaxPooling_forwardKernel)(const real *x, real *y, int64_t *ind, int kW, int dW,
                                                        int64_t nInFrame, int64_t nOutFrame, int64_t nC, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % nC, t = (i / nC) % nOutFrame, s = i / (nC * nOutFrame);
    const real *window = x + (s * nInFrame + t * dW) * nC + c;
    int64_t best = 0;
    for (int64_t k = 1; k < kW && !isnan(window[best * nC]); k++)
      if (window[k * nC] > window[best * nC] || isnan(window[k * nC]))
        best = k;
    y[i] = window[best * nC];
    ind[i] = best;
  }
}

int THNN_(TemporalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                           THIndexTensor *indices, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalMaxPooling_shapeCheck)(state, input, NULL, NULL, kW, dW, &nOutFrame));
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], nC = input->size[nd - 1];
  int64_t outSize[3] = {batch, nOutFrame, nC}, n = batch * nOutFrame * nC;
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = x && THCTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) == 0
               && THCLongTensor_resizeNd(state, indices, nd, nd == 3 ? outSize : outSize + 1) == 0 ? 0 : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalMaxPooling_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), THLongTensor_data(indices), kW, dW, nInFrame, nOutFrame, nC,
        n);
    rc = THCCheckLaunch(state, "TemporalMaxPooling_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

__global__ void THNN_(TemporalMaxPooling_backwardKernel)(const real *g, const int64_t *ind, real *gi, int dW,
                                                         int kW, int64_t nInFrame, int64_t nOutFrame, int64_t nC,
                                                         int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % nC, f = (i / nC) % nInFrame, s = i / (nC * nInFrame);
    int64_t first = f < kW ? 0 : (f - kW) / dW + 1, last = f / dW < nOutFrame - 1 ? f / dW : nOutFrame - 1;
    real sum = 0;
    for (int64_t t = first; t <= last; t++) {
      int64_t at = (s * nOutFrame + t) * nC + c;
      if (t * dW + ind[at] == f)
        sum += g[at];
    }
    gi[i] = sum;
  }
}

int THNN_(TemporalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *gradInput, THIndexTensor *indices, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalMaxPooling_shapeCheck)(state, input, gradOutput, indices, kW, dW, &nOutFrame));
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], nC = input->size[nd - 1];
  int64_t n = batch * nInFrame * nC;
  THTensor gTmp = {};
  THLongTensor iTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THLongTensor *ind = g ? THCLongTensor_contiguous(state, indices, &iTmp) : NULL;
  THCErrorSlot bad;
  int rc = ind ? THCIndexRange_first(state, THLongTensor_data(ind), THLongTensor_nElement(indices), kW, &bad) : -1;
  if (rc == 0 && bad.flag)
    rc = THError(state, "indices must lie in [0, kW = %d), got %lld at flat position %lld", kW, bad.value,
                 bad.where);
  if (rc == 0)
    rc = THCTensor_(resizeAs)(state, gradInput, input);
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalMaxPooling_backwardKernel))(
        THTensor_(data)(g), THLongTensor_data(ind), THTensor_(data)(gradInput), dW, kW, nInFrame, nOutFrame, nC, n);
    rc = THCCheckLaunch(state, "TemporalMaxPooling_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCLongTensor_release(&iTmp);
  return rc;
}

#endif
