/* SeqRecurrent.h: what SeqLSTM and SeqGRU share around their cells,
 * written once: the contiguous copies of their read operands (the
 * recurrent weight, the initial states, the mask) and the recurrent
 * product of a step, out [N, cols] += prev [N, H] W [H, cols].
 *
 * The product: OpenBLAS's gemm costs about a microsecond a call whatever
 * its size (the call, the packing, the thread check), which made the time
 * loop of a small layer (the rnn package's tests and examples: H of 2 to
 * 16) cost a few microseconds a step in two calls to it.  Below
 * SEQ_RECURRENT_DIRECT multiply-adds the product is a plain loop here: each
 * output row's sum over k built in a scratch row (k in increasing order),
 * then added to the row, as gemm with beta 1 adds its sum.  The rounding of
 * the sums may differ from OpenBLAS's in the last place.
 *
 * A generic header: each generic file that uses it includes it, and it
 * defines its functions once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_SEQRECURRENT_FLOAT)
#define THNN_SEQRECURRENT_FLOAT
#define THNN_SEQRECURRENT_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_SEQRECURRENT_DOUBLE)
#define THNN_SEQRECURRENT_DOUBLE
#define THNN_SEQRECURRENT_NOW
#endif

#ifdef THNN_SEQRECURRENT_NOW
#undef THNN_SEQRECURRENT_NOW

#include "THLoop.h"

/* Multiply-adds (N * H * cols) up to which the product is the loop below;
 * cols is then at most SEQ_RECURRENT_COLS (the scratch row). */
#ifndef SEQ_RECURRENT_DIRECT
#define SEQ_RECURRENT_DIRECT 8192
#define SEQ_RECURRENT_COLS 256
#endif

/* The read operands of a time loop, contiguous: the weight, up to two
 * initial states and the mask (NULL when not given), each a pointer into
 * the tensor itself or into a copy kept in the tmp fields until
 * SeqRecurrent_release. */
typedef struct {
  THTensor wTmp, sTmp[2];
  THLongTensor mTmp;
  const real *W, *s[2];
  const int64_t *mask;
} THNN_(SeqRecurrentOperands);

/* Fills op from weight, the nstates (1 or 2) states and mask (or NULL);
 * 0, or -1 with the error set (op is then still to be released). */
static int THNN_(SeqRecurrent_operands)(THNNState *state, THNN_(SeqRecurrentOperands) *op, THTensor *weight,
                                        int nstates, THTensor **states, THIndexTensor *mask)
{
  memset(op, 0, sizeof(*op));
  const THTensor *w = THTensor_(contiguous)(state, weight, &op->wTmp);
  if (!w)
    return -1;
  op->W = THTensor_(data)(w);
  for (int k = 0; k < nstates; k++) {
    const THTensor *s = THTensor_(contiguous)(state, states[k], &op->sTmp[k]);
    if (!s)
      return -1;
    op->s[k] = THTensor_(data)(s);
  }
  if (mask) {
    const THLongTensor *m = THLongTensor_contiguous(state, mask, &op->mTmp);
    if (!m)
      return -1;
    op->mask = THLongTensor_data(m);
  }
  return 0;
}

static void THNN_(SeqRecurrent_release)(THNN_(SeqRecurrentOperands) *op)
{
  THTensor_(release)(&op->wTmp);
  THTensor_(release)(&op->sTmp[0]);
  THTensor_(release)(&op->sTmp[1]);
  THLongTensor_release(&op->mTmp);
}

/* out [N, cols] (rows ldo apart) += prev [N, H] (contiguous) times W [H, cols]
 * (rows ldw apart), for a small product. */
TH_VECTOR_CLONES static void THNN_(SeqRecurrent_smallProduct)(int64_t N, int64_t H, int64_t cols,
                                                              const real *restrict prev, const real *restrict W,
                                                              int64_t ldw, real *restrict out, int64_t ldo)
{
  real sum[SEQ_RECURRENT_COLS];
  for (int64_t b = 0; b < N; b++) {
    const real *p = prev + b * H;
    for (int64_t j = 0; j < cols; j++)
      sum[j] = 0;
    for (int64_t k = 0; k < H; k++) {
      real pk = p[k];
      const real *w = W + k * ldw;
      for (int64_t j = 0; j < cols; j++)
        sum[j] += pk * w[j];
    }
    real *o = out + b * ldo;
    for (int64_t j = 0; j < cols; j++)
      o[j] += sum[j];
  }
}

/* out [N, cols] += prev [N, H] W [H, cols] (row-major; rows ldo and ldw
 * apart, prev contiguous): the loop above when small, else THBlas_(gemm). */
static int THNN_(SeqRecurrent_product)(THNNState *state, int64_t N, int64_t H, int64_t cols, const real *prev,
                                       const real *W, int64_t ldw, real *out, int64_t ldo)
{
  if (cols <= SEQ_RECURRENT_COLS && N * H * cols <= SEQ_RECURRENT_DIRECT) {
    THNN_(SeqRecurrent_smallProduct)(N, H, cols, prev, W, ldw, out, ldo);
    return 0;
  }
  /* column-major: out^T [cols, N] += W^T prev^T */
  return THBlas_(gemm)(state, 'n', 'n', cols, N, H, 1, W, ldw, prev, H, 1, out, ldo);
}

#endif
