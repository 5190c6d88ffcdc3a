/* THLoop.h: what the elementwise kernels share: their threads and their
 * vector math.
 *
 * Threads.  The library's parallel loops and its matrix products run on one
 * OpenMP thread pool (see THBlas.c: OpenBLAS itself is kept single-threaded
 * and called once per thread), so two pools never fight over the cores.  A
 * kernel splits its elements like this:
 *
 *   #pragma omp parallel num_threads(THLoopThreads(n))
 *   {
 *     int64_t begin, end;
 *     THLoopRange(n, &begin, &end);
 *     loop(in + begin, out + begin, end - begin);
 *   }
 *
 * Without OpenMP the pragma is ignored and the range is the whole of n.
 * The elementwise kernels (activations, pointwise criterions) do this
 * through one driver, generic/Pointwise.h, and only write their loops.
 *
 * Vector code.  TH_VECTOR_CLONES compiles a function for AVX-512, AVX2 and
 * baseline x86-64 and lets the loader pick one for the CPU, so the binary
 * stays portable.  THVector_tanh(x) and THVector_exp(x) are the C library's
 * tanh and exp for the type of x (float or double), declared with their SIMD
 * variants (glibc's libmvec) so that the compiler can vectorize a loop that
 * calls them, without -ffast-math: they keep IEEE semantics (NaN in, NaN
 * out; tanh(+-inf) = +-1; exp(-inf) = 0, exp(+inf) = +inf). */
#ifndef TH_LOOP_H
#define TH_LOOP_H

#include <math.h>
#include <stdint.h>

/* Elements below which a loop is not worth a second thread. */
#define TH_LOOP_GRAIN 32768

/* Elements of a loop that calls exp, tanh or log per element (5-7x the time
 * of a compare or a multiply-add: 1.0-1.5 ns each for libmvec's float
 * tanhf and expf here) below which it is not worth a second thread: Tanh on
 * 256x14x14 (50,176 elements) ran on one thread where onnxruntime used two. */
#define TH_LOOP_GRAIN_COSTLY 4096

/* Threads to use for n elements: 1 for small n, else up to THGetNumThreads(). */
int THLoopThreads(int64_t n);
/* The same for a loop of TH_LOOP_GRAIN_COSTLY elements a grain. */
int THLoopThreadsCostly(int64_t n);
/* The share [*begin, *end) of n elements of the calling thread of the
 * current team, cut at multiples of 16 elements (whole cache lines). */
void THLoopRange(int64_t n, int64_t *begin, int64_t *end);

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define TH_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TH_VECTOR_CLONES
#endif

/* libmvec has exp/expf since glibc 2.22 and tanh/tanhf since 2.35, in
 * every x86-64 vector ABI variant that simd("notinbranch") promises. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__) \
    && __GLIBC_PREREQ(2, 35)
#define TH_SIMD_MATH __attribute__((simd("notinbranch"), const, nothrow))
TH_SIMD_MATH float THVector_expFloat(float x) __asm__("expf");
TH_SIMD_MATH double THVector_expDouble(double x) __asm__("exp");
TH_SIMD_MATH float THVector_tanhFloat(float x) __asm__("tanhf");
TH_SIMD_MATH double THVector_tanhDouble(double x) __asm__("tanh");
#else
static inline float THVector_expFloat(float x) { return expf(x); }
static inline double THVector_expDouble(double x) { return exp(x); }
static inline float THVector_tanhFloat(float x) { return tanhf(x); }
static inline double THVector_tanhDouble(double x) { return tanh(x); }
#endif
#define THVector_exp(x) _Generic((x), float: THVector_expFloat, double: THVector_expDouble)(x)
#define THVector_tanh(x) _Generic((x), float: THVector_tanhFloat, double: THVector_tanhDouble)(x)

#endif
