#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDepthWiseConvolution.c"
#else

#include "THLoop.h"

#include "generic/unfold.h"

/* Every input plane c is convolved on its own with depthwiseMultiplier
 * kernels; kernel m of plane c gives output plane c*depthwiseMultiplier + m:
 *     output[c*M + m, y, x] = bias[m, c] + sum over i, j of
 *         weight[m, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j]
 * (M = depthwiseMultiplier, 0 outside the image).  Torch7's layout: weight
 * [M, nInputPlane, kH, kW] (or the same memory as [M, nInputPlane*kH*kW]),
 * bias [M, nInputPlane].  Done directly, plane by plane: with one input
 * plane per product, a matrix product would be too thin to pay. */

/* Check every argument (params: see THTensor_(Params)); fill the geometry
 * of one sample and M. */
int THNN_(SpatialDepthWiseConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, THNNConvGeometry *g, int64_t *multiplier)
{
  THTensor *weight = params.weight, *bias = params.bias;
  TH_TRY(THNNConv_checkParameters(state, kW, kH, dW, dH, padW, padH, 1, 1));
  int64_t nIn = 0;
  TH_TRY(THNN_(convWeightPlanes)(state, weight, params.wName, "depthwiseMultiplier", kW, kH, &nIn));
  int64_t M = weight->size[0];
  int64_t biasSize[2] = {M, nIn};
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, bias, 2, biasSize));

  TH_TRY(THTensor_(checkImages)(state, "input", input, nIn));
  int batched = input->nDimension == 4;
  int64_t minH = kH - 2 * (int64_t)padH, minW = kW - 2 * (int64_t)padW;
  if (minH < 1) minH = 1;
  if (minW < 1) minW = 1;
  int64_t inH = input->size[batched + 1], inW = input->size[batched + 2];
  if (inH < minH || inW < minW)
    return THTensor_(shapeError)(state, "input", input, "at least %lld high and %lld wide for this kernel and padding",
                                 (long long)minH, (long long)minW);
  *multiplier = M;
  *g = (THNNConvGeometry){kW, kH, dW, dH, padW, padH, 1, 1, nIn, inH, inW,
                          THNNConv_outputSize(inH, kH, dH, padH, 1), THNNConv_outputSize(inW, kW, dW, padW, 1)};
  return THTensor_(checkImageSizes)(state, "gradOutput", gradOutput, input, nIn * M, g->outH, g->outW);
}

/* The forward sums every tap of a block of output pixels in registers and
 * stores the block once (the backward passes below go tap by tap over the
 * plane, reading and writing it kH*kW times).  It reads the input plane
 * through a zero-padded copy split into dW phases, phase p holding the
 * padded columns p, p + dW, p + 2 dW, ...: then tap (i, j) of output pixels
 * x .. x + n - 1 reads n consecutive values of phase j % dW whatever the
 * step, and no tap needs a bounds test.  A block is THNN_DW_ROWS output rows
 * of THNN_DW_WIDTH pixels (two AVX2 vectors a row: eight independent sums
 * hide the multiply-add's latency); a plane at most half that wide (7x7,
 * MobileNet's last planes) has blocks of twice the rows and half the width
 * instead, which waste fewer sums past its edge.  The copy has rows and
 * columns enough for whole blocks, zeros past the image. */
#define THNN_DW_ROWS 4
#define THNN_DW_WIDTH (64 / (int)sizeof(real))
/* THNNConv_threads gives a call its threads where it has enough
 * multiply-adds to pay for them, a count set for the matrix products; a
 * block sum's multiply-add costs several of theirs (the copy, a load per
 * multiply-add), so the blocks count each as this many. */
#define THNN_DW_COST 4.0
typedef struct {
  int blockRows, blockWidth;   /* a block's output rows and pixels a row */
  int64_t rows, width;   /* one phase of the copy: rows of `width` values */
  int64_t *tap;          /* tap i*kW + j: its offset in the copy, (j % dW) phases + i rows + j / dW */
} THNN_(DepthWisePlan);

static int64_t THNN_(SpatialDepthWiseConvolution_roundUp)(int64_t n, int64_t block)
{
  return (n + block - 1) / block * block;
}

