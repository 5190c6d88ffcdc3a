#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensorMath.cu"
#else

/* The device tensor math for one element type: argument checks, then a
 * launch of a kernel of THCTensorMath.cuh.  See generic/THCTensorMath.h. */

#if defined(TH_REAL_IS_FLOAT)
#define THC_MATH_TYPE "float32"
#elif defined(TH_REAL_IS_DOUBLE)
#define THC_MATH_TYPE "float64"
#else
#define THC_MATH_TYPE "int64"
#endif

#define THC_MATH_DATA(t) ((t) ? THTensor_(data)(t) : NULL)

/* "<name> must be <n>D like <refName>, got <t's sizes>" */
template <class Tensor>
static int THCTensor_(dimsError)(THNNState *state, const char *name, const Tensor *t, const char *refName,
                                 const THTensor *ref)
{
  char buf[160];
  THDescribeSizes(buf, sizeof buf, t->nDimension, t->size);
  return THError(state, "%s must be %dD like %s, got %s", name, ref->nDimension, refName, buf);
}

/* dim must name a dim of t */
static int THCTensor_(checkDim)(THNNState *state, const THTensor *t, const char *name, int dim)
{
  if (dim < 0 || dim >= t->nDimension) {
    char buf[160];
    THTensor_(describe)(t, buf, sizeof buf);
    return THError(state, "dim %d is out of range for %s (%s)", dim, name, buf);
  }
  return 0;
}

/* t's sizes with size n at dim (n < 0: t's own) */
static void THCTensor_(sizesWith)(const THTensor *t, int dim, int64_t n, int64_t *size)
{
  for (int d = 0; d < t->nDimension; d++)
    size[d] = d == dim && n >= 0 ? n : t->size[d];
}

/* An operand given as a tensor must have out's sizes. */
static int THCTensor_(checkOperands)(THNNState *state, const int64_t *outSize, int nd, THTensor *a, THTensor *b)
{
  if (a)
    TH_TRY(THTensor_(checkSizes)(state, "a", a, nd, outSize));
  if (b)
    TH_TRY(THTensor_(checkSizes)(state, "b", b, nd, outSize));
  return 0;
}

int THCTensor_(map)(THNNState *state, int op, THTensor *out, THTensor *a, THTensor *b, real s, real t)
{
  if (!THCMath_mapOpOk<real>(op))
    return THError(state, "op %d is not an elementwise operation of %s tensors (THCTensorMath.h)", op, THC_MATH_TYPE);
  TH_TRY(THCTensor_(checkOperands)(state, out->size, out->nDimension, a, b));
  int64_t n = THTensor_(nElement)(out);
  if (n == 0)
    return 0;
  THCStrided none = THCStrided_of((THTensor *)NULL);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_pointwiseKernel<real, real, THCMapOp>)(
      THTensor_(data)(out), THCStrided_of(out), (const int64_t *)NULL, none, THC_MATH_DATA(a), THCStrided_of(a), s,
      THC_MATH_DATA(b), THCStrided_of(b), t, n, THCMapOp{op});
  return THCCheckLaunch(state, "map");
}

int THCTensor_(compare)(THNNState *state, int op, THLongTensor *out, THTensor *a, THTensor *b, real s, real t)
{
  if (!THCMath_compareOpOk(op))
    return THError(state, "op %d is not a comparison (THCTensorMath.h)", op);
  TH_TRY(THCTensor_(checkOperands)(state, out->size, out->nDimension, a, b));
  int64_t n = THLongTensor_nElement(out);
  if (n == 0)
    return 0;
  THCStrided none = THCStrided_of((THTensor *)NULL);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_pointwiseKernel<int64_t, real, THCCompareOp>)(
      THLongTensor_data(out), THCStrided_of(out), (const int64_t *)NULL, none, THC_MATH_DATA(a), THCStrided_of(a),
      s, THC_MATH_DATA(b), THCStrided_of(b), t, n, THCCompareOp{op});
  return THCCheckLaunch(state, "compare");
}

