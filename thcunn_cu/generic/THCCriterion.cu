/* What the criterion twins share, per real type: sums into the 1-element
 * loss (accreal partial sums, a block reduction, one atomicAdd per block into
 * a device accumulator, then one thread writes the output), the elementwise
 * criterions, and the class NLL of ClassNLL and SpatialClassNLL. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCCriterion.cu"
#else

/* acc[0] += the sum of v over the block; every thread of the block calls it. */
static __device__ void THNN_(Criterion_blockAdd)(accreal v, accreal *acc)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  accreal sum = THCBlockReduce(v, scratch, THCSum());
  if (threadIdx.x == 0)
    atomicAdd(acc, sum);
}

/* A zeroed device accumulator of n accreals (accreal is double). */
static int THNN_(Criterion_accumulator)(THNNState *state, THDoubleTensor *acc, int64_t n)
{
  TH_TRY(THCDoubleTensor_resize1d(state, acc, n));
  return THCDoubleTensor_fill(state, acc, 0);
}

/* output[0] = acc[0] / div1 / div2 */
__global__ void THNN_(Criterion_finishKernel)(const accreal *acc, real *output, accreal div1, accreal div2)
{
  output[0] = (real)(acc[0] / div1 / div2);
}

/* ---- elementwise criterions: loss(x, t) per element, times w when given ---- */

template <class Loss>
__global__ void THNN_(Criterion_sumKernel)(Loss loss, const real *x, const real *t, const real *w, int64_t n,
                                           accreal *acc)
{
  accreal sum = 0;
  THC_KERNEL_LOOP(i, n) {
    accreal l = loss(x[i], t ? t[i] : 0);
    sum += w ? w[i] * l : l;
  }
  THNN_(Criterion_blockAdd)(sum, acc);
}

template <class Grad>
__global__ void THNN_(Criterion_gradKernel)(Grad grad, const real *x, const real *t, const real *w, real *gi,
                                            int64_t n, accreal norm)
{
  THC_KERNEL_LOOP(i, n) {
    accreal g = grad(x[i], t ? t[i] : 0, norm);
    gi[i] = (real)(w ? w[i] * g : g);
  }
}

/* output = sum of w_i loss(x_i, t_i), divided by the element count with
 * sizeAverage; target (L1Cost) and weights may be NULL. */
template <class Loss>
int THNN_(Criterion_sum)(THNNState *state, const THTensor *input, const THTensor *target, const THTensor *weights,
                         THTensor *output, bool sizeAverage, Loss loss)
{
  THTensor xTmp = {}, tTmp = {}, wTmp = {};
  THDoubleTensor acc = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x && target ? THCTensor_(contiguous)(state, target, &tTmp) : NULL;
  const THTensor *w = x && weights ? THCTensor_(contiguous)(state, weights, &wTmp) : NULL;
  int rc = -1;
  if (x && (t || !target) && (w || !weights) && THCTensor_(resize1d)(state, output, 1) == 0
      && THNN_(Criterion_accumulator)(state, &acc, 1) == 0) {
    int64_t n = THTensor_(nElement)(input);
    const real *tp = t ? THTensor_(data)(t) : NULL, *wp = w ? THTensor_(data)(w) : NULL;
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Criterion_sumKernel)<Loss>)(
        loss, THTensor_(data)(x), tp, wp, n, THDoubleTensor_data(&acc));
    THC_LAUNCH(1, 1, THNN_(Criterion_finishKernel))(THDoubleTensor_data(&acc), THTensor_(data)(output),
                                                    (accreal)(sizeAverage && n > 0 ? n : 1), (accreal)1);
    rc = THCCheckLaunch(state, "Criterion_sum");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&tTmp);
  THCTensor_(release)(&wTmp);
  THCDoubleTensor_release(&acc);
  return rc;
}

/* gradInput_i = w_i grad(x_i, t_i, norm); target and weights may be NULL. */
template <class Grad>
int THNN_(Criterion_grad)(THNNState *state, const THTensor *input, const THTensor *target, const THTensor *weights,
                          THTensor *gradInput, accreal norm, Grad grad)
{
  THTensor xTmp = {}, tTmp = {}, wTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  const THTensor *t = x && target ? THCTensor_(contiguous)(state, target, &tTmp) : NULL;
  const THTensor *w = x && weights ? THCTensor_(contiguous)(state, weights, &wTmp) : NULL;
  int rc = -1;
  if (x && (t || !target) && (w || !weights) && THCTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t n = THTensor_(nElement)(input);
    const real *tp = t ? THTensor_(data)(t) : NULL, *wp = w ? THTensor_(data)(w) : NULL;
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Criterion_gradKernel)<Grad>)(
        grad, THTensor_(data)(x), tp, wp, THTensor_(data)(gradInput), n, norm);
    rc = THCCheckLaunch(state, "Criterion_grad");
  }
  THCTensor_(release)(&xTmp);
  THCTensor_(release)(&tTmp);
  THCTensor_(release)(&wTmp);
  return rc;
}