/* The copy's size, in values. */
static int64_t THNN_(SpatialDepthWiseConvolution_plan)(const THNNConvGeometry *g, THNN_(DepthWisePlan) *plan)
{
  int narrow = g->outW <= THNN_DW_WIDTH / 2;
  plan->blockRows = narrow ? 2 * THNN_DW_ROWS : THNN_DW_ROWS;
  plan->blockWidth = narrow ? THNN_DW_WIDTH / 2 : THNN_DW_WIDTH;
  plan->rows = (THNN_(SpatialDepthWiseConvolution_roundUp)(g->outH, plan->blockRows) - 1) * g->dH + g->kH;
  plan->width = THNN_(SpatialDepthWiseConvolution_roundUp)(g->outW, plan->blockWidth) + (g->kW - 1) / g->dW;
  return g->dW * plan->rows * plan->width;
}

/* The dW phases of input plane `in`, zero-padded, into `copy` (the steps 1
 * and 2 inlined as constants: the step-2 gather then vectorizes).  With
 * `zeroed` the copy already holds the zeros of this geometry (a thread's
 * earlier plane left them there, and no plane writes outside the image's
 * part), so only the image's part is written.  The loops stay loops, not
 * calls to memcpy and memset: a row of a small plane is a few vectors. */
static inline __attribute__((always_inline)) void THNN_(SpatialDepthWiseConvolution_phaseRow)(
    real *restrict dst, const real *restrict src, int64_t q0, int64_t q1, int64_t width, int64_t step, bool zeroed)
{
  for (int64_t q = 0; q < q0 && !zeroed; q++)
    dst[q] = 0;
  for (int64_t q = q0; q < q1; q++)
    dst[q] = src[q * step];
  for (int64_t q = q1; q < width && !zeroed; q++)
    dst[q] = 0;
}

TH_VECTOR_CLONES __attribute__((optimize("O3", "no-tree-loop-distribute-patterns")))
static void THNN_(SpatialDepthWiseConvolution_phases)(const THNNConvGeometry *g, const THNN_(DepthWisePlan) *plan,
                                                      const real *in, bool zeroed, real *copy)
{
  int64_t rows = plan->rows, width = plan->width, step = g->dW;
  for (int64_t p = 0; p < step; p++) {
    int64_t inside0, inside1;                       /* the columns inside the image (the same on every row) */
    THNNConv_inside(p - g->padW, (int)step, g->inW, width, &inside0, &inside1);
    for (int64_t r = 0; r < rows; r++) {
      real *dst = copy + (p * rows + r) * width;
      int64_t iy = r - g->padH, q0 = 0, q1 = 0;     /* [q0, q1): the columns inside the image on this row */
      if (iy >= 0 && iy < g->inH) {
        q0 = inside0;
        q1 = inside1;
      } else if (zeroed) {
        continue;
      }
      const real *src = in + iy * g->inW + p - g->padW;   /* padded column q * dW + p (read for q0 <= q < q1) */
      if (step == 1)
        THNN_(SpatialDepthWiseConvolution_phaseRow)(dst, src, q0, q1, width, 1, zeroed);
      else if (step == 2)
        THNN_(SpatialDepthWiseConvolution_phaseRow)(dst, src, q0, q1, width, 2, zeroed);
      else
        THNN_(SpatialDepthWiseConvolution_phaseRow)(dst, src, q0, q1, width, step, zeroed);
    }
  }
}

/* out (one output plane) = start (or, given `sum`, out's own values) + the
 * taps w (kH*kW) over the copy of its input plane, in blocks of R rows of
 * W pixels (constants where plane() inlines it). */
