/* A generic header: each generic file that uses these helpers includes it,
 * and it defines them once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_RESAMPLING_H_FLOAT)
#define THNN_RESAMPLING_H_FLOAT
#define THNN_RESAMPLING_H_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_RESAMPLING_H_DOUBLE)
#define THNN_RESAMPLING_H_DOUBLE
#define THNN_RESAMPLING_H_NOW
#endif

#ifdef THNN_RESAMPLING_H_NOW
#undef THNN_RESAMPLING_H_NOW

#include "THLoop.h"

/* What the padding and up-sampling layers share.  Each of them sees its
 * input as `planes` volumes of t x h x w elements (t = 1 for the spatial
 * layers): the leading dims, [nPlane] or [batch, nPlane], are only counted.
 *
 * Padding and nearest up-sampling copy: every output element is one input
 * element.  Padding chooses it per dim by an index map (out position -> in
 * position), so its forward pass gathers through the maps and its backward
 * pass adds each gradOutput element to the input element it came from;
 * nearest up-sampling repeats whole rows (Resampling_nearestRows).  Bilinear
 * and trilinear up-sampling blend the two neighbours along each dim instead. */

#ifndef THNN_RESAMPLING_SHARED
#define THNN_RESAMPLING_SHARED

/* how a padding fills the border: the `reflect` argument below */
enum { TH_PAD_REPLICATE = 0, TH_PAD_REFLECT = 1 };

typedef struct THVolume {
  int64_t planes;              /* product of the leading dims */
  int64_t size[3];             /* t, h, w (t = 1 for 2 spatial dims) */
} THVolume;

THNN_HELPER int64_t THVolume_numel(const THVolume *v)
{
  return v->size[0] * v->size[1] * v->size[2];
}

/* Padding map of one dim: output position o copies input position
 * u = o - padBefore, mirrored about the edge element (reflect) or clamped to
 * it (replicate) when u falls outside [0, inSize).  The callers' checks keep
 * the result inside [0, inSize). */
THNN_HELPER void THPaddingMap(int64_t *map, int64_t outSize, int64_t inSize, int64_t padBefore, int reflect)
{
  for (int64_t o = 0; o < outSize; o++) {
    int64_t u = o - padBefore;
    if (u < 0)
      u = reflect ? -u : 0;
    else if (u >= inSize)
      u = reflect ? 2 * (inSize - 1) - u : inSize - 1;
    map[o] = u;
  }
}

/* Linear interpolation of one dim with the corners aligned: output position
 * o reads lo[o] with weight 1 - lambda[o] and hi[o] with weight lambda[o],
 * at o * (inSize - 1) / (outSize - 1) (0 when outSize is 1). */
THNN_HELPER void THLinearMap(int64_t *lo, int64_t *hi, double *lambda, int64_t outSize, int64_t inSize)
{
  double ratio = outSize > 1 ? (double)(inSize - 1) / (double)(outSize - 1) : 0.0;
  for (int64_t o = 0; o < outSize; o++) {
    double pos = ratio * (double)o;
    int64_t i = (int64_t)pos;
    if (i > inSize - 1)           /* only rounding could get here */
      i = inSize - 1;
    lo[o] = i;
    hi[o] = i < inSize - 1 ? i + 1 : i;
    lambda[o] = pos - (double)i;
  }
}

/* "3D [nPlane, h, w] or 4D [batch, nPlane, h, w]" (or the volumetric text)
 * for the messages of the layers with `spatial` = 2 or 3 trailing dims. */
THNN_HELPER const char *THVolume_layouts(int spatial)
{
  return spatial == 2 ? "3D [nPlane, h, w] or 4D [batch, nPlane, h, w]"
                      : "4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w]";
}

#endif

/* input as a volume: `spatial` (2 or 3) trailing dims after [nPlane] or
 * [batch, nPlane], each at least 1 long. */
