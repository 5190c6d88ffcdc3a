#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Sigmoid.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/Sigmoid.c) */
extern "C" int THNN_CPU_(Sigmoid_shapeCheck)(THNNState *state, THTensor *gradOutput, THTensor *output);

__global__ void THNN_(Sigmoid_forwardKernel)(const real *in, real *out, int64_t n)
{
  THC_KERNEL_LOOP(i, n) out[i] = 1 / (1 + exp(-in[i]));
}

__global__ void THNN_(Sigmoid_backwardKernel)(const real *go, const real *out, real *gi, int64_t n)
{
  THC_KERNEL_LOOP(i, n) gi[i] = go[i] * (1 - out[i]) * out[i];
}

int THNN_(Sigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  TH_TRY(THNN_CPU_(Sigmoid_shapeCheck)(state, NULL, input));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = -1;
  if (x && THCTensor_(resizeAs)(state, output, input) == 0) {
    int64_t n = THTensor_(nElement)(input);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Sigmoid_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), n);
    rc = THCCheckLaunch(state, "Sigmoid_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(Sigmoid_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *gradInput,
                                   THTensor *output)
{
  TH_TRY(THNN_CPU_(Sigmoid_shapeCheck)(state, gradOutput, output));
  THTensor gTmp = {}, yTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THCTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y && THCTensor_(resizeAs)(state, gradInput, output) == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Sigmoid_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(y), THTensor_(data)(gradInput), n);
    rc = THCCheckLaunch(state, "Sigmoid_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&yTmp);
  return rc;
}

#endif