/* ---- class NLL: sample k of N * H * W (H = W = 1 for ClassNLLCriterion) ----
 * takes class c = t[k] of the input at b = k / (H W), pixel p = k % (H W);
 * the input is strided, gradInput contiguous [N, C, H, W]. */
struct THNN_(NLL_layout) {
  int64_t N, C, H, W;
  int64_t sN, sC, sH, sW;   /* the input's strides */
};

/* The weight of class c: 0 when ignored. */
static __device__ real THNN_(NLL_weight)(const real *weights, int64_t wStride, int64_t c, int64_t ignore_index)
{
  return c == ignore_index ? 0 : weights ? weights[c * wStride] : 1;
}

__global__ void THNN_(NLL_forwardKernel)(const real *in, const int64_t *t, const real *weights, int64_t wStride,
                                         THNN_(NLL_layout) L, int64_t ignore_index, accreal *acc)
{
  accreal loss = 0, totalWeight = 0;
  int64_t pixels = L.H * L.W;
  THC_KERNEL_LOOP(k, L.N * pixels) {
    int64_t c = t[k], b = k / pixels, p = k % pixels;
    real w = THNN_(NLL_weight)(weights, wStride, c, ignore_index);
    if (w != 0) {
      loss -= (accreal)w * in[b * L.sN + c * L.sC + p / L.W * L.sH + p % L.W * L.sW];
      totalWeight += w;
    }
  }
  THNN_(Criterion_blockAdd)(loss, acc);
  THNN_(Criterion_blockAdd)(totalWeight, acc + 1);
}

__global__ void THNN_(NLL_finishKernel)(const accreal *acc, real *output, real *totalWeight, bool sizeAverage)
{
  output[0] = (real)(sizeAverage && acc[1] != 0 ? acc[0] / acc[1] : acc[0]);
  totalWeight[0] = (real)acc[1];
}

__global__ void THNN_(NLL_backwardKernel)(const int64_t *t, const real *weights, int64_t wStride,
                                          THNN_(NLL_layout) L, int64_t ignore_index, const real *totalWeight,
                                          bool sizeAverage, real *gi)
{
  real tw = totalWeight[0];
  int64_t pixels = L.H * L.W;
  THC_KERNEL_LOOP(k, L.N * pixels) {
    int64_t c = t[k], b = k / pixels, p = k % pixels;
    real w = THNN_(NLL_weight)(weights, wStride, c, ignore_index);
    if (w != 0)
      gi[(b * L.C + c) * pixels + p] = sizeAverage && tw != 0 ? -w / tw : -w;
  }
}

/* target: contiguous, every value checked (in range or ignore_index). */
static int THNN_(NLL_updateOutput)(THNNState *state, const THTensor *input, THNN_(NLL_layout) L,
                                   const THLongTensor *target, THTensor *output, bool sizeAverage,
                                   const THTensor *weights, THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THCTensor_(resize1d)(state, output, 1));
  TH_TRY(THCTensor_(resize1d)(state, total_weight, 1));
  THDoubleTensor acc = {};
  int rc = THNN_(Criterion_accumulator)(state, &acc, 2);
  if (rc == 0) {
    const real *w = weights ? THTensor_(data)(weights) : NULL;
    int64_t n = L.N * L.H * L.W;
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(NLL_forwardKernel))(
        THTensor_(data)(input), THLongTensor_data(target), w, weights ? weights->stride[0] : 0, L, ignore_index,
        THDoubleTensor_data(&acc));
    THC_LAUNCH(1, 1, THNN_(NLL_finishKernel))(THDoubleTensor_data(&acc), THTensor_(data)(output),
                                              THTensor_(data)(total_weight), sizeAverage);
    rc = THCCheckLaunch(state, "NLL_updateOutput");
  }
  THCDoubleTensor_release(&acc);
  return rc;
}

static int THNN_(NLL_updateGradInput)(THNNState *state, const THTensor *input, THNN_(NLL_layout) L,
                                      const THLongTensor *target, THTensor *gradInput, bool sizeAverage,
                                      const THTensor *weights, const THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THCTensor_(resizeAs)(state, gradInput, input));
  TH_TRY(THCTensor_(fill)(state, gradInput, 0));
  const real *w = weights ? THTensor_(data)(weights) : NULL;
  int64_t n = L.N * L.H * L.W;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(NLL_backwardKernel))(
      THLongTensor_data(target), w, weights ? weights->stride[0] : 0, L, ignore_index,
      THTensor_(data)(total_weight), sizeAverage, THTensor_(data)(gradInput));
  return THCCheckLaunch(state, "NLL_updateGradInput");
}

#endif
