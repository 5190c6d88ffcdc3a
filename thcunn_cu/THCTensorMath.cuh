/* THCTensorMath.cuh: the type-independent half of the device tensor math
 * (generic/THCTensorMath.cu is the per-type half): strided element
 * addressing, the operations of THCTensorMath.h on one element, and the
 * kernels, as templates over the element types. */
#ifndef THC_TENSOR_MATH_CUH
#define THC_TENSOR_MATH_CUH

#include <type_traits>

#include "THC.h"
#include "THCTensorMath.h"

/* Where the elements of a strided tensor lie, in the row-major order of its
 * sizes.  Dims of size 1 are dropped and dims that are contiguous with the
 * next one merged (each operand on its own: the row-major order is the same
 * for all), so a contiguous tensor is one dim of stride 1.  nDim 0 with
 * size 1: a single element (or a scalar operand, never read). */
struct THCStrided {
  int nDim;
  int64_t size[TH_MAX_DIM];
  int64_t stride[TH_MAX_DIM];

  __host__ __device__ int64_t offset(int64_t i) const
  {
    if (nDim == 1)
      return i * stride[0];
    int64_t off = 0;
    for (int d = nDim - 1; d >= 0; d--) {
      int64_t k = i % size[d];
      i /= size[d];
      off += k * stride[d];
    }
    return off;
  }
};

/* The layout of n dims with these sizes and strides, collapsed. */
static inline THCStrided THCStrided_make(int nDimension, const int64_t *size, const int64_t *stride)
{
  THCStrided s;
  s.nDim = 0;
  for (int d = 0; d < nDimension; d++) {
    if (size[d] == 1)
      continue;
    if (s.nDim > 0 && s.stride[s.nDim - 1] == stride[d] * size[d]) {
      s.size[s.nDim - 1] *= size[d];
      s.stride[s.nDim - 1] = stride[d];
    } else {
      s.size[s.nDim] = size[d];
      s.stride[s.nDim] = stride[d];
      s.nDim++;
    }
  }
  return s;
}

/* The layout of tensor t (NULL: a scalar operand). */
template <class Tensor>
static inline THCStrided THCStrided_of(const Tensor *t)
{
  if (!t) {
    THCStrided s;
    s.nDim = 0;
    return s;
  }
  return THCStrided_make(t->nDimension, t->size, t->stride);
}

/* The layout of the lines of t along dim: t's strides with the sizes of a
 * tensor that has size 1 at dim (the start of each line, in the row-major
 * order of such a tensor). */
template <class Tensor>
static inline THCStrided THCStrided_lines(const Tensor *t, int dim)
{
  int64_t size[TH_MAX_DIM];
  for (int d = 0; d < t->nDimension; d++)
    size[d] = d == dim ? 1 : t->size[d];
  return THCStrided_make(t->nDimension, size, t->stride);
}

/* The offset of t's element at row-major position i when its coordinate
 * along dim is replaced by k (sizes and strides as given, uncollapsed). */
struct THCDimIndexer {
  int nDim, dim;
  int64_t size[TH_MAX_DIM];
  int64_t stride[TH_MAX_DIM];   /* of the tensor addressed */

  /* the coordinate along dim of position i */
  __host__ __device__ int64_t coordinate(int64_t i) const
  {
    for (int d = nDim - 1; d > dim; d--)
      i /= size[d];
    return i % size[dim];
  }
  /* the offset of position i with its coordinate along dim replaced by k */
  __host__ __device__ int64_t offset(int64_t i, int64_t k) const
  {
    int64_t off = 0;
    for (int d = nDim - 1; d >= 0; d--) {
      int64_t c = i % size[d];
      i /= size[d];
      off += (d == dim ? k : c) * stride[d];
    }
    return off;
  }
};

/* Positions in the row-major order of sizes (from `sized`), addressing
 * the memory of `addressed` (its strides). */
template <class A, class B>
static inline THCDimIndexer THCDimIndexer_make(const A *sized, const B *addressed, int dim)
{
  THCDimIndexer x;
  x.nDim = sized->nDimension;
  x.dim = dim;
  for (int d = 0; d < x.nDim; d++) {
    x.size[d] = sized->size[d];
    x.stride[d] = addressed->stride[d];
  }
  return x;
}