THNN_HELPER int THNN_(Resampling_volume)(THNNState *state, const THTensor *input, int spatial, THVolume *v)
{
  int nd = input->nDimension;
  if (nd != spatial + 1 && nd != spatial + 2)
    return THTensor_(shapeError)(state, "input", input, "%s", THVolume_layouts(spatial));
  v->planes = 1;
  for (int d = 0; d < nd - spatial; d++)
    v->planes *= input->size[d];
  v->size[0] = 1;
  for (int k = 0; k < spatial; k++) {
    int64_t n = input->size[nd - spatial + k];
    if (n < 1)
      return THTensor_(shapeError)(state, "input", input, "%s with no empty spatial dim",
                                   THVolume_layouts(spatial));
    v->size[3 - spatial + k] = n;
  }
  return 0;
}

/* Sizes of the tensor shaped as input but with the volume `out` (the sizes of
 * the output, and what gradOutput must be). */
THNN_HELPER void THNN_(Resampling_outputSizes)(const THTensor *input, int spatial, const THVolume *out, int64_t *size)
{
  int nd = input->nDimension;
  for (int d = 0; d < nd - spatial; d++)
    size[d] = input->size[d];
  for (int k = 0; k < spatial; k++)
    size[nd - spatial + k] = out->size[3 - spatial + k];
}

/* gradOutput must have the output's sizes (NULL passes). */
THNN_HELPER int THNN_(Resampling_checkGradOutput)(THNNState *state, const THTensor *input, const THTensor *gradOutput,
                                             int spatial, const THVolume *out)
{
  if (!gradOutput)
    return 0;
  int64_t size[TH_MAX_DIM];
  THNN_(Resampling_outputSizes)(input, spatial, out, size);
  return THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, size);
}

/* out[p, a, b, c] = in[p, map[0][a], map[1][b], map[2][c]] for every plane p. */
THNN_HELPER void THNN_(Resampling_gather)(const real *in, real *out, const THVolume *vin, const THVolume *vout,
                                     int64_t *const map[3])
{
  int64_t inPlane = THVolume_numel(vin), outPlane = THVolume_numel(vout);
  int64_t ih = vin->size[1], iw = vin->size[2];
  for (int64_t p = 0; p < vin->planes; p++) {
    const real *src = in + p * inPlane;
    real *dst = out + p * outPlane;
    for (int64_t a = 0; a < vout->size[0]; a++)
      for (int64_t b = 0; b < vout->size[1]; b++) {
        const real *row = src + (map[0][a] * ih + map[1][b]) * iw;
        for (int64_t c = 0; c < vout->size[2]; c++)
          *dst++ = row[map[2][c]];
      }
  }
}

/* The adjoint of gather: gin = 0, then gin[p, map..] += gout[p, a, b, c]. */
THNN_HELPER void THNN_(Resampling_scatter)(real *gin, const real *gout, const THVolume *vin, const THVolume *vout,
                                      int64_t *const map[3])
{
  int64_t inPlane = THVolume_numel(vin), outPlane = THVolume_numel(vout);
  int64_t ih = vin->size[1], iw = vin->size[2];
  memset(gin, 0, (size_t)(vin->planes * inPlane) * sizeof(real));
  for (int64_t p = 0; p < vin->planes; p++) {
    real *dst = gin + p * inPlane;
    const real *src = gout + p * outPlane;
    for (int64_t a = 0; a < vout->size[0]; a++)
      for (int64_t b = 0; b < vout->size[1]; b++) {
        real *row = dst + (map[0][a] * ih + map[1][b]) * iw;
        for (int64_t c = 0; c < vout->size[2]; c++)
          row[map[2][c]] += *src++;
      }
  }
}

/* Give result its sizes: the output's in the forward pass (gradOutput
 * NULL), the input's in the backward pass.  Done before any work space is
 * allocated, so sizes too large fail here, with the reason. */
THNN_HELPER int THNN_(Resampling_resize)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                    int spatial, const THVolume *vout)
{
  if (gradOutput)
    return THTensor_(resizeAs)(state, result, input);
  int64_t size[TH_MAX_DIM];
  THNN_(Resampling_outputSizes)(input, spatial, vout, size);
  return THTensor_(resizeNd)(state, result, input->nDimension, size);
}

/* The forward (gradOutput NULL: result = gather(input)) or backward (result
 * = scatter(gradOutput)) pass of a copying layer; result is sized.  maps
 * holds the three index maps one after the other, vout->size[0] + [1] + [2]
 * entries. */
