/* Shared by the convolution twins: the unfolding of an image into columns
 * (im2col, vol2col) and back (col2im, col2vol) as device kernels, and the
 * three matrix products a convolution and its transpose are made of.  The
 * semantics are those of thnn_c/generic/unfold.h (2D) and vol2col.h (3D):
 * read their header comments for the geometry, the column layout and the
 * roles of "image" (the side the kernel slides over) and "other".
 *
 * One engine serves both: a spatial geometry is a volumetric one with a
 * single time step (kT = dT = dilationT = 1, padT = 0, T = 1), so 2D
 * columns are the 3D columns of that volume.  Samples are done one after
 * the other through one column buffer [K, area] (as THCUNN did); the
 * products are cuBLAS GEMMs called as the CPU kernels call THBlas_(gemm). */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/im2col.cu"
#else

/* ---- the parts that do not depend on the element type, compiled once ---- */
#ifndef THC_IM2COL_SHARED
#define THC_IM2COL_SHARED

#include "THConvGeometry.h"   /* the geometries the CPU shape checks fill */

/* A spatial geometry as a volume of one time step. */
static inline THNNVolGeometry THCConv_volume(const THNNConvGeometry *g)
{
  THNNVolGeometry v = {{1, g->kH, g->kW}, {1, g->dH, g->dW}, {0, g->padH, g->padW},
                       {1, g->dilationH, g->dilationW}, g->nPlane, {1, g->inH, g->inW}, {1, g->outH, g->outW}};
  return v;
}

static inline int64_t THCConv_imageArea(const THNNVolGeometry *g) { return g->in[0] * g->in[1] * g->in[2]; }
static inline int64_t THCConv_area(const THNNVolGeometry *g) { return g->out[0] * g->out[1] * g->out[2]; }
static inline int64_t THCConv_K(const THNNVolGeometry *g) { return g->nPlane * g->k[0] * g->k[1] * g->k[2]; }

/* The output position along axis a where tap index `tap` lands on image
 * position p, or -1 when none does. */
__device__ inline int64_t THCConv_positionOf(const THNNVolGeometry &g, int a, int64_t p, int tap)
{
  int64_t q = p + g.pad[a] - (int64_t)tap * g.dilation[a];
  if (q < 0 || q % g.d[a] != 0 || q / g.d[a] >= g.out[a])
    return -1;
  return q / g.d[a];
}

/* One call of a convolution layer, as the engine sees it: the geometry of
 * one sample, the samples, the planes of the "other" side, 2 or 3 spatial
 * dimensions, and whether the layer is the transpose (the "full"
 * convolution: the input is "other", the output the "image"). */
typedef struct THCConvCall {
  THNNVolGeometry g;
  int64_t batch, nOther;
  int batched, dims, transposed;
} THCConvCall;

#endif /* THC_IM2COL_SHARED */

/* ---- kernels ---- */

/* columns [K, area] <- what each tap of each plane sees of the volume (0 in the padding). */
__global__ void THNN_(vol2colKernel)(THNNVolGeometry g, const real *vol, real *columns, int64_t n)
{
  const int64_t area = g.out[0] * g.out[1] * g.out[2];
  THC_KERNEL_LOOP(i, n) {
    int64_t pos = i % area, row = i / area;
    int64_t o[3] = {pos / (g.out[1] * g.out[2]), pos / g.out[2] % g.out[1], pos % g.out[2]};
    int64_t tap[3] = {row / (g.k[1] * g.k[2]) % g.k[0], row / g.k[2] % g.k[1], row % g.k[2]};
    int64_t c = row / ((int64_t)g.k[0] * g.k[1] * g.k[2]), p[3];
    bool inside = true;
    for (int a = 0; a < 3; a++) {
      p[a] = o[a] * g.d[a] - g.pad[a] + tap[a] * g.dilation[a];
      inside = inside && p[a] >= 0 && p[a] < g.in[a];
    }
    columns[i] = inside ? vol[((c * g.in[0] + p[0]) * g.in[1] + p[1]) * g.in[2] + p[2]] : (real)0;
  }
}

/* vol [nPlane, in] = start + the columns folded back: each voxel gathers
 * the entries vol2col would have copied from it.  start is bias[c] (bias
 * strided), or 0 when bias is NULL. */
__global__ void THNN_(col2volKernel)(THNNVolGeometry g, const real *columns, const real *bias, int64_t biasStride,
                                     real *vol, int64_t n)
{
  const int64_t area = g.out[0] * g.out[1] * g.out[2];
  THC_KERNEL_LOOP(i, n) {
    int64_t p[3] = {i / (g.in[1] * g.in[2]) % g.in[0], i / g.in[2] % g.in[1], i % g.in[2]};
    int64_t c = i / (g.in[0] * g.in[1] * g.in[2]);
    accreal sum = bias ? bias[c * biasStride] : 0;
    for (int a = 0; a < g.k[0]; a++) {
      int64_t t = THCConv_positionOf(g, 0, p[0], a);
      for (int b = 0; t >= 0 && b < g.k[1]; b++) {
        int64_t y = THCConv_positionOf(g, 1, p[1], b);
        for (int e = 0; y >= 0 && e < g.k[2]; e++) {
          int64_t x = THCConv_positionOf(g, 2, p[2], e);
          if (x >= 0)
            sum += columns[(((c * g.k[0] + a) * g.k[1] + b) * g.k[2] + e) * area + (t * g.out[1] + y) * g.out[2] + x];
        }
      }
    }
    vol[i] = (real)sum;
  }
}