/* 0 when t (a tensor of any element type) has exactly these sizes; else
 * "<name> must be <sizes>, got <t's sizes>" and -1 */
template <class Tensor>
static int THCMath_checkSizes(THNNState *state, const char *name, const Tensor *t, int nDimension,
                              const int64_t *size)
{
  bool ok = t->nDimension == nDimension;
  for (int d = 0; ok && d < nDimension; d++)
    ok = t->size[d] == size[d];
  if (ok)
    return 0;
  char expected[160], actual[160];
  THDescribeSizes(expected, sizeof expected, nDimension, size);
  THDescribeSizes(actual, sizeof actual, t->nDimension, t->size);
  return THError(state, "%s must be %s, got %s", name, expected, actual);
}

/* ---- one element ---- */

template <class T>
__host__ __device__ inline bool THCMath_isnan(T x)
{
  if constexpr (std::is_floating_point<T>::value)
    return x != x;
  else
    return false;
}

/* Whether op is one of THCTensorMath.h's operations of map (compare)
 * that tensors of type T take. */
template <class T>
static inline bool THCMath_mapOpOk(int op)
{
  bool integer_ok = op == THC_ID || op == THC_NEG || op == THC_ABS || op == THC_SIGN || op == THC_SQUARE
      || op == THC_LNOT || op == THC_ADD || op == THC_SUB || op == THC_MUL || op == THC_FLOORDIV || op == THC_MOD
      || op == THC_MAXIMUM || op == THC_MINIMUM || op == THC_LAND || op == THC_LOR || op == THC_LXOR;
  if (!std::is_floating_point<T>::value)
    return integer_ok;
  return (op >= THC_ID && op <= THC_RECIPROCAL) || (op >= THC_ADD && op <= THC_ATAN2);
}

static inline bool THCMath_compareOpOk(int op) { return op >= THC_EQ && op <= THC_ISFINITE; }

/* numpy's floor division and modulo (npy_divmod): q = floor(x / y) and
 * r = x - q * y with the sign of y, computed without double rounding. */
template <class T>
__device__ inline T THCMath_floordiv(T x, T y)
{
  if constexpr (std::is_floating_point<T>::value) {
    if (y == 0)
      return x / y;
    T mod = fmod(x, y);
    T div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0)))
      div -= 1;
    if (div == 0)
      return copysign((T)0, x / y);
    T floordiv = floor(div);
    if (div - floordiv > (T)0.5)
      floordiv += 1;
    return floordiv;
  } else {
    if (y == 0)
      return 0;
    if (y == -1)
      return (T)(0 - (uint64_t)x);   /* INT64_MIN / -1 wraps, as numpy's */
    T q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0)))
      q -= 1;
    return q;
  }
}

template <class T>
__device__ inline T THCMath_mod(T x, T y)
{
  if constexpr (std::is_floating_point<T>::value) {
    if (y == 0)
      return fmod(x, y);
    T mod = fmod(x, y);
    if (mod != 0) {
      if ((y < 0) != (mod < 0))
        mod += y;
    } else {
      mod = copysign((T)0, y);
    }
    return mod;
  } else {
    if (y == 0 || y == -1)
      return 0;
    T r = x % y;
    if (r != 0 && ((r < 0) != (y < 0)))
      r += y;
    return r;
  }
}

