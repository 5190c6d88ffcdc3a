/* THGeneral.h: the pieces every kernel needs before any type is chosen.
 *
 * Error reporting.  A kernel never aborts and never long-jumps: a long jump
 * cannot cross the cffi frame that called it.  Instead every kernel returns an
 * int (0 on success, -1 on failure) and writes its message into the THNNState
 * that the caller passed as first argument.  The Python binding checks the
 * return value and raises, prefixing the kernel's name.
 */
#ifndef TH_GENERAL_H
#define TH_GENERAL_H

#include <stddef.h>
#include <stdint.h>

#define TH_MAX_DIM 8          /* the largest nDimension a tensor may have */
#define TH_ERROR_SIZE 512     /* bytes of message a THNNState holds */

/* cdef-begin */
typedef struct THNNState {
  int status;                 /* 0 while all is well, -1 once an error was set */
  char message[TH_ERROR_SIZE];
} THNNState;

void THSetNumThreads(int n);  /* threads of the BLAS (and of the library's own loops) */
int THGetNumThreads(void);
/* Whether the hand-written AVX-512 code (the direct convolution loops,
 * the tiles of the float matrix products and of the indirect convolution,
 * rows of exponentials) may run: 1 (the default) where the CPU has
 * AVX-512, 0 for the AVX2 or portable code everywhere (the loops the
 * compiler vectorizes still use the widest instructions the CPU has).  A
 * negative value only asks.  Returns the setting before the call; set it
 * between kernel calls, not during one. */
int THAllowAVX512(int allow);
/* Whether the AVX-512 loops run now: allowed, and the CPU has AVX-512. */
int THUseAVX512(void);
/* cdef-end */

/* Record an error (printf-style) and return -1, so a check reads
 *   if (!ok) return THError(state, "...", ...);                         */
int THError(THNNState *state, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* Propagate a failure from a helper that follows the same convention. */
#define TH_TRY(expr) do { if ((expr) != 0) return -1; } while (0)

/* 64-byte aligned allocation (NULL on failure or when size is 0 bytes is
 * fine: callers treat a NULL of a zero-size request as success). */
void *THAlloc(size_t size);
void THFree(void *ptr);

/* Write "2D of size [4, 21]" (or "an empty tensor") into buf. */
void THDescribeSizes(char *buf, size_t bufsize, int nDimension, const int64_t *size);

/* The layout of the softmax family: the feature dim is dim 0 of a 1D or 3D
 * [n, h, w] input and dim 1 of a 2D or 4D [batch, n, h, w] input, so an
 * input is nframe blocks of dim feature planes of stride elements each.
 * Returns 0, or -1 (error set) for another number of dimensions. */
int THSoftMaxLayout(THNNState *state, int nDimension, const int64_t *size,
                    int64_t *nframe, int64_t *dim, int64_t *stride);

/* a * b, or -1 when it would overflow int64 (both operands non-negative). */
int64_t THMulSizes(int64_t a, int64_t b);

/* Sort n int64 values ascending and keep each distinct value once, at the
 * front; counts (NULL, or room for n) receives how often each kept value
 * occurred.  Returns the number of distinct values.  (Row sets of the
 * sparse and embedding layers.) */
int64_t THSortUnique(int64_t *values, int64_t n, int64_t *counts);
/* Position of key in the ascending values[0..n), or -1 if absent. */
int64_t THFindSorted(const int64_t *values, int64_t n, int64_t key);

#define TH_CONCAT_2(x, y) TH_CONCAT_2_EXPAND(x, y)
#define TH_CONCAT_2_EXPAND(x, y) x##y
#define TH_CONCAT_3(x, y, z) TH_CONCAT_3_EXPAND(x, y, z)
#define TH_CONCAT_3_EXPAND(x, y, z) x##y##z
#define TH_CONCAT_4(x, y, z, w) TH_CONCAT_4_EXPAND(x, y, z, w)
#define TH_CONCAT_4_EXPAND(x, y, z, w) x##y##z##w

/* A switchable code path of the convolutions (THGemmConv, THGemmWino): P_mode
   and P_setMode (1: taken where its rule says, 0: never; tests turn a path
   off to reach the others) and P_calls, how many calls took it, which
   P_count adds to (atomically: the threads of a batch call it). */
/* The direct convolution loops of generic/unfold.h (AVX-512 only): mode 0
   keeps the other paths, AVX-512 tiles included, for tests comparing them. */
int THConvLoops_mode(void);
void THConvLoops_setMode(int mode);
int64_t THConvLoops_calls(void);
void THConvLoops_count(void);

#define TH_PATH_SWITCH(P)                                                     \
  static int P##Mode = 1;                                                     \
  static int64_t P##Calls;                                                    \
  int P##_mode(void) { return P##Mode; }                                      \
  void P##_setMode(int mode) { P##Mode = mode; }                              \
  int64_t P##_calls(void) { return __atomic_load_n(&P##Calls, __ATOMIC_RELAXED); } \
  void P##_count(void) { __atomic_fetch_add(&P##Calls, 1, __ATOMIC_RELAXED); }

#endif
