#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THCTensor.cu"
#else

THStorage *THCStorage_(new)(THNNState *state, int64_t n)
{
  if (n < 0 || n > (int64_t)(SIZE_MAX / 2 / sizeof(real))) {
    THError(state, "cannot allocate %lld elements on the device", (long long)n);
    return NULL;
  }
  THStorage *storage = (THStorage *)THAlloc(sizeof(THStorage));
  void *data = NULL;
  if (!storage || cudaMalloc(&data, (size_t)n * sizeof(real)) != cudaSuccess) {
    THFree(storage);
    cudaGetLastError();
    THError(state, "out of device memory allocating %lld elements", (long long)n);
    return NULL;
  }
  storage->data = (real *)data;
  storage->size = n;
  storage->flag = TH_STORAGE_OWNED | TH_STORAGE_DEVICE;
  return storage;
}

void THCStorage_(free)(THStorage *storage)
{
  if (storage && (storage->flag & TH_STORAGE_OWNED)) {
    cudaFree(storage->data);
    THFree(storage);
  }
}

static int THCStorage_(checkRange)(THNNState *state, const THStorage *s, int64_t offset, int64_t n)
{
  if (!s || offset < 0 || n < 0 || offset > s->size || n > s->size - offset)
    return THError(state, "copy of %lld elements at %lld is outside the device storage (%lld elements)",
                   (long long)n, (long long)offset, (long long)(s ? s->size : 0));
  return 0;
}

int THCStorage_(copyFromHost)(THNNState *state, THStorage *dst, int64_t offset, const real *src, int64_t n)
{
  TH_TRY(THCStorage_(checkRange)(state, dst, offset, n));
  if (cudaMemcpy(dst->data + offset, src, (size_t)n * sizeof(real), cudaMemcpyHostToDevice) != cudaSuccess)
    return THError(state, "copy to the device failed: %s", cudaGetErrorString(cudaGetLastError()));
  return 0;
}

int THCStorage_(copyToHost)(THNNState *state, real *dst, const THStorage *src, int64_t offset, int64_t n)
{
  TH_TRY(THCStorage_(checkRange)(state, src, offset, n));
  if (cudaMemcpy(dst, src->data + offset, (size_t)n * sizeof(real), cudaMemcpyDeviceToHost) != cudaSuccess)
    return THError(state, "copy from the device failed: %s", cudaGetErrorString(cudaGetLastError()));
  return 0;
}

int THCTensor_(resizeNd)(THNNState *state, THTensor *t, int nDimension, const int64_t *size)
{
  int64_t numel;
  int kept = THTensor_(resizeCheck)(state, t, nDimension, size, &numel);
  if (kept != 0)
    return kept < 0 ? -1 : 0;
  THStorage *storage = THCStorage_(new)(state, numel);
  if (!storage)
    return -1;
  THCStorage_(free)(t->storage);
  THTensor_(setContiguous)(t, storage, nDimension, size);
  return 0;
}

int THCTensor_(resize1d)(THNNState *state, THTensor *t, int64_t s0)
{
  int64_t size[1] = {s0};
  return THCTensor_(resizeNd)(state, t, 1, size);
}

int THCTensor_(resize2d)(THNNState *state, THTensor *t, int64_t s0, int64_t s1)
{
  int64_t size[2] = {s0, s1};
  return THCTensor_(resizeNd)(state, t, 2, size);
}

int THCTensor_(resizeAs)(THNNState *state, THTensor *t, const THTensor *src)
{
  return THCTensor_(resizeNd)(state, t, src->nDimension, src->size);
}

/* The sizes and strides of a strided copy, passed by value to the kernel. */
struct THCTensor_(Layout) {
  int nDimension;
  int64_t size[TH_MAX_DIM], dstStride[TH_MAX_DIM], srcStride[TH_MAX_DIM];
};

__global__ void THCTensor_(copyKernel)(real *dst, const real *src, THCTensor_(Layout) layout, int64_t n)
{
  THC_KERNEL_LOOP(i, n) {
    int64_t rest = i, so = 0, dof = 0;
    for (int d = layout.nDimension - 1; d >= 0; d--) {
      int64_t k = rest % layout.size[d];
      rest /= layout.size[d];
      so += k * layout.srcStride[d];
      dof += k * layout.dstStride[d];
    }
    dst[dof] = src[so];
  }
}

int THCTensor_(copy)(THNNState *state, THTensor *dst, const THTensor *src)
{
  TH_TRY(THTensor_(checkSameSize)(state, "dst", dst, "src", src));
  int64_t n = THTensor_(nElement)(src);
  if (n == 0)
    return 0;
  THCTensor_(Layout) layout;
  layout.nDimension = src->nDimension;
  for (int d = 0; d < src->nDimension; d++) {
    layout.size[d] = src->size[d];
    layout.dstStride[d] = dst->stride[d];
    layout.srcStride[d] = src->stride[d];
  }
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCTensor_(copyKernel))(
      THTensor_(data)(dst), THTensor_(data)(src), layout, n);
  THC_CHECK_LAUNCH(state);
  return 0;
}

const THTensor *THCTensor_(contiguous)(THNNState *state, const THTensor *src, THTensor *tmp)
{
  if (THTensor_(isContiguous)(src))
    return src;
  if (THCTensor_(resizeAs)(state, tmp, src) != 0 || THCTensor_(copy)(state, tmp, src) != 0)
    return NULL;
  return tmp;
}

void THCTensor_(release)(THTensor *t)
{
  THCStorage_(free)(t->storage);
  t->storage = NULL;
  t->nDimension = 0;
}

__global__ void THCTensor_(fillKernel)(real *t, real value, int64_t n)
{
  THC_KERNEL_LOOP(i, n) t[i] = value;
}

int THCTensor_(fill)(THNNState *state, THTensor *t, real value)
{
  TH_TRY(THTensor_(checkContiguous)(state, "t", t));
  int64_t n = THTensor_(nElement)(t);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCTensor_(fillKernel))(THTensor_(data)(t), value, n);
  THC_CHECK_LAUNCH(state);
  return 0;
}

__global__ void THCTensor_(axpyKernel)(real *y, real alpha, const real *x, int64_t n)
{
  THC_KERNEL_LOOP(i, n) y[i] += alpha * x[i];
}

int THCTensor_(axpy)(THNNState *state, THTensor *y, real alpha, const THTensor *x)
{
  TH_TRY(THTensor_(checkSameSize)(state, "x", x, "y", y));
  TH_TRY(THTensor_(checkContiguous)(state, "y", y));
  TH_TRY(THTensor_(checkContiguous)(state, "x", x));
  int64_t n = THTensor_(nElement)(y);
  if (n == 0)
    return 0;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCTensor_(axpyKernel))(THTensor_(data)(y), alpha,
                                                                     THTensor_(data)(x), n);
  THC_CHECK_LAUNCH(state);
  return 0;
}

#endif
