#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Linear.cu"
#else

/* The products are the CPU kernel's cuBLAS calls (thnn_c/generic/Linear.c:
 * rows are samples, so Y = X W^T + b is Y^T = W^T^T X^T column-major). */

/* shared with the CPU kernel (thnn_c/generic/Linear.c) */
extern "C" int THNN_CPU_(Linear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                            THTensor *gradBias);

/* every row of y [batch, nOut] = b (stride bStride) */
__global__ void THNN_(Linear_biasKernel)(real *y, const real *b, int64_t bStride, int64_t nOut, int64_t n)
{
  THC_KERNEL_LOOP(i, n) y[i] = b[(i % nOut) * bStride];
}

/* gb[j] += scale * go[i][j] over the rows i of go [batch, nOut], in row order */
__global__ void THNN_(Linear_gradBiasKernel)(real *gb, const real *go, real scale, int64_t batch, int64_t nOut)
{
  THC_KERNEL_LOOP(j, nOut) {
    for (int64_t i = 0; i < batch; i++)
      gb[j] += scale * go[i * nOut + j];
  }
}

int THNN_(Linear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                               THTensor *bias)
{
  TH_TRY(THNN_CPU_(Linear_shapeCheck)(state, input, NULL, weight, bias, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor xTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && (input->nDimension == 1 ? THCTensor_(resize1d)(state, output, nOut)
                                   : THCTensor_(resize2d)(state, output, batch, nOut)) == 0) {
    real *y = THTensor_(data)(output);
    rc = 0;
    if (bias && batch * nOut > 0) {
      THC_LAUNCH(THC_blocks(batch * nOut), THC_NUM_THREADS, THNN_(Linear_biasKernel))(
          y, THTensor_(data)(bias), bias->stride[0], nOut, batch * nOut);
      rc = THCCheckLaunch(state, "Linear_updateOutput");
    }
    if (rc == 0)
      rc = THCBlas_(gemm)(state, 't', 'n', nOut, batch, nIn, 1, THTensor_(data)(w), nIn, THTensor_(data)(x), nIn,
                          bias ? 1 : 0, y, nOut);
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(Linear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                  THTensor *weight)
{
  TH_TRY(THNN_CPU_(Linear_shapeCheck)(state, input, gradOutput, weight, NULL, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor gTmp = {}, wTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeAs)(state, gradInput, input) == 0)
    rc = THCBlas_(gemm)(state, 'n', 'n', nIn, batch, nOut, 1, THTensor_(data)(w), nIn, THTensor_(data)(g), nOut, 0,
                        THTensor_(data)(gradInput), nIn);
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

int THNN_(Linear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *weight,
                                    THTensor *bias, THTensor *gradWeight, THTensor *gradBias, accreal scale)
{
  TH_TRY(THNN_CPU_(Linear_shapeCheck)(state, input, gradOutput, weight, bias, gradWeight, gradBias));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g) {
    rc = THCBlas_(gemm)(state, 'n', 't', nIn, nOut, batch, (real)scale, THTensor_(data)(x), nIn,
                        THTensor_(data)(g), nOut, 1, THTensor_(data)(gradWeight), nIn);
    if (rc == 0 && gradBias && nOut > 0) {
      THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(Linear_gradBiasKernel))(
          THTensor_(data)(gradBias), THTensor_(data)(g), (real)scale, batch, nOut);
      rc = THCCheckLaunch(state, "Linear_accGradParameters");
    }
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