static inline __attribute__((always_inline)) void THNN_(SpatialDepthWiseConvolution_planeBlocks)(
    const THNNConvGeometry *g, const THNN_(DepthWisePlan) *plan, const real *copy, const real *w, real start,
    bool sum, real *out, const int R, const int W)
{
  int64_t taps = (int64_t)g->kH * g->kW;
  for (int64_t y = 0; y < g->outH; y += R)
    for (int64_t x = 0; x < g->outW; x += W) {
      int64_t rows = g->outH - y < R ? g->outH - y : R;
      int64_t n = g->outW - x < W ? g->outW - x : W;
      real acc[2 * THNN_DW_ROWS][THNN_DW_WIDTH];
      for (int r = 0; r < R; r++)
#pragma omp simd
        for (int t = 0; t < W; t++)
          acc[r][t] = start;
      for (int64_t r = 0; sum && r < rows; r++)
        for (int64_t t = 0; t < n; t++)
          acc[r][t] = out[(y + r) * g->outW + x + t];
      const real *block = copy + y * g->dH * plan->width + x;
      for (int64_t k = 0; k < taps; k++) {
        const real *src = block + plan->tap[k];
        real wv = w[k];
        for (int r = 0; r < R; r++)
#pragma omp simd
          for (int t = 0; t < W; t++)
            acc[r][t] += wv * src[r * g->dH * plan->width + t];
      }
      for (int64_t r = 0; r < rows; r++)
        if (n == W)
#pragma omp simd
          for (int t = 0; t < W; t++)
            out[(y + r) * g->outW + x + t] = acc[r][t];
        else
          for (int64_t t = 0; t < n; t++)
            out[(y + r) * g->outW + x + t] = acc[r][t];
    }
}

TH_VECTOR_CLONES __attribute__((optimize("O3", "no-tree-loop-distribute-patterns")))
static void THNN_(SpatialDepthWiseConvolution_plane)(const THNNConvGeometry *g, const THNN_(DepthWisePlan) *plan,
                                                     const real *copy, const real *w, real start, bool sum,
                                                     real *out)
{
  if (plan->blockWidth == THNN_DW_WIDTH)
    THNN_(SpatialDepthWiseConvolution_planeBlocks)(g, plan, copy, w, start, sum, out, THNN_DW_ROWS, THNN_DW_WIDTH);
  else
    THNN_(SpatialDepthWiseConvolution_planeBlocks)(g, plan, copy, w, start, sum, out, 2 * THNN_DW_ROWS,
                                                   THNN_DW_WIDTH / 2);
}

/* The block sums over a batch of nIn planes.  Forward (gather false): the
 * copy of source plane n*nIn + c feeds target planes (n*nIn + c)*M + m with
 * the taps w + (m*nIn + c)*taps, each starting from its bias b[m, c] (b's
 * strides bs, or 0 without b).  Backward (gather true): source planes
 * (n*nIn + c)*M + m, m = 0 .. M-1, summed into target plane n*nIn + c.
 * g is the geometry from a source plane to a target plane. */
static int THNN_(SpatialDepthWiseConvolution_blocks)(THNNState *state, const THNNConvGeometry *g, int64_t batch,
                                                     int64_t nIn, int64_t M, const real *source, const real *w,
                                                     const real *b, const int64_t *bs, bool gather, real *target)
{
  THNN_(DepthWisePlan) plan;
  int64_t copySize = THNN_(SpatialDepthWiseConvolution_plan)(g, &plan), taps = (int64_t)g->kH * g->kW;
  int64_t inArea = g->inH * g->inW, outArea = g->outH * g->outW;
  int nThreads = THNNConv_threads(batch * nIn, THNN_DW_COST * batch * nIn * M * outArea * taps);
  plan.tap = THAlloc((size_t)taps * sizeof(int64_t));
  real *copies = plan.tap ? THAlloc((size_t)(nThreads * copySize) * sizeof(real)) : NULL;
  bool *zeroed = copies ? THAlloc((size_t)nThreads * sizeof(bool)) : NULL;   /* thread t's copy holds the zeros */
  if (!zeroed) {
    THFree(copies);
    THFree(plan.tap);
    return THError(state, "out of memory for the padded copies of the planes");
  }
  for (int t = 0; t < nThreads; t++)
    zeroed[t] = false;
  /* planes are handed out a few at a time (16 shares a thread): a small
   * plane takes a few hundred nanoseconds, the hand-out an atomic
   * operation on a line the threads pass between them */
  int64_t chunk = batch * nIn / (16 * (int64_t)nThreads);
  chunk = chunk < 1 ? 1 : chunk;
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++)
      plan.tap[i * g->kW + j] = (j % g->dW) * plan.rows * plan.width + i * plan.width + j / g->dW;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, chunk) if (nThreads > 1)
