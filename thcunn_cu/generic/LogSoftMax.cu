#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSoftMax.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/LogSoftMax.c).  The rows are
 * those of SoftMax.cu (THSoftMaxLayout): nframe * stride rows of dim
 * features, row r starting at (r / stride) * dim * stride + r % stride and
 * stepping by stride; one block per row. */
extern "C" int THNN_CPU_(LogSoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                THTensor *output, int64_t *nframe, int64_t *dim,
                                                int64_t *stride);

/* y = x - (max + log sum exp(x - max)) */
__global__ void THNN_(LogSoftMax_forwardKernel)(const real *in, real *out, int64_t rows, int64_t dim,
                                                int64_t stride)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    int64_t base = r / stride * dim * stride + r % stride;
    const real *x = in + base;
    real max = -INFINITY;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      max = x[d * stride] > max ? x[d * stride] : max;
    max = (real)THCBlockReduce((accreal)max, scratch, THCMax());
    accreal sum = 0;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      sum += exp(x[d * stride] - max);
    accreal logSum = max + log(THCBlockReduce(sum, scratch, THCSum()));
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      out[base + d * stride] = (real)(x[d * stride] - logSum);
  }
}

/* dL/dx = dL/dy - exp(y) * sum_d dL/dy */
__global__ void THNN_(LogSoftMax_backwardKernel)(const real *go, const real *out, real *gi, int64_t rows,
                                                 int64_t dim, int64_t stride)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    int64_t base = r / stride * dim * stride + r % stride;
    accreal sum = 0;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      sum += go[base + d * stride];
    sum = THCBlockReduce(sum, scratch, THCSum());
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      gi[base + d * stride] = (real)(go[base + d * stride] - exp(out[base + d * stride]) * sum);
  }
}

int THNN_(LogSoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_CPU_(LogSoftMax_shapeCheck)(state, input, NULL, NULL, &nframe, &dim, &stride));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeAs)(state, output, input) == 0) {
    THC_LAUNCH(THCActivation_rowBlocks(nframe * stride), THC_NUM_THREADS, THNN_(LogSoftMax_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), nframe * stride, dim, stride);
    rc = THCCheckLaunch(state, "LogSoftMax_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(LogSoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_CPU_(LogSoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  THTensor gTmp = {}, yTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THCTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    THC_LAUNCH(THCActivation_rowBlocks(nframe * stride), THC_NUM_THREADS, THNN_(LogSoftMax_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(y), THTensor_(data)(gradInput), nframe * stride, dim, stride);
    rc = THCCheckLaunch(state, "LogSoftMax_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&yTmp);
  return rc;
}

#endif
