#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialGridSamplerBilinear.cu"
#else

/* The CPU kernel's sampling (thnn_c/generic/SpatialGridSamplerBilinear.c,
 * whose shape check this shares): one thread per grid point, over every
 * plane, positions and weights in double. */
extern "C" int THNN_CPU_(SpatialGridSamplerBilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *grid,
                                                                THTensor *gradOutput, int padding_mode);

#ifndef THC_GRID_SAMPLER_SHARED
#define THC_GRID_SAMPLER_SHARED

/* Where one coordinate samples along a dim of `size` pixels (THGridAxis of the CPU). */
struct THCGridAxis {
  int64_t lo;      /* the first of the two pixels blended, lo + 1 the second */
  double w;        /* weight of lo + 1 */
  double dpos;     /* d position / d coordinate, 0 where border mode clamped */
  int off;         /* both pixels outside: the sample reads 0 */
};

__device__ inline THCGridAxis THCGridAxis_at(double coord, int64_t size, int border)
{
  THCGridAxis a = {0, 0.0, (double)(size - 1) / 2, 0};
  double pos = (coord + 1) / 2 * (double)(size - 1);
  if (border && !(pos > 0 && pos < (double)(size - 1))) {
    pos = pos > 0 ? (double)(size - 1) : 0;
    a.dpos = 0;
  }
  if (!(pos >= -1 && pos < (double)size)) {
    a.off = 1;
    return a;
  }
  double f = floor(pos);
  a.lo = (int64_t)f;
  a.w = pos - f;
  return a;
}

#endif

/* Pixel (y, x) of a plane of h x w, 0 outside. */
__device__ inline real THNN_(GridSampler_pixel)(const real *plane, int64_t h, int64_t w, int64_t y, int64_t x)
{
  return y >= 0 && y < h && x >= 0 && x < w ? plane[y * w + x] : 0;
}

__device__ inline void THNN_(GridSampler_add)(real *plane, int64_t h, int64_t w, int64_t y, int64_t x, real v)
{
  if (y >= 0 && y < h && x >= 0 && x < w)
    atomicAdd(&plane[y * w + x], v);
}

/* Forward (gin NULL) or backward: for grid point i of sample n = i / (oh ow),
 * the output of every plane, or the gradients of input and grid. */
__global__ void THNN_(GridSampler_kernel)(const real *input, const real *grid, real *out, const real *gout,
                                          real *gin, real *ggrid, int64_t planes, int64_t ih, int64_t iw,
                                          int64_t ohw, int border, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t b = i / ohw, k = i % ohw;
    const real *xy = grid + 2 * i;
    const real *in = input + b * planes * ih * iw;
    bool nan = xy[0] != xy[0] || xy[1] != xy[1];
    THCGridAxis ax = THCGridAxis_at(nan ? 0 : xy[0], iw, border), ay = THCGridAxis_at(nan ? 0 : xy[1], ih, border);
    real wx = (real)ax.w, wy = (real)ay.w;
    if (!gin) {
      for (int64_t c = 0; c < planes; c++, in += ih * iw) {
        real *o = out + (b * planes + c) * ohw + k;
        if (nan)
          *o = NAN;
        else if (ax.off || ay.off)
          *o = 0;
        else
          *o = (1 - wy) * ((1 - wx) * THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo) +
                           wx * THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo + 1)) +
               wy * ((1 - wx) * THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo) +
                     wx * THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo + 1));
      }
      continue;
    }
    ggrid[2 * i] = ggrid[2 * i + 1] = nan ? NAN : 0;
    if (nan || ax.off || ay.off)
      continue;
    accreal dx = 0, dy = 0;
    real *g = gin + b * planes * ih * iw;
    for (int64_t c = 0; c < planes; c++, in += ih * iw, g += ih * iw) {
      real d = gout[(b * planes + c) * ohw + k];
      real v00 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo);
      real v01 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo + 1);
      real v10 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo);
      real v11 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo + 1);
      dx += (accreal)d * ((1 - wy) * (v01 - v00) + wy * (v11 - v10));
      dy += (accreal)d * ((1 - wx) * (v10 - v00) + wx * (v11 - v01));
      THNN_(GridSampler_add)(g, ih, iw, ay.lo, ax.lo, (1 - wy) * (1 - wx) * d);
      THNN_(GridSampler_add)(g, ih, iw, ay.lo, ax.lo + 1, (1 - wy) * wx * d);
      THNN_(GridSampler_add)(g, ih, iw, ay.lo + 1, ax.lo, wy * (1 - wx) * d);
      THNN_(GridSampler_add)(g, ih, iw, ay.lo + 1, ax.lo + 1, wy * wx * d);
    }
    ggrid[2 * i] = (real)(dx * ax.dpos);
    ggrid[2 * i + 1] = (real)(dy * ay.dpos);
  }
}

int THNN_(SpatialGridSamplerBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *grid,
                                                   THTensor *output, int padding_mode)
{
  TH_TRY(THNN_CPU_(SpatialGridSamplerBilinear_shapeCheck)(state, input, grid, NULL, padding_mode));
  int64_t size[4] = {input->size[0], input->size[1], grid->size[1], grid->size[2]};
  THTensor xTmp = {}, gTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, grid, &gTmp) : NULL;
  int rc = -1;
  if (g && THCTensor_(resizeNd)(state, output, 4, size) == 0) {
    int64_t n = size[0] * size[2] * size[3];
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(GridSampler_kernel))(
        THTensor_(data)(x), THTensor_(data)(g), THTensor_(data)(output), (const real *)NULL, (real *)NULL, (real *)NULL, size[1],
        input->size[2], input->size[3], size[2] * size[3], padding_mode, n);
    rc = THCCheckLaunch(state, "SpatialGridSamplerBilinear_updateOutput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  return rc;
}

int THNN_(SpatialGridSamplerBilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput,
                                                      THTensor *grid, THTensor *gradGrid, THTensor *gradOutput,
                                                      int padding_mode)
{
  TH_TRY(THNN_CPU_(SpatialGridSamplerBilinear_shapeCheck)(state, input, grid, gradOutput, padding_mode));
  THTensor xTmp = {}, gTmp = {}, goTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THCTensor_(contiguous)(state, grid, &gTmp) : NULL;
  const THTensor *go = g ? THCTensor_(contiguous)(state, gradOutput, &goTmp) : NULL;
  int rc = -1;
  if (go && THCTensor_(resizeAs)(state, gradInput, input) == 0 && THCTensor_(resizeAs)(state, gradGrid, grid) == 0 &&
      THCTensor_(fill)(state, gradInput, 0) == 0) {
    int64_t n = grid->size[0] * grid->size[1] * grid->size[2];
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(GridSampler_kernel))(
        THTensor_(data)(x), THTensor_(data)(g), (real *)NULL, THTensor_(data)(go), THTensor_(data)(gradInput),
        THTensor_(data)(gradGrid), input->size[1], input->size[2], input->size[3], grid->size[1] * grid->size[2],
        padding_mode, n);
    rc = THCCheckLaunch(state, "SpatialGridSamplerBilinear_updateGradInput");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&gTmp);
  THCTensor_(release)(&goTmp);
  return rc;
}

#endif
