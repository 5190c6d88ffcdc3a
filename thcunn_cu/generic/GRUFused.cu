#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/GRUFused.cu"
#else

/* One thread per (sample b, unit j), the math of the CPU kernel
 * (thnn_c/generic/GRUFused.c) in accreal.  Tensors are read through their
 * strides; hy, storage and the gradients are written contiguous. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(GRUFused_shapeCheck)(THNNState *state, THTensor *input, THTensor *hidden, THTensor *bias1,
                                              THTensor *bias2, THTensor *hx, THTensor *storage,
                                              THTensor *gradOutput);

/* A 1D (one row) or 2D tensor: element j of row b; NULL data when missing. */
struct THNN_(GRUView) {
  const real *data;
  int64_t s0, s1;
  int nd;
};

static THNN_(GRUView) THNN_(GRUFused_view)(THTensor *t)
{
  THNN_(GRUView) v = {t ? THTensor_(data)(t) : NULL, t ? t->stride[0] : 0,
                      t && t->nDimension == 2 ? t->stride[1] : 0, t ? t->nDimension : 0};
  return v;
}

__device__ accreal THNN_(GRUFused_at)(THNN_(GRUView) v, int64_t b, int64_t j)
{
  return v.nd == 2 ? v.data[b * v.s0 + j * v.s1] : v.data[j * v.s0];
}

__device__ accreal THNN_(GRUFused_sigmoid)(accreal a)
{
  return 1 / (1 + exp(-a));
}

__global__ void THNN_(GRUFused_forwardKernel)(THNN_(GRUView) in, THNN_(GRUView) hid, THNN_(GRUView) b1,
                                              THNN_(GRUView) b2, THNN_(GRUView) hx, real *out, real *keep,
                                              int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t b = i / H, j = i % H;
    accreal bias[6] = {0, 0, 0, 0, 0, 0};
    for (int g = 0; b1.data && g < 3; g++) {
      bias[g] = THNN_(GRUFused_at)(b1, 0, g * H + j);
      bias[3 + g] = THNN_(GRUFused_at)(b2, 0, g * H + j);
    }
    accreal r = THNN_(GRUFused_sigmoid)(THNN_(GRUFused_at)(in, b, j) + THNN_(GRUFused_at)(hid, b, j) + bias[0]
                                        + bias[3]);
    accreal z = THNN_(GRUFused_sigmoid)(THNN_(GRUFused_at)(in, b, H + j) + THNN_(GRUFused_at)(hid, b, H + j)
                                        + bias[1] + bias[4]);
    accreal hn = THNN_(GRUFused_at)(hid, b, 2 * H + j) + bias[5];
    accreal nn = tanh(THNN_(GRUFused_at)(in, b, 2 * H + j) + bias[2] + r * hn);
    accreal h0 = THNN_(GRUFused_at)(hx, b, j);
    out[i] = (real)((1 - z) * nn + z * h0);
    real *row = keep + b * 5 * H + j;
    row[0] = (real)r;
    row[H] = (real)z;
    row[2 * H] = (real)nn;
    row[3 * H] = (real)h0;
    row[4 * H] = (real)hn;
  }
}

int THNN_(GRUFused_updateOutput)(THNNState *state, THTensor *input, THTensor *hidden, THTensor *bias1,
                                 THTensor *bias2, THTensor *hx, THTensor *hy, THTensor *storage)
{
  TH_TRY(THNN_CPU_(GRUFused_shapeCheck)(state, input, hidden, bias1, bias2, hx, NULL, NULL));
  int nd = hx->nDimension;
  int64_t H = hx->size[nd - 1], batch = nd == 2 ? hx->size[0] : 1;
  int64_t saved[2] = {batch, 5 * H};
  TH_TRY(THCTensor_(resizeAs)(state, hy, hx));
  TH_TRY(THCTensor_(resizeNd)(state, storage, nd, nd == 2 ? saved : saved + 1));
  if (batch * H == 0)
    return 0;
  THC_LAUNCH(THC_blocks(batch * H), THC_NUM_THREADS, THNN_(GRUFused_forwardKernel))(
      THNN_(GRUFused_view)(input), THNN_(GRUFused_view)(hidden), THNN_(GRUFused_view)(bias1),
      THNN_(GRUFused_view)(bias2), THNN_(GRUFused_view)(hx), THTensor_(data)(hy), THTensor_(data)(storage), H,
      batch * H);
  return THCCheckLaunch(state, "GRUFused_updateOutput");
}

__global__ void THNN_(GRUFused_backwardKernel)(THNN_(GRUView) keep, THNN_(GRUView) gradOutput, real *gi, real *gh,
                                               real *ghx, int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t b = i / H, j = i % H;
    accreal r = THNN_(GRUFused_at)(keep, b, j), z = THNN_(GRUFused_at)(keep, b, H + j);
    accreal nn = THNN_(GRUFused_at)(keep, b, 2 * H + j), h0 = THNN_(GRUFused_at)(keep, b, 3 * H + j);
    accreal hn = THNN_(GRUFused_at)(keep, b, 4 * H + j);
    accreal go = THNN_(GRUFused_at)(gradOutput, b, j);
    accreal dz = go * (h0 - nn) * z * (1 - z);
    accreal dn = go * (1 - z) * (1 - nn * nn);
    accreal dr = dn * hn * r * (1 - r);
    int64_t at = b * 3 * H + j;
    gi[at] = gh[at] = (real)dr;
    gi[at + H] = gh[at + H] = (real)dz;
    gi[at + 2 * H] = (real)dn;
    gh[at + 2 * H] = (real)(dn * r);
    ghx[i] = (real)(go * z);
  }
}

int THNN_(GRUFused_updateGradInput)(THNNState *state, THTensor *gradInInput, THTensor *gradInHidden,
                                    THTensor *gradOutput, THTensor *gradInputHx, THTensor *storage)
{
  TH_TRY(THNN_CPU_(GRUFused_shapeCheck)(state, NULL, NULL, NULL, NULL, NULL, storage, gradOutput));
  int nd = gradOutput->nDimension;
  int64_t H = gradOutput->size[nd - 1], batch = nd == 2 ? gradOutput->size[0] : 1;
  int64_t gates[2] = {batch, 3 * H};
  TH_TRY(THCTensor_(resizeNd)(state, gradInInput, nd, nd == 2 ? gates : gates + 1));
  TH_TRY(THCTensor_(resizeNd)(state, gradInHidden, nd, nd == 2 ? gates : gates + 1));
  TH_TRY(THCTensor_(resizeAs)(state, gradInputHx, gradOutput));
  if (batch * H == 0)
    return 0;
  THC_LAUNCH(THC_blocks(batch * H), THC_NUM_THREADS, THNN_(GRUFused_backwardKernel))(
      THNN_(GRUFused_view)(storage), THNN_(GRUFused_view)(gradOutput), THTensor_(data)(gradInInput),
      THTensor_(data)(gradInHidden), THTensor_(data)(gradInputHx), H, batch * H);
  return THCCheckLaunch(state, "GRUFused_updateGradInput");
}

#endif
