#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalConvolution.cu"
#else

/* The products are the CPU kernel's gemm calls (thnn_c/generic/
 * TemporalConvolution.c: per sample, the output frames in `step` interleaved
 * groups whose input runs do not overlap), made with cuBLAS; the bias and its
 * gradient are small kernels. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(TemporalConvolution_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THTensor_(Params) params,
                                                         int kW, int dW, int64_t *nOutputFrame);

/* every frame of y [rows, nOut] = b (stride bStride) */
__global__ void THNN_(TemporalConvolution_biasKernel)(real *y, const real *b, int64_t bStride, int64_t nOut,
                                                      int64_t n)
{
  THC_KERNEL_LOOP(i, n) y[i] = b[(i % nOut) * bStride];
}

/* gb[o] += scale * (the sum over the frames of go), sample by sample */
__global__ void THNN_(TemporalConvolution_gradBiasKernel)(real *gb, const real *go, accreal scale, int64_t batch,
                                                          int64_t nOutFrame, int64_t nOut)
{
  THC_KERNEL_LOOP(o, nOut) {
    for (int64_t s = 0; s < batch; s++) {
      accreal sum = 0;
      for (int64_t t = 0; t < nOutFrame; t++)
        sum += go[(s * nOutFrame + t) * nOut + o];
      gb[o] += (real)(scale * sum);
    }
  }
}

static int64_t THNN_(TemporalConvolution_step)(int kW, int dW)
{
  return (kW - 1) / dW + 1;
}

int THNN_(TemporalConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                            THTensor *bias, int kW, int dW, int inputFrameSize,
                                            int outputFrameSize)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                   kW, dW, &nOutFrame));
  int64_t nOut = weight->size[0], nIn = weight->size[1] / kW, K = weight->size[1];
  if (nIn != inputFrameSize || nOut != outputFrameSize)
    return THTensor_(shapeError)(state, "weight", weight, "[outputFrameSize = %d, kW * inputFrameSize = %lld]",
                                 outputFrameSize, (long long)kW * inputFrameSize);
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW), n = batch * nOutFrame * nOut;
  int64_t outSize[3] = {batch, nOutFrame, nOut};
  THTensor xTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THCTensor_(resizeNd)(state, output, nd, nd == 3 ? outSize : outSize + 1) : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalConvolution_biasKernel))(
        THTensor_(data)(output), THTensor_(data)(bias), bias->stride[0], nOut, n);
    rc = THCCheckLaunch(state, "TemporalConvolution_updateOutput");
  }
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    real *ys = THTensor_(data)(output) + s * nOutFrame * nOut;
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THCBlas_(gemm)(state, 't', 'n', nOut, (nOutFrame - 1 - j) / step + 1, K, 1, THTensor_(data)(w), K,
                          xs + j * dW * nIn, step * dW * nIn, 1, ys + j * nOut, step * nOut);
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *weight, int kW, int dW)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                   kW, dW, &nOutFrame));
  int64_t nOut = weight->size[0], nIn = weight->size[1] / kW, K = weight->size[1];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW);
  THTensor gTmp = {}, wTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THCTensor_(resizeAs)(state, gradInput, input) : -1;
  if (rc == 0)
    rc = THCTensor_(fill)(state, gradInput, 0);
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nOut;
    real *gis = THTensor_(data)(gradInput) + s * nInFrame * nIn;
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THCBlas_(gemm)(state, 'n', 'n', K, (nOutFrame - 1 - j) / step + 1, nOut, 1, THTensor_(data)(w), K,
                          gs + j * nOut, step * nOut, 1, gis + j * dW * nIn, step * dW * nIn);
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(TemporalConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                 accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalConvolution_shapeCheck)(state, input, gradOutput,
                                                   THTensor_(gradParams)(gradWeight, gradBias), kW, dW, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t nOut = gradWeight->size[0], nIn = gradWeight->size[1] / kW, K = gradWeight->size[1];
  int nd = input->nDimension;
  int64_t batch = nd == 3 ? input->size[0] : 1, nInFrame = input->size[nd - 2];
  int64_t step = THNN_(TemporalConvolution_step)(kW, dW);
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = g ? 0 : -1;
  for (int64_t s = 0; rc == 0 && s < batch; s++) {
    const real *xs = THTensor_(data)(x) + s * nInFrame * nIn;
    const real *gs = THTensor_(data)(g) + s * nOutFrame * nOut;
    for (int64_t j = 0; rc == 0 && j < step && j < nOutFrame; j++)
      rc = THCBlas_(gemm)(state, 'n', 't', K, nOut, (nOutFrame - 1 - j) / step + 1, (real)scale, xs + j * dW * nIn,
                          step * dW * nIn, gs + j * nOut, step * nOut, 1, THTensor_(data)(gradWeight), K);
  }
  if (rc == 0) {
    THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(TemporalConvolution_gradBiasKernel))(
        THTensor_(data)(gradBias), THTensor_(data)(g), scale, batch, nOutFrame, nOut);
    rc = THCCheckLaunch(state, "TemporalConvolution_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
