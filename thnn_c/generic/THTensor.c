#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THTensor.c"
#else

void THStorage_(free)(THStorage *storage)
{
  if (storage && (storage->flag & TH_STORAGE_OWNED)) {
    THFree(storage->data);
    THFree(storage);
  }
}

void THTensor_(wrap)(THTensor *t, THStorage *s, real *data, int64_t nElement, int nDimension,
                     const int64_t *size, const int64_t *strideBytes)
{
  s->data = data;
  s->size = nElement;
  s->flag = 0;
  t->storage = s;
  t->storageOffset = 0;
  t->nDimension = nDimension;
  for (int d = 0; d < nDimension; d++) {
    t->size[d] = size[d];
    t->stride[d] = strideBytes[d] / (int64_t)sizeof(real);
  }
  for (int d = nDimension; d < TH_MAX_DIM; d++) {   /* as in a new struct: the binding reuses them */
    t->size[d] = 0;
    t->stride[d] = 0;
  }
}

int64_t THTensor_(nElement)(const THTensor *t)
{
  if (t->nDimension <= 0)
    return 0;
  int64_t n = 1;
  for (int d = 0; d < t->nDimension; d++)
    n *= t->size[d];
  return n;
}

int THTensor_(isContiguous)(const THTensor *t)
{
  /* no element to lay out: any strides will do (numpy gives empty arrays
   * zero strides, e.g. np.zeros((0, 4)).strides == (0, 0)) */
  if (THTensor_(nElement)(t) == 0)
    return 1;
  int64_t expected = 1;
  for (int d = t->nDimension - 1; d >= 0; d--) {
    if (t->size[d] != 1) {
      if (t->stride[d] != expected)
        return 0;
      expected *= t->size[d];
    }
  }
  return 1;
}

int THTensor_(isSameSizeAs)(const THTensor *a, const THTensor *b)
{
  if (a->nDimension != b->nDimension)
    return 0;
  for (int d = 0; d < a->nDimension; d++)
    if (a->size[d] != b->size[d])
      return 0;
  return 1;
}

real *THTensor_(data)(const THTensor *t)
{
  return t->storage ? t->storage->data + t->storageOffset : NULL;
}

void THTensor_(describe)(const THTensor *t, char *buf, size_t bufsize)
{
  THDescribeSizes(buf, bufsize, t->nDimension, t->size);
}

int THTensor_(shapeError)(THNNState *state, const char *arg, const THTensor *t, const char *expectedFmt, ...)
{
  char expected[256], actual[160];
  va_list args;
  va_start(args, expectedFmt);
  vsnprintf(expected, sizeof expected, expectedFmt, args);
  va_end(args);
  THTensor_(describe)(t, actual, sizeof actual);
  return THError(state, "%s must be %s, got %s", arg, expected, actual);
}

int THTensor_(checkSizes)(THNNState *state, const char *arg, const THTensor *t, int nDimension, const int64_t *size)
{
  int ok = t->nDimension == nDimension;
  for (int d = 0; ok && d < nDimension; d++)
    ok = t->size[d] == size[d];
  if (ok)
    return 0;
  char expected[160];
  THDescribeSizes(expected, sizeof expected, nDimension, size);
  return THTensor_(shapeError)(state, arg, t, "%s", expected);
}

int THTensor_(checkImages)(THNNState *state, const char *arg, const THTensor *t, int64_t planes)
{
  int batched = t->nDimension == 4;
  if (!(t->nDimension == 3 || batched) || t->size[batched] != planes)
    return THTensor_(shapeError)(state, arg, t, "3D or 4D with %lld planes", (long long)planes);
  return 0;
}

int THTensor_(checkImageSizes)(THNNState *state, const char *arg, const THTensor *t, const THTensor *like,
                               int64_t planes, int64_t h, int64_t w)
{
  if (!t)
    return 0;
  int batched = like->nDimension == 4;
  int64_t size[4] = {like->size[0], planes, h, w};
  return THTensor_(checkSizes)(state, arg, t, like->nDimension, size + !batched);
}

int THTensor_(checkSameSize)(THNNState *state, const char *arg, const THTensor *t, const char *refName, const THTensor *ref)
{
  if (THTensor_(isSameSizeAs)(t, ref))
    return 0;
  char expected[160];
  THTensor_(describe)(ref, expected, sizeof expected);
  return THTensor_(shapeError)(state, arg, t, "shaped as %s (%s)", refName, expected);
}

int THTensor_(checkSameNumel)(THNNState *state, const char *arg, const THTensor *t, const char *refName, const THTensor *ref)
{
  if (THTensor_(nElement)(t) == THTensor_(nElement)(ref))
    return 0;
  char expected[160];
  THTensor_(describe)(ref, expected, sizeof expected);
  return THTensor_(shapeError)(state, arg, t, "the same number of elements as %s (%s)", refName, expected);
}

