#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SoftMax.c"
#else

#include "generic/SoftMaxRows.h"

int THNN_(SoftMax_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                     THTensor *output, int64_t *nframe, int64_t *dim, int64_t *stride)
{
  return THNN_(SoftMaxRows_check)(state, input, gradOutput, output, nframe, dim, stride);
}

/* One row of n features (the 1D and 2D layouts).  The maximum is taken
 * first so exp cannot overflow; a NaN anywhere makes the row NaN. */
TH_VECTOR_CLONES static void THNN_(SoftMax_row)(const real *in, const real *unused, real *out, int64_t n)
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
static void THNN_(SoftMax_frame)(const real *in, const real *unused, real *out, int64_t dim,
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
  return THNN_(SoftMaxRows_map)(state, output, input, input, NULL, nframe, dim, stride, 2,
                                THNN_(SoftMax_row), THNN_(SoftMax_frame));
}

/* dL/dx = y * (dL/dy - sum_d y dL/dy) */
int THNN_(SoftMax_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                   THTensor *gradInput, THTensor *output)
{
  int64_t nframe, dim, stride;
  TH_TRY(THNN_(SoftMax_shapeCheck)(state, input, gradOutput, output, &nframe, &dim, &stride));
  return THNN_(SoftMaxRows_map)(state, gradInput, input, gradOutput, output, nframe, dim, stride, 1,
                                THNN_(SoftMax_rowBackward), THNN_(SoftMax_frameBackward));
}

#endif
