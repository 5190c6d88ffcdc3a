#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SeqLSTM.cu"
#else

/* The CPU kernel's time loop (thnn_c/generic/SeqLSTM.c) with device
 * pointers: per step the recurrent product by cuBLAS (THCBlas_(gemm), beta
 * 1, into the step's gates), then one thread per (sample b, unit j) for the
 * gates' nonlinearities, c_t, h_t and the mask, in accreal.  W_h, h0, c0 and
 * mask are read through contiguous device copies where they are not. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SeqLSTM_shapeCheck)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *c0,
                                             THTensor *h0, THIndexTensor *mask);

__global__ void THNN_(SeqLSTM_stepKernel)(real *a, const real *prev_c, real *c, real *h, const int64_t *masked,
                                          int64_t H, int64_t n)
{
  THC_KERNEL_LOOP(t, n) {
    int64_t b = t / H, j = t % H;
    real *row = a + b * 4 * H + j;
    if (masked && masked[b]) {
      row[0] = row[H] = row[2 * H] = row[3 * H] = 0;
      c[t] = h[t] = 0;
      continue;
    }
    accreal i = 1 / (1 + exp(-(accreal)row[0])), f = 1 / (1 + exp(-(accreal)row[H]));
    accreal o = 1 / (1 + exp(-(accreal)row[2 * H])), z = tanh((accreal)row[3 * H]);
    accreal cNew = f * prev_c[t] + i * z;
    row[0] = (real)i;
    row[H] = (real)f;
    row[2 * H] = (real)o;
    row[3 * H] = (real)z;
    c[t] = (real)cNew;
    h[t] = (real)(tanh(cNew) * o);
  }
}

int THNN_(SeqLSTM_updateOutput)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *c0, THTensor *h0,
                                THIndexTensor *mask, THTensor *output, THTensor *cell)
{
  TH_TRY(THNN_CPU_(SeqLSTM_shapeCheck)(state, gates, weight, c0, h0, mask));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 4;
  int64_t size[3] = {T, N, H};
  TH_TRY(THCTensor_(resizeNd)(state, output, 3, size));
  TH_TRY(THCTensor_(resizeNd)(state, cell, 3, size));
  THTensor wTmp = {}, hTmp = {}, cTmp = {};
  THLongTensor mTmp = {};
  const THTensor *w = THCTensor_(contiguous)(state, weight, &wTmp);
  const THTensor *hc = w ? THCTensor_(contiguous)(state, h0, &hTmp) : NULL;
  const THTensor *cc = hc ? THCTensor_(contiguous)(state, c0, &cTmp) : NULL;
  const THLongTensor *mc = cc && mask ? THCLongTensor_contiguous(state, mask, &mTmp) : NULL;
  int rc = cc && (!mask || mc) ? 0 : -1;
  const real *W = rc ? NULL : THTensor_(data)(w);
  const real *prev_h = rc ? NULL : THTensor_(data)(hc), *prev_c = rc ? NULL : THTensor_(data)(cc);
  const int64_t *masked = mc ? THLongTensor_data(mc) : NULL;
  real *a = THTensor_(data)(gates), *h = THTensor_(data)(output), *c = THTensor_(data)(cell);
  for (int64_t t = 0; rc == 0 && t < T && N * H > 0; t++) {
    real *at = a + t * N * 4 * H, *ct = c + t * N * H, *ht = h + t * N * H;
    rc = THCBlas_(gemm)(state, 'n', 'n', 4 * H, N, H, 1, W, 4 * H, prev_h, H, 1, at, 4 * H);
    if (rc)
      break;
    THC_LAUNCH(THC_blocks(N * H), THC_NUM_THREADS, THNN_(SeqLSTM_stepKernel))(
        at, prev_c, ct, ht, masked ? masked + t * N : NULL, H, N * H);
    rc = THCCheckLaunch(state, "SeqLSTM_updateOutput");
    prev_h = ht;
    prev_c = ct;
  }
  THCTensor_(release)(&wTmp);
  THCTensor_(release)(&hTmp);
  THCTensor_(release)(&cTmp);
  THCLongTensor_release(&mTmp);
  return rc;
}

#endif
