/* THCEmu.h: the subset of CUDA that thcunn_cu uses, emulated on the CPU.
 *
 * The .cu files are compiled by nvcc for a GPU, or by a C++ compiler over
 * this header so the same kernels run (slowly) on a machine without one:
 * that is how the twins are tested against the CPU kernels here.
 *
 * What is emulated, and how:
 * - A launch runs the grid's blocks one after the other.  Inside a block,
 *   every thread is a fiber (ucontext) with its own stack; a fiber runs until
 *   it ends or reaches __syncthreads(), and the block moves past the barrier
 *   when all its threads have reached it.  A block where some threads end
 *   while others wait at a barrier is an error (CUDA leaves it undefined).
 * - __shared__ variables are function statics: one copy, seen by every thread
 *   of the block that runs, which is what shared memory is while blocks run
 *   one at a time.  (Dynamic `extern __shared__` arrays are not supported.)
 * - threadIdx, blockIdx, blockDim and gridDim are thread-local globals that
 *   the scheduler sets before resuming each fiber.
 * - Atomics are plain read-modify-writes (fibers never preempt each other).
 * - Device memory is host memory from malloc; cudaMemcpy is memcpy.  Host
 *   code still reaches it only through the copy functions, as on a GPU.
 * - cuBLAS GEMM/GEMV map onto the CPU BLAS (scipy-openblas32), column-major.
 * - Launches are serialized by a mutex (statics are shared), so several
 *   Python threads may call twins at once.
 * Limits: no warp-synchronous code (no __shfl, no __syncwarp, no implicit
 * lockstep within a warp), no streams or events beyond the default stream,
 * no dynamic shared memory, no device-side printf.  Kernels must stay inside
 * this subset (the nvcc build would accept more; the tests would not). */
#ifndef THC_EMU_H
#define THC_EMU_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <functional>

/* static: a kernel is launched from the unit that defines it, and the helpers
 * that define kernels are compiled into every part of the twins (the build
 * compiles the layers as several units, thnn/_layers.py) */
#define __global__ static
#define __device__
#define __host__
#define __shared__ static
#define __forceinline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(...)

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

extern thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

/* ---- runtime API ---- */
typedef int cudaError_t;
enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719
};
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
typedef void *cudaStream_t;

cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t size, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *ptr, int value, size_t size);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int *count);
const char *cudaGetErrorString(cudaError_t error);

/* ---- device functions ---- */
void __syncthreads(void);

template <class T> inline T atomicAdd(T *address, T value) { T old = *address; *address = old + value; return old; }
inline int atomicMax(int *address, int value) { int old = *address; if (value > old) *address = value; return old; }
inline int atomicMin(int *address, int value) { int old = *address; if (value < old) *address = value; return old; }
inline int atomicExch(int *address, int value) { int old = *address; *address = value; return old; }
template <class T> inline T __ldg(const T *p) { return *p; }

/* ---- cuBLAS (the calls used, column-major as cuBLAS) ---- */
typedef void *cublasHandle_t;
typedef int cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
enum { CUBLAS_STATUS_SUCCESS = 0 };
cublasStatus_t cublasCreate(cublasHandle_t *handle);
cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int m, int n, int k,
                           const float *alpha, const float *a, int lda, const float *b, int ldb,
                           const float *beta, float *c, int ldc);
cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t, cublasOperation_t, int m, int n, int k,
                           const double *alpha, const double *a, int lda, const double *b, int ldb,
                           const double *beta, double *c, int ldc);
cublasStatus_t cublasSgemv(cublasHandle_t, cublasOperation_t, int m, int n, const float *alpha,
                           const float *a, int lda, const float *x, int incx, const float *beta,
                           float *y, int incy);
cublasStatus_t cublasDgemv(cublasHandle_t, cublasOperation_t, int m, int n, const double *alpha,
                           const double *a, int lda, const double *x, int incx, const double *beta,
                           double *y, int incy);

/* ---- launches ----
 * THC_LAUNCH(grid, block, kernel)(arguments) is kernel<<<grid, block>>>(...)
 * under nvcc; here it runs the grid as described above. */
namespace thc_emu {
void launch(dim3 grid, dim3 block, const std::function<void()> &thread);

template <class Kernel>
struct Launch {
  dim3 grid, block;
  Kernel *kernel;
  template <class... Args>
  void operator()(Args... args) const
  {
    Kernel *k = kernel;
    launch(grid, block, [=]() { k(args...); });
  }
};

template <class Kernel>
Launch<Kernel> make_launch(dim3 grid, dim3 block, Kernel *kernel) { return Launch<Kernel>{grid, block, kernel}; }
}  // namespace thc_emu

#define THC_LAUNCH(grid, block, ...) thc_emu::make_launch((grid), (block), &__VA_ARGS__)

#endif