/* op of map on one element (op already checked for T) */
template <class T>
__device__ inline T THCMath_apply(int op, T x, T y)
{
  switch (op) {
    case THC_ID: return x;
    case THC_NEG: return (T)(0 - x);
    case THC_ABS: return x < 0 ? (T)(0 - x) : x;
    case THC_SIGN: return THCMath_isnan(x) ? x : (T)((x > 0) - (x < 0));
    case THC_SQUARE: return x * x;
    case THC_LNOT: return (T)(x == 0);
    case THC_ADD: return x + y;
    case THC_SUB: return x - y;
    case THC_MUL: return x * y;
    case THC_FLOORDIV: return THCMath_floordiv(x, y);
    case THC_MOD: return THCMath_mod(x, y);
    case THC_MAXIMUM: return (x >= y || THCMath_isnan(x)) ? x : y;
    case THC_MINIMUM: return (x <= y || THCMath_isnan(x)) ? x : y;
    case THC_LAND: return (T)(x != 0 && y != 0);
    case THC_LOR: return (T)(x != 0 || y != 0);
    case THC_LXOR: return (T)((x != 0) != (y != 0));
    default: break;
  }
  if constexpr (std::is_floating_point<T>::value) {
    switch (op) {
      case THC_EXP: return exp(x);
      case THC_LOG: return log(x);
      case THC_LOG1P: return log1p(x);
      case THC_EXPM1: return expm1(x);
      case THC_SQRT: return sqrt(x);
      case THC_FLOOR: return floor(x);
      case THC_CEIL: return ceil(x);
      case THC_RINT: return rint(x);
      case THC_TRUNC: return trunc(x);
      case THC_TANH: return tanh(x);
      case THC_SIGMOID: return 1 / (1 + exp(-x));
      case THC_SIN: return sin(x);
      case THC_COS: return cos(x);
      case THC_RECIPROCAL: return 1 / x;
      case THC_DIV: return x / y;
      case THC_POW: return pow(x, y);
      case THC_ATAN2: return atan2(x, y);
      case THC_LOGADDEXP: {
        if (x == y)
          return x + (T)0.69314718055994530942;   /* also both inf: inf, both -inf: -inf */
        T d = x - y;
        if (d > 0)
          return x + log1p(exp(-d));
        if (d <= 0)
          return y + log1p(exp(d));
        return d;   /* NaN */
      }
      default: break;
    }
  }
  return x;   /* (not reached: op was checked) */
}

template <class T>
__device__ inline bool THCMath_compare(int op, T x, T y)
{
  switch (op) {
    case THC_EQ: return x == y;
    case THC_NE: return x != y;
    case THC_LT: return x < y;
    case THC_LE: return x <= y;
    case THC_GT: return x > y;
    case THC_GE: return x >= y;
    case THC_ISNAN: return THCMath_isnan(x);
    case THC_ISINF:
      if constexpr (std::is_floating_point<T>::value)
        return isinf(x);
      return false;
    case THC_ISFINITE:
      if constexpr (std::is_floating_point<T>::value)
        return isfinite(x);
      return true;
    default: return false;
  }
}

/* x converted to type To: as a C cast, but float to int64 gives INT64_MIN
 * for NaN, infinities and values out of range (what x86-64 and numpy give;
 * the cast itself would be undefined) */
template <class To, class From>
__device__ inline To THCMath_convert(From x)
{
  if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
    if (!(x >= (From)-9223372036854775808.0 && x < (From)9223372036854775808.0))
      return (To)INT64_MIN;
  }
  return (To)x;
}

/* ---- elementwise kernels ---- */

struct THCMapOp {
  int op;
  template <class T> __device__ T operator()(int64_t, T x, T y) const { return THCMath_apply(op, x, y); }
};
struct THCCompareOp {
  int op;
  template <class T> __device__ int64_t operator()(int64_t, T x, T y) const { return THCMath_compare(op, x, y); }
};
struct THCWhereOp {
  template <class T> __device__ T operator()(int64_t c, T x, T y) const { return c != 0 ? x : y; }
};
template <class To>
struct THCConvertOp {
  template <class T> __device__ To operator()(int64_t, T x, T) const { return THCMath_convert<To>(x); }
};

/* out[i] = f(c[i], x[i], y[i]) over n elements; c, x, y may be NULL (c: 0;
 * x, y: the scalars xs, ys) */
template <class TO, class TX, class F>
__global__ void THCMath_pointwiseKernel(TO *out, THCStrided so, const int64_t *c, THCStrided sc, const TX *x,
                                        THCStrided sx, TX xs, const TX *y, THCStrided sy, TX ys, int64_t n, F f)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t cv = c ? c[sc.offset(i)] : 0;
    TX xv = x ? x[sx.offset(i)] : xs;
    TX yv = y ? y[sy.offset(i)] : ys;
    out[so.offset(i)] = f(cv, xv, yv);
  }
}

/* ---- reductions ---- */

/* A partial result: the accumulated value, and (max, min) its position. */
template <class A>
struct THCValIdx {
  A v;
  int64_t i;
};

