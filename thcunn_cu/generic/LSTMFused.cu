#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LSTMFused.cu"
#else

/* One thread per (sample b, unit j), the math of the CPU kernel
 * (thnn_c/generic/LSTMFused.c) in accreal.  Tensors are read through their
 * strides; hy, cy, storage and the gradients are written contiguous. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(LSTMFused_shapeCheck)(THNNState *state, THTensor *cx, THTensor *input, THTensor *hidden,
                                               THTensor *bias1, THTensor *bias2, THTensor *storage, THTensor *cy,
                                               THTensor *gradOutput, THTensor *gradOutputCell);

/* A 1D (one row) or 2D tensor: element j of row b; NULL data when missing. */
struct THNN_(LSTMView) {
  const real *data;
  int64_t s0, s1;
  int nd;
};

static THNN_(LSTMView) THNN_(LSTMFused_view)(THTensor *t)
{
  THNN_(LSTMView) v = {t ? THTensor_(data)(t) : NULL, t ? t->stride[0] : 0,
                       t && t->nDimension == 2 ? t->stride[1] : 0, t ? t->nDimension : 0};
  return v;
}

__device__ accreal THNN_(LSTMFused_at)(THNN_(LSTMView) v, int64_t b, int64_t j)
{
  return v.nd == 2 ? v.data[b * v.s0 + j * v.s1] : v.data[j * v.s0];
}

__device__ accreal THNN_(LSTMFused_sigmoid)(accreal a)
{
  return 1 / (1 + exp(-a));
}

__global__ void THNN_(LSTMFused_forwardKernel)(THNN_(LSTMView) in, THNN_(LSTMView) hid, THNN_(LSTMView) b1,
                                               THNN_(LSTMView) b2, THNN_(LSTMView) cx, real *h, real *c,
                                               real *keep, int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t b = t / H, j = t % H;
    accreal a[4];
    for (int q = 0; q < 4; q++) {
      a[q] = THNN_(LSTMFused_at)(in, b, q * H + j) + THNN_(LSTMFused_at)(hid, b, q * H + j);
      if (b1.data)
        a[q] += THNN_(LSTMFused_at)(b1, 0, q * H + j) + THNN_(LSTMFused_at)(b2, 0, q * H + j);
    }
    accreal i = THNN_(LSTMFused_sigmoid)(a[0]), f = THNN_(LSTMFused_sigmoid)(a[1]);
    accreal g = tanh(a[2]), o = THNN_(LSTMFused_sigmoid)(a[3]);
    accreal cNew = f * THNN_(LSTMFused_at)(cx, b, j) + i * g;
    c[t] = (real)cNew;
    h[t] = (real)(o * tanh(cNew));
    real *row = keep + b * 4 * H + j;
    row[0] = (real)i;
    row[H] = (real)f;
    row[2 * H] = (real)g;
    row[3 * H] = (real)o;
  }
}

int THNN_(LSTMFused_updateOutput)(THNNState *state, THTensor *input, THTensor *hidden, THTensor *bias1,
                                  THTensor *bias2, THTensor *cx, THTensor *hy, THTensor *cy, THTensor *storage)
{
  TH_TRY(THNN_CPU_(LSTMFused_shapeCheck)(state, cx, input, hidden, bias1, bias2, NULL, NULL, NULL, NULL));
  int nd = cx->nDimension;
  int64_t H = cx->size[nd - 1], batch = nd == 2 ? cx->size[0] : 1;
  TH_TRY(THCTensor_(resizeAs)(state, hy, cx));
  TH_TRY(THCTensor_(resizeAs)(state, cy, cx));
  TH_TRY(THCTensor_(resizeAs)(state, storage, input));
  if (batch * H == 0)
    return 0;
  THC_LAUNCH(THC_blocks(batch * H), THC_NUM_THREADS, THNN_(LSTMFused_forwardKernel))(
      THNN_(LSTMFused_view)(input), THNN_(LSTMFused_view)(hidden), THNN_(LSTMFused_view)(bias1),
      THNN_(LSTMFused_view)(bias2), THNN_(LSTMFused_view)(cx), THTensor_(data)(hy), THTensor_(data)(cy),
      THTensor_(data)(storage), H, batch * H);
  return THCCheckLaunch(state, "LSTMFused_updateOutput");
}

__global__ void THNN_(LSTMFused_backwardKernel)(THNN_(LSTMView) keep, THNN_(LSTMView) cx, THNN_(LSTMView) cy,
                                                THNN_(LSTMView) gradOutput, THNN_(LSTMView) gradCell, real *gg,
                                                real *gcx, int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t b = t / H, j = t % H;
    accreal i = THNN_(LSTMFused_at)(keep, b, j), f = THNN_(LSTMFused_at)(keep, b, H + j);
    accreal g = THNN_(LSTMFused_at)(keep, b, 2 * H + j), o = THNN_(LSTMFused_at)(keep, b, 3 * H + j);
    accreal tc = tanh(THNN_(LSTMFused_at)(cy, b, j));
    accreal go = THNN_(LSTMFused_at)(gradOutput, b, j);
    accreal dc = go * o * (1 - tc * tc) + (gradCell.data ? THNN_(LSTMFused_at)(gradCell, b, j) : 0);
    real *row = gg + b * 4 * H + j;
    row[0] = (real)(dc * g * i * (1 - i));
    row[H] = (real)(dc * THNN_(LSTMFused_at)(cx, b, j) * f * (1 - f));
    row[2 * H] = (real)(dc * i * (1 - g * g));
    row[3 * H] = (real)(go * tc * o * (1 - o));
    gcx[t] = (real)(dc * f);
  }
}

int THNN_(LSTMFused_updateGradInput)(THNNState *state, THTensor *storage, THTensor *gradInGates, THTensor *cx,
                                     THTensor *cy, THTensor *gradOutput, THTensor *gradOutputCell,
                                     THTensor *gradInputCx)
{
  TH_TRY(THNN_CPU_(LSTMFused_shapeCheck)(state, cx, NULL, NULL, NULL, NULL, storage, cy, gradOutput,
                                         gradOutputCell));
  int nd = cx->nDimension;
  int64_t H = cx->size[nd - 1], batch = nd == 2 ? cx->size[0] : 1;
  TH_TRY(THCTensor_(resizeAs)(state, gradInGates, storage));
  TH_TRY(THCTensor_(resizeAs)(state, gradInputCx, cx));
  if (batch * H == 0)
    return 0;
  THC_LAUNCH(THC_blocks(batch * H), THC_NUM_THREADS, THNN_(LSTMFused_backwardKernel))(
      THNN_(LSTMFused_view)(storage), THNN_(LSTMFused_view)(cx), THNN_(LSTMFused_view)(cy),
      THNN_(LSTMFused_view)(gradOutput), THNN_(LSTMFused_view)(gradOutputCell), THTensor_(data)(gradInGates),
      THTensor_(data)(gradInputCx), H, batch * H);
  return THCCheckLaunch(state, "LSTMFused_updateGradInput");
}

#endif
