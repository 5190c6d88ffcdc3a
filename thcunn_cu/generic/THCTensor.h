/* Device memory of the CUDA tensors, expanded for Float, Double and Long.
 * The struct is thnn_c's THTensor (see THC.h); these are the operations that
 * touch its memory.  The part between the cdef markers is also read by the
 * cffi build (the Python CudaTensor uses it). */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensor.h"
#else

/* cdef-begin */
/* A new device storage of n elements (uninitialised), owned (flag OWNED|DEVICE). */
THStorage *THCStorage_(new)(THNNState *state, int64_t n);
/* Free an owned device storage: its memory and itself. */
void THCStorage_(free)(THStorage *storage);
/* Copy n elements between host memory and a device storage, from/at element offset. */
int THCStorage_(copyFromHost)(THNNState *state, THStorage *dst, int64_t offset, const real *src, int64_t n);
int THCStorage_(copyToHost)(THNNState *state, real *dst, const THStorage *src, int64_t offset, int64_t n);
/* dst = src elementwise (same sizes, any strides, both on the device). */
int THCTensor_(copy)(THNNState *state, THTensor *dst, const THTensor *src);
/* Every element of t set to value. */
int THCTensor_(fill)(THNNState *state, THTensor *t, real value);
/* y += alpha * x (same sizes, both contiguous). */
int THCTensor_(axpy)(THNNState *state, THTensor *y, real alpha, const THTensor *x);
/* cdef-end */

/* As THTensor_(resizeNd) of thnn_c, with device memory. */
int THCTensor_(resizeNd)(THNNState *state, THTensor *t, int nDimension, const int64_t *size);
int THCTensor_(resize1d)(THNNState *state, THTensor *t, int64_t s0);
int THCTensor_(resize2d)(THNNState *state, THTensor *t, int64_t s0, int64_t s1);
int THCTensor_(resizeAs)(THNNState *state, THTensor *t, const THTensor *src);
/* src itself when contiguous, else a device copy in tmp (zeroed; release it). */
const THTensor *THCTensor_(contiguous)(THNNState *state, const THTensor *src, THTensor *tmp);
/* Free t's storage if owned, and empty t. */
void THCTensor_(release)(THTensor *t);

#endif
