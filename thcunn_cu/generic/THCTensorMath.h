/* The device tensor math (Torch7's cutorch part): what the modules written
 * against the shared array interface (nn_legacy/_helpers/namespace.py) run on a
 * CUDA device.  Expanded for Float, Double and Long; the Python side
 * (thnn/_cuda_numpy.py) allocates every result and passes it in, so all
 * results are [INOUT] (written, never resized) except nonzero's.
 *
 * Written like THNN.h, one argument a line with its comment and tags, and
 * read the same way: the binding (thnn.cuda: Device.math) and the kernel
 * fuzzer (tests/fuzz_kernels.py) are driven by these declarations.
 *
 * Conventions:
 * - Every tensor may have any strides (a stride 0 repeats an element: that
 *   is how Python broadcasts); operands have exactly the sizes stated.
 * - A result may be one of the operands itself (the same view: in place);
 *   results that only partly overlap an operand are the caller's to avoid.
 * - Zero-size tensors are fine: nothing is done.
 * - An index out of range is found on the device and named, as numpy
 *   names it; negative indices count from the end, as in numpy.
 * - int64 tensors (THTensor of Long) take only the integer operations of
 *   THCTensorMath.h; the others refuse them. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensorMath.h"
#else

/* cdef-begin */
TH_API int THCTensor_(map)(
          THNNState *state,            // library state: receives the error message
          int op,                      // THC_ID .. THC_ATAN2 (THCTensorMath.h)
          THTensor *out,               // [INOUT] out[i] = op(x[i], y[i])
          THTensor *a,                 // [OPTIONAL] x, out's sizes; NULL: the scalar s
          THTensor *b,                 // [OPTIONAL] y, out's sizes; NULL: the scalar t (one-operand ops ignore y)
          real s,                      // x where a is NULL
          real t);                     // y where b is NULL
TH_API int THCTensor_(compare)(
          THNNState *state,            // library state: receives the error message
          int op,                      // THC_EQ .. THC_ISFINITE (THCTensorMath.h)
          THIndexTensor *out,          // [INOUT] out[i] = op(x[i], y[i]) as 0 or 1
          THTensor *a,                 // [OPTIONAL] x, out's sizes; NULL: the scalar s
          THTensor *b,                 // [OPTIONAL] y, out's sizes; NULL: the scalar t (one-operand ops ignore y)
          real s,                      // x where a is NULL
          real t);                     // y where b is NULL
TH_API int THCTensor_(where)(
          THNNState *state,            // library state: receives the error message
          THTensor *out,               // [INOUT] out[i] = cond[i] != 0 ? x[i] : y[i]
          THIndexTensor *cond,         // the condition, out's sizes
          THTensor *a,                 // [OPTIONAL] x, out's sizes; NULL: the scalar s
          THTensor *b,                 // [OPTIONAL] y, out's sizes; NULL: the scalar t
          real s,                      // x where a is NULL
          real t);                     // y where b is NULL
TH_API int THCTensor_(copyFloat)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst[i] = src[i] converted (to int64: toward zero; NaN, inf and out of range give INT64_MIN)
          THFloatTensor *src);         // float32 source, dst's sizes
TH_API int THCTensor_(copyDouble)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst[i] = src[i] converted (as copyFloat)
          THDoubleTensor *src);        // float64 source, dst's sizes
TH_API int THCTensor_(copyLong)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst[i] = src[i] converted
          THIndexTensor *src);         // int64 source, dst's sizes
TH_API int THCTensor_(reduce)(
          THNNState *state,            // library state: receives the error message
          int op,                      // THC_SUM, THC_PROD, THC_MAX, THC_MIN or THC_NORM
          THTensor *out,               // [INOUT] the reduction of each line along dim: src's sizes with 1 at dim
          THIndexTensor *indices,      // [INOUT] [OPTIONAL] (THC_MAX, THC_MIN) the position of each result along dim, out's sizes
          THTensor *src,               // the tensor reduced (THC_MAX, THC_MIN: at least one element along dim)
          int dim,                     // the dim reduced, 0-based
          double p);                   // (THC_NORM) the exponent; ignored by the others