int THCTensor_(where)(THNNState *state, THTensor *out, THLongTensor *cond, THTensor *a, THTensor *b, real s, real t)
{
  TH_TRY(THLongTensor_checkSizes(state, "cond", cond, out->nDimension, out->size));
  TH_TRY(THCTensor_(checkOperands)(state, out->size, out->nDimension, a, b));
  int64_t n = THTensor_(nElement)(out);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_pointwiseKernel<real, real, THCWhereOp>)(
      THTensor_(data)(out), THCStrided_of(out), THLongTensor_data(cond), THCStrided_of(cond), THC_MATH_DATA(a),
      THCStrided_of(a), s, THC_MATH_DATA(b), THCStrided_of(b), t, n, THCWhereOp{});
  return THCCheckLaunch(state, "where");
}

/* dst = src converted, src a tensor of element type From */
template <class From, class SrcTensor>
static int THCTensor_(convertFrom)(THNNState *state, THTensor *dst, const SrcTensor *src, From *data)
{
  TH_TRY(THCMath_checkSizes(state, "src", src, dst->nDimension, dst->size));
  int64_t n = THTensor_(nElement)(dst);
  if (n == 0)
    return 0;
  THCStrided none = THCStrided_of((THTensor *)NULL);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_pointwiseKernel<real, From, THCConvertOp<real>>)(
      THTensor_(data)(dst), THCStrided_of(dst), (const int64_t *)NULL, none, data, THCStrided_of(src), (From)0,
      (const From *)NULL, none, (From)0, n, THCConvertOp<real>{});
  return THCCheckLaunch(state, "copy");
}

int THCTensor_(copyFloat)(THNNState *state, THTensor *dst, THFloatTensor *src)
{
  return THCTensor_(convertFrom)(state, dst, src, THFloatTensor_data(src));
}

int THCTensor_(copyDouble)(THNNState *state, THTensor *dst, THDoubleTensor *src)
{
  return THCTensor_(convertFrom)(state, dst, src, THDoubleTensor_data(src));
}

int THCTensor_(copyLong)(THNNState *state, THTensor *dst, THLongTensor *src)
{
  return THCTensor_(convertFrom)(state, dst, src, THLongTensor_data(src));
}

int THCTensor_(reduce)(THNNState *state, int op, THTensor *out, THLongTensor *indices, THTensor *src, int dim,
                       double p)
{
  bool floating = std::is_floating_point<real>::value;
  if (op < THC_SUM || op > THC_NORM || (op == THC_NORM && !floating))
    return THError(state, "op %d is not a reduction of %s tensors (THCTensorMath.h)", op, THC_MATH_TYPE);
  if (indices && op != THC_MAX && op != THC_MIN)
    return THError(state, "indices are for THC_MAX and THC_MIN only, got op %d", op);
  if (op == THC_NORM && !(p >= 0))
    return THError(state, "the norm's p must be at least 0 (or inf), got %g", p);
  TH_TRY(THCTensor_(checkDim)(state, src, "src", dim));
  int64_t size[TH_MAX_DIM];
  THCTensor_(sizesWith)(src, dim, 1, size);
  TH_TRY(THTensor_(checkSizes)(state, "out", out, src->nDimension, size));
  if (indices)
    TH_TRY(THLongTensor_checkSizes(state, "indices", indices, src->nDimension, size));
  int64_t len = src->size[dim], nLines = THTensor_(nElement)(out);
  if (nLines == 0)
    return 0;
  if (len == 0 && (op == THC_MAX || op == THC_MIN))
    return THError(state, "the %s of zero elements (dim %d of size 0) has no value", op == THC_MAX ? "max" : "min",
                   dim);
  /* long lines: a block shares each line; short ones: a thread takes each */
  bool blockPerLine = len >= 128;
  unsigned blocks = blockPerLine ? (unsigned)(nLines < THC_MAX_BLOCKS ? nLines : THC_MAX_BLOCKS) : THC_blocks(nLines);
  THC_LAUNCH(blocks, THC_NUM_THREADS, THCMath_reduceKernel<real, accreal>)(
      THTensor_(data)(out), THCStrided_of(out), indices ? THLongTensor_data(indices) : (int64_t *)NULL,
      THCStrided_of(indices), THTensor_(data)(src), THCStrided_lines(src, dim), len, src->stride[dim], nLines,
      THCReduceOp<accreal>{op, p}, blockPerLine);
  return THCCheckLaunch(state, "reduce");
}

