#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/GatedLinear.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/GatedLinear.c): a contiguous
 * input is [outer, 2 * half, inner] around dim, the output [outer, half,
 * inner].  With block = half * inner, output element i has its a at
 * k = (i / block) * 2 * block + i % block of the input, its b at k + block. */
extern "C" int THNN_CPU_(GatedLinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 int dim, int64_t *outSize, int64_t *outer, int64_t *half,
                                                 int64_t *inner);

/* y = a * sigmoid(b) */
__global__ void THNN_(GatedLinear_forwardKernel)(const real *x, real *y, int64_t n, int64_t block)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t k = i / block * 2 * block + i % block;
    y[i] = x[k] / (1 + exp(-x[k + block]));
  }
}

/* dL/da = dL/dy * s,  dL/db = dL/dy * a * s * (1 - s), s = sigmoid(b) */
__global__ void THNN_(GatedLinear_backwardKernel)(const real *x, const real *go, real *gi, int64_t n,
                                                  int64_t block)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t k = i / block * 2 * block + i % block;
    real s = 1 / (1 + exp(-x[k + block]));
    gi[k] = go[i] * s;
    gi[k + block] = go[i] * x[k] * s * (1 - s);
  }
}

int THNN_(GatedLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int dim)
{
  int64_t outSize[TH_MAX_DIM], outer, half, inner;
  TH_TRY(THNN_CPU_(GatedLinear_shapeCheck)(state, input, NULL, dim, outSize, &outer, &half, &inner));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeNd)(state, output, input->nDimension, outSize) == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(GatedLinear_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), n, half * inner);
    rc = THCCheckLaunch(state, "GatedLinear_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(GatedLinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       THTensor *gradInput, int dim)
{
  int64_t outSize[TH_MAX_DIM], outer, half, inner;
  TH_TRY(THNN_CPU_(GatedLinear_shapeCheck)(state, input, gradOutput, dim, outSize, &outer, &half, &inner));
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t n = THTensor_(nElement)(gradOutput);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(GatedLinear_backwardKernel))(
        THTensor_(data)(x), THTensor_(data)(g), THTensor_(data)(gradInput), n, half * inner);
    rc = THCCheckLaunch(state, "GatedLinear_updateGradInput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
