#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalSubSampling.cu"
#else

/* Per feature c: y[t][c] = w[c] * S[t][c] + b[c], S the sum of the kW
 * frames of window t (thnn_c/generic/TemporalSubSampling.c).  One thread per
 * output element forward, per input element backward (adding the windows
 * that hold it in frame order, as the CPU kernel does), per feature for the
 * parameters.  x[f][c] of sample s is at (s * nFrame + f) * nIn + c. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(TemporalSubSampling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor_(Params) params,
                                                         int kW, int dW, int64_t *nOutputFrame);

__global__ void THNN_(TemporalSubSampling_forwardKernel)(const real *x, real *y, const real *w, int64_t ws,
                                                         const real *b, int64_t bs, int kW, int dW,
                                                         int64_t nInFrame, int64_t nOutFrame, int64_t nIn,
                                                         int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % nIn, t = (i / nIn) % nOutFrame, s = i / (nIn * nOutFrame);
    const real *xs = x + s * nInFrame * nIn;
    accreal sum = 0;
    for (int64_t k = 0; k < kW; k++)
      sum += xs[(t * dW + k) * nIn + c];
    y[i] = (real)(w[c * ws] * sum + b[c * bs]);
  }
}

int THNN_(TemporalSubSampling_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias, int kW, int dW, int inputFrameSize)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalSubSampling_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                   kW, dW, &nOutFrame));
  int64_t nIn = weight->size[0];
  if (nIn != inputFrameSize)
    return THTensor_(shapeError)(state, "weight", weight, "[inputFrameSize = %d]", inputFrameSize);
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], n = batch * nOutFrame * nIn;
  int64_t outSize[3] = {batch, nOutFrame, nIn};
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = x ? THCTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalSubSampling_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), THTensor_(data)(weight), weight->stride[0],
        THTensor_(data)(bias), bias->stride[0], kW, dW, nInFrame, nOutFrame, nIn, n);
    rc = THCCheckLaunch(state, "TemporalSubSampling_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

__global__ void THNN_(TemporalSubSampling_backwardKernel)(const real *g, real *gi, const real *w, int64_t ws,
                                                          int kW, int dW, int64_t nInFrame, int64_t nOutFrame,
                                                          int64_t nIn, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % nIn, f = (i / nIn) % nInFrame, s = i / (nIn * nInFrame);
    int64_t first = f < kW ? 0 : (f - kW) / dW + 1, last = f / dW < nOutFrame - 1 ? f / dW : nOutFrame - 1;
    real sum = 0;
    for (int64_t t = first; t <= last; t++)
      sum += w[c * ws] * g[(s * nOutFrame + t) * nIn + c];
    gi[i] = sum;
  }
}

int THNN_(TemporalSubSampling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *weight, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalSubSampling_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                   kW, dW, &nOutFrame));
  int64_t nIn = weight->size[0];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2], n = batch * nInFrame * nIn;
  THTensor gTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  int rc = g ? THCTensor_(resizeAs)(state, gradInput, input) : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalSubSampling_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(gradInput), THTensor_(data)(weight), weight->stride[0], kW, dW,
        nInFrame, nOutFrame, nIn, n);
    rc = THCCheckLaunch(state, "TemporalSubSampling_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  return rc;
}

__global__ void THNN_(TemporalSubSampling_paramKernel)(const real *x, const real *g, real *gw, real *gb,
                                                       accreal scale, int kW, int dW, int64_t batch,
                                                       int64_t nInFrame, int64_t nOutFrame, int64_t nIn)
{
  THC_KERNEL_LOOP(c, nIn) {
    for (int64_t s = 0; s < batch; s++) {
      const real *xs = x + s * nInFrame * nIn, *gs = g + s * nOutFrame * nIn;
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
}

int THNN_(TemporalSubSampling_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                 accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalSubSampling_shapeCheck)(state, input, gradOutput,
                                                   THTensor_(gradParams)(gradWeight, gradBias), kW, dW, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nIn = gradWeight->size[0];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g) {
    THC_LAUNCH(THC_blocks(nIn), THC_NUM_THREADS, THNN_(TemporalSubSampling_paramKernel))(
        THTensor_(data)(x), THTensor_(data)(g), THTensor_(data)(gradWeight), THTensor_(data)(gradBias), scale, kW,
        dW, batch, nInFrame, nOutFrame, nIn);
    rc = THCCheckLaunch(state, "TemporalSubSampling_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
