#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LSTMFused.c"
#else

/* The math is in THNN.h.  Backward, with go = dL/dhy, gc = dL/dcy and the
 * saved gates i, f, g, o:
 *   dc      = go * o * (1 - tanh(cy)^2) + gc     (all of dL/dcy)
 *   dL/da_i = dc * g * i (1 - i)
 *   dL/da_f = dc * cx * f (1 - f)
 *   dL/da_g = dc * i * (1 - g^2)
 *   dL/da_o = go * tanh(cy) * o (1 - o)
 *   dL/dcx  = dc * f
 * Tensors are 1D (one row) or 2D [batch, ...] and read through their
 * strides; hy, cy, storage and the gradients are written contiguous.
 * Unlike Torch7's CUDA kernel, the forward pass leaves input untouched and
 * saves the gates in storage. */

/* Element j of row b of a 1D (a single row) or 2D tensor. */
static accreal THNN_(LSTMFused_at)(const THTensor *t, int64_t b, int64_t j)
{
  const real *data = THTensor_(data)(t);
  return t->nDimension == 2 ? data[b * t->stride[0] + j * t->stride[1]] : data[j * t->stride[0]];
}

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

static accreal THNN_(LSTMFused_sigmoid)(accreal a)
{
  return 1 / (1 + exp(-a));
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
  real *h = THTensor_(data)(hy), *c = THTensor_(data)(cy), *keep = THTensor_(data)(storage);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < H; j++) {
      accreal a[4];
      for (int q = 0; q < 4; q++) {
        a[q] = THNN_(LSTMFused_at)(input, b, q * H + j) + THNN_(LSTMFused_at)(hidden, b, q * H + j);
        if (bias1)
          a[q] += THNN_(LSTMFused_at)(bias1, 0, q * H + j) + THNN_(LSTMFused_at)(bias2, 0, q * H + j);
      }
      accreal i = THNN_(LSTMFused_sigmoid)(a[0]), f = THNN_(LSTMFused_sigmoid)(a[1]);
      accreal g = tanh(a[2]), o = THNN_(LSTMFused_sigmoid)(a[3]);
      accreal cNew = f * THNN_(LSTMFused_at)(cx, b, j) + i * g;
      c[b * H + j] = (real)cNew;
      h[b * H + j] = (real)(o * tanh(cNew));
      real *row = keep + b * 4 * H + j;
      row[0] = (real)i;
      row[H] = (real)f;
      row[2 * H] = (real)g;
      row[3 * H] = (real)o;
    }
  return 0;
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
  real *gg = THTensor_(data)(gradInGates), *gcx = THTensor_(data)(gradInputCx);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < H; j++) {
      accreal i = THNN_(LSTMFused_at)(storage, b, j), f = THNN_(LSTMFused_at)(storage, b, H + j);
      accreal g = THNN_(LSTMFused_at)(storage, b, 2 * H + j), o = THNN_(LSTMFused_at)(storage, b, 3 * H + j);
      accreal tc = tanh(THNN_(LSTMFused_at)(cy, b, j));
      accreal go = THNN_(LSTMFused_at)(gradOutput, b, j);
      accreal dc = go * o * (1 - tc * tc) + (gradOutputCell ? THNN_(LSTMFused_at)(gradOutputCell, b, j) : 0);
      real *row = gg + b * 4 * H + j;
      row[0] = (real)(dc * g * i * (1 - i));
      row[H] = (real)(dc * THNN_(LSTMFused_at)(cx, b, j) * f * (1 - f));
      row[2 * H] = (real)(dc * i * (1 - g * g));
      row[3 * H] = (real)(go * tc * o * (1 - o));
      gcx[b * H + j] = (real)(dc * f);
    }
  return 0;
}

#endif