#endif
  for (int64_t nc = 0; nc < batch * nIn; nc++) {
    int64_t c = nc % nIn;
    int thread = THNNConv_threadId();
    real *copy = copies + thread * copySize;
    for (int64_t m = 0; m < M; m++) {
      if (gather || m == 0) {
        THNN_(SpatialDepthWiseConvolution_phases)(g, &plan, source + (gather ? nc * M + m : nc) * inArea,
                                                  zeroed[thread], copy);
        zeroed[thread] = true;
      }
      real start = b ? b[m * bs[0] + c * bs[1]] : 0;
      THNN_(SpatialDepthWiseConvolution_plane)(g, &plan, copy, w + (m * nIn + c) * taps, start, gather && m > 0,
                                               target + (gather ? nc : nc * M + m) * outArea);
    }
  }
  THFree(zeroed);
  THFree(copies);
  THFree(plan.tap);
  return 0;
}

/* The two backward plane operations below visit, for every tap (i, j), the
 * output rows y whose input row iy lies inside the image and, along them,
 * the output columns [x0, x1) whose input column x*dW + offW lies inside. */

/* gin (one input plane) += the taps w spread back from the output plane gout. */
static void THNN_(SpatialDepthWiseConvolution_planeBack)(const THNNConvGeometry *g, const real *gout,
                                                         const real *w, real *gin)
{
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++) {
      int64_t offW = (int64_t)j - g->padW, x0, x1;
      THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
      real wv = w[i * g->kW + j];
      for (int64_t y = 0; y < g->outH; y++) {
        int64_t iy = y * g->dH + i - g->padH;
        if (iy < 0 || iy >= g->inH)
          continue;
        const real *o = gout + y * g->outW + x0;
        real *r = gin + iy * g->inW + x0 * g->dW + offW;
        if (g->dW == 1)
          for (int64_t x = 0; x < x1 - x0; x++)
            r[x] += wv * o[x];
        else
          for (int64_t x = 0; x < x1 - x0; x++)
            r[x * g->dW] += wv * o[x];
      }
    }
}

/* sums[tap] += sum over the output plane gout of gout * the pixel the tap
 * sees in the input plane in. */
static void THNN_(SpatialDepthWiseConvolution_planeGrad)(const THNNConvGeometry *g, const real *in,
                                                         const real *gout, accreal *sums)
{
  for (int i = 0; i < g->kH; i++)
    for (int j = 0; j < g->kW; j++) {
      int64_t offW = (int64_t)j - g->padW, x0, x1;
      THNNConv_inside(offW, g->dW, g->inW, g->outW, &x0, &x1);
      accreal s = 0;
      for (int64_t y = 0; y < g->outH; y++) {
        int64_t iy = y * g->dH + i - g->padH;
        if (iy < 0 || iy >= g->inH)
          continue;
        const real *o = gout + y * g->outW + x0;
        const real *r = in + iy * g->inW + x0 * g->dW + offW;
        for (int64_t x = 0; x < x1 - x0; x++)
          s += (accreal)o[x] * r[x * g->dW];
      }
      sums[i * g->kW + j] += s;
    }
}