THNN_HELPER int THNN_(Resampling_copy)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                  const THVolume *vin, const THVolume *vout, const int64_t *maps)
{
  int64_t *const map[3] = {(int64_t *)maps, (int64_t *)maps + vout->size[0],
                           (int64_t *)maps + vout->size[0] + vout->size[1]};
  THTensor tmp = {0};
  const THTensor *src = THTensor_(contiguous)(state, gradOutput ? gradOutput : input, &tmp);
  if (!src)
    return -1;
  if (gradOutput)
    THNN_(Resampling_scatter)(THTensor_(data)(result), THTensor_(data)(src), vin, vout, map);
  else
    THNN_(Resampling_gather)(THTensor_(data)(src), THTensor_(data)(result), vin, vout, map);
  THTensor_(release)(&tmp);
  return 0;
}

/* Index maps of a padding, pads = {left, right, top, bottom, front, back}
 * (front/back 0 for the spatial layers).  Caller frees. */
THNN_HELPER int64_t *THNN_(Resampling_paddingMaps)(THNNState *state, const THVolume *vin, const THVolume *vout,
                                              const int64_t pads[6], int reflect)
{
  int64_t n = vout->size[0] + vout->size[1] + vout->size[2];
  int64_t *maps = THAlloc((size_t)n * sizeof(int64_t));
  if (!maps) {
    THError(state, "out of memory");
    return NULL;
  }
  THPaddingMap(maps, vout->size[0], vin->size[0], pads[4], reflect);
  THPaddingMap(maps + vout->size[0], vout->size[1], vin->size[1], pads[2], reflect);
  THPaddingMap(maps + vout->size[0] + vout->size[1], vout->size[2], vin->size[2], pads[0], reflect);
  return maps;
}

/* Checks shared by the padding layers: input layout, the output at least 1
 * long along every spatial dim, and (reflect) every pad smaller than the
 * input along its dim.  Fills the input and output volumes. */
THNN_HELPER int THNN_(Resampling_paddingCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, int spatial,
                                          const int64_t pads[6], int reflect, THVolume *vin, THVolume *vout)
{
  static const char *const dims[3] = {"time", "height", "width"};
  static const char *const names[2][6] = {
    {"pad_l", "pad_r", "pad_t", "pad_b", "pad_front", "pad_back"},
    {"pleft", "pright", "ptop", "pbottom", "pfront", "pback"}};
  TH_TRY(THNN_(Resampling_volume)(state, input, spatial, vin));
  vout->planes = vin->planes;
  for (int k = 0; k < 3; k++) {
    int d = 2 - k;                    /* pads are listed w, h, t */
    const char *before = names[spatial == 3][2 * k], *after = names[spatial == 3][2 * k + 1];
    int64_t inSize = vin->size[d], padBefore = pads[2 * k], padAfter = pads[2 * k + 1];
    if (reflect && (padBefore >= inSize || padAfter >= inSize))
      return THError(state, "%s and %s must be smaller than the input %s (%lld), got %lld and %lld",
                     before, after, dims[d], (long long)inSize, (long long)padBefore, (long long)padAfter);
    vout->size[d] = inSize + padBefore + padAfter;
    if (vout->size[d] < 1)
      return THError(state, "%s %lld with %s %lld and %s %lld leaves no output, the input %s must be larger",
                     dims[d], (long long)inSize, before, (long long)padBefore, after, (long long)padAfter,
                     dims[d]);
  }
  return THNN_(Resampling_checkGradOutput)(state, input, gradOutput, spatial, vout);
}

/* Forward or backward pass of a padding layer (checks done). */
THNN_HELPER int THNN_(Resampling_pad)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                 int spatial, const THVolume *vin, const THVolume *vout,
                                 const int64_t pads[6], int reflect)
{
  TH_TRY(THNN_(Resampling_resize)(state, input, gradOutput, result, spatial, vout));
  if (vin->planes == 0)
    return 0;
  int64_t *maps = THNN_(Resampling_paddingMaps)(state, vin, vout, pads, reflect);
  if (!maps)
    return -1;
  int rc = THNN_(Resampling_copy)(state, input, gradOutput, result, vin, vout, maps);
  THFree(maps);
  return rc;
}

