#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/PReLU.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/PReLU.c): a contiguous input
 * is [nframe, nplane, ks], element i of channel (i / ks) % nplane */
extern "C" int THNN_CPU_(PReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                           THTensor *weight, THTensor *gradWeight, int64_t nOutputPlane,
                                           int64_t *nframe, int64_t *nplane, int64_t *ks);

/* x > 0 ? v : w[c] * v, with c the channel of element i (weight may be
 * strided): the forward pass with v = x (b defaults to a in
 * Activation_map), the backward pass with v = dL/dy. */
struct THNN_(PReLU_op) {
  const real *w;
  int64_t wstride, nplane, ks;
  __device__ real operator()(real v, real x, real, int64_t i) const
  {
    return x > 0 ? v : w[i / ks % nplane * wstride] * v;
  }
};

static THNN_(PReLU_op) THNN_(PReLU_slopes)(THTensor *weight, int64_t nplane, int64_t ks)
{
  THNN_(PReLU_op) op = {THTensor_(data)(weight), weight->nDimension > 0 ? weight->stride[0] : 0, nplane, ks};
  return op;
}

/* One block per channel c (gw contiguous): gw[c] += scale * the sum, over
 * the frames and positions of c where x <= 0, of x * dL/dy. */
__global__ void THNN_(PReLU_accKernel)(const real *in, const real *go, real *gw, int64_t nframe,
                                       int64_t nplane, int64_t ks, accreal scale)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t c = blockIdx.x; c < nplane; c += gridDim.x) {
    accreal sum = 0;
    for (int64_t j = threadIdx.x; j < nframe * ks; j += blockDim.x) {
      int64_t k = (j / ks * nplane + c) * ks + j % ks;
      if (in[k] <= 0)
        sum += (accreal)in[k] * go[k];
    }
    sum = THCBlockReduce(sum, scratch, THCSum());
    if (threadIdx.x == 0)
      gw[c] += (real)(scale * sum);
  }
}

int THNN_(PReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                              int64_t nOutputPlane)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_CPU_(PReLU_shapeCheck)(state, input, NULL, weight, NULL, nOutputPlane, &nframe, &nplane, &ks));
  THNN_(PReLU_op) op = THNN_(PReLU_slopes)(weight, nplane, ks);
  return THNN_(Activation_map)(state, __func__, output, false, op, input);
}

int THNN_(PReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                 THTensor *weight, int64_t nOutputPlane)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_CPU_(PReLU_shapeCheck)(state, input, gradOutput, weight, NULL, nOutputPlane,
                                     &nframe, &nplane, &ks));
  THNN_(PReLU_op) op = THNN_(PReLU_slopes)(weight, nplane, ks);
  return THNN_(Activation_map)(state, __func__, gradInput, false, op, gradOutput, input);
}

int THNN_(PReLU_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *weight,
                                   THTensor *gradWeight, int64_t nOutputPlane, accreal scale)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_CPU_(PReLU_shapeCheck)(state, input, gradOutput, weight, gradWeight, nOutputPlane,
                                     &nframe, &nplane, &ks));
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g) {
    THC_LAUNCH(THCActivation_rowBlocks(nplane), THC_NUM_THREADS, THNN_(PReLU_accKernel))(
        THTensor_(data)(x), THTensor_(data)(g), THTensor_(data)(gradWeight), nframe, nplane, ks, scale);
    rc = THCCheckLaunch(state, "PReLU_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
