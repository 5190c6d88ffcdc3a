/* THC.h: what every CUDA twin needs.
 *
 * Compiled by nvcc for a GPU (__CUDACC__), or by a C++ compiler over
 * THCEmu.h for the CPU emulation that the tests run.
 *
 * A CUDA tensor is the CPU tensor struct of thnn_c (THFloatTensor,
 * THDoubleTensor, THLongTensor for indices) whose storage lives in device
 * memory, marked TH_STORAGE_DEVICE.  So every metadata helper of thnn_c
 * (nElement, isContiguous, describe, checkSizes, ...) and every CPU layer's
 * X_shapeCheck serve the twins unchanged: a layer refuses the same shapes
 * with the same message on both sides.  What touches memory differs, and is
 * here: resizing allocates device memory, copies run as device kernels.
 *
 * Errors: a twin returns 0 or -1 with the message in THNNState, like a CPU
 * kernel.  Launch failures are turned into messages by THC_CHECK_LAUNCH.
 * Bad values that only the device sees (an out-of-range class target) are
 * recorded in a device error slot (THCErrorSlot) that the host reads after
 * the kernel: no device-side assert, no crash. */
#ifndef THC_H
#define THC_H

#ifdef __CUDACC__
#include <cublas_v2.h>
#include <cuda_runtime.h>
#define THC_LAUNCH(grid, block, ...) __VA_ARGS__<<<(grid), (block)>>>
#else
#include "THCEmu.h"
#endif

extern "C" {
#include "THNN.h"
}

#define TH_STORAGE_DEVICE 2   /* storage->flag bit: data is device memory */

/* Threads per block, and the cap on blocks of a grid-stride launch.  The
 * emulation caps grids at a few blocks, so that small test shapes still run
 * every grid-stride loop more than once around. */
#define THC_NUM_THREADS 256
#ifdef __CUDACC__
#define THC_MAX_BLOCKS 4096
#else
#define THC_MAX_BLOCKS 3
#endif

/* Blocks for a grid-stride loop over n items. */
static inline unsigned THC_blocks(int64_t n)
{
  int64_t b = (n + THC_NUM_THREADS - 1) / THC_NUM_THREADS;
  return (unsigned)(b < 1 ? 1 : b > THC_MAX_BLOCKS ? THC_MAX_BLOCKS : b);
}

/* for (i over 0..n) spread over every thread of the grid */
#define THC_KERNEL_LOOP(i, n) \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += (int64_t)blockDim.x * gridDim.x)

/* After a launch: -1 with the message set if it failed. */
#define THC_CHECK_LAUNCH(state) TH_TRY(THCCheckLaunch(state, __func__))
int THCCheckLaunch(THNNState *state, const char *where);

/* The cuBLAS handle of the library (created on first use); 'n'/'t' as a
 * cuBLAS operation; 0 when every size fits cuBLAS's int (else the error). */
cublasHandle_t THCBlasHandle(void);
static inline cublasOperation_t THCBlasOp(char trans) { return trans == 'n' || trans == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T; }
int THCBlasCheckSizes(THNNState *state, const char *what, int64_t a, int64_t b, int64_t c, int64_t d, int64_t e,
                      int64_t f);

/* Device error slot: kernels record the first bad value they meet with
 * THCErrorSlot_record (device code).  The host makes a zeroed slot before
 * the launch and takes it back after (which frees it):
 *   THCErrorSlot *slot = THCErrorSlot_new(state);  if (!slot) return -1;
 *   ... launch with slot ...
 *   THCErrorSlot bad;  TH_TRY(THCErrorSlot_take(state, slot, &bad));
 *   if (bad.flag) return THError(state, "target %lld out of range ...", bad.value); */
typedef struct THCErrorSlot {
  int flag;          /* 0: no error */
  long long value;   /* the offending value (for the message) */
  long long where;   /* its position */
} THCErrorSlot;
THCErrorSlot *THCErrorSlot_new(THNNState *state);                               /* NULL (error set) */
int THCErrorSlot_take(THNNState *state, THCErrorSlot *slot, THCErrorSlot *host); /* copies back, frees */

__device__ inline void THCErrorSlot_record(THCErrorSlot *slot, long long value, long long where)
{
  if (atomicExch(&slot->flag, 1) == 0) {
    slot->value = value;
    slot->where = where;
  }
}

/* Names inside a generic twin (Real is Float, Double or Long as in thnn_c,
 * CudaReal is Cuda or CudaDouble):
 *   THTensor, THTensor_(nElement), ...   the shared struct and metadata helpers
 *   THCTensor_(resizeNd), ...            device-memory helpers (THCFloatTensor_resizeNd)
 *   THNN_(Sigmoid_updateOutput)          the twin, THNN_CudaSigmoid_updateOutput
 *   THNN_CPU_(Sigmoid_shapeCheck)        the CPU layer's shape check, shared */
/* The reduction of value over the threads of a block, op(a, b) being
 * associative (sum, max, ...): every thread gets the result.  Every thread
 * of the block must call it; blockDim.x must be a power of two (at most
 * THC_NUM_THREADS), scratch a __shared__ array of blockDim.x elements. */
template <class T, class Op>
__device__ T THCBlockReduce(T value, T *scratch, Op op)
{
  unsigned t = threadIdx.x;
  scratch[t] = value;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      scratch[t] = op(scratch[t], scratch[t + s]);
    __syncthreads();
  }
  T result = scratch[0];
  __syncthreads();   /* scratch may be reused at once */
  return result;
}

struct THCSum {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct THCMax {
  template <class T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};

#define THCStorage_(NAME) TH_CONCAT_4(THC, Real, Storage_, NAME)
#define THCBlas_(NAME) TH_CONCAT_4(THC, Real, Blas_, NAME)
#define THCTensor_(NAME) TH_CONCAT_4(THC, Real, Tensor_, NAME)
#define THNN_CPU_(NAME) TH_CONCAT_3(THNN_, Real, NAME)
#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_, CudaReal, NAME)

extern "C" {
#define TH_GENERIC_FILE "generic/THCTensor.h"
#include "THCGenerateAllTypes.h"

#define TH_GENERIC_FILE "generic/THCBlas.h"
#include "THCGenerateFloatTypes.h"

/* The device tensor math (operation codes in THCTensorMath.h). */
#define TH_GENERIC_FILE "generic/THCTensorMath.h"
#include "THCGenerateAllTypes.h"

/* The twins' prototypes: those of THNN.h under the Cuda names, so the
 * compiler holds every twin to its CPU kernel's signature. */
#define TH_GENERIC_FILE "generic/THNN.h"
#include "THCGenerateFloatTypes.h"

/* THCGeneral.cu and THCSelfTest.cu define these; the emulator's cffi module,
 * a translation unit of its own (thnn/_build_cuda.py), calls them. */
int THCDeviceCount(int *count);
int THCSynchronize(THNNState *state);
int THCSelfTest_sum(THNNState *state, THDoubleTensor *input, THDoubleTensor *output);
int THCSelfTest_checkRange(THNNState *state, THLongTensor *input, int64_t limit);
int THCSelfTest_divergentBarrier(THNNState *state);
int THCSelfTest_badLaunch(THNNState *state);
}

#endif