int THCTensor_(scan)(THNNState *state, int op, THTensor *out, THTensor *src, int dim)
{
  if (op != THC_SUM && op != THC_PROD)
    return THError(state, "op %d is not a scan (THC_SUM or THC_PROD)", op);
  TH_TRY(THCTensor_(checkDim)(state, src, "src", dim));
  TH_TRY(THTensor_(checkSameSize)(state, "out", out, "src", src));
  int64_t n = THTensor_(nElement)(src), len = src->size[dim];
  if (n == 0)
    return 0;
  int64_t nLines = n / len;
  THC_LAUNCH(THC_blocks(nLines), THC_NUM_THREADS, THCMath_scanKernel<real, accreal>)(
      THTensor_(data)(out), THCStrided_lines(out, dim), out->stride[dim], THTensor_(data)(src),
      THCStrided_lines(src, dim), src->stride[dim], len, nLines, op == THC_PROD);
  return THCCheckLaunch(state, "scan");
}

/* index must be 1D */
static int THCTensor_(checkIndex1d)(THNNState *state, THLongTensor *index)
{
  if (index->nDimension != 1) {
    char buf[160];
    THLongTensor_describe(index, buf, sizeof buf);
    return THError(state, "index must be 1D, got %s", buf);
  }
  return 0;
}

/* The index kernels' launch: for every element of `a` (the iteration
 * space), an element moves between a and b (mode: THC_INDEX_READ, _WRITE,
 * _ADD) at the position index gives along dim (perDim: a 1D index read at
 * the coordinate along dim; else an index shaped as a, read element by
 * element); limit is b's size along dim, for negative indices. */
static int THCTensor_(indexLaunch)(THNNState *state, const char *where, THTensor *a, THTensor *b, int dim,
                                   THLongTensor *index, int mode, bool perDim)
{
  int64_t n = THTensor_(nElement)(a);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_indexKernel<real>)(
      THTensor_(data)(a), THCDimIndexer_make(a, a, dim), THTensor_(data)(b), THCDimIndexer_make(a, b, dim),
      THLongTensor_data(index), THCStrided_of(index), b->size[dim], n, mode, perDim);
  return THCCheckLaunch(state, where);
}

/* As indexLaunch, with index holding row-major positions of b (take, put). */
static int THCTensor_(flatLaunch)(THNNState *state, const char *where, THTensor *a, THTensor *b,
                                  THLongTensor *index, int mode)
{
  int64_t n = THTensor_(nElement)(a);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_flatIndexKernel<real>)(
      THTensor_(data)(a), THCStrided_of(a), THTensor_(data)(b), THCStrided_of(b), THLongTensor_data(index),
      THCStrided_of(index), THTensor_(nElement)(b), n, mode);
  return THCCheckLaunch(state, where);
}

/* a 1D index of positions along dim of t, whose sizes with n along dim are other's */
static int THCTensor_(checkSelect)(THNNState *state, THTensor *t, const char *name, int dim, THLongTensor *index,
                                   THTensor *other, const char *otherName)
{
  TH_TRY(THCTensor_(checkDim)(state, t, name, dim));
  TH_TRY(THCTensor_(checkIndex1d)(state, index));
  int64_t size[TH_MAX_DIM];
  THCTensor_(sizesWith)(t, dim, index->size[0], size);
  TH_TRY(THTensor_(checkSizes)(state, otherName, other, t->nDimension, size));
  return THCMath_checkIndex(state, index, t->size[dim], dim);
}

