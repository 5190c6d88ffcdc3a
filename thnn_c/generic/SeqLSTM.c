#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SeqLSTM.c"
#else

#include "THLoop.h"
#include "generic/SeqRecurrent.h"

/* The math is in THNN.h.  Per step t, with prev_h, prev_c the states of
 * step t - 1 (h0, c0 for the first):
 *   gates[t] += prev_h W_h          (SeqRecurrent_product)
 *   then, row by row: the gates' nonlinearities in place, c_t, h_t, and
 *   the mask (a masked sample's h_t, c_t and gates are zeroed).
 * Computed in the element type with the exp and tanh of THLoop.h, in the
 * operations' order of the Python loop it replaces (nn_legacy/SeqLSTM.py):
 * sigmoid(a) = 1 / (1 + exp(-a)), c = f * prev_c + i * z, h = tanh(c) * o.
 * W_h, h0, c0 and mask are read through contiguous copies where they are
 * not contiguous (SeqRecurrent_operands). */

/* gates sets seqlen, batch and hiddenSize; mask may be NULL. */
int THNN_(SeqLSTM_shapeCheck)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *c0, THTensor *h0,
                              THIndexTensor *mask)
{
  if (gates->nDimension != 3 || gates->size[2] % 4 != 0)
    return THTensor_(shapeError)(state, "gates", gates, "3D [seqlen, batch, 4*hiddenSize]");
  TH_TRY(THTensor_(checkContiguous)(state, "gates", gates));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 4;
  int64_t w[2] = {H, 4 * H}, s[2] = {N, H}, m[2] = {T, N};
  TH_TRY(THTensor_(checkSizes)(state, "weight", weight, 2, w));
  TH_TRY(THTensor_(checkSizes)(state, "c0", c0, 2, s));
  TH_TRY(THTensor_(checkSizes)(state, "h0", h0, 2, s));
  if (mask)
    TH_TRY(THLongTensor_checkSizes(state, "mask", mask, 2, m));
  return 0;
}

/* One row (sample) of step t: a holds the gates' pre-activations i, f, o, z
 * (H each), turned into the gates in place; c and h of the step. */
TH_VECTOR_CLONES static void THNN_(SeqLSTM_row)(real *restrict a, const real *restrict prev_c, real *restrict c,
                                                real *restrict h, int64_t H)
{
  for (int64_t j = 0; j < 3 * H; j++)
    a[j] = 1 / (1 + THVector_exp(-a[j]));
  for (int64_t j = 3 * H; j < 4 * H; j++)
    a[j] = THVector_tanh(a[j]);
  for (int64_t j = 0; j < H; j++) {
    real cNew = a[H + j] * prev_c[j] + a[j] * a[3 * H + j];
    c[j] = cNew;
    h[j] = THVector_tanh(cNew) * a[2 * H + j];
  }
}

int THNN_(SeqLSTM_updateOutput)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *c0, THTensor *h0,
                                THIndexTensor *mask, THTensor *output, THTensor *cell)
{
  TH_TRY(THNN_(SeqLSTM_shapeCheck)(state, gates, weight, c0, h0, mask));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 4;
  int64_t size[3] = {T, N, H};
  TH_TRY(THTensor_(resizeNd)(state, output, 3, size));
  TH_TRY(THTensor_(resizeNd)(state, cell, 3, size));
  THNN_(SeqRecurrentOperands) op;
  THTensor *states[2] = {h0, c0};
  int rc = THNN_(SeqRecurrent_operands)(state, &op, weight, 2, states, mask);
  const real *W = op.W, *prev_h = op.s[0], *prev_c = op.s[1];
  const int64_t *masked = op.mask;
  real *a = THTensor_(data)(gates), *h = THTensor_(data)(output), *c = THTensor_(data)(cell);
  int nt = THLoopThreads(N * 4 * H);
  for (int64_t t = 0; rc == 0 && t < T; t++) {
    real *at = a + t * N * 4 * H, *ct = c + t * N * H, *ht = h + t * N * H;
    rc = THNN_(SeqRecurrent_product)(state, N, H, 4 * H, prev_h, W, 4 * H, at, 4 * H);
    if (rc)
      break;
#pragma omp parallel for num_threads(nt) if (nt > 1)
    for (int64_t b = 0; b < N; b++) {
      real *ab = at + b * 4 * H, *cb = ct + b * H, *hb = ht + b * H;
      THNN_(SeqLSTM_row)(ab, prev_c + b * H, cb, hb, H);
      if (masked && masked[t * N + b]) {
        for (int64_t j = 0; j < H; j++)
          hb[j] = cb[j] = 0;
        for (int64_t j = 0; j < 4 * H; j++)
          ab[j] = 0;
      }
    }
    prev_h = ht;
    prev_c = ct;
  }
  THNN_(SeqRecurrent_release)(&op);
  return rc;
}

#endif