int THNN_(SpatialDepthWiseConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kW, int kH, int dW, int dH, int padW, int padH)
{
  THNNConvGeometry g = {0};
  int64_t M = 0;
  TH_TRY(THNN_(SpatialDepthWiseConvolution_shapeCheck)(state, input, NULL, THTensor_(params)(weight, bias),
                                                       kW, kH, dW, dH, padW, padH, &g, &M));
  int batched = input->nDimension == 4;
  int64_t batch = batched ? input->size[0] : 1, nIn = g.nPlane;
  int64_t outSize[4] = {batch, nIn * M, g.outH, g.outW};
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeNd)(state, output, 3 + batched, outSize + !batched) == 0)
    rc = THNN_(SpatialDepthWiseConvolution_blocks)(state, &g, batch, nIn, M, THTensor_(data)(x), THTensor_(data)(w),
                                                   bias ? THTensor_(data)(bias) : NULL, bias ? bias->stride : NULL,
                                                   false, THTensor_(data)(output));
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDepthWiseConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kW, int kH, int dW, int dH, int padW, int padH)
{
  THNNConvGeometry g = {0};
  int64_t M = 0;
  TH_TRY(THNN_(SpatialDepthWiseConvolution_shapeCheck)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                                       kW, kH, dW, dH, padW, padH, &g, &M));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1, nIn = g.nPlane, taps = (int64_t)kW * kH;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *gy = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  bool resized = w && THTensor_(resizeAs)(state, gradInput, input) == 0;
  if (resized && dW == 1 && dH == 1) {   /* (the shape check keeps pad < k) */
    /* At step 1, gradInput is the forward's block sums over gradOutput
     * (padded by k - 1 - pad) with every kernel turned by 180 degrees. */
    THNNConvGeometry back = {kW, kH, 1, 1, kW - 1 - padW, kH - 1 - padH, 1, 1, nIn * M, g.outH, g.outW,
                             g.inH, g.inW};
    real *turned = THAlloc((size_t)(M * nIn * taps) * sizeof(real));
    if (!turned)
      rc = THError(state, "out of memory for the turned kernels");
    else {
      const real *wd = THTensor_(data)(w);
      for (int64_t k = 0; k < M * nIn * taps; k++)
        turned[k] = wd[k - k % taps + taps - 1 - k % taps];
      rc = THNN_(SpatialDepthWiseConvolution_blocks)(state, &back, batch, nIn, M, THTensor_(data)(gy), turned, NULL,
                                                     NULL, true, THTensor_(data)(gradInput));
    }
    THFree(turned);
  } else if (resized) {
    const real *go = THTensor_(data)(gy), *wd = THTensor_(data)(w);
    real *gi = THTensor_(data)(gradInput);
    int64_t inArea = g.inH * g.inW, outArea = g.outH * g.outW;
#ifdef _OPENMP
    int nThreads = THNNConv_threads(batch * nIn, (double)batch * nIn * M * outArea * taps);
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, 1) if (nThreads > 1)
#endif
    for (int64_t nc = 0; nc < batch * nIn; nc++) {
      int64_t c = nc % nIn;
      THNN_(convZero)(gi + nc * inArea, inArea);
      for (int64_t m = 0; m < M; m++)
        THNN_(SpatialDepthWiseConvolution_planeBack)(&g, go + (nc * M + m) * outArea, wd + (m * nIn + c) * taps,
                                                     gi + nc * inArea);
    }
    rc = 0;
  }
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(SpatialDepthWiseConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kW, int kH, int dW, int dH, int padW, int padH, accreal scale)
{
  THNNConvGeometry g = {0};
  int64_t M = 0;
  TH_TRY(THNN_(SpatialDepthWiseConvolution_shapeCheck)(state, input, gradOutput,
                                                       THTensor_(gradParams)(gradWeight, gradBias),
                                                       kW, kH, dW, dH, padW, padH, &g, &M));
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  int64_t batch = input->nDimension == 4 ? input->size[0] : 1, nIn = g.nPlane, taps = (int64_t)kW * kH;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int nThreads = THNNConv_threads(nIn * M, (double)batch * nIn * M * g.outH * g.outW * taps);
  accreal *sums = gy ? THAlloc((size_t)nThreads * (size_t)taps * sizeof(accreal)) : NULL;
  int rc = -1;
  if (gy && !sums)
    rc = THError(state, "out of memory for the weight gradient sums");
  else if (sums) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(gy);
    real *gw = THTensor_(data)(gradWeight), *gb = gradBias ? THTensor_(data)(gradBias) : NULL;
    int64_t inArea = g.inH * g.inW, outArea = g.outH * g.outW;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nThreads) schedule(dynamic, 1) if (nThreads > 1)
#endif
    for (int64_t mc = 0; mc < M * nIn; mc++) {       /* weight[m, c], bias[m, c] */
      int64_t m = mc / nIn, c = mc % nIn;
      accreal *s = sums + THNNConv_threadId() * taps, biasSum = 0;
      for (int64_t k = 0; k < taps; k++)
        s[k] = 0;
      for (int64_t n = 0; n < batch; n++) {
        const real *gout = go + ((n * nIn + c) * M + m) * outArea;
        THNN_(SpatialDepthWiseConvolution_planeGrad)(&g, in + (n * nIn + c) * inArea, gout, s);
        for (int64_t k = 0; gb && k < outArea; k++)
          biasSum += gout[k];
      }
      for (int64_t k = 0; k < taps; k++)
        gw[mc * taps + k] += (real)(scale * s[k]);
      if (gb)
        gb[mc] += (real)(scale * biasSum);
    }
    rc = 0;
  }
  THFree(sums);
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
