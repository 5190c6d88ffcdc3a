#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/GRUFused.c"
#else

/* The math is in THNN.h.  Backward, with go = dL/dhy and a_X the
 * pre-activation of gate X:
 *   dL/dhx  = go * z                            (this step only)
 *   dL/da_z = go * (hx - n) * z (1 - z)
 *   dL/da_n = go * (1 - z) * (1 - n^2)          (= dL/dinput_n)
 *   dL/dhidden_n = dL/da_n * r
 *   dL/da_r = dL/da_n * (hidden_n + bias2_n) * r (1 - r)
 * r and z enter input and hidden alike, so both get dL/da_r and dL/da_z.
 * Tensors are 1D (one row) or 2D [batch, ...] and read through their
 * strides; hy and storage are written contiguous. */

/* Element j of row b of a 1D (a single row) or 2D tensor. */
static accreal THNN_(GRUFused_at)(const THTensor *t, int64_t b, int64_t j)
{
  const real *data = THTensor_(data)(t);
  return t->nDimension == 2 ? data[b * t->stride[0] + j * t->stride[1]] : data[j * t->stride[0]];
}

/* The forward pass gives hx, the backward pass storage: either sets batch
 * and hiddenSize.  Every other argument may be NULL when the verb does not
 * take it. */
int THNN_(GRUFused_shapeCheck)(THNNState *state, THTensor *input, THTensor *hidden,
                                      THTensor *bias1, THTensor *bias2, THTensor *hx,
                                      THTensor *storage, THTensor *gradOutput)
{
  THTensor *ref = hx ? hx : storage;
  int nd = ref->nDimension;
  if (hx && nd != 1 && nd != 2)
    return THTensor_(shapeError)(state, "hx", hx, "1D [hiddenSize] or 2D [batch, hiddenSize]");
  if (!hx && ((nd != 1 && nd != 2) || storage->size[nd - 1] % 5 != 0))
    return THTensor_(shapeError)(state, "storage", storage, "1D [5*hiddenSize] or 2D [batch, 5*hiddenSize]");
  int64_t H = hx ? hx->size[nd - 1] : storage->size[nd - 1] / 5;
  int64_t rows[2] = {ref->size[0], H}, gates[2] = {ref->size[0], 3 * H};
  if (input)
    TH_TRY(THTensor_(checkSizes)(state, "input", input, nd, nd == 2 ? gates : gates + 1));
  if (hidden)
    TH_TRY(THTensor_(checkSizes)(state, "hidden", hidden, nd, nd == 2 ? gates : gates + 1));
  if ((bias1 == NULL) != (bias2 == NULL))
    return THError(state, "bias1 and bias2 must be given together or both be None");
  if (bias1) {
    TH_TRY(THTensor_(checkSizes)(state, "bias1", bias1, 1, gates + 1));
    TH_TRY(THTensor_(checkSizes)(state, "bias2", bias2, 1, gates + 1));
  }
  if (gradOutput)
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, nd, nd == 2 ? rows : rows + 1));
  return 0;
}

static accreal THNN_(GRUFused_sigmoid)(accreal a)
{
  return 1 / (1 + exp(-a));
}

int THNN_(GRUFused_updateOutput)(THNNState *state, THTensor *input, THTensor *hidden,
                                 THTensor *bias1, THTensor *bias2, THTensor *hx,
                                 THTensor *hy, THTensor *storage)
{
  TH_TRY(THNN_(GRUFused_shapeCheck)(state, input, hidden, bias1, bias2, hx, NULL, NULL));
  int nd = hx->nDimension;
  int64_t H = hx->size[nd - 1], batch = nd == 2 ? hx->size[0] : 1;
  int64_t saved[2] = {batch, 5 * H};
  TH_TRY(THTensor_(resizeAs)(state, hy, hx));
  TH_TRY(THTensor_(resizeNd)(state, storage, nd, nd == 2 ? saved : saved + 1));
  real *out = THTensor_(data)(hy), *keep = THTensor_(data)(storage);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < H; j++) {
      accreal bias[6] = {0};
      for (int g = 0; bias1 && g < 3; g++) {
        bias[g] = THNN_(GRUFused_at)(bias1, 0, g * H + j);
        bias[3 + g] = THNN_(GRUFused_at)(bias2, 0, g * H + j);
      }
      accreal r = THNN_(GRUFused_sigmoid)(THNN_(GRUFused_at)(input, b, j) + THNN_(GRUFused_at)(hidden, b, j)
                                          + bias[0] + bias[3]);
      accreal z = THNN_(GRUFused_sigmoid)(THNN_(GRUFused_at)(input, b, H + j)
                                          + THNN_(GRUFused_at)(hidden, b, H + j) + bias[1] + bias[4]);
      accreal hn = THNN_(GRUFused_at)(hidden, b, 2 * H + j) + bias[5];
      accreal n = tanh(THNN_(GRUFused_at)(input, b, 2 * H + j) + bias[2] + r * hn);
      accreal h0 = THNN_(GRUFused_at)(hx, b, j);
      out[b * H + j] = (real)((1 - z) * n + z * h0);
      real *row = keep + b * 5 * H + j;
      row[0] = (real)r;
      row[H] = (real)z;
      row[2 * H] = (real)n;
      row[3 * H] = (real)h0;
      row[4 * H] = (real)hn;
    }
  return 0;
}

int THNN_(GRUFused_updateGradInput)(THNNState *state, THTensor *gradInInput, THTensor *gradInHidden,
                                    THTensor *gradOutput, THTensor *gradInputHx, THTensor *storage)
{
  TH_TRY(THNN_(GRUFused_shapeCheck)(state, NULL, NULL, NULL, NULL, NULL, storage, gradOutput));
  int nd = gradOutput->nDimension;
  int64_t H = gradOutput->size[nd - 1], batch = nd == 2 ? gradOutput->size[0] : 1;
  int64_t gates[2] = {batch, 3 * H};
  TH_TRY(THTensor_(resizeNd)(state, gradInInput, nd, nd == 2 ? gates : gates + 1));
  TH_TRY(THTensor_(resizeNd)(state, gradInHidden, nd, nd == 2 ? gates : gates + 1));
  TH_TRY(THTensor_(resizeAs)(state, gradInputHx, gradOutput));
  real *gi = THTensor_(data)(gradInInput), *gh = THTensor_(data)(gradInHidden);
  real *ghx = THTensor_(data)(gradInputHx);
  for (int64_t b = 0; b < batch; b++)
    for (int64_t j = 0; j < H; j++) {
      accreal r = THNN_(GRUFused_at)(storage, b, j), z = THNN_(GRUFused_at)(storage, b, H + j);
      accreal n = THNN_(GRUFused_at)(storage, b, 2 * H + j), h0 = THNN_(GRUFused_at)(storage, b, 3 * H + j);
      accreal hn = THNN_(GRUFused_at)(storage, b, 4 * H + j);
      accreal go = THNN_(GRUFused_at)(gradOutput, b, j);
      accreal dz = go * (h0 - n) * z * (1 - z);
      accreal dn = go * (1 - z) * (1 - n * n);
      accreal dr = dn * hn * r * (1 - r);
      int64_t at = b * 3 * H + j;
      gi[at] = gh[at] = (real)dr;
      gi[at + H] = gh[at + H] = (real)dz;
      gi[at + 2 * H] = (real)dn;
      gh[at + 2 * H] = (real)(dn * r);
      ghx[b * H + j] = (real)(go * z);
    }
  return 0;
}

#endif
