/* The plane helpers, the checks of the connection table and the three
 * passes that SpatialConvolutionMap and SpatialFullConvolutionMap share (the
 * forward pass of one is the backward pass of the other, with the table's
 * columns swapped).
 * A generic header: each generic file that uses these helpers includes it,
 * and it defines them once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_CONNECTIONMAP_H_FLOAT)
#define THNN_CONNECTIONMAP_H_FLOAT
#define THNN_CONNECTIONMAP_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_CONNECTIONMAP_H_DOUBLE)
#define THNN_CONNECTIONMAP_H_DOUBLE
#define THNN_CONNECTIONMAP_H_NOW
#endif

#ifdef THNN_CONNECTIONMAP_H_NOW
#undef THNN_CONNECTIONMAP_H_NOW

#include "generic/vol2col.h"

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_MAP_SHARED
#define THNN_MAP_SHARED

/* One connection: a kernel of kH x kW taps slides in steps of dH, dW over
 * an image plane [imageH, imageW] (no padding), to posH x posW positions. */
typedef struct THNNMapPlanes {
  int64_t kH, kW, dH, dW;
  int64_t imageH, imageW;
  int64_t posH, posW;
} THNNMapPlanes;

/* Entry j (0: input plane, 1: output plane) of row k of the table. */
static int64_t THNNMap_entry(const THLongTensor *connTable, int64_t k, int j)
{
  return THLongTensor_data(connTable)[k * connTable->stride[0] + j * connTable->stride[1]];
}

/* Each row of the table connects an input plane in [0, nInputPlane) to an
 * output plane in [0, nOutputPlane), and there is one row per kernel. */
static int THNNMap_checkTable(THNNState *state, const THLongTensor *connTable, int64_t nConnections,
                              int nInputPlane, int nOutputPlane)
{
  if (nInputPlane < 0 || nOutputPlane < 0)
    return THError(state, "nInputPlane and nOutputPlane must be at least 0, got %d and %d",
                   nInputPlane, nOutputPlane);
  if (!(connTable->nDimension == 2 && connTable->size[0] == nConnections && connTable->size[1] == 2))
    return THLongTensor_shapeError(state, "connTable", connTable,
                                   "2D [nConnections, 2] with one row per kernel of the weight (%lld)",
                                   (long long)nConnections);
  for (int64_t k = 0; k < nConnections; k++) {
    int64_t i = THNNMap_entry(connTable, k, 0), o = THNNMap_entry(connTable, k, 1);
    if (i < 0 || i >= nInputPlane || o < 0 || o >= nOutputPlane)
      return THError(state, "connTable row %lld is (%lld, %lld): it must connect an input plane in [0, %d) to an "
                     "output plane in [0, %d)", (long long)k, (long long)i, (long long)o, nInputPlane,
                     nOutputPlane);
  }
  return 0;
}

#endif /* THNN_MAP_SHARED */

/* ---- per element type ---- */

/* pos[y, x] += sum over a, b of kernel[a, b] * image[y*dH + a, x*dW + b] */
static void THNN_(mapCorrelate)(const THNNMapPlanes *p, const real *image, const real *kernel, real *pos)
{
  for (int64_t y = 0; y < p->posH; y++)
    for (int64_t x = 0; x < p->posW; x++) {
      const real *corner = image + y * p->dH * p->imageW + x * p->dW;
      accreal sum = 0;
      for (int64_t a = 0; a < p->kH; a++)
        for (int64_t b = 0; b < p->kW; b++)
          sum += (accreal)kernel[a * p->kW + b] * corner[a * p->imageW + b];
      pos[y * p->posW + x] += (real)sum;
    }
}

/* image[y*dH + a, x*dW + b] += kernel[a, b] * pos[y, x]: the transpose of mapCorrelate */
static void THNN_(mapSpread)(const THNNMapPlanes *p, const real *pos, const real *kernel, real *image)
{
  for (int64_t y = 0; y < p->posH; y++)
    for (int64_t x = 0; x < p->posW; x++) {
      real *corner = image + y * p->dH * p->imageW + x * p->dW;
      real v = pos[y * p->posW + x];
      for (int64_t a = 0; a < p->kH; a++)
        for (int64_t b = 0; b < p->kW; b++)
          corner[a * p->imageW + b] += kernel[a * p->kW + b] * v;
    }
}

/* kernel[a, b] += scale * sum over y, x of pos[y, x] * image[y*dH + a, x*dW + b] */
static void THNN_(mapKernelGradient)(const THNNMapPlanes *p, const real *image, const real *pos, real *kernel,
                                     accreal scale)
{
  for (int64_t a = 0; a < p->kH; a++)
    for (int64_t b = 0; b < p->kW; b++) {
      accreal sum = 0;
      for (int64_t y = 0; y < p->posH; y++)
        for (int64_t x = 0; x < p->posW; x++)
          sum += (accreal)pos[y * p->posW + x] * image[(y * p->dH + a) * p->imageW + x * p->dW + b];
      kernel[a * p->kW + b] += (real)(scale * sum);
    }
}

/* The checks both Map layers share: kernel settings, the weight
 * [nConnections, kH, kW] and bias [nOutputPlane] of params (see
 * THTensor_(Params)), the table, and an input of 3 or 4 dims with at least
 * nInputPlane planes (more are allowed and unused, as in Torch7).  Sets
 * *batched. */
