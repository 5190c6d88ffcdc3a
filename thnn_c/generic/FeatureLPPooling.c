#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/FeatureLPPooling.c"
#else

/* LP pooling across features: output feature o of every position is
 * (sum_{i < width} x[o stride + i]^power)^(1 / power).  The feature dim is
 * dim 0 without batch mode ([f], [f, a] or [f, a, b]) and dim 1 with it
 * ([batch, f], [batch, f, a] or [batch, f, a, b]); the dims after it are
 * positions.  So an input is batch x features x inner, contiguous. */

typedef struct {
  int64_t batch, features, inner, outFeatures;
} THNN_(FeatureLPPooling_layout);

int THNN_(FeatureLPPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                              THTensor *output, accreal power, int width, int stride,
                                              bool batchMode, THNN_(FeatureLPPooling_layout) *l)
{
  int nd = input->nDimension;
  if (batchMode && (nd < 2 || nd > 4))
    return THTensor_(shapeError)(state, "input", input, "2D, 3D or 4D [batch, features, ...] in batch mode");
  if (!batchMode && (nd < 1 || nd > 3))
    return THTensor_(shapeError)(state, "input", input, "1D, 2D or 3D [features, ...] without batch mode");
  if (width < 2 || width > 16)
    return THError(state, "width must be between 2 and 16, got %d", width);
  if (stride < 1 || stride > 4)
    return THError(state, "stride must be between 1 and 4, got %d", stride);
  if (!(power > 0))
    return THError(state, "power must be > 0, got %g", (double)power);
  int f = batchMode ? 1 : 0;
  l->batch = batchMode ? input->size[0] : 1;
  l->features = input->size[f];
  l->inner = 1;
  for (int d = f + 1; d < nd; d++)
    l->inner *= input->size[d];
  if (l->features < width)
    return THTensor_(shapeError)(state, "input", input, "at least %d (the width) features in dim %d", width, f);
  l->outFeatures = (l->features - width) / stride + 1;
  int64_t size[4];
  for (int d = 0; d < nd; d++)
    size[d] = input->size[d];
  size[f] = l->outFeatures;
  if (gradOutput)
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, nd, size));
  if (output)
    TH_TRY(THTensor_(checkSizes)(state, "output", output, nd, size));
  return 0;
}

int THNN_(FeatureLPPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                         accreal power, int width, int stride, bool batchMode)
{
  THNN_(FeatureLPPooling_layout) l;
  TH_TRY(THNN_(FeatureLPPooling_shapeCheck)(state, input, NULL, NULL, power, width, stride, batchMode, &l));
  int64_t size[4];
  for (int d = 0; d < input->nDimension; d++)
    size[d] = input->size[d];
  size[batchMode ? 1 : 0] = l.outFeatures;
  TH_TRY(THTensor_(resizeNd)(state, output, input->nDimension, size));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  accreal *sum = x ? THAlloc((size_t)l.inner * sizeof(accreal)) : NULL;
  if (!sum) {
    THTensor_(release)(&xTmp);
    return x ? THError(state, "out of memory") : -1;
  }
  for (int64_t b = 0; b < l.batch; b++)
    for (int64_t o = 0; o < l.outFeatures; o++) {
      for (int64_t s = 0; s < l.inner; s++)
        sum[s] = 0;
      for (int64_t i = 0; i < width; i++) {
        const real *in = THTensor_(data)(x) + (b * l.features + o * stride + i) * l.inner;
        for (int64_t s = 0; s < l.inner; s++)
          sum[s] += pow(in[s], power);
      }
      real *out = THTensor_(data)(output) + (b * l.outFeatures + o) * l.inner;
      for (int64_t s = 0; s < l.inner; s++)
        out[s] = (real)pow(sum[s], 1 / power);
    }
  THFree(sum);
  THTensor_(release)(&xTmp);
  return 0;
}

/* dy_o / dx_i = (x_i / y_o)^(power - 1); an output of 0 passes no gradient. */
int THNN_(FeatureLPPooling_updateGradInput)(THNNState *state, THTensor *gradOutput, THTensor *input,
                                            THTensor *output, THTensor *gradInput, accreal power,
                                            int width, int stride, bool batchMode)
{
  THNN_(FeatureLPPooling_layout) l;
  TH_TRY(THNN_(FeatureLPPooling_shapeCheck)(state, input, gradOutput, output, power, width, stride,
                                            batchMode, &l));
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  THTensor xTmp = {0}, gTmp = {0}, yTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  const THTensor *y = g ? THTensor_(contiguous)(state, output, &yTmp) : NULL;
  if (y) {
    real *gi = THTensor_(data)(gradInput);
    memset(gi, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t b = 0; b < l.batch; b++)
      for (int64_t o = 0; o < l.outFeatures; o++) {
        const real *yo = THTensor_(data)(y) + (b * l.outFeatures + o) * l.inner;
        const real *go = THTensor_(data)(g) + (b * l.outFeatures + o) * l.inner;
        for (int64_t i = 0; i < width; i++) {
          int64_t at = (b * l.features + o * stride + i) * l.inner;
          const real *in = THTensor_(data)(x) + at;
          for (int64_t s = 0; s < l.inner; s++)
            if (yo[s] != 0)
              gi[at + s] += (real)(go[s] * pow((real)(in[s] / yo[s]), power - 1));
        }
      }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&yTmp);
  return y ? 0 : -1;
}

#endif