/* Each of the planes of `area` elements of data set to its bias value. */
__global__ void THNN_(convFillBiasKernel)(real *data, const real *bias, int64_t biasStride, int64_t area, int64_t n)
{
  THC_KERNEL_LOOP(i, n) data[i] = bias[i / area * biasStride];
}

/* gb[c] += scale * the sum of plane c of grad [batch, nPlane, area]: a block per plane. */
__global__ void THNN_(convGradBiasKernel)(real *gb, const real *grad, int64_t batch, int64_t nPlane, int64_t area,
                                          accreal scale)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  for (int64_t c = blockIdx.x; c < nPlane; c += gridDim.x) {
    accreal s = 0;
    for (int64_t j = threadIdx.x; j < batch * area; j += blockDim.x)
      s += grad[(j / area * nPlane + c) * area + j % area];
    s = THCBlockReduce(s, scratch, THCSum());
    if (threadIdx.x == 0)
      gb[c] += (real)(scale * s);
  }
}

/* ---- the engine (host) ---- */

static int THNN_(cuVol2col)(THNNState *state, const THNNVolGeometry *g, const real *image, real *columns)
{
  int64_t n = THCConv_K(g) * THCConv_area(g);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(vol2colKernel))(*g, image, columns, n);
  return THCCheckLaunch(state, "vol2col");
}

static int THNN_(cuCol2vol)(THNNState *state, const THNNVolGeometry *g, const real *columns, const THTensor *bias,
                            real *image)
{
  int64_t n = g->nPlane * THCConv_imageArea(g);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(col2volKernel))(
      *g, columns, bias ? THTensor_(data)(bias) : NULL, bias ? bias->stride[0] : 0, image, n);
  return THCCheckLaunch(state, "col2vol");
}

/* other = w * columns(image) for every sample, each plane o of other
 * starting from bias[o] (bias may be NULL).  w is [nOther, K], contiguous. */
static int THNN_(cuUnfoldMultiply)(THNNState *state, const THCConvCall *c, const real *image, const real *w,
                                   const THTensor *bias, real *other, real *columns)
{
  const THNNVolGeometry *g = &c->g;
  int64_t K = THCConv_K(g), area = THCConv_area(g);
  for (int64_t n = 0; n < c->batch; n++) {
    real *out = other + n * c->nOther * area;
    TH_TRY(THNN_(cuVol2col)(state, g, image + n * g->nPlane * THCConv_imageArea(g), columns));
    if (bias) {
      THC_LAUNCH(THC_blocks(c->nOther * area), THC_NUM_THREADS, THNN_(convFillBiasKernel))(
          out, THTensor_(data)(bias), bias->stride[0], area, c->nOther * area);
      TH_TRY(THCCheckLaunch(state, "convFillBias"));
    }
    TH_TRY(THCBlas_(gemm)(state, 'n', 'n', area, c->nOther, K, 1, columns, area, w, K, bias ? 1 : 0, out, area));
  }
  return 0;
}

/* image = fold(w^T * other) for every sample, each image plane starting
 * from its bias (0 when bias is NULL). */
static int THNN_(cuMultiplyFold)(THNNState *state, const THCConvCall *c, const real *other, const real *w,
                                 const THTensor *bias, real *image, real *columns)
{
  const THNNVolGeometry *g = &c->g;
  int64_t K = THCConv_K(g), area = THCConv_area(g);
  for (int64_t n = 0; n < c->batch; n++) {
    TH_TRY(THCBlas_(gemm)(state, 'n', 't', area, K, c->nOther, 1, other + n * c->nOther * area, area, w, K,
                          0, columns, area));
    TH_TRY(THNN_(cuCol2vol)(state, g, columns, bias, image + n * g->nPlane * THCConv_imageArea(g)));
  }
  return 0;
}

/* gw [nOther, K] += scale * the sum over samples of other * columns(image)^T. */
static int THNN_(cuGradWeight)(THNNState *state, const THCConvCall *c, const real *image, const real *other,
                               real *gw, real *columns, accreal scale)
{
  const THNNVolGeometry *g = &c->g;
  int64_t K = THCConv_K(g), area = THCConv_area(g);
  for (int64_t n = 0; n < c->batch; n++) {
    TH_TRY(THNN_(cuVol2col)(state, g, image + n * g->nPlane * THCConv_imageArea(g), columns));
    TH_TRY(THCBlas_(gemm)(state, 't', 'n', K, c->nOther, area, (real)scale, columns, area,
                          other + n * c->nOther * area, area, 1, gw, K));
  }
  return 0;
}

