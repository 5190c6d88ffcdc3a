#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/FeatureLPPooling.cu"
#else

/* LP pooling across features, as the CPU kernel
 * (thnn_c/generic/FeatureLPPooling.c, whose shape check this shares): the
 * input is batch x features x inner, one thread per output element forward
 * and per input element backward (it gathers the windows holding it, in the
 * CPU's order). */

#ifndef THC_FEATURE_LP_SHARED
#define THC_FEATURE_LP_SHARED
/* The layout of THNN_(FeatureLPPooling_layout) in the CPU file (its shape check fills it). */
struct THCFeatureLPLayout {
  int64_t batch, features, inner, outFeatures;
};
#endif

extern "C" int THNN_CPU_(FeatureLPPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                      THTensor *output, accreal power, int width, int stride,
                                                      bool batchMode, THCFeatureLPLayout *l);

/* out[b, o, s] = (sum_i in[b, o stride + i, s]^power)^(1 / power) */
__global__ void THNN_(FeatureLPPooling_forwardKernel)(const real *in, real *out, accreal power, int width,
                                                      int stride, THCFeatureLPLayout l, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t s = i % l.inner, o = i / l.inner % l.outFeatures, b = i / (l.inner * l.outFeatures);
    accreal sum = 0;
    for (int k = 0; k < width; k++)
      sum += pow(in[(b * l.features + o * stride + k) * l.inner + s], power);
    out[i] = (real)pow(sum, 1 / power);
  }
}

/* gi[b, f, s] = sum over the windows o holding f of go (x / y)^(power - 1) (y != 0) */
__global__ void THNN_(FeatureLPPooling_backwardKernel)(const real *go, const real *in, const real *out, real *gi,
                                                       accreal power, int width, int stride, THCFeatureLPLayout l,
                                                       int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t s = i % l.inner, f = i / l.inner % l.features, b = i / (l.inner * l.features);
    int64_t first = f < width ? 0 : (f - width) / stride + 1, last = f / stride;
    real sum = 0;
    for (int64_t o = first; o <= last && o < l.outFeatures; o++) {
      int64_t at = (b * l.outFeatures + o) * l.inner + s;
      if (out[at] != 0)
        sum += (real)(go[at] * pow((real)(in[i] / out[at]), power - 1));
    }
    gi[i] = sum;
  }
}

int THNN_(FeatureLPPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                         accreal power, int width, int stride, bool batchMode)
{
  THCFeatureLPLayout l;
  TH_TRY(THNN_CPU_(FeatureLPPooling_shapeCheck)(state, input, NULL, NULL, power, width, stride, batchMode, &l));
  int64_t size[4];
  for (int d = 0; d < input->nDimension; d++)
    size[d] = input->size[d];
  size[batchMode ? 1 : 0] = l.outFeatures;
  TH_TRY(THCTensor_(resizeNd)(state, output, input->nDimension, size));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  int64_t n = THTensor_(nElement)(output);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(FeatureLPPooling_forwardKernel))(
      THTensor_(data)(x), THTensor_(data)(output), power, width, stride, l, n);
  int rc = THCCheckLaunch(state, "FeatureLPPooling_updateOutput");
  THCTensor_(release)(&xTmp);
  return rc;
}

int THNN_(FeatureLPPooling_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *input,
                                            THTensor *output, THTensor *gradInput, accreal power,
                                            int width, int stride, bool batchMode)
{
  THCFeatureLPLayout l;
  TH_TRY(THNN_CPU_(FeatureLPPooling_shapeCheck)(state, input, gradOutput, output, power, width, stride,
                                                batchMode, &l));
  TH_TRY(THCTensor_(resizeAs)(state, gradInput, input));
  THTensor xTmp = {}, gTmp = {}, yTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  const THTensor *y = g ? THCTensor_(contiguous)(state, output, &yTmp) : NULL;
  int rc = -1;
  if (y) {
    int64_t n = THTensor_(nElement)(input);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(FeatureLPPooling_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(x), THTensor_(data)(y), THTensor_(data)(gradInput), power, width,
        stride, l, n);
    rc = THCCheckLaunch(state, "FeatureLPPooling_updateGradInput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&yTmp);
  return rc;
}

#endif
