#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Resampling.cu"
#else

/* What the padding and up-sampling twins share, as
 * thnn_c/generic/Resampling.h for the CPU layers (whose shape checks they
 * call).  The input is `planes` volumes of t x h x w (t = 1 for the spatial
 * layers).  Padding and nearest up-sampling copy one input element per
 * output element, chosen per dim by the CPU's maps (computed here on the
 * device, one output element per thread); linear up-sampling blends the
 * neighbours with the CPU's weights.  The backward passes add each
 * gradOutput element into gradInput with atomicAdd. */

#ifndef THC_RESAMPLING_SHARED
#define THC_RESAMPLING_SHARED

/* The layout of THVolume in thnn_c/generic/Resampling.h (the CPU shape checks fill it). */
typedef struct THVolume {
  int64_t planes;
  int64_t size[3];
} THVolume;

enum { THC_RESAMPLE_REPLICATE, THC_RESAMPLE_REFLECT, THC_RESAMPLE_NEAREST, THC_RESAMPLE_LINEAR };

/* One resampling on the device: sizes t, h, w in and out, and per dim the
 * padding before (padding) or the factor (nearest). */
struct THCResampling {
  int kind;
  int64_t in[3], out[3];
  int64_t before[3];
  int64_t scale[3];
};

static THCResampling THCResampling_make(int kind, const THVolume *vin, const THVolume *vout)
{
  THCResampling r = {};
  r.kind = kind;
  for (int d = 0; d < 3; d++) {
    r.in[d] = vin->size[d];
    r.out[d] = vout->size[d];
    r.scale[d] = 1;
  }
  return r;
}

/* The input position that output position o copies along dim d (THPaddingMap; o / scale for nearest). */
__device__ inline int64_t THCResampling_source(const THCResampling &r, int d, int64_t o)
{
  if (r.kind == THC_RESAMPLE_NEAREST)
    return o / r.scale[d];
  int64_t u = o - r.before[d], in = r.in[d];
  if (u < 0)
    return r.kind == THC_RESAMPLE_REFLECT ? -u : 0;
  if (u >= in)
    return r.kind == THC_RESAMPLE_REFLECT ? 2 * (in - 1) - u : in - 1;
  return u;
}

/* Output element o of a plane: its source offset in the input plane. */
__device__ inline int64_t THCResampling_gather(const THCResampling &r, int64_t o)
{
  int64_t c = o % r.out[2], b = o / r.out[2] % r.out[1], a = o / (r.out[2] * r.out[1]);
  return (THCResampling_source(r, 0, a) * r.in[1] + THCResampling_source(r, 1, b)) * r.in[2] +
         THCResampling_source(r, 2, c);
}

/* Linear interpolation along dim d (THLinearMap): o reads lo with weight
 * 1 - lambda and hi with weight lambda, in double for both types. */
__device__ inline void THCResampling_linear(const THCResampling &r, int d, int64_t o, int64_t *lo, int64_t *hi,
                                            double *lambda)
{
  int64_t in = r.in[d], out = r.out[d];
  double ratio = out > 1 ? (double)(in - 1) / (double)(out - 1) : 0.0;
  double pos = ratio * (double)o;
  int64_t i = (int64_t)pos;
  if (i > in - 1)
    i = in - 1;
  *lo = i;
  *hi = i < in - 1 ? i + 1 : i;
  *lambda = pos - (double)i;
}

#endif

/* out[i] = in[its source] (copy), or gi[source of i] += go[i] (backward). */
__global__ void THNN_(Resampling_copyKernel)(const real *in, real *out, THCResampling r, bool backward, int64_t n)
{
  int64_t inPlane = r.in[0] * r.in[1] * r.in[2], outPlane = r.out[0] * r.out[1] * r.out[2];
  THC_KERNEL_LOOP(i, n) {
    int64_t src = i / outPlane * inPlane + THCResampling_gather(r, i % outPlane);
    if (backward)
      atomicAdd(&out[src], in[i]);
    else
      out[i] = in[src];
  }
}

/* Linear up-sampling: out[i] = the 8 neighbours blended along t, then h,
 * then w (Resampling_lerp), or backward: go[i] added to them with their
 * weights (Resampling_lerpBackward). */