/* Checks shared by nearest up-sampling: input layout and the factor. */
THNN_HELPER int THNN_(Resampling_nearestCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, int spatial,
                                          int scale, THVolume *vin, THVolume *vout)
{
  TH_TRY(THNN_(Resampling_volume)(state, input, spatial, vin));
  if (scale < 1)
    return THError(state, "scale_factor must be an integer >= 1, got %d", scale);
  vout->planes = vin->planes;
  for (int d = 0; d < 3; d++) {
    vout->size[d] = d < 3 - spatial ? 1 : THMulSizes(vin->size[d], scale);
    if (vout->size[d] < 0)
      return THError(state, "scale_factor %d makes the output too large", scale);
  }
  return THNN_(Resampling_checkGradOutput)(state, input, gradOutput, spatial, vout);
}

/* Nearest up-sampling works row by row: input row r of its plane's frame f
 * (f counts the t x planes frames, r < h) becomes the `scale` (spatial) or
 * scale x scale (volumetric: t is scaled too) output rows
 * (f * tscale + dt, r * scale + dh), each of them the input row with every
 * element repeated `scale` times.  The forward pass widens the row once and
 * copies it to the others; the backward pass sums each block in the order
 * the general scatter did (dt, then dh, then the repeats along w, from 0),
 * so the bits are the same. */

/* out[j * scale + k] = in[j], k < scale, for j < n. */
TH_VECTOR_CLONES static void THNN_(Resampling_widen)(real *restrict out, const real *restrict in, int64_t n,
                                                    int scale)
{
  switch (scale) {
  case 1:
    memcpy(out, in, (size_t)n * sizeof(real));
    break;
  case 2:
    for (int64_t j = 0; j < n; j++)
      out[2 * j] = out[2 * j + 1] = in[j];
    break;
  case 3:
    for (int64_t j = 0; j < n; j++)
      out[3 * j] = out[3 * j + 1] = out[3 * j + 2] = in[j];
    break;
  case 4:
    for (int64_t j = 0; j < n; j++)
      out[4 * j] = out[4 * j + 1] = out[4 * j + 2] = out[4 * j + 3] = in[j];
    break;
  default:
    for (int64_t j = 0; j < n; j++)
      for (int k = 0; k < scale; k++)
        out[j * scale + k] = in[j];
  }
}

/* gin[j] = (..(gin[j] + g[j * scale]) + ..) + g[j * scale + scale - 1], j < n. */
TH_VECTOR_CLONES static void THNN_(Resampling_narrowAdd)(real *restrict gin, const real *restrict g, int64_t n,
                                                        int scale)
{
  switch (scale) {
  case 1:
    for (int64_t j = 0; j < n; j++)
      gin[j] += g[j];
    break;
  case 2:
    for (int64_t j = 0; j < n; j++)
      gin[j] = (gin[j] + g[2 * j]) + g[2 * j + 1];
    break;
  case 3:
    for (int64_t j = 0; j < n; j++)
      gin[j] = ((gin[j] + g[3 * j]) + g[3 * j + 1]) + g[3 * j + 2];
    break;
  case 4:
    for (int64_t j = 0; j < n; j++)
      gin[j] = (((gin[j] + g[4 * j]) + g[4 * j + 1]) + g[4 * j + 2]) + g[4 * j + 3];
    break;
  default:
    for (int64_t j = 0; j < n; j++)
      for (int k = 0; k < scale; k++)
        gin[j] += g[j * scale + k];
  }
}

/* The forward (gradOutput NULL: out = the up-sampled in) or backward (in
 * is gradOutput, out gradInput) pass over the input rows, split between
 * the threads. */
