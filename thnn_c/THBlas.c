/* The BLAS shim, over the scipy-openblas32 wheel (every symbol prefixed
 * scipy_, 32-bit integers), and the library's threads.
 *
 * One thread pool.  Built with OpenMP, the library runs its elementwise
 * loops on OpenMP threads, and it runs the matrix products there too: each
 * product is cut into one slab per thread and OpenBLAS, kept single-threaded,
 * computes each slab in the calling thread.  OpenBLAS's own pool would
 * otherwise spin for a while after every call (about 0.1 s by default) on
 * the cores the next OpenMP loop wants, and a loop right after a product
 * would run several times slower.  THSetNumThreads sets the size of that
 * one pool.  Built without OpenMP, OpenBLAS threads the products itself. */
#include "TH.h"
#include "THGemmThin.h"
#include "THLoop.h"

#include <limits.h>
#include <cblas.h>

#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
#endif

static int THBlasFits(int64_t v)
{
  return v >= 0 && v <= INT_MAX;
}

static enum CBLAS_TRANSPOSE THBlasTrans(char t)
{
  return (t == 't' || t == 'T') ? CblasTrans : CblasNoTrans;
}

#ifdef _OPENMP

static int THNumThreads;     /* 0 until THSetNumThreads: the OpenMP default */
static int THInForkedChild;  /* the pool's threads do not exist in a fork() child */

static void THAfterFork(void)
{
  THInForkedChild = 1;
}

__attribute__((constructor)) static void THThreadsInit(void)
{
  scipy_openblas_set_num_threads(1);
  pthread_atfork(NULL, NULL, THAfterFork);
}

void THSetNumThreads(int n)
{
  THNumThreads = n;
}

int THGetNumThreads(void)
{
  return THNumThreads > 0 ? THNumThreads : omp_get_max_threads();
}

/* Threads for `work` units of which each thread should get at least `grain`. */
static int THThreadsFor(int64_t work, int64_t grain)
{
  int64_t useful = work / grain;
  int nt = THGetNumThreads();
  if (THInForkedChild || useful <= 1)
    return 1;
  return useful < nt ? (int)useful : nt;
}

void THLoopRange(int64_t n, int64_t *begin, int64_t *end)
{
  int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
  int64_t chunk = ((n + nt - 1) / nt + 15) / 16 * 16;
  *begin = t * chunk < n ? t * chunk : n;
  *end = *begin + chunk < n ? *begin + chunk : n;
}

#else  /* no OpenMP: OpenBLAS threads the products, the loops run serially */

void THSetNumThreads(int n)
{
  scipy_openblas_set_num_threads(n);
}

int THGetNumThreads(void)
{
  return scipy_openblas_get_num_threads();
}

static int THThreadsFor(int64_t work, int64_t grain)
{
  return 1;
}

void THLoopRange(int64_t n, int64_t *begin, int64_t *end)
{
  *begin = 0;
  *end = n;
}

#endif

int THLoopThreads(int64_t n)
{
  return THThreadsFor(n, TH_LOOP_GRAIN);
}

int THLoopThreadsCostly(int64_t n)
{
  return THThreadsFor(n, TH_LOOP_GRAIN_COSTLY);
}

/* Threads for a product of m x k by k x n: slabs of at least 2^20
 * multiply-adds (about 10 us), and none when OpenBLAS was made
 * multi-threaded behind our back (it must not be called from our threads
 * then). */
static inline int THBlasThreads(int64_t m, int64_t n, int64_t k)
{
  double work = (double)m * (double)n * (double)k;
  if (scipy_openblas_get_num_threads() > 1)
    return 1;
  return THThreadsFor(work < 1e18 ? (int64_t)work : (int64_t)1e18, (int64_t)1 << 20);
}

#define TH_GENERIC_FILE "generic/THBlas.c"
#include "THGenerateFloatTypes.h"
