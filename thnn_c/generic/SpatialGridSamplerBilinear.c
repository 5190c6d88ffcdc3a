#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialGridSamplerBilinear.c"
#else

/* Output pixel (i, j) of sample n reads input n at grid[n, i, j] = (x, y):
 * x = -1 is the centre of the first column, x = 1 that of the last, so
 * column position px = (x + 1) / 2 * (w - 1), likewise py for rows.  The
 * value blends the four pixels around (py, px):
 *   out = (1-wy) ((1-wx) v00 + wx v01) + wy ((1-wx) v10 + wx v11)
 * with wx = px - floor(px), v01 the pixel right of v00, v10 the one below.
 * Zeros mode reads pixels outside the input as 0; border mode first clamps
 * px into [0, w - 1] and py into [0, h - 1] (the clamped coordinate then has
 * no gradient).  Positions and weights are computed in double. */

#ifndef THNN_GRID_SAMPLER_SHARED
#define THNN_GRID_SAMPLER_SHARED

enum { TH_GRID_ZEROS = 0, TH_GRID_BORDER = 1 };

/* Where one coordinate samples along a dim of `size` pixels. */
typedef struct THGridAxis {
  int64_t lo;                  /* the first of the two pixels blended, lo + 1 the second */
  double w;                    /* weight of lo + 1 (lo has 1 - w) */
  double dpos;                 /* d position / d coordinate: (size - 1) / 2, 0 where clamped */
  int off;                     /* both pixels outside the input: the sample reads 0 */
} THGridAxis;

/* coord must not be NaN. */
static THGridAxis THGridAxis_at(double coord, int64_t size, int mode)
{
  THGridAxis a = {0, 0.0, (double)(size - 1) / 2, 0};
  double pos = (coord + 1) / 2 * (double)(size - 1);
  if (mode == TH_GRID_BORDER && !(pos > 0 && pos < (double)(size - 1))) {
    pos = pos > 0 ? (double)(size - 1) : 0;
    a.dpos = 0;
  }
  if (!(pos >= -1 && pos < (double)size)) {  /* also catches inf * 0 when size is 1 */
    a.off = 1;
    return a;
  }
  double f = floor(pos);
  a.lo = (int64_t)f;
  a.w = pos - f;
  return a;
}

#endif

int THNN_(SpatialGridSamplerBilinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *grid,
                                                        THTensor *gradOutput, int padding_mode)
{
  if (padding_mode != TH_GRID_ZEROS && padding_mode != TH_GRID_BORDER)
    return THError(state, "padding_mode must be 0 (zeros) or 1 (border), got %d", padding_mode);
  if (input->nDimension != 4 || input->size[2] < 1 || input->size[3] < 1)
    return THTensor_(shapeError)(state, "input", input, "4D [batch, nPlane, h, w] with h, w >= 1");
  int64_t batch = input->size[0];
  if (grid->nDimension != 4 || grid->size[0] != batch || grid->size[3] != 2)
    return THTensor_(shapeError)(state, "grid", grid, "4D [%lld, oh, ow, 2] (batch of input, (x, y) last)",
                                 (long long)batch);
  if (gradOutput) {
    int64_t size[4] = {batch, input->size[1], grid->size[1], grid->size[2]};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, 4, size));
  }
  return 0;
}

/* Pixel (y, x) of a plane of h x w, 0 outside. */
static real THNN_(GridSampler_pixel)(const real *plane, int64_t h, int64_t w, int64_t y, int64_t x)
{
  return y >= 0 && y < h && x >= 0 && x < w ? plane[y * w + x] : 0;
}

/* plane[y, x] += v where (y, x) is inside. */
static void THNN_(GridSampler_add)(real *plane, int64_t h, int64_t w, int64_t y, int64_t x, real v)
{
  if (y >= 0 && y < h && x >= 0 && x < w)
    plane[y * w + x] += v;
}

