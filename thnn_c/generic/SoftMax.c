#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMax.c"
#else

static int THNN_(SoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *output, int64_t *nframe, int64_t *dim, int64_t *stride)
{
  TH_TRY(THSoftMaxLayout(state, input->nDimension, input->size, nframe, dim, stride));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

/* Each frame is [dim, stride]: a softmax down every column, done row by row
 * over a per-column running max and sum so memory is read in order. */
int THNN_(SoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(SoftMax_shapeCheck)(state, input, NULL, NULL, &nframe, &dim, &stride));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  accreal *colMax = x ? THAlloc(2 * (size_t)stride * sizeof(accreal)) : NULL;
  if (!colMax || THTensor_(resizeAs)(state, output, input) != 0) {
    THFree(colMax);
    THTensor_(release)(&xTmp);
    return colMax ? -1 : THError(state, "out of memory");
  }
  accreal *colSum = colMax + stride;
  for (int64_t f = 0; f < nframe; f++) {
    const real *in = THTensor_(data)(x) + f * dim * stride;
    real *out = THTensor_(data)(output) + f * dim * stride;
    for (int64_t s = 0; s < stride; s++) {
      colMax[s] = -INFINITY;
      colSum[s] = 0;
    }
    for (int64_t d = 0; d < dim; d++)
      for (int64_t s = 0; s < stride; s++)
        if (!(in[d * stride + s] <= colMax[s]))   /* NaN wins, so it propagates */
          colMax[s] = in[d * stride + s];
    for (int64_t d = 0; d < dim; d++)
      for (int64_t s = 0; s < stride; s++) {
        real e = (real)exp(in[d * stride + s] - colMax[s]);
        out[d * stride + s] = e;
        colSum[s] += e;
      }
    for (int64_t d = 0; d < dim; d++)
      for (int64_t s = 0; s < stride; s++)
        out[d * stride + s] = (real)(out[d * stride + s] / colSum[s]);
  }
  THFree(colMax);
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = y * (dL/dy - sum_d y dL/dy) */
int THNN_(SoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                   THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(SoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  THTensor gTmp = {0}, yTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THTensor_(contiguous)(state, output, &yTmp) : NULL;
  accreal *colDot = y ? THAlloc((size_t)stride * sizeof(accreal)) : NULL;
  int rc = -1;
  if (!colDot)
    rc = y ? THError(state, "out of memory") : -1;
  else if (THTensor_(resizeAs)(state, gradInput, input) == 0) {
    for (int64_t f = 0; f < nframe; f++) {
      const real *go = THTensor_(data)(g) + f * dim * stride;
      const real *out = THTensor_(data)(y) + f * dim * stride;
      real *gi = THTensor_(data)(gradInput) + f * dim * stride;
      for (int64_t s = 0; s < stride; s++)
        colDot[s] = 0;
      for (int64_t d = 0; d < dim; d++)
        for (int64_t s = 0; s < stride; s++)
          colDot[s] += (accreal)go[d * stride + s] * out[d * stride + s];
      for (int64_t d = 0; d < dim; d++)
        for (int64_t s = 0; s < stride; s++)
          gi[d * stride + s] = (real)(out[d * stride + s] * (go[d * stride + s] - colDot[s]));
    }
    rc = 0;
  }
  THFree(colDot);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&yTmp);
  return rc;
}

#endif