template <class A>
struct THCReduceOp {
  int op;
  double p;
  /* the value one element contributes */
  template <class T> __device__ THCValIdx<A> lift(T x, int64_t k) const
  {
    THCValIdx<A> r;
    r.i = k;
    r.v = (A)x;
    if (op == THC_NORM) {
      if constexpr (std::is_floating_point<A>::value) {
        A ax = x < 0 ? -(A)x : (A)x;
        r.v = p == 0 ? (A)(x != 0) : p == 1 || isinf(p) ? ax : p == 2 ? ax * ax : (A)pow(ax, (A)p);
      }
    }
    return r;
  }
  __device__ THCValIdx<A> identity() const
  {
    THCValIdx<A> r;
    r.i = INT64_MAX;
    r.v = op == THC_PROD ? (A)1 : (A)0;
    return r;
  }
  __device__ THCValIdx<A> operator()(THCValIdx<A> a, THCValIdx<A> b) const
  {
    bool is_max = op == THC_MAX || (op == THC_NORM && isinf(p));
    if (op == THC_SUM || (op == THC_NORM && !is_max)) {
      a.v = a.v + b.v;
      return a;
    }
    if (op == THC_PROD) {
      a.v = a.v * b.v;
      return a;
    }
    /* max or min: a NaN wins, then the better value, then the first position */
    if (b.i == INT64_MAX)
      return a;
    if (a.i == INT64_MAX)
      return b;
    bool an = THCMath_isnan(a.v), bn = THCMath_isnan(b.v);
    if (an || bn)
      return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);
    if (a.v == b.v)
      return a.i < b.i ? a : b;
    return (is_max ? a.v > b.v : a.v < b.v) ? a : b;
  }
  __device__ A finish(A v) const
  {
    if constexpr (std::is_floating_point<A>::value) {
      if (op == THC_NORM && p != 0 && p != 1 && !isinf(p))
        return p == 2 ? sqrt(v) : (A)pow(v, 1 / (A)p);
    }
    return v;
  }
};

/* Lines of src along dim: the start of line o is src[lines.offset(o)], its
 * elements step apart; the result goes to out[so.offset(o)] (and its
 * position to indices[si.offset(o)]).  blockPerLine: every block takes
 * lines blockIdx.x, blockIdx.x + gridDim.x, ... and its threads share each
 * line; else every thread takes whole lines. */
template <class T, class A>
__global__ void THCMath_reduceKernel(T *out, THCStrided so, int64_t *indices, THCStrided si, const T *src,
                                     THCStrided lines, int64_t len, int64_t step, int64_t nLines,
                                     THCReduceOp<A> op, bool blockPerLine)
{
  if (blockPerLine) {
    __shared__ THCValIdx<A> scratch[THC_NUM_THREADS];
    for (int64_t o = blockIdx.x; o < nLines; o += gridDim.x) {
      const T *line = src + lines.offset(o);
      THCValIdx<A> acc = op.identity();
      for (int64_t k = threadIdx.x; k < len; k += blockDim.x)
        acc = op(acc, op.lift(line[k * step], k));
      acc = THCBlockReduce(acc, scratch, op);
      if (threadIdx.x == 0) {
        out[so.offset(o)] = (T)op.finish(acc.v);
        if (indices)
          indices[si.offset(o)] = acc.i;
      }
    }
  } else {
    THC_KERNEL_LOOP(o, nLines) {
      const T *line = src + lines.offset(o);
      THCValIdx<A> acc = op.identity();
      for (int64_t k = 0; k < len; k++)
        acc = op(acc, op.lift(line[k * step], k));
      out[so.offset(o)] = (T)op.finish(acc.v);
      if (indices)
        indices[si.offset(o)] = acc.i;
    }
  }
}

/* out's line o = the running sum (product) of src's line o */
template <class T, class A>
__global__ void THCMath_scanKernel(T *out, THCStrided outLines, int64_t outStep, const T *src, THCStrided srcLines,
                                   int64_t srcStep, int64_t len, int64_t nLines, bool product)
{
  THC_KERNEL_LOOP(o, nLines) {
    const T *s = src + srcLines.offset(o);
    T *d = out + outLines.offset(o);
    A acc = product ? 1 : 0;
    for (int64_t k = 0; k < len; k++) {
      acc = product ? (A)(acc * s[k * srcStep]) : (A)(acc + s[k * srcStep]);
      d[k * outStep] = (T)acc;
    }
  }
}

/* ---- indexing ---- */