THNN_HELPER void THNN_(Resampling_nearestRows)(const real *in, real *out, bool backward, const THVolume *vin,
                                          const THVolume *vout, int scale, int tscale)
{
  int64_t rows = vin->planes * vin->size[0] * vin->size[1], ih = vin->size[1], iw = vin->size[2];
  int64_t oh = vout->size[1], ow = vout->size[2];
#pragma omp parallel num_threads(THLoopThreads(rows * tscale * scale * ow))
  {
    int64_t begin, end;
    THLoopRange(rows, &begin, &end);
    for (int64_t r = begin; r < end; r++) {
      int64_t frame = r / ih, h = r % ih;
      real *first = NULL;
      if (backward) {
        real *gin = out + r * iw;
        memset(gin, 0, (size_t)iw * sizeof(real));
        for (int dt = 0; dt < tscale; dt++)
          for (int dh = 0; dh < scale; dh++)
            THNN_(Resampling_narrowAdd)(gin, in + ((frame * tscale + dt) * oh + h * scale + dh) * ow, iw, scale);
        continue;
      }
      for (int dt = 0; dt < tscale; dt++)
        for (int dh = 0; dh < scale; dh++) {
          real *dst = out + ((frame * tscale + dt) * oh + h * scale + dh) * ow;
          if (first)
            memcpy(dst, first, (size_t)ow * sizeof(real));
          else
            THNN_(Resampling_widen)(first = dst, in + r * iw, iw, scale);
        }
    }
  }
}

/* Forward or backward pass of nearest up-sampling (checks done). */
THNN_HELPER int THNN_(Resampling_nearest)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                     int spatial, const THVolume *vin, const THVolume *vout, int scale)
{
  TH_TRY(THNN_(Resampling_resize)(state, input, gradOutput, result, spatial, vout));
  if (vin->planes == 0)
    return 0;
  THTensor tmp = {0};
  const THTensor *src = THTensor_(contiguous)(state, gradOutput ? gradOutput : input, &tmp);
  if (!src)
    return -1;
  THNN_(Resampling_nearestRows)(THTensor_(data)(src), THTensor_(data)(result), gradOutput != NULL, vin, vout, scale,
                                spatial == 3 ? scale : 1);
  THTensor_(release)(&tmp);
  return 0;
}

/* Checks shared by linear up-sampling: input layout and output sizes
 * (outSize lists the spatial output sizes, t first). */
THNN_HELPER int THNN_(Resampling_linearCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, int spatial,
                                         const int *outSize, THVolume *vin, THVolume *vout)
{
  static const char *const names[3] = {"outputDepth", "outputHeight", "outputWidth"};
  TH_TRY(THNN_(Resampling_volume)(state, input, spatial, vin));
  for (int k = 0; k < spatial; k++)
    if (outSize[k] < 1)
      return THError(state, "%s must be >= 1, got %d", names[3 - spatial + k], outSize[k]);
  vout->planes = vin->planes;
  vout->size[0] = 1;
  for (int k = 0; k < spatial; k++)
    vout->size[3 - spatial + k] = outSize[k];
  return THNN_(Resampling_checkGradOutput)(state, input, gradOutput, spatial, vout);
}

/* The per-dim maps of linear interpolation, in one allocation. */
typedef struct THNN_(LinearMaps) {
  int64_t *lo[3], *hi[3];
  double *lambda[3];
  void *memory;
} THNN_(LinearMaps);

THNN_HELPER int THNN_(Resampling_linearMaps)(THNNState *state, const THVolume *vin, const THVolume *vout,
                                        THNN_(LinearMaps) *m)
{
  int64_t n = vout->size[0] + vout->size[1] + vout->size[2];
  char *memory = THAlloc((size_t)n * (2 * sizeof(int64_t) + sizeof(double)));
  if (!memory)
    return THError(state, "out of memory");
  m->memory = memory;
  for (int d = 0; d < 3; d++) {
    int64_t len = vout->size[d];
    m->lo[d] = (int64_t *)memory;
    m->hi[d] = m->lo[d] + len;
    m->lambda[d] = (double *)(m->hi[d] + len);
    memory += (size_t)len * (2 * sizeof(int64_t) + sizeof(double));
    THLinearMap(m->lo[d], m->hi[d], m->lambda[d], len, vin->size[d]);
  }
  return 0;
}

/* out = the 8 neighbours (4 when t is 1: lo and hi coincide there, with
 * weight 0 on hi) blended along t, then h, then w. */