int THNN_(SpatialGridSamplerBilinear_updateOutput)(THNNState *state, THTensor *input, THTensor *grid,
                                                   THTensor *output, int padding_mode)
{
  TH_TRY(THNN_(SpatialGridSamplerBilinear_shapeCheck)(state, input, grid, NULL, padding_mode));
  int64_t batch = input->size[0], planes = input->size[1], ih = input->size[2], iw = input->size[3];
  int64_t oh = grid->size[1], ow = grid->size[2];
  int64_t size[4] = {batch, planes, oh, ow};
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, grid, &gTmp) : NULL;
  int rc = -1;
  if (g && THTensor_(resizeNd)(state, output, 4, size) == 0) {
    for (int64_t n = 0; n < batch; n++)
      for (int64_t k = 0; k < oh * ow; k++) {
        const real *xy = THTensor_(data)(g) + (n * oh * ow + k) * 2;
        const real *in = THTensor_(data)(x) + n * planes * ih * iw;
        real *out = THTensor_(data)(output) + n * planes * oh * ow + k;
        if (isnan(xy[0]) || isnan(xy[1])) {
          for (int64_t c = 0; c < planes; c++)
            out[c * oh * ow] = NAN;
          continue;
        }
        THGridAxis ax = THGridAxis_at(xy[0], iw, padding_mode), ay = THGridAxis_at(xy[1], ih, padding_mode);
        real wx = (real)ax.w, wy = (real)ay.w;
        for (int64_t c = 0; c < planes; c++, in += ih * iw) {
          if (ax.off || ay.off) {
            out[c * oh * ow] = 0;
            continue;
          }
          real v00 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo);
          real v01 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo + 1);
          real v10 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo);
          real v11 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo + 1);
          out[c * oh * ow] = (1 - wy) * ((1 - wx) * v00 + wx * v01) + wy * ((1 - wx) * v10 + wx * v11);
        }
      }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

/* gradInput: each gradOutput element added to the four pixels it blended,
 * with their weights.  gradGrid: d out / d px summed over the planes,
 *   sum_c dL/dout_c ((1-wy) (v01 - v00) + wy (v11 - v10)),
 * times dpx/dx = (w - 1) / 2 (0 where border mode clamped), likewise y. */
int THNN_(SpatialGridSamplerBilinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradInput,
                                                      THTensor *grid, THTensor *gradGrid, THTensor *gradOutput,
                                                      int padding_mode)
{
  TH_TRY(THNN_(SpatialGridSamplerBilinear_shapeCheck)(state, input, grid, gradOutput, padding_mode));
  int64_t batch = input->size[0], planes = input->size[1], ih = input->size[2], iw = input->size[3];
  int64_t oh = grid->size[1], ow = grid->size[2];
  THTensor xTmp = {0}, gTmp = {0}, goTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, grid, &gTmp) : NULL;
  const THTensor *go = g ? THTensor_(contiguous)(state, gradOutput, &goTmp) : NULL;
  int rc = -1;
  if (go && THTensor_(resizeAs)(state, gradInput, input) == 0 && THTensor_(resizeAs)(state, gradGrid, grid) == 0) {
    memset(THTensor_(data)(gradInput), 0, (size_t)THTensor_(nElement)(input) * sizeof(real));
    for (int64_t n = 0; n < batch; n++)
      for (int64_t k = 0; k < oh * ow; k++) {
        const real *xy = THTensor_(data)(g) + (n * oh * ow + k) * 2;
        real *gxy = THTensor_(data)(gradGrid) + (n * oh * ow + k) * 2;
        const real *in = THTensor_(data)(x) + n * planes * ih * iw;
        real *gin = THTensor_(data)(gradInput) + n * planes * ih * iw;
        const real *gout = THTensor_(data)(go) + n * planes * oh * ow + k;
        gxy[0] = gxy[1] = 0;
        if (isnan(xy[0]) || isnan(xy[1])) {
          gxy[0] = gxy[1] = NAN;
          continue;
        }
        THGridAxis ax = THGridAxis_at(xy[0], iw, padding_mode), ay = THGridAxis_at(xy[1], ih, padding_mode);
        if (ax.off || ay.off)
          continue;
        real wx = (real)ax.w, wy = (real)ay.w;
        accreal dx = 0, dy = 0;
        for (int64_t c = 0; c < planes; c++, in += ih * iw, gin += ih * iw) {
          real d = gout[c * oh * ow];
          real v00 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo);
          real v01 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo, ax.lo + 1);
          real v10 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo);
          real v11 = THNN_(GridSampler_pixel)(in, ih, iw, ay.lo + 1, ax.lo + 1);
          dx += (accreal)d * ((1 - wy) * (v01 - v00) + wy * (v11 - v10));
          dy += (accreal)d * ((1 - wx) * (v10 - v00) + wx * (v11 - v01));
          THNN_(GridSampler_add)(gin, ih, iw, ay.lo, ax.lo, (1 - wy) * (1 - wx) * d);
          THNN_(GridSampler_add)(gin, ih, iw, ay.lo, ax.lo + 1, (1 - wy) * wx * d);
          THNN_(GridSampler_add)(gin, ih, iw, ay.lo + 1, ax.lo, wy * (1 - wx) * d);
          THNN_(GridSampler_add)(gin, ih, iw, ay.lo + 1, ax.lo + 1, wy * wx * d);
        }
        gxy[0] = (real)(dx * ax.dpos);
        gxy[1] = (real)(dy * ay.dpos);
      }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&goTmp);
  return rc;
}

#endif
