/* THCGeneral.cu: launch checks, the device count, synchronisation, the
 * cuBLAS handle, the device error slot. */
#include "THC.h"

int THCCheckLaunch(THNNState *state, const char *where)
{
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return THError(state, "%s: kernel launch failed: %s", where, cudaGetErrorString(e));
  return 0;
}

extern "C" int THCDeviceCount(int *count)
{
  *count = 0;
  if (cudaGetDeviceCount(count) != cudaSuccess) {
    cudaGetLastError();
    *count = 0;
  }
  return 0;
}

/* Waits until every kernel launched so far has finished (the twins launch
 * asynchronously: a timing must wait for them); an error a kernel left
 * behind is reported here. */
extern "C" int THCSynchronize(THNNState *state)
{
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    cudaGetLastError();
    return THError(state, "synchronize: %s", cudaGetErrorString(e));
  }
  return 0;
}

static cublasHandle_t THCBlasHandle_create(void)
{
  cublasHandle_t handle = NULL;
  cublasCreate(&handle);
  return handle;
}

cublasHandle_t THCBlasHandle(void)
{
  static cublasHandle_t handle = THCBlasHandle_create();  /* created once, thread-safely */
  return handle;
}

int THCBlasCheckSizes(THNNState *state, const char *what, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e,
                      int64_t f)
{
  int64_t sizes[6] = {a, b, c, d, e, f};
  for (int i = 0; i < 6; i++)
    if (sizes[i] > INT32_MAX || sizes[i] < -INT32_MAX)
      return THError(state, "%s: a size or stride (%lld) does not fit cuBLAS's 32-bit int", what,
                     (long long)sizes[i]);
  return 0;
}

THCErrorSlot *THCErrorSlot_new(THNNState *state)
{
  void *p = NULL;
  if (cudaMalloc(&p, sizeof(THCErrorSlot)) != cudaSuccess || !p) {
    cudaGetLastError();
    THError(state, "out of device memory (error slot)");
    return NULL;
  }
  cudaMemset(p, 0, sizeof(THCErrorSlot));
  return (THCErrorSlot *)p;
}

int THCErrorSlot_take(THNNState *state, THCErrorSlot *slot, THCErrorSlot *host)
{
  cudaError_t e = cudaMemcpy(host, slot, sizeof(THCErrorSlot), cudaMemcpyDeviceToHost);
  cudaFree(slot);
  if (e != cudaSuccess)
    return THError(state, "reading the device error slot failed: %s", cudaGetErrorString(e));
  return 0;
}