THNN_HELPER void THNN_(Resampling_lerp)(const real *in, real *out, const THVolume *vin, const THVolume *vout,
                                   const THNN_(LinearMaps) *m)
{
  int64_t inPlane = THVolume_numel(vin), outPlane = THVolume_numel(vout);
  int64_t ih = vin->size[1], iw = vin->size[2];
  for (int64_t p = 0; p < vin->planes; p++) {
    const real *src = in + p * inPlane;
    real *dst = out + p * outPlane;
    for (int64_t a = 0; a < vout->size[0]; a++) {
      real lt = (real)m->lambda[0][a];
      const real *f0 = src + m->lo[0][a] * ih * iw, *f1 = src + m->hi[0][a] * ih * iw;
      for (int64_t b = 0; b < vout->size[1]; b++) {
        real lh = (real)m->lambda[1][b];
        int64_t r0 = m->lo[1][b] * iw, r1 = m->hi[1][b] * iw;
        for (int64_t c = 0; c < vout->size[2]; c++) {
          real lw = (real)m->lambda[2][c];
          int64_t c0 = m->lo[2][c], c1 = m->hi[2][c];
          real v0 = (1 - lh) * ((1 - lw) * f0[r0 + c0] + lw * f0[r0 + c1])
                    + lh * ((1 - lw) * f0[r1 + c0] + lw * f0[r1 + c1]);
          real v1 = (1 - lh) * ((1 - lw) * f1[r0 + c0] + lw * f1[r0 + c1])
                    + lh * ((1 - lw) * f1[r1 + c0] + lw * f1[r1 + c1]);
          *dst++ = (1 - lt) * v0 + lt * v1;
        }
      }
    }
  }
}

/* The adjoint of lerp: gin = 0, then each gradOutput element is added to
 * its neighbours with their weights. */
THNN_HELPER void THNN_(Resampling_lerpBackward)(real *gin, const real *gout, const THVolume *vin, const THVolume *vout,
                                           const THNN_(LinearMaps) *m)
{
  int64_t inPlane = THVolume_numel(vin), outPlane = THVolume_numel(vout);
  int64_t ih = vin->size[1], iw = vin->size[2];
  memset(gin, 0, (size_t)(vin->planes * inPlane) * sizeof(real));
  for (int64_t p = 0; p < vin->planes; p++) {
    real *dst = gin + p * inPlane;
    const real *src = gout + p * outPlane;
    for (int64_t a = 0; a < vout->size[0]; a++) {
      real lt = (real)m->lambda[0][a];
      real *f[2] = {dst + m->lo[0][a] * ih * iw, dst + m->hi[0][a] * ih * iw};
      real wt[2] = {1 - lt, lt};
      for (int64_t b = 0; b < vout->size[1]; b++) {
        real lh = (real)m->lambda[1][b];
        int64_t r0 = m->lo[1][b] * iw, r1 = m->hi[1][b] * iw;
        for (int64_t c = 0; c < vout->size[2]; c++) {
          real lw = (real)m->lambda[2][c], g = *src++;
          int64_t c0 = m->lo[2][c], c1 = m->hi[2][c];
          for (int k = 0; k < 2; k++) {
            real gt = wt[k] * g;
            f[k][r0 + c0] += (1 - lh) * (1 - lw) * gt;
            f[k][r0 + c1] += (1 - lh) * lw * gt;
            f[k][r1 + c0] += lh * (1 - lw) * gt;
            f[k][r1 + c1] += lh * lw * gt;
          }
        }
      }
    }
  }
}

/* Forward (gradOutput NULL) or backward pass of linear up-sampling (checks done). */
THNN_HELPER int THNN_(Resampling_linear)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                    int spatial, const THVolume *vin, const THVolume *vout)
{
  TH_TRY(THNN_(Resampling_resize)(state, input, gradOutput, result, spatial, vout));
  if (vin->planes == 0)
    return 0;
  THNN_(LinearMaps) m = {0};
  TH_TRY(THNN_(Resampling_linearMaps)(state, vin, vout, &m));
  THTensor tmp = {0};
  const THTensor *src = THTensor_(contiguous)(state, gradOutput ? gradOutput : input, &tmp);
  if (src && gradOutput)
    THNN_(Resampling_lerpBackward)(THTensor_(data)(result), THTensor_(data)(src), vin, vout, &m);
  else if (src)
    THNN_(Resampling_lerp)(THTensor_(data)(src), THTensor_(data)(result), vin, vout, &m);
  THTensor_(release)(&tmp);
  THFree(m.memory);
  return src ? 0 : -1;
}

#endif
