#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SeqGRU.c"
#else

#include "THLoop.h"
#include "generic/SeqRecurrent.h"

/* The math is in THNN.h.  Per step t, with prev the output of step t - 1
 * (h0 for the first):
 *   gates[t][:, :2H] += prev W_h[:, :2H]          (SeqRecurrent_product)
 *   r, u = sigmoid of them, in place; s = r * prev (a scratch row per sample)
 *   gates[t][:, 2H:] += s W_h[:, 2H:]             (SeqRecurrent_product)
 *   n = tanh of it, in place; h_t = (1 - u) * n + u * prev; the mask.
 * Computed in the element type with the exp and tanh of THLoop.h, in the
 * operations' order of the Python loop it replaces (nn_legacy/SeqGRU.py).
 * W_h, h0 and mask are read through contiguous copies where they are not
 * contiguous (SeqRecurrent_operands). */

/* gates sets seqlen, batch and hiddenSize; mask may be NULL. */
int THNN_(SeqGRU_shapeCheck)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *h0,
                             THIndexTensor *mask)
{
  if (gates->nDimension != 3 || gates->size[2] % 3 != 0)
    return THTensor_(shapeError)(state, "gates", gates, "3D [seqlen, batch, 3*hiddenSize]");
  TH_TRY(THTensor_(checkContiguous)(state, "gates", gates));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 3;
  int64_t w[2] = {H, 3 * H}, s[2] = {N, H}, m[2] = {T, N};
  TH_TRY(THTensor_(checkSizes)(state, "weight", weight, 2, w));
  TH_TRY(THTensor_(checkSizes)(state, "h0", h0, 2, s));
  if (mask)
    TH_TRY(THLongTensor_checkSizes(state, "mask", mask, 2, m));
  return 0;
}

/* The first half of a row's step: r, u = sigmoid in place (a: the row's
 * 3H gates), s = r * prev. */
TH_VECTOR_CLONES static void THNN_(SeqGRU_reset)(real *restrict a, const real *restrict prev, real *restrict s,
                                                 int64_t H)
{
  for (int64_t j = 0; j < 2 * H; j++)
    a[j] = 1 / (1 + THVector_exp(-a[j]));
  for (int64_t j = 0; j < H; j++)
    s[j] = a[j] * prev[j];
}

/* The second half: n = tanh in place, h = (1 - u) * n + u * prev. */
TH_VECTOR_CLONES static void THNN_(SeqGRU_update)(real *restrict a, const real *restrict prev, real *restrict h,
                                                  int64_t H)
{
  for (int64_t j = 0; j < H; j++) {
    real n = THVector_tanh(a[2 * H + j]), u = a[H + j];
    a[2 * H + j] = n;
    h[j] = (1 - u) * n + u * prev[j];
  }
}

int THNN_(SeqGRU_updateOutput)(THNNState *state, THTensor *gates, THTensor *weight, THTensor *h0,
                               THIndexTensor *mask, THTensor *output)
{
  TH_TRY(THNN_(SeqGRU_shapeCheck)(state, gates, weight, h0, mask));
  int64_t T = gates->size[0], N = gates->size[1], H = gates->size[2] / 3;
  int64_t size[3] = {T, N, H};
  TH_TRY(THTensor_(resizeNd)(state, output, 3, size));
  THNN_(SeqRecurrentOperands) op;
  int rc = THNN_(SeqRecurrent_operands)(state, &op, weight, 1, &h0, mask);
  real *scratch = NULL;
  if (rc == 0 && N * H > 0 && !(scratch = THAlloc((size_t)(N * H) * sizeof(real))))
    rc = THError(state, "out of memory for r * h of one step ([%lld, %lld])", (long long)N, (long long)H);
  const real *W = op.W, *prev = op.s[0];
  const int64_t *masked = op.mask;
  real *a = THTensor_(data)(gates), *h = THTensor_(data)(output);
  int nt = THLoopThreads(N * 3 * H);
  for (int64_t t = 0; rc == 0 && t < T; t++) {
    real *at = a + t * N * 3 * H, *ht = h + t * N * H;
    rc = THNN_(SeqRecurrent_product)(state, N, H, 2 * H, prev, W, 3 * H, at, 3 * H);
    if (rc)
      break;
#pragma omp parallel for num_threads(nt) if (nt > 1)
    for (int64_t b = 0; b < N; b++)
      THNN_(SeqGRU_reset)(at + b * 3 * H, prev + b * H, scratch + b * H, H);
    rc = THNN_(SeqRecurrent_product)(state, N, H, H, scratch, W + 2 * H, 3 * H, at + 2 * H, 3 * H);
    if (rc)
      break;
#pragma omp parallel for num_threads(nt) if (nt > 1)
    for (int64_t b = 0; b < N; b++) {
      real *ab = at + b * 3 * H, *hb = ht + b * H;
      THNN_(SeqGRU_update)(ab, prev + b * H, hb, H);
      if (masked && masked[t * N + b]) {
        for (int64_t j = 0; j < H; j++)
          hb[j] = 0;
        for (int64_t j = 0; j < 3 * H; j++)
          ab[j] = 0;
      }
    }
    prev = ht;
  }
  THFree(scratch);
  THNN_(SeqRecurrent_release)(&op);
  return rc;
}

#endif