__global__ void THNN_(Resampling_lerpKernel)(const real *in, real *out, THCResampling r, bool backward, int64_t n)
{
  int64_t inPlane = r.in[0] * r.in[1] * r.in[2], outPlane = r.out[0] * r.out[1] * r.out[2];
  int64_t ih = r.in[1], iw = r.in[2];
  THC_KERNEL_LOOP(i, n) {
    int64_t o = i % outPlane, t0, t1, r0, r1, c0, c1;
    double dt, dh, dw;
    THCResampling_linear(r, 0, o / (r.out[2] * r.out[1]), &t0, &t1, &dt);
    THCResampling_linear(r, 1, o / r.out[2] % r.out[1], &r0, &r1, &dh);
    THCResampling_linear(r, 2, o % r.out[2], &c0, &c1, &dw);
    real lt = (real)dt, lh = (real)dh, lw = (real)dw;
    int64_t base = i / outPlane * inPlane;
    int64_t f[2] = {base + t0 * ih * iw, base + t1 * ih * iw};
    r0 *= iw;
    r1 *= iw;
    if (backward) {
      real wt[2] = {1 - lt, lt};
      for (int k = 0; k < 2; k++) {
        real gt = wt[k] * in[i];
        atomicAdd(&out[f[k] + r0 + c0], (1 - lh) * (1 - lw) * gt);
        atomicAdd(&out[f[k] + r0 + c1], (1 - lh) * lw * gt);
        atomicAdd(&out[f[k] + r1 + c0], lh * (1 - lw) * gt);
        atomicAdd(&out[f[k] + r1 + c1], lh * lw * gt);
      }
    } else {
      const real *x0 = in + f[0], *x1 = in + f[1];
      real v0 = (1 - lh) * ((1 - lw) * x0[r0 + c0] + lw * x0[r0 + c1])
                + lh * ((1 - lw) * x0[r1 + c0] + lw * x0[r1 + c1]);
      real v1 = (1 - lh) * ((1 - lw) * x1[r0 + c0] + lw * x1[r0 + c1])
                + lh * ((1 - lw) * x1[r1 + c0] + lw * x1[r1 + c1]);
      out[i] = (1 - lt) * v0 + lt * v1;
    }
  }
}

/* The forward (gradOutput NULL: result = output) or backward (result =
 * gradInput) pass of a resampling layer whose checks have passed. */
static int THNN_(Resampling_run)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                 int spatial, const THVolume *vin, const THVolume *vout, const THCResampling &r)
{
  int64_t size[TH_MAX_DIM];
  int nd = input->nDimension;
  for (int d = 0; d < nd; d++)
    size[d] = d < nd - spatial ? input->size[d] : vout->size[3 - nd + d];
  if (gradOutput)
    TH_TRY(THCTensor_(resizeAs)(state, result, input));
  else
    TH_TRY(THCTensor_(resizeNd)(state, result, nd, size));
  if (vin->planes == 0)
    return 0;
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, gradOutput ? gradOutput : input, &xTmp);
  int rc = x ? 0 : -1;
  if (rc == 0 && gradOutput)
    rc = THCTensor_(fill)(state, result, 0);
  if (rc == 0) {
    int64_t n = vout->planes * vout->size[0] * vout->size[1] * vout->size[2];
    bool backward = gradOutput != NULL;
    if (r.kind == THC_RESAMPLE_LINEAR)
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Resampling_lerpKernel))(
          THTensor_(data)(x), THTensor_(data)(result), r, backward, n);
    else
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Resampling_copyKernel))(
          THTensor_(data)(x), THTensor_(data)(result), r, backward, n);
    rc = THCCheckLaunch(state, "Resampling_run");
  }
  THCTensor_(release)(&xTmp);
  return rc;
}

/* A padding layer, pads = {left, right, top, bottom, front, back}. */
static int THNN_(Resampling_pad)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                 int spatial, const THVolume *vin, const THVolume *vout, const int64_t pads[6],
                                 bool reflect)
{
  THCResampling r = THCResampling_make(reflect ? THC_RESAMPLE_REFLECT : THC_RESAMPLE_REPLICATE, vin, vout);
  r.before[0] = pads[4];
  r.before[1] = pads[2];
  r.before[2] = pads[0];
  return THNN_(Resampling_run)(state, input, gradOutput, result, spatial, vin, vout, r);
}

/* Nearest up-sampling by scale along the last `spatial` dims. */
static int THNN_(Resampling_nearest)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                     int spatial, const THVolume *vin, const THVolume *vout, int scale)
{
  THCResampling r = THCResampling_make(THC_RESAMPLE_NEAREST, vin, vout);
  for (int d = 3 - spatial; d < 3; d++)
    r.scale[d] = scale;
  return THNN_(Resampling_run)(state, input, gradOutput, result, spatial, vin, vout, r);
}

/* Linear up-sampling (corners aligned). */
static int THNN_(Resampling_linear)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                                    int spatial, const THVolume *vin, const THVolume *vout)
{
  THCResampling r = THCResampling_make(THC_RESAMPLE_LINEAR, vin, vout);
  return THNN_(Resampling_run)(state, input, gradOutput, result, spatial, vin, vout, r);
}

#endif
