/* ClassNLL.h: what ClassNLLCriterion and SpatialClassNLLCriterion share.
 * Both read their targets as an array t[b, h, w] of class indices (h = w = 1
 * for ClassNLLCriterion) and their input as x[b, c, h, w], through the
 * strides of a THNNClassNLLLayout (0 for the dims a layer does not have):
 *     loss = -sum over the targets c = t[b, h, w] of weights[c] * x[b, c, h, w]
 * with weight 0 for c == ignore_index, divided by the sum of the weights
 * when sizeAverage (and it is not 0).  The gradient is -weights[c] (divided
 * likewise) at x[b, c, h, w], 0 elsewhere.  Each layer keeps its checks and
 * says how its tensors map onto the layout.
 *
 * A generic header: each generic file that uses it includes it, and it
 * defines its functions once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_CLASSNLL_H_FLOAT)
#define THNN_CLASSNLL_H_FLOAT
#define THNN_CLASSNLL_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_CLASSNLL_H_DOUBLE)
#define THNN_CLASSNLL_H_DOUBLE
#define THNN_CLASSNLL_H_NOW
#endif

#ifdef THNN_CLASSNLL_H_NOW
#undef THNN_CLASSNLL_H_NOW

#include "THLoop.h"

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THNN_CLASSNLL_SHARED
#define THNN_CLASSNLL_SHARED

typedef struct THNNClassNLLLayout {
  int64_t size[3];             /* b, h, w: the targets */
  int64_t tStride[3];          /* their strides in the target */
  int64_t xStride[4];          /* b, c, h, w strides in the input */
  int64_t nClasses;
} THNNClassNLLLayout;

/* The target at (b, h, w). */
static int64_t THNNClassNLL_target(const THNNClassNLLLayout *l, const int64_t *t, int64_t b, int64_t h, int64_t w)
{
  return t[b * l->tStride[0] + h * l->tStride[1] + w * l->tStride[2]];
}

/* 1, with its place in at[] and its value in *c, for the first target that
 * is neither ignore_index nor in [0, nClasses); else 0. */
static int THNNClassNLL_badTarget(const THNNClassNLLLayout *l, const int64_t *t, int64_t ignore_index,
                                  int64_t at[3], int64_t *c)
{
  for (at[0] = 0; at[0] < l->size[0]; at[0]++)
    for (at[1] = 0; at[1] < l->size[1]; at[1]++)
      for (at[2] = 0; at[2] < l->size[2]; at[2]++) {
        *c = THNNClassNLL_target(l, t, at[0], at[1], at[2]);
        if (*c != ignore_index && (*c < 0 || *c >= l->nClasses))
          return 1;
      }
  return 0;
}

#endif

/* The weight of target class c: 0 when ignored. */
static real THNN_(ClassNLL_weight)(const THTensor *weights, int64_t c, int64_t ignore_index)
{
  if (c == ignore_index)
    return 0;
  return weights ? THTensor_(data)(weights)[c * weights->stride[0]] : 1;
}

/* output[0] = the loss, total_weight[0] = the sum of the weights. */
static int THNN_(ClassNLL_output)(THNNState *state, const THNNClassNLLLayout *l, THTensor *input,
                                  THIndexTensor *target, THTensor *output, bool sizeAverage, THTensor *weights,
                                  THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THTensor_(resize1d)(state, output, 1));
  TH_TRY(THTensor_(resize1d)(state, total_weight, 1));
  const real *in = THTensor_(data)(input);
  const int64_t *t = THLongTensor_data(target), *xs = l->xStride;
  accreal loss = 0, totalWeight = 0;
  for (int64_t b = 0; b < l->size[0]; b++)
    for (int64_t h = 0; h < l->size[1]; h++)
      for (int64_t w = 0; w < l->size[2]; w++) {
        int64_t c = THNNClassNLL_target(l, t, b, h, w);
        real wc = THNN_(ClassNLL_weight)(weights, c, ignore_index);
        if (wc != 0) {
          loss -= (accreal)wc * in[b * xs[0] + c * xs[1] + h * xs[2] + w * xs[3]];
          totalWeight += wc;
        }
      }
  if (sizeAverage && totalWeight != 0)
    loss /= totalWeight;
  THTensor_(data)(output)[0] = (real)loss;
  THTensor_(data)(total_weight)[0] = (real)totalWeight;
  return 0;
}

/* gradInput, resized as input (contiguous [b, nClasses, h, w]). */
static int THNN_(ClassNLL_gradInput)(THNNState *state, const THNNClassNLLLayout *l, THTensor *input,
                                     THIndexTensor *target, THTensor *gradInput, bool sizeAverage,
                                     THTensor *weights, THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  int64_t nClasses = l->nClasses, height = l->size[1], width = l->size[2];
  real *gi = THTensor_(data)(gradInput);
  /* Zeroed by as many threads as LogSoftMax's backward, which usually reads
   * it next, splitting it alike (in halves for two threads): each thread
   * then finds its part in its own core's cache. */
  int64_t n = THTensor_(nElement)(gradInput);
  if (n > 0) {  /* gi is NULL when there is no element */
#pragma omp parallel num_threads(THLoopThreads(n))
    {
      int64_t begin, end;
      THLoopRange(n, &begin, &end);
      memset(gi + begin, 0, (size_t)(end - begin) * sizeof(real));
    }
  }
  real totalWeight = THTensor_(data)(total_weight)[0];
  const int64_t *t = THLongTensor_data(target);
  for (int64_t b = 0; b < l->size[0]; b++)
    for (int64_t h = 0; h < height; h++)
      for (int64_t w = 0; w < width; w++) {
        int64_t c = THNNClassNLL_target(l, t, b, h, w);
        real wc = THNN_(ClassNLL_weight)(weights, c, ignore_index);
        if (wc != 0)
          gi[((b * nClasses + c) * height + h) * width + w] = sizeAverage && totalWeight != 0 ? -wc / totalWeight : -wc;
      }
  return 0;
}

#endif
