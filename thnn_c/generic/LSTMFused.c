#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LSTMFused.c"
#else

#include "THLoop.h"

/* The math is in THNN.h.  Backward, with go = dL/dhy, gc = dL/dcy and the
 * saved gates i, f, g, o:
 *   dc      = go * o * (1 - tanh(cy)^2) + gc     (all of dL/dcy)
 *   dL/da_i = dc * g * i (1 - i)
 *   dL/da_f = dc * cx * f (1 - f)
 *   dL/da_g = dc * i * (1 - g^2)
 *   dL/da_o = go * tanh(cy) * o (1 - o)
 *   dL/dcx  = dc * f
 * Tensors are 1D (one row) or 2D [batch, ...]; strided ones are read from
 * contiguous copies; hy, cy, storage and the gradients are written
 * contiguous.  Computed in the element type, with the vectorized exp and
 * tanh of THLoop.h.
 * Unlike Torch7's CUDA kernel, the forward pass leaves input untouched and
 * saves the gates in storage. */

/* cx sets batch and hiddenSize; every other argument may be NULL when the
 * verb does not take it. */
int THNN_(LSTMFused_shapeCheck)(THNNState *state, THTensor *cx, THTensor *input, THTensor *hidden,
                                       THTensor *bias1, THTensor *bias2, THTensor *storage,
                                       THTensor *cy, THTensor *gradOutput, THTensor *gradOutputCell)
{
  int nd = cx->nDimension;
  if (nd != 1 && nd != 2)
    return THTensor_(shapeError)(state, "cx", cx, "1D [hiddenSize] or 2D [batch, hiddenSize]");
  int64_t gates[2] = {cx->size[0], 4 * cx->size[nd - 1]}, *g = nd == 2 ? gates : gates + 1;
  if (input)
    TH_TRY(THTensor_(checkSizes)(state, "input", input, nd, g));
  if (hidden)
    TH_TRY(THTensor_(checkSizes)(state, "hidden", hidden, nd, g));
  if (storage)
    TH_TRY(THTensor_(checkSizes)(state, "storage", storage, nd, g));
  if ((bias1 == NULL) != (bias2 == NULL))
    return THError(state, "bias1 and bias2 must be given together or both be None");
  if (bias1) {
    TH_TRY(THTensor_(checkSizes)(state, "bias1", bias1, 1, gates + 1));
    TH_TRY(THTensor_(checkSizes)(state, "bias2", bias2, 1, gates + 1));
  }
  if (cy)
    TH_TRY(THTensor_(checkSameSize)(state, "cy", cy, "cx", cx));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "cx", cx));
  if (gradOutputCell)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutputCell", gradOutputCell, "cx", cx));
  return 0;
}

/* The two passes on one row of contiguous data (H hidden units, 4H gates
 * in the order i, f, g, o), vectorized (see THLoop.h): the gate sums from
 * input, hidden and bias (the two biases added once per call; NULL: none),
 * the gates kept in `keep`, the new cell state c and hidden state h.  (No
 * branch inside: a missing bias or dL/dcy is passed as zeros; and restrict,
 * as the binding never hands a kernel an [OUT] array that overlaps another
 * argument: with them the loops vectorize.) */
TH_VECTOR_CLONES static void THNN_(LSTMFused_forwardRow)(const real *restrict in, const real *restrict hid,
                                                         const real *restrict bias, const real *restrict cx,
                                                         real *restrict h, real *restrict c, real *restrict keep,
                                                         int64_t H)
{
  for (int64_t j = 0; j < H; j++) {
    real ai = in[j] + hid[j] + bias[j], af = in[H + j] + hid[H + j] + bias[H + j];
    real ag = in[2 * H + j] + hid[2 * H + j] + bias[2 * H + j];
    real ao = in[3 * H + j] + hid[3 * H + j] + bias[3 * H + j];
    real i = 1 / (1 + THVector_exp(-ai)), f = 1 / (1 + THVector_exp(-af));
    real g = THVector_tanh(ag), o = 1 / (1 + THVector_exp(-ao));
    real cNew = f * cx[j] + i * g;
    c[j] = cNew;
    h[j] = o * THVector_tanh(cNew);
    keep[j] = i;
    keep[H + j] = f;
    keep[2 * H + j] = g;
    keep[3 * H + j] = o;
  }
}

TH_VECTOR_CLONES static void THNN_(LSTMFused_backwardRow)(const real *restrict keep, const real *restrict cx,
                                                          const real *restrict cy, const real *restrict go,
                                                          const real *restrict gc, real *restrict gg,
                                                          real *restrict gcx, int64_t H)
{
  for (int64_t j = 0; j < H; j++) {
    real i = keep[j], f = keep[H + j], g = keep[2 * H + j], o = keep[3 * H + j];
    real tc = THVector_tanh(cy[j]);
    real dc = go[j] * o * (1 - tc * tc) + gc[j];
    gg[j] = dc * g * i * (1 - i);
    gg[H + j] = dc * cx[j] * f * (1 - f);
    gg[2 * H + j] = dc * i * (1 - g * g);
    gg[3 * H + j] = go[j] * tc * o * (1 - o);
    gcx[j] = dc * f;
  }
}

