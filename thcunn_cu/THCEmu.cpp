/* THCEmu.cpp: the scheduler, memory and cuBLAS of the CPU emulation (see THCEmu.h). */
#include "THCEmu.h"

#include <stdlib.h>
#include <ucontext.h>

#include <mutex>
#include <vector>

#include "cblas.h"

thread_local dim3 threadIdx, blockIdx, blockDim, gridDim;

namespace {

enum FiberState { RUNNING, AT_BARRIER, DONE };

struct Fiber {
  ucontext_t context;
  FiberState state;
  dim3 index;
};

const size_t kStackSize = 256 * 1024;   /* per emulated thread; kernels keep small locals */
const unsigned kMaxThreadsPerBlock = 1024;

std::mutex launch_mutex;              /* statics (shared memory) are process-wide */
thread_local cudaError_t last_error = cudaSuccess;

/* The block being run: its fibers, their stacks (reused across launches),
 * the scheduler's context and the thread body. */
struct Block {
  std::vector<Fiber> fibers;
  std::vector<char *> stacks;
  ucontext_t scheduler;
  Fiber *current = nullptr;
  const std::function<void()> *body = nullptr;
};
Block block;

void fiber_main()
{
  (*block.body)();
  block.current->state = DONE;
  swapcontext(&block.current->context, &block.scheduler);
}

/* Run one block to its end; false if its threads disagreed at a barrier. */
bool run_block(unsigned nthreads)
{
  for (unsigned t = 0; t < nthreads; t++) {
    Fiber &f = block.fibers[t];
    f.state = RUNNING;
    f.index = dim3(t % blockDim.x, (t / blockDim.x) % blockDim.y, t / (blockDim.x * blockDim.y));
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = block.stacks[t];
    f.context.uc_stack.ss_size = kStackSize;
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_main, 0);
  }
  for (;;) {
    unsigned waiting = 0, done = 0;
    for (unsigned t = 0; t < nthreads; t++) {
      Fiber &f = block.fibers[t];
      if (f.state == RUNNING) {
        threadIdx = f.index;
        block.current = &f;
        swapcontext(&block.scheduler, &f.context);
      }
      if (f.state == DONE)
        done++;
      else
        waiting++;
    }
    if (waiting == 0)
      return true;
    if (done > 0)
      return false;   /* some threads ended while others wait at __syncthreads */
    for (unsigned t = 0; t < nthreads; t++)
      block.fibers[t].state = RUNNING;
  }
}

}  // namespace

void __syncthreads(void)
{
  block.current->state = AT_BARRIER;
  swapcontext(&block.current->context, &block.scheduler);
}

namespace thc_emu {

void launch(dim3 grid, dim3 threads, const std::function<void()> &thread)
{
  unsigned nthreads = threads.x * threads.y * threads.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || nthreads == 0 || nthreads > kMaxThreadsPerBlock
      || threads.z > 64 || grid.y > 65535 || grid.z > 65535) {
    last_error = cudaErrorInvalidConfiguration;
    return;
  }
  std::lock_guard<std::mutex> lock(launch_mutex);
  while (block.stacks.size() < nthreads) {
    char *stack = static_cast<char *>(malloc(kStackSize));
    if (!stack) {
      last_error = cudaErrorMemoryAllocation;
      return;
    }
    block.stacks.push_back(stack);
  }
  if (block.fibers.size() < nthreads)
    block.fibers.resize(nthreads);
  block.body = &thread;
  gridDim = grid;
  blockDim = threads;
  for (unsigned z = 0; z < grid.z; z++)
    for (unsigned y = 0; y < grid.y; y++)
      for (unsigned x = 0; x < grid.x; x++) {
        blockIdx = dim3(x, y, z);
        if (!run_block(nthreads)) {
          last_error = cudaErrorLaunchFailure;
          return;
        }
      }
}

}  // namespace thc_emu

/* ---- memory ---- */
cudaError_t cudaMalloc(void **ptr, size_t size)
{
  *ptr = nullptr;
  if (size == 0)
    return cudaSuccess;
  /* 256-byte alignment, as cudaMalloc guarantees */
  if (posix_memalign(ptr, 256, size) != 0) {
    *ptr = nullptr;
    return last_error = cudaErrorMemoryAllocation;
  }
  return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
  free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t size, cudaMemcpyKind)
{
  if (size)
    memmove(dst, src, size);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *ptr, int value, size_t size)
{
  if (size)
    memset(ptr, value, size);
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
  cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaGetDeviceCount(int *count)
{
  *count = 1;
  return cudaSuccess;
}

const char *cudaGetErrorString(cudaError_t error)
{
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorLaunchFailure: return "threads of a block disagreed at __syncthreads (emulation)";
    default: return "unknown error";
  }
}

/* ---- cuBLAS onto the CPU BLAS ---- */
static CBLAS_TRANSPOSE cblas_op(cublasOperation_t op) { return op == CUBLAS_OP_N ? CblasNoTrans : CblasTrans; }

cublasStatus_t cublasCreate(cublasHandle_t *handle)
{
  *handle = nullptr;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const float *alpha, const float *a, int lda, const float *b, int ldb,
                           const float *beta, float *c, int ldc)
{
  scipy_cblas_sgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemm(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const double *alpha, const double *a, int lda, const double *b, int ldb,
                           const double *beta, double *c, int ldc)
{
  scipy_cblas_dgemm(CblasColMajor, cblas_op(ta), cblas_op(tb), m, n, k, *alpha, a, lda, b, ldb, *beta, c, ldc);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemv(cublasHandle_t, cublasOperation_t t, int m, int n, const float *alpha,
                           const float *a, int lda, const float *x, int incx, const float *beta,
                           float *y, int incy)
{
  scipy_cblas_sgemv(CblasColMajor, cblas_op(t), m, n, *alpha, a, lda, x, incx, *beta, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgemv(cublasHandle_t, cublasOperation_t t, int m, int n, const double *alpha,
                           const double *a, int lda, const double *x, int incx, const double *beta,
                           double *y, int incy)
{
  scipy_cblas_dgemv(CblasColMajor, cblas_op(t), m, n, *alpha, a, lda, x, incx, *beta, y, incy);
  return CUBLAS_STATUS_SUCCESS;
}