static int THNN_(mapCheckCommon)(THNNState *state, const THTensor *input, THTensor_(Params) params,
                                 const THLongTensor *connTable, int nInputPlane, int nOutputPlane, int kW, int kH,
                                 int dW, int dH, int *batched)
{
  const THTensor *weight = params.weight, *bias = params.bias;
  if (kW <= 0 || kH <= 0)
    return THError(state, "kernel size must be positive, got kW=%d, kH=%d", kW, kH);
  if (dW <= 0 || dH <= 0)
    return THError(state, "stride must be positive, got dW=%d, dH=%d", dW, dH);
  if (!(weight->nDimension == 3 && weight->size[1] == kH && weight->size[2] == kW))
    return THTensor_(shapeError)(state, params.wName, weight, "3D [nConnections, kH=%d, kW=%d]", kH, kW);
  TH_TRY(THNNMap_checkTable(state, connTable, weight->size[0], nInputPlane, nOutputPlane));
  int64_t nOut = nOutputPlane;
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 1, &nOut));
  *batched = input->nDimension == 4;
  if (!(input->nDimension == 3 || *batched) || input->size[*batched] < nInputPlane)
    return THTensor_(shapeError)(state, "input", input,
                                 "3D [nInputPlane, iH, iW] or 4D [batch, nInputPlane, iH, iW] with at least "
                                 "%d planes", nInputPlane);
  return 0;
}

/* ---- the three passes; `full`: SpatialFullConvolutionMap, whose output
 * planes are the images of p and input planes its positions (for
 * SpatialConvolutionMap the other way round).  p is the shape check's. */

/* The input and the output plane of connection k, in sample n. */
#define THNN_MAP_IN(data, k) ((data) + (n * nIn + THNNMap_entry(connTable, k, 0)) * inPlane)
#define THNN_MAP_OUT(data, k) ((data) + (n * nOutputPlane + THNNMap_entry(connTable, k, 1)) * outPlane)

typedef void (*THNN_(MapPlaneOp))(const THNNMapPlanes *p, const real *from, const real *kernel, real *to);

/* output = bias, plus every connection's input plane correlated with (or,
 * full, spread through) its kernel. */
static int THNN_(mapOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                            THIndexTensor *connTable, int nOutputPlane, const THNNMapPlanes *p, bool full)
{
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t outH = full ? p->imageH : p->posH, outW = full ? p->imageW : p->posW;
  int64_t outSize[4] = {batch, nOutputPlane, outH, outW};
  int64_t inPlane = full ? p->posH * p->posW : p->imageH * p->imageW, outPlane = outH * outW;
  THNN_(MapPlaneOp) op = full ? THNN_(mapSpread) : THNN_(mapCorrelate);
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0) {
    const real *b = THTensor_(data)(bias);
    real *y = THTensor_(data)(output);
    for (int64_t n = 0; n < batch; n++) {
      for (int64_t o = 0; o < nOutputPlane; o++)
        for (int64_t k = 0; k < outPlane; k++)
          y[(n * nOutputPlane + o) * outPlane + k] = b[o * bias->stride[0]];
      for (int64_t k = 0; k < weight->size[0]; k++)
        op(p, THNN_MAP_IN(THTensor_(data)(x), k), THTensor_(data)(w) + k * p->kH * p->kW, THNN_MAP_OUT(y, k));
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

/* gradInput = every connection's gradOutput plane spread through (or, full,
 * correlated with) its kernel: the transpose of mapOutput. */
static int THNN_(mapGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                               THTensor *weight, THIndexTensor *connTable, int nOutputPlane, const THNNMapPlanes *p,
                               bool full)
{
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t inPlane = full ? p->posH * p->posW : p->imageH * p->imageW;
  int64_t outPlane = full ? p->imageH * p->imageW : p->posH * p->posW;
  THNN_(MapPlaneOp) op = full ? THNN_(mapCorrelate) : THNN_(mapSpread);
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    real *gx = THTensor_(data)(gradInput);
    memset(gx, 0, (size_t)THTensor_(nElement)(gradInput) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t k = 0; k < weight->size[0]; k++)
        op(p, THNN_MAP_OUT(THTensor_(data)(gy), k), THTensor_(data)(w) + k * p->kH * p->kW, THNN_MAP_IN(gx, k));
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

/* gradWeight[k] += scale * the correlation of connection k's image plane
 * with its positions' gradients (gradOutput, or, full, the input);
 * gradBias += scale * the plane sums of gradOutput. */
static int THNN_(mapAccGrad)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight,
                             THTensor *gradBias, THIndexTensor *connTable, int nOutputPlane, const THNNMapPlanes *p,
                             accreal scale, bool full)
{
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = input->size[batched];
  int64_t inPlane = full ? p->posH * p->posW : p->imageH * p->imageW;
  int64_t outPlane = full ? p->imageH * p->imageW : p->posH * p->posW;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy) {
    for (int64_t k = 0; k < gradWeight->size[0]; k++)
      for (int64_t n = 0; n < batch; n++) {
        const real *xk = THNN_MAP_IN(THTensor_(data)(x), k), *gk = THNN_MAP_OUT(THTensor_(data)(gy), k);
        THNN_(mapKernelGradient)(p, full ? gk : xk, full ? xk : gk, THTensor_(data)(gradWeight) + k * p->kH * p->kW,
                                 scale);
      }
    /* the plane sums of vol2col.h's volGradBias are what the bias needs here too */
    THNN_(volGradBias)(THTensor_(data)(gradBias), THTensor_(data)(gy), batch, nOutputPlane, outPlane, scale);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#undef THNN_MAP_IN
#undef THNN_MAP_OUT

#endif
