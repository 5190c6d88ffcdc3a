#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/TemporalRowConvolution.cu"
#else

/* Feature c has its own kernel w[c][0][0 .. kW-1] (thnn_c/generic/
 * TemporalRowConvolution.c): y[t][c] = b[c] + sum_k w[c][0][k] x[t*dW + k][c].
 * In a sample, (frame f, feature c) is at f * fs + c * cs: (fs, cs) =
 * (nIn, 1) frames first, (1, nFrame) with featFirst.  One thread per output
 * element forward, per input element backward (adding the windows that hold
 * it in frame order, as the CPU kernel does), per (feature, tap) for the
 * weight gradient. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(TemporalRowConvolution_shapeCheck)(THNNState *state, THTensor *input,
                                                            THTensor *gradOutput, THTensor_(Params) params,
                                                            int kW, int dW, bool featFirst,
                                                            int64_t *nOutputFrame);

/* The sizes of a call, and (frame, feature) strides of input and output in a sample. */
struct THNN_(RowConvShape) {
  int64_t batch, nIn, nInFrame, nOutFrame;
  int kW, dW;
  int64_t xfs, xcs, yfs, ycs;
};

static THNN_(RowConvShape) THNN_(TemporalRowConvolution_shape)(THTensor *input, int64_t nIn, int64_t nOutFrame,
                                                               int kW, int dW, bool featFirst)
{
  int nd = input->nDimension;
  int64_t nInFrame = input->size[featFirst ? nd - 1 : nd - 2];
  THNN_(RowConvShape) s = {nd == 3 ? input->size[0] : 1, nIn, nInFrame, nOutFrame, kW, dW,
                           featFirst ? 1 : nIn, featFirst ? nInFrame : 1, featFirst ? 1 : nIn,
                           featFirst ? nOutFrame : 1};
  return s;
}

__global__ void THNN_(TemporalRowConvolution_forwardKernel)(const real *x, real *y, const real *w, const real *b,
                                                            int64_t bs, THNN_(RowConvShape) s, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % s.nIn, t = (i / s.nIn) % s.nOutFrame, smp = i / (s.nIn * s.nOutFrame);
    const real *xs = x + smp * s.nInFrame * s.nIn;
    accreal sum = b ? b[c * bs] : 0;
    for (int64_t k = 0; k < s.kW; k++)
      sum += (accreal)w[c * s.kW + k] * xs[(t * s.dW + k) * s.xfs + c * s.xcs];
    y[smp * s.nOutFrame * s.nIn + t * s.yfs + c * s.ycs] = (real)sum;
  }
}

int THNN_(TemporalRowConvolution_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                               THTensor *weight, THTensor *bias, int kW, int dW, bool featFirst)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalRowConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                      kW, dW, featFirst, &nOutFrame));
  int nd = input->nDimension, frameDim = featFirst ? nd - 1 : nd - 2;
  THNN_(RowConvShape) s = THNN_(TemporalRowConvolution_shape)(input, weight->size[0], nOutFrame, kW, dW, featFirst);
  int64_t outSize[3] = {input->size[0], input->size[1], nd == 3 ? input->size[2] : 0};
  outSize[frameDim] = nOutFrame;
  int64_t n = s.batch * nOutFrame * s.nIn;
  THTensor xTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THCTensor_(resizeNd)(state, output, nd, outSize) : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalRowConvolution_forwardKernel))(
        THTensor_(data)(x), THTensor_(data)(output), THTensor_(data)(w), bias ? THTensor_(data)(bias) : NULL,
        bias ? bias->stride[0] : 0, s, n);
    rc = THCCheckLaunch(state, "TemporalRowConvolution_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

__global__ void THNN_(TemporalRowConvolution_backwardKernel)(const real *g, real *gi, const real *w,
                                                             THNN_(RowConvShape) s, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t c = i % s.nIn, f = (i / s.nIn) % s.nInFrame, smp = i / (s.nIn * s.nInFrame);
    const real *gs = g + smp * s.nOutFrame * s.nIn;
    int64_t first = f < s.kW ? 0 : (f - s.kW) / s.dW + 1;
    int64_t last = f / s.dW < s.nOutFrame - 1 ? f / s.dW : s.nOutFrame - 1;
    real sum = 0;
    for (int64_t t = first; t <= last; t++)
      sum += w[c * s.kW + f - t * s.dW] * gs[t * s.yfs + c * s.ycs];
    gi[smp * s.nInFrame * s.nIn + f * s.xfs + c * s.xcs] = sum;
  }
}

int THNN_(TemporalRowConvolution_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradInput, THTensor *weight, int kW, int dW,
                                                  bool featFirst)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalRowConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                      kW, dW, featFirst, &nOutFrame));
  THNN_(RowConvShape) s = THNN_(TemporalRowConvolution_shape)(input, weight->size[0], nOutFrame, kW, dW, featFirst);
  int64_t n = s.batch * s.nInFrame * s.nIn;
  THTensor gTmp = {}, wTmp = {};
  const THTensor *g = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = w ? THCTensor_(resizeAs)(state, gradInput, input) : -1;
  if (rc == 0 && n > 0) {
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(TemporalRowConvolution_backwardKernel))(
        THTensor_(data)(g), THTensor_(data)(gradInput), THTensor_(data)(w), s, n);
    rc = THCCheckLaunch(state, "TemporalRowConvolution_updateGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

/* Thread (c, k): gw[c][k] += scale * sum_t g[t][c] x[t*dW + k][c], and for
 * k = 0 gb[c] += scale * sum_t g[t][c], sample by sample. */
__global__ void THNN_(TemporalRowConvolution_paramKernel)(const real *x, const real *g, real *gw, real *gb,
                                                          accreal scale, THNN_(RowConvShape) s)
{
  THC_KERNEL_LOOP(i, s.nIn * s.kW) {
    int64_t c = i / s.kW, k = i % s.kW;
    for (int64_t smp = 0; smp < s.batch; smp++) {
      const real *xs = x + smp * s.nInFrame * s.nIn, *gs = g + smp * s.nOutFrame * s.nIn;
      accreal dw = 0, db = 0;
      for (int64_t t = 0; t < s.nOutFrame; t++) {
        dw += (accreal)gs[t * s.yfs + c * s.ycs] * xs[(t * s.dW + k) * s.xfs + c * s.xcs];
        db += gs[t * s.yfs + c * s.ycs];
      }
      gw[i] += (real)(scale * dw);
      if (gb && k == 0)
        gb[c] += (real)(scale * db);
    }
  }
}

int THNN_(TemporalRowConvolution_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradWeight, THTensor *gradBias, int kW, int dW,
                                                    bool featFirst, accreal scale)
{
  int64_t nOutFrame = 0;
  TH_TRY(THNN_CPU_(TemporalRowConvolution_shapeCheck)(state, input, gradOutput,
                                                      THTensor_(gradParams)(gradWeight, gradBias),
                                                      kW, dW, featFirst, &nOutFrame));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  THNN_(RowConvShape) s = THNN_(TemporalRowConvolution_shape)(input, gradWeight->size[0], nOutFrame, kW, dW,
                                                              featFirst);
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g) {
    THC_LAUNCH(THC_blocks(s.nIn * kW), THC_NUM_THREADS, THNN_(TemporalRowConvolution_paramKernel))(
        THTensor_(data)(x), THTensor_(data)(g), THTensor_(data)(gradWeight),
        gradBias ? THTensor_(data)(gradBias) : NULL, scale, s);
    rc = THCCheckLaunch(state, "TemporalRowConvolution_accGradParameters");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
