#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSoftMax.c"
#else

#include "THLoop.h"

int THNN_(LogSoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                        THTensor *output, int64_t *nframe, int64_t *dim, int64_t *stride)
{
  TH_TRY(THSoftMaxLayout(state, input->nDimension, input->size, nframe, dim, stride));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

/* One row of n features: y = x - (max + log sum exp(x - max)). */
TH_VECTOR_CLONES static void THNN_(LogSoftMax_row)(const real *in, real *out, int64_t n)
{
  real max = -INFINITY;
#pragma omp simd reduction(max : max)
  for (int64_t i = 0; i < n; i++)
    max = in[i] > max ? in[i] : max;
  accreal logSum = max + log(THVector_(expSum)(NULL, in, max, n));
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)(in[i] - logSum);
}

/* dL/dx = dL/dy - exp(y) * sum dL/dy */
TH_VECTOR_CLONES static void THNN_(LogSoftMax_rowBackward)(const real *go, const real *out, real *gi, int64_t n)
{
  accreal sum = 0;
#pragma omp simd reduction(+ : sum)
  for (int64_t i = 0; i < n; i++)
    sum += go[i];
  THVector_(subExpMul)(gi, go, out, sum, n);
}

/* A [dim, stride] frame of the 3D and 4D layouts, down every column, over
 * per-column running maxima and sums (col, 2 * stride accumulators). */
static void THNN_(LogSoftMax_frame)(const real *in, real *out, int64_t dim, int64_t stride, accreal *col)
{
  accreal *colMax = col, *colSum = col + stride;
  for (int64_t s = 0; s < stride; s++) {
    colMax[s] = -INFINITY;
    colSum[s] = 0;
  }
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      if (!(in[d * stride + s] <= colMax[s]))   /* NaN wins, so it propagates */
        colMax[s] = in[d * stride + s];
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      colSum[s] += exp(in[d * stride + s] - colMax[s]);
  for (int64_t s = 0; s < stride; s++)
    colSum[s] = colMax[s] + log(colSum[s]);     /* now the log-sum-exp */
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      out[d * stride + s] = (real)(in[d * stride + s] - colSum[s]);
}

static void THNN_(LogSoftMax_frameBackward)(const real *go, const real *out, real *gi, int64_t dim,
                                            int64_t stride, accreal *colSum)
{
  for (int64_t s = 0; s < stride; s++)
    colSum[s] = 0;
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      colSum[s] += go[d * stride + s];
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      gi[d * stride + s] = (real)(go[d * stride + s] - exp(out[d * stride + s]) * colSum[s]);
}

int THNN_(LogSoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(LogSoftMax_shapeCheck)(state, input, NULL, NULL, &nframe, &dim, &stride));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  accreal *col = x && stride > 1 ? THAlloc(2 * (size_t)stride * sizeof(accreal)) : NULL;
  int rc = -1;
  if (x && stride > 1 && !col)
    THError(state, "out of memory");
  else if (x && THTensor_(resizeAs)(state, output, input) == 0) {
    const real *in = THTensor_(data)(x);
    real *out = THTensor_(data)(output);
    if (stride == 1) {
#pragma omp parallel for num_threads(THLoopThreads(nframe * dim))
      for (int64_t f = 0; f < nframe; f++)
        THNN_(LogSoftMax_row)(in + f * dim, out + f * dim, dim);
    } else {
      for (int64_t f = 0; f < nframe; f++)
        THNN_(LogSoftMax_frame)(in + f * dim * stride, out + f * dim * stride, dim, stride, col);
    }
    rc = 0;
  }
  THFree(col);
  THTensor_(release)(&xTmp);
  return rc;
}

int THNN_(LogSoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(LogSoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  THTensor gTmp = {0}, yTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *y = g ? THTensor_(contiguous)(state, output, &yTmp) : NULL;
  accreal *col = y && stride > 1 ? THAlloc((size_t)stride * sizeof(accreal)) : NULL;
  int rc = -1;
  if (y && stride > 1 && !col)
    THError(state, "out of memory");
  else if (y && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *go = THTensor_(data)(g), *out = THTensor_(data)(y);
    real *gi = THTensor_(data)(gradInput);
    if (stride == 1) {
#pragma omp parallel for num_threads(THLoopThreads(nframe * dim))
      for (int64_t f = 0; f < nframe; f++)
        THNN_(LogSoftMax_rowBackward)(go + f * dim, out + f * dim, gi + f * dim, dim);
    } else {
      for (int64_t f = 0; f < nframe; f++)
        THNN_(LogSoftMax_frameBackward)(go + f * dim * stride, out + f * dim * stride, gi + f * dim * stride,
                                        dim, stride, col);
    }
    rc = 0;
  }
  THFree(col);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&yTmp);
  return rc;
}

#endif
