#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMax.c"
#else

#include "THLoop.h"

int THNN_(SoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *output, int64_t *nframe, int64_t *dim, int64_t *stride)
{
  TH_TRY(THSoftMaxLayout(state, input->nDimension, input->size, nframe, dim, stride));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

/* One row of n features (the 1D and 2D layouts).  The maximum is taken
 * first so exp cannot overflow; a NaN anywhere makes the row NaN. */
TH_VECTOR_CLONES static void THNN_(SoftMax_row)(const real *in, real *out, int64_t n)
{
  real max = -INFINITY;
#pragma omp simd reduction(max : max)
  for (int64_t i = 0; i < n; i++)
    max = in[i] > max ? in[i] : max;
  accreal sum = THVector_(expSum)(out, in, max, n);
  for (int64_t i = 0; i < n; i++)
    out[i] = (real)(out[i] / sum);
}

TH_VECTOR_CLONES static void THNN_(SoftMax_rowBackward)(const real *go, const real *out, real *gi, int64_t n)
{
  accreal dot = 0;
#pragma omp simd reduction(+ : dot)
  for (int64_t i = 0; i < n; i++)
    dot += (accreal)go[i] * out[i];
  for (int64_t i = 0; i < n; i++)
    gi[i] = (real)(out[i] * (go[i] - dot));
}

/* A [dim, stride] frame of the 3D and 4D layouts: a softmax down every
 * column, row by row over per-column running maxima and sums (col, 2 *
 * stride accumulators) so memory is read in order. */
static void THNN_(SoftMax_frame)(const real *in, real *out, int64_t dim, int64_t stride, accreal *col)
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
    for (int64_t s = 0; s < stride; s++) {
      out[d * stride + s] = THVector_exp((real)(in[d * stride + s] - colMax[s]));
      colSum[s] += out[d * stride + s];
    }
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      out[d * stride + s] = (real)(out[d * stride + s] / colSum[s]);
}

static void THNN_(SoftMax_frameBackward)(const real *go, const real *out, real *gi, int64_t dim,
                                         int64_t stride, accreal *colDot)
{
  for (int64_t s = 0; s < stride; s++)
    colDot[s] = 0;
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      colDot[s] += (accreal)go[d * stride + s] * out[d * stride + s];
  for (int64_t d = 0; d < dim; d++)
    for (int64_t s = 0; s < stride; s++)
      gi[d * stride + s] = (real)(out[d * stride + s] * (go[d * stride + s] - colDot[s]));
}

int THNN_(SoftMax_updateOutput)(THNNState *state, THTensor *input, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(SoftMax_shapeCheck)(state, input, NULL, NULL, &nframe, &dim, &stride));
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
        THNN_(SoftMax_row)(in + f * dim, out + f * dim, dim);
    } else {
      for (int64_t f = 0; f < nframe; f++)
        THNN_(SoftMax_frame)(in + f * dim * stride, out + f * dim * stride, dim, stride, col);
    }
    rc = 0;
  }
  THFree(col);
  THTensor_(release)(&xTmp);
  return rc;
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
        THNN_(SoftMax_rowBackward)(go + f * dim, out + f * dim, gi + f * dim, dim);
    } else {
      for (int64_t f = 0; f < nframe; f++)
        THNN_(SoftMax_frameBackward)(go + f * dim * stride, out + f * dim * stride, gi + f * dim * stride,
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
