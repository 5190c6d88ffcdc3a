#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SeqGRU.cu"
#else

/* The CPU kernel's time loop (thnn_c/generic/SeqGRU.c) with device
 * pointers: per step cuBLAS for the two recurrent products (beta 1, into
 * the step's gates) and one thread per (sample b, unit j) for each half of
 * the elementwise work, in accreal.  r * h_{t-1} goes through a device
 * scratch [batch, hiddenSize]. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SeqGRU_shapeCheck)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *h0,
                                            THIndexTensor *mask);

/* r, u = sigmoid in place; s = r * prev */
__global__ void THNN_(SeqGRU_resetKernel)(real *a, const real *prev, real *s, int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t b = t / H, j = t % H;
    real *row = a + b * 3 * H + j;
    real r = (real)(1 / (1 + exp(-(accreal)row[0])));
    row[0] = r;
    row[H] = (real)(1 / (1 + exp(-(accreal)row[H])));
    s[t] = (real)((accreal)r * prev[t]);
  }
}

/* n = tanh in place; h = (1 - u) * n + u * prev; the mask */
__global__ void THNN_(SeqGRU_updateKernel)(real *a, const real *prev, real *h, const int64_t *masked, int64_t H,
                                           int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t b = t / H, j = t % H;
    real *row = a + b * 3 * H + j;
    if (masked && masked[b]) {
      row[0] = row[H] = row[2 * H] = 0;
      h[t] = 0;
      continue;
    }
    accreal nn = tanh((accreal)row[2 * H]), u = row[H];
    row[2 * H] = (real)nn;
    h[t] = (real)((1 - u) * nn + u * prev[t]);
  }
}

int THNN_(SeqGRU_updateOutput)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *h0,
                               THIndexTensor *mask, THTensor *output)
{
  TH_TRY(THNN_CPU_(SeqGRU_shapeCheck)(state, gates, weight, h0, mask));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 3;
  int64_t size[3] = {T, N, H};
  TH_TRY(THCTensor_(resizeNd)(state, output, 3, size));
  THTensor wTmp = {}, hTmp = {}, sTmp = {};
  THLongTensor mTmp = {};
  const THTensor *w = THCTensor_(contiguous)(state, weight, &wTmp);
  const THTensor *hc = w ? THCTensor_(contiguous)(state, h0, &hTmp) : NULL;
  const THLongTensor *mc = hc && mask ? THCLongTensor_contiguous(state, mask, &mTmp) : NULL;
  int rc = hc && (!mask || mc) && THCTensor_(resize2d)(state, &sTmp, N, H) == 0 ? 0 : -1;
  const real *W = rc ? NULL : THTensor_(data)(w), *prev = rc ? NULL : THTensor_(data)(hc);
  const int64_t *masked = mc ? THLongTensor_data(mc) : NULL;
  real *a = THTensor_(data)(gates), *h = THTensor_(data)(output), *s = rc ? NULL : THTensor_(data)(&sTmp);
  for (int64_t t = 0; rc == 0 && t < T && N * H > 0; t++) {
    real *at = a + t * N * 3 * H, *ht = h + t * N * H;
    rc = THCBlas_(gemm)(state, 'n', 'n', 2 * H, N, H, 1, W, 3 * H, prev, H, 1, at, 3 * H);
    if (rc)
      break;
    THC_LAUNCH(THC_blocks(N * H), THC_NUM_THREADS, THNN_(SeqGRU_resetKernel))(at, prev, s, H, N * H);
    rc = THCCheckLaunch(state, "SeqGRU_updateOutput")
         || THCBlas_(gemm)(state, 'n', 'n', H, N, H, 1, W + 2 * H, 3 * H, s, H, 1, at + 2 * H, 3 * H) ? -1 : 0;
    if (rc)
      break;
    THC_LAUNCH(THC_blocks(N * H), THC_NUM_THREADS, THNN_(SeqGRU_updateKernel))(
        at, prev, ht, masked ? masked + t * N : NULL, H, N * H);
    rc = THCCheckLaunch(state, "SeqGRU_updateOutput");
    prev = ht;
  }
  THCTensor_(release)(&wTmp);
  THCTensor_(release)(&hTmp);
  THCTensor_(release)(&sTmp);
  THCLongTensor_release(&mTmp);
  return rc;
}

#endif
