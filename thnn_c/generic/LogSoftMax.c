#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSoftMax.c"
#else

#include "generic/SoftMaxRows.h"

int THNN_(LogSoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                        THTensor *output, int64_t *nframe, int64_t *dim, int64_t *stride)
{
  return THNN_(SoftMaxRows_check)(state, input, gradOutput, output, nframe, dim, stride);
}

/* One row of n features: y = x - (max + log sum exp(x - max)). */
TH_VECTOR_CLONES static void THNN_(LogSoftMax_row)(const real *in, const real *unused, real *out, int64_t n)
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
static void THNN_(LogSoftMax_frame)(const real *in, const real *unused, real *out, int64_t dim,
                                    int64_t stride, accreal *col)
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
  return THNN_(SoftMaxRows_map)(state, output, input, input, NULL, nframe, dim, stride, 2,
                                THNN_(LogSoftMax_row), THNN_(LogSoftMax_frame));
}

int THNN_(LogSoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(LogSoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  return THNN_(SoftMaxRows_map)(state, gradInput, input, gradOutput, output, nframe, dim, stride, 1,
                                THNN_(LogSoftMax_rowBackward), THNN_(LogSoftMax_frameBackward));
}

#endif