int THCTensor_(indexSelect)(THNNState *state, THTensor *out, THTensor *src, int dim, THLongTensor *index)
{
  TH_TRY(THCTensor_(checkSelect)(state, src, "src", dim, index, out, "out"));
  return THCTensor_(indexLaunch)(state, "indexSelect", out, src, dim, index, THC_INDEX_READ, true);
}

int THCTensor_(indexAdd)(THNNState *state, THTensor *dst, int dim, THLongTensor *index, THTensor *src)
{
  TH_TRY(THCTensor_(checkSelect)(state, dst, "dst", dim, index, src, "src"));
  return THCTensor_(indexLaunch)(state, "indexAdd", src, dst, dim, index, THC_INDEX_ADD, true);
}

/* index has t's number of dims and t's sizes except along dim; other has index's sizes */
static int THCTensor_(checkAlong)(THNNState *state, THTensor *t, const char *name, int dim, THLongTensor *index,
                                  THTensor *other, const char *otherName)
{
  TH_TRY(THCTensor_(checkDim)(state, t, name, dim));
  if (index->nDimension != t->nDimension)
    return THCTensor_(dimsError)(state, "index", index, name, t);
  int64_t size[TH_MAX_DIM];
  THCTensor_(sizesWith)(t, dim, index->size[dim], size);
  TH_TRY(THLongTensor_checkSizes(state, "index", index, t->nDimension, size));
  TH_TRY(THTensor_(checkSizes)(state, otherName, other, index->nDimension, index->size));
  return THCMath_checkIndex(state, index, t->size[dim], dim);
}

int THCTensor_(gather)(THNNState *state, THTensor *out, THTensor *src, int dim, THLongTensor *index)
{
  TH_TRY(THCTensor_(checkAlong)(state, src, "src", dim, index, out, "out"));
  return THCTensor_(indexLaunch)(state, "gather", out, src, dim, index, THC_INDEX_READ, false);
}

int THCTensor_(scatter)(THNNState *state, THTensor *dst, int dim, THLongTensor *index, THTensor *src, bool accumulate)
{
  TH_TRY(THCTensor_(checkAlong)(state, dst, "dst", dim, index, src, "src"));
  return THCTensor_(indexLaunch)(state, "scatter", src, dst, dim, index,
                                 accumulate ? THC_INDEX_ADD : THC_INDEX_WRITE, false);
}

int THCTensor_(take)(THNNState *state, THTensor *out, THTensor *src, THLongTensor *index)
{
  TH_TRY(THTensor_(checkSizes)(state, "out", out, index->nDimension, index->size));
  TH_TRY(THCMath_checkIndex(state, index, THTensor_(nElement)(src), -1));
  return THCTensor_(flatLaunch)(state, "take", out, src, index, THC_INDEX_READ);
}

int THCTensor_(put)(THNNState *state, THTensor *dst, THLongTensor *index, THTensor *src, bool accumulate)
{
  TH_TRY(THTensor_(checkSizes)(state, "src", src, index->nDimension, index->size));
  TH_TRY(THCMath_checkIndex(state, index, THTensor_(nElement)(dst), -1));
  return THCTensor_(flatLaunch)(state, "put", src, dst, index, accumulate ? THC_INDEX_ADD : THC_INDEX_WRITE);
}

int THCTensor_(argsort)(THNNState *state, THLongTensor *out, THTensor *src, int dim)
{
  TH_TRY(THCTensor_(checkDim)(state, src, "src", dim));
  TH_TRY(THLongTensor_checkSizes(state, "out", out, src->nDimension, src->size));
  int64_t n = THTensor_(nElement)(src);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_argsortKernel<real>)(
      THLongTensor_data(out), THCDimIndexer_make(src, out, dim), THTensor_(data)(src),
      THCDimIndexer_make(src, src, dim), src->size[dim], n);
  return THCCheckLaunch(state, "argsort");
}

