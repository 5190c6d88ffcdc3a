/* Activation.cu: the elementwise driver shared by the activation twins (not
 * a layer of THNN.h).  A pointwise twin is an op and one call:
 *
 *   result[i] = op(a[i], b[i], c[i], i)
 *
 * over contiguous copies of its operands.  b and c are optional (a missing
 * one repeats the operand before it; the op ignores it); i lets an op reach tensors of
 * its own (PReLU's slopes, LogSigmoid's buffer, RReLU's noise).  Out of
 * place, result is resized as a.  In place, the result is written over a
 * itself (through a contiguous copy written back when a is strided) and
 * result becomes a view of a, as the CPU kernels do with THTensor_(set):
 * so the in-place operand is always a (input forward, gradOutput backward).
 * Also here: THCActivation_rowBlocks, the grid of the one-block-per-row
 * kernels (SoftMax, LogSoftMax, PReLU's weight gradient). */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Activation.cu"
#else

#ifndef THC_ACTIVATION_KERNEL
#define THC_ACTIVATION_KERNEL
template <class T, class Op>
__global__ void THCActivation_mapKernel(T *out, const T *a, const T *b, const T *c, int64_t n, Op op)
{
  THC_KERNEL_LOOP(i, n) out[i] = op(a[i], b[i], c[i], i);
}

/* Blocks for a kernel that gives each of rows rows (softmax rows, PReLU
 * channels) a block of its own, capped as THC_blocks caps (the kernel loops
 * over its rows with a stride of gridDim.x). */
static inline unsigned THCActivation_rowBlocks(int64_t rows)
{
  return (unsigned)(rows < 1 ? 1 : rows > THC_MAX_BLOCKS ? THC_MAX_BLOCKS : rows);
}
#endif

/* result = a view of a (THTensor_(set), after freeing device memory result
 * owned, which THTensor_(set) would hand to the host allocator). */
static void THNN_(Activation_view)(THTensor *result, THTensor *a)
{
  if (result != a && result->storage != a->storage)
    THCTensor_(release)(result);
  THTensor_(set)(result, a);
}

template <class Op>
static int THNN_(Activation_map)(THNNState *state, const char *where, THTensor *result, bool inplace, Op op,
                                 THTensor *a, THTensor *b = NULL, THTensor *c = NULL)
{
  THTensor aTmp = {}, bTmp = {}, cTmp = {};
  const THTensor *ca = THCTensor_(contiguous)(state, a, &aTmp);
  const THTensor *cb = ca && b ? THCTensor_(contiguous)(state, b, &bTmp) : ca;
  const THTensor *cc = cb && c ? THCTensor_(contiguous)(state, c, &cTmp) : cb;
  THTensor *dst = inplace ? (ca == a ? a : &aTmp) : result;
  int rc = -1;
  if (cc && (inplace || THCTensor_(resizeAs)(state, result, a) == 0)) {
    int64_t n = THTensor_(nElement)(a);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCActivation_mapKernel<real, Op>)(
        THTensor_(data)(dst), THTensor_(data)(ca), THTensor_(data)(cb), THTensor_(data)(cc), n, op);
    rc = THCCheckLaunch(state, where);
    if (rc == 0 && inplace && dst != a)
      rc = THCTensor_(copy)(state, a, dst);
    if (rc == 0 && inplace)
      THNN_(Activation_view)(result, a);
  }
  THCTensor_(release)(&aTmp);
  THCTensor_(release)(&bTmp);
  THCTensor_(release)(&cTmp);
  return rc;
}

#endif