int THTensor_(checkContiguous)(THNNState *state, const char *arg, const THTensor *t)
{
  if (THTensor_(isContiguous)(t))
    return 0;
  return THError(state, "%s must be contiguous (it is written in place)", arg);
}

int THTensor_(resizeCheck)(THNNState *state, const THTensor *t, int nDimension, const int64_t *size,
                          int64_t *numel)
{
  if (nDimension < 0 || nDimension > TH_MAX_DIM)
    return THError(state, "cannot resize to %d dimensions (at most %d)", nDimension, TH_MAX_DIM);
  int same = t->storage != NULL && t->nDimension == nDimension && THTensor_(isContiguous)(t);
  *numel = nDimension > 0 ? 1 : 0;
  for (int d = 0; d < nDimension; d++) {
    if (size[d] < 0)
      return THError(state, "cannot resize to a negative size (%lld)", (long long)size[d]);
    *numel = THMulSizes(*numel, size[d]);
    if (*numel < 0 || *numel > (int64_t)(SIZE_MAX / 2 / sizeof(real)))
      return THError(state, "cannot resize: the number of elements overflows");
    same = same && t->size[d] == size[d];
  }
  return same;
}

void THTensor_(setContiguous)(THTensor *t, THStorage *storage, int nDimension, const int64_t *size)
{
  t->storage = storage;
  t->storageOffset = 0;
  t->nDimension = nDimension;
  int64_t stride = 1;
  for (int d = nDimension - 1; d >= 0; d--) {
    t->size[d] = size[d];
    t->stride[d] = stride;
    stride *= size[d] > 0 ? size[d] : 1;
  }
}

int THTensor_(resizeNd)(THNNState *state, THTensor *t, int nDimension, const int64_t *size)
{
  int64_t numel;
  int kept = THTensor_(resizeCheck)(state, t, nDimension, size, &numel);
  if (kept != 0)
    return kept < 0 ? -1 : 0;
  THStorage *storage = THAlloc(sizeof(THStorage));
  real *data = THAlloc((size_t)numel * sizeof(real));
  if (!storage || !data) {
    THFree(storage);
    THFree(data);
    return THError(state, "out of memory allocating %lld elements", (long long)numel);
  }
  storage->data = data;
  storage->size = numel;
  storage->flag = TH_STORAGE_OWNED;
  THStorage_(free)(t->storage);  /* only frees what this library owns */
  THTensor_(setContiguous)(t, storage, nDimension, size);
  return 0;
}

int THTensor_(resize1d)(THNNState *state, THTensor *t, int64_t s0)
{
  int64_t size[1] = {s0};
  return THTensor_(resizeNd)(state, t, 1, size);
}

int THTensor_(resize2d)(THNNState *state, THTensor *t, int64_t s0, int64_t s1)
{
  int64_t size[2] = {s0, s1};
  return THTensor_(resizeNd)(state, t, 2, size);
}

int THTensor_(resizeAs)(THNNState *state, THTensor *t, const THTensor *src)
{
  return THTensor_(resizeNd)(state, t, src->nDimension, src->size);
}

void THTensor_(set)(THTensor *t, const THTensor *src)
{
  if (t == src)
    return;
  if (t->storage != src->storage)
    THStorage_(free)(t->storage);
  *t = *src;
}

/* Requires dst and src to have the same sizes; any strides. */
void THTensor_(copy)(THTensor *dst, const THTensor *src)
{
  real *d = THTensor_(data)(dst);
  const real *s = THTensor_(data)(src);
  int nd = src->nDimension;
  int64_t idx[TH_MAX_DIM] = {0};
  int64_t total = THTensor_(nElement)(src), so = 0, dof = 0;
  for (int64_t n = 0; n < total; n++) {
    d[dof] = s[so];
    for (int k = nd - 1; k >= 0; k--) {       /* odometer step, last dim fastest */
      so += src->stride[k];
      dof += dst->stride[k];
      if (++idx[k] < src->size[k])
        break;
      so -= idx[k] * src->stride[k];
      dof -= idx[k] * dst->stride[k];
      idx[k] = 0;
    }
  }
}

const THTensor *THTensor_(contiguous)(THNNState *state, const THTensor *src, THTensor *tmp)
{
  if (THTensor_(isContiguous)(src))
    return src;
  if (THTensor_(resizeAs)(state, tmp, src) != 0)
    return NULL;
  THTensor_(copy)(tmp, src);
  return tmp;
}

void THTensor_(release)(THTensor *t)
{
  THStorage_(free)(t->storage);
  t->storage = NULL;
  t->nDimension = 0;
}

#endif