int THCTensor_(nonzero)(THNNState *state, THLongTensor *out, THTensor *src)
{
  int64_t n = THTensor_(nElement)(src), count = 0;
  if (n > 0) {
    void *p = NULL;
    if (cudaMalloc(&p, sizeof(int64_t)) != cudaSuccess || !p) {
      cudaGetLastError();
      return THError(state, "out of device memory (nonzero count)");
    }
    THC_LAUNCH(1, THC_NUM_THREADS, THCMath_nonzeroKernel<real>)(THTensor_(data)(src), THCStrided_of(src), n,
                                                                 (int64_t *)NULL, (int64_t *)p);
    int rc = THCCheckLaunch(state, "nonzero");
    if (rc == 0 && cudaMemcpy(&count, p, sizeof(int64_t), cudaMemcpyDeviceToHost) != cudaSuccess)
      rc = THError(state, "nonzero: reading the count failed: %s", cudaGetErrorString(cudaGetLastError()));
    cudaFree(p);
    TH_TRY(rc);
  }
  TH_TRY(THCLongTensor_resize1d(state, out, count));
  if (count == 0)
    return 0;
  THC_LAUNCH(1, THC_NUM_THREADS, THCMath_nonzeroKernel<real>)(THTensor_(data)(src), THCStrided_of(src), n,
                                                               THLongTensor_data(out), (int64_t *)NULL);
  return THCCheckLaunch(state, "nonzero");
}

#if defined(TH_REAL_IS_LONG)

int THCTensor_(addmm)(THNNState *state, THTensor *out, real beta, real alpha, THTensor *a, THTensor *b)
{
  return THError(state, "matrix products take float32 or float64 tensors, not int64");
}

int THCTensor_(random)(THNNState *state, int op, THTensor *t, int64_t seed, double a, double b)
{
  return THError(state, "random fills take float32 or float64 tensors, not int64");
}

#else

/* How BLAS reads a matrix of r rows and c columns with strides s0, s1 for
 * the row-major product (see addmm): 'n' when its rows are contiguous, 't'
 * when its columns are, with the leading dimension in *ld; 0 when neither. */
static char THCTensor_(blasLayout)(int64_t r, int64_t c, int64_t s0, int64_t s1, int64_t *ld)
{
  if ((c == 1 || s1 == 1) && (r == 1 || s0 >= (c > 1 ? c : 1))) {
    *ld = r == 1 ? (c > 1 ? c : 1) : s0;
    return 'n';
  }
  if ((r == 1 || s0 == 1) && (c == 1 || s1 >= (r > 1 ? r : 1))) {
    *ld = c == 1 ? (r > 1 ? r : 1) : s1;
    return 't';
  }
  return 0;
}

/* x itself when BLAS can read its matrices, else a contiguous copy in tmp */
static const THTensor *THCTensor_(blasOperand)(THNNState *state, THTensor *x, THTensor *tmp, char *layout,
                                               int64_t *ld)
{
  int nd = x->nDimension;
  *layout = THCTensor_(blasLayout)(x->size[nd - 2], x->size[nd - 1], x->stride[nd - 2], x->stride[nd - 1], ld);
  if (*layout)
    return x;
  const THTensor *c = THCTensor_(contiguous)(state, x, tmp);
  if (c)
    *layout = THCTensor_(blasLayout)(c->size[nd - 2], c->size[nd - 1], c->stride[nd - 2], c->stride[nd - 1], ld);
  return c;
}

