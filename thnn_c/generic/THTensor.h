/* The tensor core, expanded for Float, Double and Long.
 *
 * A storage is a block of elements; a tensor is a strided view of one:
 * element (i0, i1, ...) lives at storage->data[storageOffset + i0*stride[0] + ...].
 * Strides count elements, not bytes, and may be zero or negative.
 *
 * Ownership.  Tensors handed to a kernel by the Python binding wrap numpy
 * memory: their storage has flag 0 and is never freed by C.  When a kernel
 * resizes an [OUT] or [BUFFER] tensor to a shape it does not already have, it
 * allocates a new storage with TH_STORAGE_OWNED; the binding then adopts it
 * (the numpy array it returns frees it with THStorage_free when collected).
 * So an array returned earlier is never freed, moved or reshaped under its
 * owner.  The part between the cdef markers is also read by the cffi build. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensor.h"
#else

#ifndef TH_STORAGE_OWNED
#define TH_STORAGE_OWNED 1
#endif

/* cdef-begin */
typedef struct THStorage {
  real *data;
  int64_t size;              /* number of elements in data */
  int flag;                  /* TH_STORAGE_OWNED: allocated here, freed by THStorage_free */
} THStorage;

typedef struct THTensor {
  THStorage *storage;        /* NULL for a tensor that has no memory yet */
  int64_t storageOffset;     /* index of element (0, ..., 0) in storage->data */
  int nDimension;            /* 0 means empty; at most TH_MAX_DIM */
  int64_t size[TH_MAX_DIM];
  int64_t stride[TH_MAX_DIM];
} THTensor;

void THStorage_(free)(THStorage *storage);   /* frees an owned storage: its data and itself */
/* The binding's wrapper of a numpy array: s (flag 0, never freed by C) holds
 * the nElement elements at data, and t views s with these sizes and strides
 * (numpy's strides, in bytes: each a whole number of elements, which the
 * binding has checked); the sizes and strides past nDimension are zeroed, so
 * a struct filled again is the same as a new one.  One C call instead of a
 * dozen field stores from Python. */
void THTensor_(wrap)(THTensor *t, THStorage *s, real *data, int64_t nElement, int nDimension,
                     const int64_t *size, const int64_t *strideBytes);
/* cdef-end */

int64_t THTensor_(nElement)(const THTensor *t);
int THTensor_(isContiguous)(const THTensor *t);
int THTensor_(isSameSizeAs)(const THTensor *a, const THTensor *b);
real *THTensor_(data)(const THTensor *t);
/* "2D of size [4, 21]" */
void THTensor_(describe)(const THTensor *t, char *buf, size_t bufsize);
/* Record "<arg> must be <expected>, got <actual sizes>" and return -1. */
int THTensor_(shapeError)(THNNState *state, const char *arg, const THTensor *t, const char *expectedFmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* 0 when t has exactly these sizes; else record
 * "<arg> must be of size [..], got <actual>" and return -1. */
int THTensor_(checkSizes)(THNNState *state, const char *arg, const THTensor *t, int nDimension, const int64_t *size);
/* The same against the sizes of ref (named refName in the message). */
int THTensor_(checkSameSize)(THNNState *state, const char *arg, const THTensor *t, const char *refName, const THTensor *ref);
/* 0 when t has as many elements as ref (any shapes); else record
 * "<arg> must be the same number of elements as <refName> (<ref sizes>), got ...". */
int THTensor_(checkSameNumel)(THNNState *state, const char *arg, const THTensor *t, const char *refName, const THTensor *ref);
/* 0 when t is 3D [planes, h, w] or 4D [batch, planes, h, w] with these
 * planes; else "<arg> must be 3D or 4D with <planes> planes, got ...". */
int THTensor_(checkImages)(THNNState *state, const char *arg, const THTensor *t, int64_t planes);
/* 0 when t is NULL or shaped as a layer's output images: [planes, h, w]
 * for a 3D input `like`, [batch, planes, h, w] (like's batch) for a 4D one;
 * else checkSizes's error.  The gradOutput check of the spatial layers. */
int THTensor_(checkImageSizes)(THNNState *state, const char *arg, const THTensor *t, const THTensor *like,
                               int64_t planes, int64_t h, int64_t w);
/* 0 when t is contiguous (accumulators written in place must be). */
int THTensor_(checkContiguous)(THNNState *state, const char *arg, const THTensor *t);

/* A layer's weight and bias as its shape check reads them, each with the
 * name its messages give it.  updateOutput passes THTensor_(params)(weight,
 * bias), updateGradInput THTensor_(weightOnly)(weight) (a NULL bias is not
 * checked), accGradParameters THTensor_(gradParams)(gradWeight, gradBias),
 * so that its messages name gradWeight and gradBias. */
typedef struct THTensor_(Params) {
  THTensor *weight;
  const char *wName;
  THTensor *bias;
  const char *bName;
} THTensor_(Params);

static inline THTensor_(Params) THTensor_(params)(THTensor *weight, THTensor *bias)
{
  THTensor_(Params) p = {weight, "weight", bias, "bias"};
  return p;
}

static inline THTensor_(Params) THTensor_(weightOnly)(THTensor *weight)
{
  return THTensor_(params)(weight, NULL);
}

static inline THTensor_(Params) THTensor_(gradParams)(THTensor *gradWeight, THTensor *gradBias)
{
  THTensor_(Params) p = {gradWeight, "gradWeight", gradBias, "gradBias"};
  return p;
}

/* The two halves of a resize, shared with the device tensors of thcunn_cu:
 * resizeCheck returns -1 (error set) for sizes that cannot be, 1 when t
 * already has exactly these sizes and is contiguous (nothing to do), else 0
 * with *numel the elements a new storage needs; setContiguous points t at
 * storage with these sizes and contiguous strides. */
int THTensor_(resizeCheck)(THNNState *state, const THTensor *t, int nDimension, const int64_t *size,
                          int64_t *numel);
void THTensor_(setContiguous)(THTensor *t, THStorage *storage, int nDimension, const int64_t *size);

/* Give t these sizes, contiguous.  Keeps its memory when it already has
 * exactly these sizes and is contiguous; otherwise points it at a new owned
 * storage (releasing an owned one it had).  -1 on overflow or no memory. */
int THTensor_(resizeNd)(THNNState *state, THTensor *t, int nDimension, const int64_t *size);
int THTensor_(resize1d)(THNNState *state, THTensor *t, int64_t s0);
int THTensor_(resize2d)(THNNState *state, THTensor *t, int64_t s0, int64_t s1);
int THTensor_(resizeAs)(THNNState *state, THTensor *t, const THTensor *src);
/* Make t a view of src's memory (the in-place modes). */
void THTensor_(set)(THTensor *t, const THTensor *src);

/* A contiguous version of src: src itself when it already is, else a copy
 * made in tmp (which must start zeroed and be released with
 * THTensor_(release)).  NULL (error set) if memory runs out. */
const THTensor *THTensor_(contiguous)(THNNState *state, const THTensor *src, THTensor *tmp);
/* Free the storage of t if this library owns it, and empty t. */
void THTensor_(release)(THTensor *t);

/* Copy src into dst elementwise (same sizes; any strides). */
void THTensor_(copy)(THTensor *dst, const THTensor *src);

#endif
