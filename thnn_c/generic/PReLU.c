#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/PReLU.c"
#else

#include "THLoop.h"

/* A contiguous input is [nframe, nplane, ks]: nplane channels, each with its
 * own slope, of ks elements each.  With nOutputPlane = 0 the whole input is
 * one channel sharing weight's single slope, whatever its shape. */

int THNN_(PReLU_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *weight,
                                   THTensor *gradWeight, int64_t nOutputPlane,
                                   int64_t *nframe, int64_t *nplane, int64_t *ks)
{
  if (nOutputPlane < 0)
    return THError(state, "nOutputPlane must be >= 0, got %lld", (long long)nOutputPlane);
  if (nOutputPlane == 0) {
    if (THTensor_(nElement)(weight) != 1)
      return THTensor_(shapeError)(state, "weight", weight, "of 1 element (one shared slope, nOutputPlane = 0)");
    *nframe = *nplane = 1;
    *ks = THTensor_(nElement)(input);
  } else {
    int nd = input->nDimension;
    if (nd < 1 || nd > 4 || input->size[nd == 2 || nd == 4] != nOutputPlane) {
      long long c = (long long)nOutputPlane;
      return THTensor_(shapeError)(state, "input", input, "1D [%lld], 2D [batch, %lld], 3D [%lld, h, w] or "
                                   "4D [batch, %lld, h, w] (nOutputPlane channels)", c, c, c, c);
    }
    TH_TRY(THSoftMaxLayout(state, nd, input->size, nframe, nplane, ks));
    TH_TRY(THTensor_(checkSizes)(state, "weight", weight, 1, &nOutputPlane));
  }
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (gradWeight) {
    TH_TRY(THTensor_(checkSameSize)(state, "gradWeight", gradWeight, "weight", weight));
    TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  }
  return 0;
}

/* The slope of channel c (weight may be strided). */
static real THNN_(PReLU_slope)(const THTensor *weight, int64_t c)
{
  return THTensor_(data)(weight)[c * (weight->nDimension > 0 ? weight->stride[0] : 0)];
}

/* out[k] = a[k] where x[k] > 0, else w * a[k], for k < n: both values
 * computed and one selected, so the loop has no branch (a branch on the sign
 * of random data is mispredicted half the time) and vectorizes. */
TH_VECTOR_CLONES __attribute__((optimize("O3", "no-trapping-math"))) static void THNN_(PReLU_selectRun)(const real *x, const real *a, real *out, int64_t n, real w)
{
  /* simd: out[k] is written after x[k] and a[k] are read, so out may be x or a */
#pragma omp simd
  for (int64_t k = 0; k < n; k++) {
    real v = a[k], s = w * v;
    out[k] = x[k] > 0 ? v : s;
  }
}

/* out = a where x > 0, else w[c] * a, over [nframe, nplane, ks] contiguous
 * arrays (c the plane): the forward pass with a = x, the backward with
 * a = dL/dy.  The elements are split between the threads (THLoopRange),
 * each thread walking the planes its share crosses. */
static void THNN_(PReLU_select)(const THTensor *weight, int64_t nframe, int64_t nplane, int64_t ks,
                                const real *x, const real *a, real *out)
{
  int64_t n = nframe * nplane * ks;
  if (n == 0)
    return;
#pragma omp parallel num_threads(THLoopThreads(n))
  {
    int64_t begin, end;
    THLoopRange(n, &begin, &end);
    while (begin < end) {
      int64_t plane = begin / ks, stop = (plane + 1) * ks < end ? (plane + 1) * ks : end;
      THNN_(PReLU_selectRun)(x + begin, a + begin, out + begin, stop - begin,
                             THNN_(PReLU_slope)(weight, plane % nplane));
      begin = stop;
    }
  }
}

int THNN_(PReLU_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                              int64_t nOutputPlane)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_(PReLU_shapeCheck)(state, input, NULL, weight, NULL, nOutputPlane, &nframe, &nplane, &ks));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  THNN_(PReLU_select)(weight, nframe, nplane, ks, in, in, THTensor_(data)(output));
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/dx = dL/dy where x > 0, else w[c] * dL/dy */
int THNN_(PReLU_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                 THTensor *weight, int64_t nOutputPlane)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_(PReLU_shapeCheck)(state, input, gradOutput, weight, NULL, nOutputPlane, &nframe, &nplane, &ks));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    THNN_(PReLU_select)(weight, nframe, nplane, ks, THTensor_(data)(x), THTensor_(data)(g),
                        THTensor_(data)(gradInput));
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

/* dL/dw[c] += scale * sum over the elements x <= 0 of channel c of x * dL/dy */
int THNN_(PReLU_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *weight,
                                   THTensor *gradWeight, int64_t nOutputPlane, accreal scale)
{
  int64_t nframe, nplane, ks;
  TH_TRY(THNN_(PReLU_shapeCheck)(state, input, gradOutput, weight, gradWeight, nOutputPlane,
                                 &nframe, &nplane, &ks));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  if (g) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g);
    real *gw = THTensor_(data)(gradWeight);
    for (int64_t c = 0; c < nplane; c++) {
      accreal sum = 0;
      for (int64_t f = 0; f < nframe; f++) {
        int64_t base = (f * nplane + c) * ks;
        for (int64_t k = base; k < base + ks; k++)
          if (in[k] <= 0)
            sum += (accreal)in[k] * go[k];
      }
      gw[c] += (real)(scale * sum);
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return g ? 0 : -1;
}

#endif
