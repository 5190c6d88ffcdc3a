#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMax.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SoftMax.c).  The layout
 * (THSoftMaxLayout) is nframe frames of dim features of stride elements: the
 * softmax runs along each of the nframe * stride rows, row r starting at
 * (r / stride) * dim * stride + r % stride and stepping by stride.  One block
 * per row, the max and the sums reduced across the block. */
extern "C" int THNN_CPU_(SoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                             THTensor *output, int64_t *nframe, int64_t *dim,
                                             int64_t *stride);

/* y = exp(x - max) / sum exp(x - max), max first so exp cannot overflow */
__global__ void THNN_(SoftMax_forwardKernel)(const real *in, real *out, int64_t rows, int64_t dim,
                                             int64_t stride)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    int64_t base = r / stride * dim * stride + r % stride;
    const real *x = in + base;
    real *y = out + base;
    real max = -INFINITY;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      max = x[d * stride] > max ? x[d * stride] : max;
    max = (real)THCBlockReduce((accreal)max, scratch, THCMax());
    accreal sum = 0;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      sum += exp(x[d * stride] - max);
    sum = THCBlockReduce(sum, scratch, THCSum());   /* a NaN anywhere makes the row NaN */
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      y[d * stride] = (real)(exp(x[d * stride] - max) / sum);
  }
}

/* dL/dx = y * (dL/dy - sum_d y dL/dy) */
__global__ void THNN_(SoftMax_backwardKernel)(const real *go, const real *out, real *gi, int64_t rows,
                                              int64_t dim, int64_t stride)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    int64_t base = r / stride * dim * stride + r % stride;
    accreal dot = 0;
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      dot += (accreal)go[base + d * stride] * out[base + d * stride];
    dot = THCBlockReduce(dot, scratch, THCSum());
    for (int64_t d = threadIdx.x; d < dim; d += blockDim.x)
      gi[base + d * stride] = (real)(out[base + d * stride] * (go[base + d * stride] - dot));
  }
}

int THNN_(SoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_CPU_(SoftMax_shapeCheck)(state, input, NULL, NULL, &nframe, &dim, &stride));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeAs)(state, output, input) == 0) {
    THC_LAUNCH(THCActivation_rowBlocks(nframe * stride), THC_NUM_THREADS, THNN_(SoftMax_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), nframe * stride, dim, stride);
    rc = THCCheckLaunch(state, "SoftMax_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(SoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                   THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_CPU_(SoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  THTensor gTmp = {}, yTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THCTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    THC_LAUNCH(THCActivation_rowBlocks(nframe * stride), THC_NUM_THREADS, THNN_(SoftMax_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(y), THTensor_(data)(gradInput), nframe * stride, dim, stride);
    rc = THCCheckLaunch(state, "SoftMax_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&yTmp);
  return rc;
}

#endif
