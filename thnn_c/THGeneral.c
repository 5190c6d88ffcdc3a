#include "THGeneral.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int THAVX512Allowed = 1;

int THAllowAVX512(int allow)
{
  int before = THAVX512Allowed;
  if (allow >= 0)
    THAVX512Allowed = allow != 0;
  return before;
}

int THUseAVX512(void)
{
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
  return THAVX512Allowed && __builtin_cpu_supports("avx512f");
#else
  return 0;
#endif
}

TH_PATH_SWITCH(THConvLoops)

int THError(THNNState *state, const char *fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  vsnprintf(state->message, TH_ERROR_SIZE, fmt, args);
  va_end(args);
  state->status = -1;
  return -1;
}

void *THAlloc(size_t size)
{
  void *ptr = NULL;
  if (size == 0)
    size = 1;  /* a valid, freeable pointer even for empty tensors */
  if (posix_memalign(&ptr, 64, size) != 0)
    return NULL;
  return ptr;
}

void THFree(void *ptr)
{
  free(ptr);
}

void THDescribeSizes(char *buf, size_t bufsize, int nDimension, const int64_t *size)
{
  if (nDimension <= 0) {
    snprintf(buf, bufsize, "an empty tensor");
    return;
  }
  int n = snprintf(buf, bufsize, "%dD of size [", nDimension);
  for (int d = 0; d < nDimension && n > 0 && (size_t)n < bufsize; d++)
    n += snprintf(buf + n, bufsize - n, d ? ", %lld" : "%lld", (long long)size[d]);
  if (n > 0 && (size_t)n < bufsize)
    snprintf(buf + n, bufsize - n, "]");
}

int64_t THMulSizes(int64_t a, int64_t b)
{
  if (a < 0 || b < 0)
    return -1;
  if (a != 0 && b > INT64_MAX / a)
    return -1;
  return a * b;
}

int THSoftMaxLayout(THNNState *state, int nDimension, const int64_t *size,
                    int64_t *nframe, int64_t *dim, int64_t *stride)
{
  if (nDimension < 1 || nDimension > 4) {
    char actual[160];
    THDescribeSizes(actual, sizeof actual, nDimension, size);
    return THError(state, "input must be 1D, 2D, 3D or 4D, got %s", actual);
  }
  int batched = nDimension == 2 || nDimension == 4;
  *nframe = batched ? size[0] : 1;
  *dim = size[batched];
  *stride = 1;
  for (int d = batched + 1; d < nDimension; d++)
    *stride *= size[d];
  return 0;
}

static int THCompareInt64(const void *a, const void *b)
{
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int64_t THSortUnique(int64_t *values, int64_t n, int64_t *counts)
{
  if (n <= 0)
    return 0;
  qsort(values, (size_t)n, sizeof *values, THCompareInt64);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i == 0 || values[i] != values[kept - 1]) {
      values[kept] = values[i];
      if (counts)
        counts[kept] = 0;
      kept++;
    }
    if (counts)
      counts[kept - 1]++;
  }
  return kept;
}

int64_t THFindSorted(const int64_t *values, int64_t n, int64_t key)
{
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (values[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && values[lo] == key ? lo : -1;
}