__device__ inline float THCMath_atomicAdd(float *p, float v) { return atomicAdd(p, v); }
__device__ inline double THCMath_atomicAdd(double *p, double v) { return atomicAdd(p, v); }
__device__ inline int64_t THCMath_atomicAdd(int64_t *p, int64_t v)
{
  return (int64_t)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}

struct THCMath_first {
  template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

/* One block: the first row-major position of index (strided) whose value
 * lies outside [-limit, limit), recorded in the slot. */
__global__ void THCMath_indexCheckKernel(const int64_t *index, THCStrided si, int64_t n, int64_t limit,
                                         THCErrorSlot *slot)
{
  __shared__ int64_t scratch[THC_NUM_THREADS];
  int64_t first = n;
  for (int64_t e = threadIdx.x; e < n && first == n; e += blockDim.x) {
    int64_t v = index[si.offset(e)];
    if (v < -limit || v >= limit)
      first = e;
  }
  first = THCBlockReduce(first, scratch, THCMath_first());
  if (threadIdx.x == 0 && first < n)
    THCErrorSlot_record(slot, index[si.offset(first)], first);
}

/* 0 when every value of index lies in [-limit, limit); else -1 with numpy's
 * message, "index V is out of bounds for axis DIM with size LIMIT" (for a
 * row-major position, dim < 0: "... for size LIMIT"). */
static int THCMath_checkIndex(THNNState *state, const THLongTensor *index, int64_t limit, int dim)
{
  int64_t n = THLongTensor_nElement(index);
  if (n == 0)
    return 0;
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(1, THC_NUM_THREADS, THCMath_indexCheckKernel)(THLongTensor_data(index), THCStrided_of(index), n,
                                                           limit, slot);
  int launched = THCCheckLaunch(state, "index check");
  THCErrorSlot bad;
  TH_TRY(THCErrorSlot_take(state, slot, &bad));
  TH_TRY(launched);
  if (bad.flag && dim < 0)
    return THError(state, "index %lld is out of bounds for size %lld", bad.value, (long long)limit);
  if (bad.flag)
    return THError(state, "index %lld is out of bounds for axis %d with size %lld", bad.value, dim, (long long)limit);
  return 0;
}

__device__ inline int64_t THCMath_wrap(int64_t k, int64_t n) { return k < 0 ? k + n : k; }

/* The modes of the index kernels: which way an element moves. */
enum { THC_INDEX_READ = 0, THC_INDEX_WRITE = 1, THC_INDEX_ADD = 2 };

/* a[ao] = b[bo] (READ), b[bo] = a[ao] (WRITE) or b[bo] += a[ao] (ADD, atomically) */
template <class T>
__device__ inline void THCMath_move(T *a, int64_t ao, T *b, int64_t bo, int mode)
{
  if (mode == THC_INDEX_READ)
    a[ao] = b[bo];
  else if (mode == THC_INDEX_WRITE)
    b[bo] = a[ao];
  else
    THCMath_atomicAdd(&b[bo], a[ao]);
}

/* For every row-major position e of the iteration space (sizes of `it`),
 * the index in range (it was checked before the launch; the kernel checks
 * again, since an index tensor that is also the result may change under it):
 * k = index[ix.offset(e)] (or, per dim, index[coordinate along dim]),
 * READ:  a[it.offset(e)] = b[other.offset(e, k)]
 * WRITE: b[other.offset(e, k)] = a[it.offset(e)]
 * ADD:   b[other.offset(e, k)] += a[it.offset(e)]
 * perDim: the index is 1D and read at e's coordinate along it.dim (index
 * select/add); else read at e (gather/scatter). */
template <class T>
__global__ void THCMath_indexKernel(T *a, THCDimIndexer it, T *b, THCDimIndexer other, const int64_t *index,
                                    THCStrided ix, int64_t limit, int64_t n, int mode, bool perDim)
{
  THC_KERNEL_LOOP(e, n) {
    int64_t k = THCMath_wrap(index[ix.offset(perDim ? it.coordinate(e) : e)], limit);
    if (k < 0 || k >= limit)
      continue;   /* (checked before the launch, but a result that is the index itself may change it) */
    THCMath_move(a, it.offset(e, it.coordinate(e)), b, other.offset(e, k), mode);
  }
}

/* take / put: the positions are row-major positions of the tensor b */
template <class T>
__global__ void THCMath_flatIndexKernel(T *a, THCStrided sa, T *b, THCStrided sb, const int64_t *index,
                                        THCStrided ix, int64_t limit, int64_t n, int mode)
{
  THC_KERNEL_LOOP(e, n) {
    int64_t k = THCMath_wrap(index[ix.offset(e)], limit);
    if (k < 0 || k >= limit)
      continue;   /* (as in THCMath_indexKernel) */
    THCMath_move(a, sa.offset(e), b, sb.offset(k), mode);
  }
}

/* a before b in ascending order, NaN last (two NaNs: equal) */
template <class T>
__device__ inline bool THCMath_less(T a, T b)
{
  return !THCMath_isnan(a) && (THCMath_isnan(b) || a < b);
}

/* argsort by ranks: every element counts the elements of its line that come
 * before it (smaller, or equal and earlier: a stable order) and writes its
 * own position at that rank.  len^2 comparisons per line, all in parallel. */
template <class T>
__global__ void THCMath_argsortKernel(int64_t *out, THCDimIndexer so, const T *src, THCDimIndexer ss, int64_t len,
                                      int64_t n)
{
  THC_KERNEL_LOOP(e, n) {
    int64_t i = ss.coordinate(e), rank = 0;
    T v = src[ss.offset(e, i)];
    for (int64_t j = 0; j < len; j++) {
      T w = src[ss.offset(e, j)];
      rank += THCMath_less(w, v) || (!THCMath_less(v, w) && j < i);
    }
    out[so.offset(e, rank)] = i;
  }
}

/* nonzero, in one block: thread t counts the nonzero elements of its run of
 * positions; a prefix sum over the threads places each run's positions.
 * out NULL: only the total, into *count. */
template <class T>
__global__ void THCMath_nonzeroKernel(const T *src, THCStrided ss, int64_t n, int64_t *out, int64_t *count)
{
  __shared__ int64_t start[THC_NUM_THREADS + 1];
  int64_t run = (n + blockDim.x - 1) / blockDim.x;
  int64_t lo = threadIdx.x * run, hi = lo + run < n ? lo + run : n;
  int64_t mine = 0;
  for (int64_t e = lo; e < hi; e++)
    mine += src[ss.offset(e)] != 0;
  start[threadIdx.x + 1] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    start[0] = 0;
    for (unsigned t = 1; t <= blockDim.x; t++)
      start[t] += start[t - 1];
    if (!out)
      *count = start[blockDim.x];
  }
  __syncthreads();
  if (out) {
    int64_t at = start[threadIdx.x];
    for (int64_t e = lo; e < hi; e++)
      if (src[ss.offset(e)] != 0)
        out[at++] = e;
  }
}