/* gb [nPlane] += scale * the sum over every sample of each plane of grad. */
static int THNN_(cuGradBias)(THNNState *state, real *gb, const real *grad, int64_t batch, int64_t nPlane,
                             int64_t area, accreal scale)
{
  unsigned blocks = (unsigned)(nPlane < 1 ? 1 : nPlane < THC_MAX_BLOCKS ? nPlane : THC_MAX_BLOCKS);
  THC_LAUNCH(blocks, THC_NUM_THREADS, THNN_(convGradBiasKernel))(gb, grad, batch, nPlane, area, scale);
  return THCCheckLaunch(state, "convGradBias");
}

/* The column buffer of one sample: [1, K, area] for a spatial layer (as the
 * CPU's per-thread buffers, one here), [K, area] for a volumetric one.
 * Without samples it holds no uninitialised memory (none, or zeros). */
static int THNN_(cuResizeColumns)(THNNState *state, const THCConvCall *c, THTensor *columns)
{
  int64_t K = THCConv_K(&c->g), area = THCConv_area(&c->g);
  if (c->dims == 2) {
    int64_t size[3] = {c->batch ? 1 : 0, K, area};
    return THCTensor_(resizeNd)(state, columns, 3, size);
  }
  TH_TRY(THCTensor_(resize2d)(state, columns, K, area));
  return c->batch ? 0 : THCTensor_(fill)(state, columns, 0);
}

/* ---- the three verbs of a convolution layer, given its checked call ---- */

/* output = the convolution (or its transpose) of input, from bias. */
static int THNN_(cuConvOutput)(THNNState *state, const THCConvCall *c, THTensor *input, THTensor *output,
                               THTensor *weight, THTensor *bias, THTensor *finput)
{
  const THNNVolGeometry *g = &c->g;
  int64_t size[5] = {c->batch, c->transposed ? g->nPlane : c->nOther};
  for (int a = 0; a < c->dims; a++)
    size[2 + a] = (c->transposed ? g->in : g->out)[3 - c->dims + a];
  THTensor xTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeNd)(state, output, 1 + c->batched + c->dims, size + !c->batched) == 0 &&
      THNN_(cuResizeColumns)(state, c, finput) == 0) {
    const real *xd = THTensor_(data)(x), *wd = THTensor_(data)(w);
    real *yd = THTensor_(data)(output), *cols = THTensor_(data)(finput);
    rc = c->transposed ? THNN_(cuMultiplyFold)(state, c, xd, wd, bias, yd, cols)
                       : THNN_(cuUnfoldMultiply)(state, c, xd, wd, bias, yd, cols);
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

/* gradInput (shaped as input) from gradOutput through the weight. */
static int THNN_(cuConvGradInput)(THNNState *state, const THCConvCall *c, THTensor *input, THTensor *gradOutput,
                                  THTensor *gradInput, THTensor *weight, THTensor *fgradInput)
{
  THTensor gTmp = {}, wTmp = {};
  const THTensor *gy = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = gy ? THCTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THCTensor_(resizeAs)(state, gradInput, input) == 0 && THNN_(cuResizeColumns)(state, c, fgradInput) == 0) {
    const real *gyd = THTensor_(data)(gy), *wd = THTensor_(data)(w);
    real *gxd = THTensor_(data)(gradInput), *cols = THTensor_(data)(fgradInput);
    rc = c->transposed ? THNN_(cuUnfoldMultiply)(state, c, gyd, wd, NULL, gxd, cols)
                       : THNN_(cuMultiplyFold)(state, c, gyd, wd, NULL, gxd, cols);
  }
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

/* gradWeight, gradBias (contiguous; gradBias may be NULL) += scale * their gradients. */
static int THNN_(cuConvGradParameters)(THNNState *state, const THCConvCall *c, THTensor *input,
                                       THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                       THTensor *finput, accreal scale)
{
  TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  if (gradBias)
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  const THNNVolGeometry *g = &c->g;
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *gy = x ? THCTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (gy && THNN_(cuResizeColumns)(state, c, finput) == 0) {
    const real *xd = THTensor_(data)(x), *gyd = THTensor_(data)(gy);
    real *gw = THTensor_(data)(gradWeight), *cols = THTensor_(data)(finput);
    rc = c->transposed ? THNN_(cuGradWeight)(state, c, gyd, xd, gw, cols, scale)
                       : THNN_(cuGradWeight)(state, c, xd, gyd, gw, cols, scale);
    if (rc == 0 && gradBias)
      rc = c->transposed ? THNN_(cuGradBias)(state, THTensor_(data)(gradBias), gyd, c->batch, g->nPlane,
                                             THCConv_imageArea(g), scale)
                         : THNN_(cuGradBias)(state, THTensor_(data)(gradBias), gyd, c->batch, c->nOther,
                                             THCConv_area(g), scale);
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

#endif