/* Contiguous views of up to n tensors (NULL stays NULL) in tmp, or -1 (error
 * set) with those made so far released. */
static int THNN_(LSTMFused_contiguous)(THNNState *state, int n, THTensor **t, const THTensor **out, THTensor *tmp)
{
  for (int k = 0; k < n; k++) {
    tmp[k] = (THTensor){0};
    out[k] = t[k] ? THTensor_(contiguous)(state, t[k], &tmp[k]) : NULL;
    if (t[k] && !out[k]) {
      for (int j = 0; j < k; j++)
        THTensor_(release)(&tmp[j]);
      return -1;
    }
  }
  return 0;
}

int THNN_(LSTMFused_updateOutput)(THNNState *state, THTensor *input, THTensor *hidden,
                                  THTensor *bias1, THTensor *bias2, THTensor *cx,
                                  THTensor *hy, THTensor *cy, THTensor *storage)
{
  TH_TRY(THNN_(LSTMFused_shapeCheck)(state, cx, input, hidden, bias1, bias2, NULL, NULL, NULL, NULL));
  int nd = cx->nDimension;
  int64_t H = cx->size[nd - 1], batch = nd == 2 ? cx->size[0] : 1;
  TH_TRY(THTensor_(resizeAs)(state, hy, cx));
  TH_TRY(THTensor_(resizeAs)(state, cy, cx));
  TH_TRY(THTensor_(resizeAs)(state, storage, input));
  THTensor *args[5] = {input, hidden, bias1, bias2, cx}, tmp[5];
  const THTensor *t[5];
  TH_TRY(THNN_(LSTMFused_contiguous)(state, 5, args, t, tmp));
  real *bias = THAlloc((size_t)(4 * H) * sizeof(real));
  int rc = 0;
  if (H && !bias) {
    rc = THError(state, "out of memory for the summed biases");
  } else {
    for (int64_t k = 0; k < 4 * H; k++)
      bias[k] = bias1 ? THTensor_(data)(t[2])[k] + THTensor_(data)(t[3])[k] : 0;
    const real *in = THTensor_(data)(t[0]), *hid = THTensor_(data)(t[1]), *c0 = THTensor_(data)(t[4]);
    real *h = THTensor_(data)(hy), *c = THTensor_(data)(cy), *keep = THTensor_(data)(storage);
    int nt = THLoopThreads(batch * 4 * H);
#pragma omp parallel for num_threads(nt) if (nt > 1)
    for (int64_t b = 0; b < batch; b++)
      THNN_(LSTMFused_forwardRow)(in + b * 4 * H, hid + b * 4 * H, bias, c0 + b * H, h + b * H, c + b * H,
                                  keep + b * 4 * H, H);
  }
  THFree(bias);
  for (int k = 0; k < 5; k++)
    THTensor_(release)(&tmp[k]);
  return rc;
}

int THNN_(LSTMFused_updateGradInput)(THNNState *state, THTensor *storage, THTensor *gradInGates,
                                     THTensor *cx, THTensor *cy, THTensor *gradOutput,
                                     THTensor *gradOutputCell, THTensor *gradInputCx)
{
  TH_TRY(THNN_(LSTMFused_shapeCheck)(state, cx, NULL, NULL, NULL, NULL, storage, cy, gradOutput,
                                     gradOutputCell));
  int nd = cx->nDimension;
  int64_t H = cx->size[nd - 1], batch = nd == 2 ? cx->size[0] : 1;
  TH_TRY(THTensor_(resizeAs)(state, gradInGates, storage));
  TH_TRY(THTensor_(resizeAs)(state, gradInputCx, cx));
  THTensor *args[5] = {storage, cx, cy, gradOutput, gradOutputCell}, tmp[5];
  const THTensor *t[5];
  TH_TRY(THNN_(LSTMFused_contiguous)(state, 5, args, t, tmp));
  const real *keep = THTensor_(data)(t[0]), *c0 = THTensor_(data)(t[1]), *c1 = THTensor_(data)(t[2]);
  const real *go = THTensor_(data)(t[3]), *gc = t[4] ? THTensor_(data)(t[4]) : NULL;
  real *gg = THTensor_(data)(gradInGates), *gcx = THTensor_(data)(gradInputCx);
  real *zeros = gc ? NULL : THAlloc((size_t)H * sizeof(real));   /* dL/dcy when not given */
  int rc = 0;
  if (!gc && H && !zeros) {
    rc = THError(state, "out of memory for a row of zeros");
  } else {
    for (int64_t j = 0; !gc && j < H; j++)
      zeros[j] = 0;
    int nt = THLoopThreads(batch * 4 * H);
#pragma omp parallel for num_threads(nt) if (nt > 1)
    for (int64_t b = 0; b < batch; b++)
      THNN_(LSTMFused_backwardRow)(keep + b * 4 * H, c0 + b * H, c1 + b * H, go + b * H, gc ? gc + b * H : zeros,
                                   gg + b * 4 * H, gcx + b * H, H);
  }
  THFree(zeros);
  for (int k = 0; k < 5; k++)
    THTensor_(release)(&tmp[k]);
  return rc;
}

#endif