/* ---- random fills ---- */

/* splitmix64: the k-th output of the stream `seed` (a bijective hash of
 * seed + (k + 1) * golden ratio), so every element is independent of the
 * grid and of the other elements. */
__host__ __device__ inline uint64_t THCMath_hash(uint64_t seed, uint64_t k)
{
  uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* U[0, 1): 53 random bits for double, 24 for float (so 1 is never reached) */
template <class T>
__device__ inline T THCMath_unit(uint64_t bits)
{
  if constexpr (std::is_same<T, float>::value)
    return (float)(bits >> 40) * (1.0f / 16777216.0f);
  else
    return (T)(bits >> 11) * (T)(1.0 / 9007199254740992.0);
}

template <class T>
__global__ void THCMath_randomKernel(T *t, THCStrided st, int64_t n, uint64_t seed, bool normal, double a, double b)
{
  THC_KERNEL_LOOP(k, n) {
    T v;
    if (normal) {
      /* Box-Muller on two draws: u1 in (0, 1], u2 in [0, 1) */
      double u1 = ((double)(THCMath_hash(seed, 2 * (uint64_t)k) >> 11) + 1) * (1.0 / 9007199254740992.0);
      double u2 = (double)(THCMath_hash(seed, 2 * (uint64_t)k + 1) >> 11) * (1.0 / 9007199254740992.0);
      v = (T)(a + b * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2));
    } else {
      v = (T)(a + (b - a) * THCMath_unit<T>(THCMath_hash(seed, (uint64_t)k)));
    }
    t[st.offset(k)] = v;
  }
}

#endif