int THCTensor_(addmm)(THNNState *state, THTensor *out, real beta, real alpha, THTensor *a, THTensor *b)
{
  int nd = out->nDimension;
  if (nd != 2 && nd != 3) {
    char buf[160];
    THTensor_(describe)(out, buf, sizeof buf);
    return THError(state, "out must be 2D [m, n] or 3D [batch, m, n], got %s", buf);
  }
  if (a->nDimension != nd)
    return THCTensor_(dimsError)(state, "a", a, "out", out);
  if (b->nDimension != nd)
    return THCTensor_(dimsError)(state, "b", b, "out", out);
  int64_t batch = nd == 3 ? out->size[0] : 1, m = out->size[nd - 2], n = out->size[nd - 1], k = a->size[nd - 1];
  int64_t aSize[3] = {batch, m, k}, bSize[3] = {batch, k, n};
  TH_TRY(THTensor_(checkSizes)(state, "a", a, nd, aSize + 3 - nd));
  TH_TRY(THTensor_(checkSizes)(state, "b", b, nd, bSize + 3 - nd));
  if (batch == 0 || m == 0 || n == 0)
    return 0;
  if (k == 0)   /* an empty sum: out = beta * out (0 * NaN is not read when beta is 0) */
    return beta == 0 ? THCTensor_(map)(state, THC_ID, out, NULL, NULL, 0, 0)
                     : THCTensor_(map)(state, THC_MUL, out, out, NULL, 0, beta);
  THTensor aTmp = {}, bTmp = {}, cTmp = {};
  char la = 0, lb = 0, lc;
  int64_t lda = 0, ldb = 0, ldc = 0;
  const THTensor *ca = THCTensor_(blasOperand)(state, a, &aTmp, &la, &lda);
  const THTensor *cb = ca ? THCTensor_(blasOperand)(state, b, &bTmp, &lb, &ldb) : NULL;
  /* the result: out itself when its rows are contiguous, else a copy written back */
  THTensor *c = out;
  lc = THCTensor_(blasLayout)(m, n, out->stride[nd - 2], out->stride[nd - 1], &ldc);
  int rc = cb ? 0 : -1;
  if (rc == 0 && lc != 'n') {
    c = &cTmp;
    rc = THCTensor_(resizeAs)(state, c, out);
    if (rc == 0 && beta != 0)
      rc = THCTensor_(copy)(state, c, out);
    ldc = n;
  }
  /* row-major C = A B is column-major C^T = B^T A^T */
  for (int64_t i = 0; rc == 0 && i < batch; i++) {
    const real *pa = THTensor_(data)(ca) + (nd == 3 ? i * ca->stride[0] : 0);
    const real *pb = THTensor_(data)(cb) + (nd == 3 ? i * cb->stride[0] : 0);
    real *pc = THTensor_(data)(c) + (nd == 3 ? i * c->stride[0] : 0);
    rc = THCBlas_(gemm)(state, lb, la, n, m, k, alpha, pb, ldb, pa, lda, beta, pc, ldc);
  }
  if (rc == 0 && c != out)
    rc = THCTensor_(copy)(state, out, c);
  THCTensor_(release)(&aTmp);
  THCTensor_(release)(&bTmp);
  THCTensor_(release)(&cTmp);
  return rc;
}

int THCTensor_(random)(THNNState *state, int op, THTensor *t, int64_t seed, double a, double b)
{
  if (op != THC_UNIFORM && op != THC_NORMAL)
    return THError(state, "op %d is not a random fill (THC_UNIFORM or THC_NORMAL)", op);
  if (op == THC_NORMAL && !(b >= 0))
    return THError(state, "the standard deviation must be at least 0, got %g", b);
  int64_t n = THTensor_(nElement)(t);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCMath_randomKernel<real>)(
      THTensor_(data)(t), THCStrided_of(t), n, (uint64_t)seed, op == THC_NORMAL, a, b);
  return THCCheckLaunch(state, "random");
}

#endif

#undef THC_MATH_TYPE
#undef THC_MATH_DATA

#endif