TH_API int THCTensor_(scan)(
          THNNState *state,            // library state: receives the error message
          int op,                      // THC_SUM (cumulative sum) or THC_PROD (cumulative product)
          THTensor *out,               // [INOUT] out[.., k, ..] = op of src[.., 0..k, ..] along dim, src's sizes
          THTensor *src,               // the tensor scanned
          int dim);                    // the dim scanned, 0-based
TH_API int THCTensor_(indexSelect)(
          THNNState *state,            // library state: receives the error message
          THTensor *out,               // [INOUT] out[.., j, ..] = src[.., index[j], ..]: src's sizes but n along dim
          THTensor *src,               // the tensor read
          int dim,                     // the dim indexed, 0-based
          THIndexTensor *index);       // n positions along dim, 1D [n]
TH_API int THCTensor_(indexAdd)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst[.., index[j], ..] += src[.., j, ..] (repeated positions add up)
          int dim,                     // the dim indexed, 0-based
          THIndexTensor *index,        // n positions along dim, 1D [n]
          THTensor *src);              // dst's sizes but n along dim
TH_API int THCTensor_(gather)(
          THNNState *state,            // library state: receives the error message
          THTensor *out,               // [INOUT] out[.., k, ..] = src[.., index[.., k, ..], ..] along dim, index's sizes
          THTensor *src,               // the tensor read
          int dim,                     // the dim indexed, 0-based
          THIndexTensor *index);       // positions along dim: src's sizes except along dim
TH_API int THCTensor_(scatter)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst[.., index[.., k, ..], ..] = (or +=) src[.., k, ..] along dim
          int dim,                     // the dim indexed, 0-based
          THIndexTensor *index,        // positions along dim: dst's sizes except along dim
          THTensor *src,               // the values, index's sizes
          bool accumulate);            // add (repeated positions add up) instead of assigning (one of them wins)
TH_API int THCTensor_(take)(
          THNNState *state,            // library state: receives the error message
          THTensor *out,               // [INOUT] out[k] = src's element index[k] in row-major order, index's sizes
          THTensor *src,               // the tensor read
          THIndexTensor *index);       // positions in src's row-major order
TH_API int THCTensor_(put)(
          THNNState *state,            // library state: receives the error message
          THTensor *dst,               // [INOUT] dst's element index[k] in row-major order = (or +=) src[k]
          THIndexTensor *index,        // positions in dst's row-major order
          THTensor *src,               // the values, index's sizes
          bool accumulate);            // add (repeated positions add up) instead of assigning (one of them wins)
TH_API int THCTensor_(argsort)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *out,          // [INOUT] out[.., r, ..] = the position along dim of the r-th smallest element of src's line, src's sizes
          THTensor *src,               // the lines sorted along dim: ascending, NaN last, equal elements in their order (stable)
          int dim);                    // the dim sorted, 0-based
TH_API int THCTensor_(nonzero)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *out,          // [OUT] the row-major positions of src's nonzero elements, ascending, 1D
          THTensor *src);              // the tensor searched
TH_API int THCTensor_(addmm)(
          THNNState *state,            // library state: receives the error message
          THTensor *out,               // [INOUT] out = beta * out + alpha * a @ b, [m, n] or [batch, m, n]
          real beta,                   // 0: out is only written (its old values, NaN included, are not read)
          real alpha,                  // factor of the product
          THTensor *a,                 // [m, k] or [batch, m, k]
          THTensor *b);                // [k, n] or [batch, k, n]
TH_API int THCTensor_(random)(
          THNNState *state,            // library state: receives the error message
          int op,                      // THC_UNIFORM (uniform in [a, b)) or THC_NORMAL (mean a, standard deviation b)
          THTensor *t,                 // [INOUT] filled; element k (row-major) is a function of (seed, k) only
          int64_t seed,                // the stream (the module generator draws one per fill)
          double a,                    // lower bound, or mean
          double b);                   // upper bound, or standard deviation
/* cdef-end */

#endif
