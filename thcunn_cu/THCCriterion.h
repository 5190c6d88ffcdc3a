/* THCCriterion.h: what the criterion twins share beyond THC.h, for any real
 * type (generic/THCCriterion.cu has the per-type part).  Included once, by
 * init.cu, before the twins.
 *
 * Bad values (a class target out of range, an input that is no probability)
 * are looked for on the device by THCFindFirst, before a kernel indexes with
 * them.  The message must be the CPU kernel's, which names the first bad
 * element in memory order; so the search is deterministic: one block, each
 * thread stopping at its first hit, then the smallest hit of the block. */
#ifndef THC_CRITERION_H
#define THC_CRITERION_H

#include <limits.h>

struct THCMin {
  template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

/* Thread 0 records the first i in [0, n) where bad(i) holds in slot, with bad.value(i). */
template <class Bad>
__global__ void THCFindFirst_kernel(Bad bad, int64_t n, THCErrorSlot *slot)
{
  __shared__ long long scratch[THC_NUM_THREADS];
  long long first = LLONG_MAX;
  for (int64_t i = threadIdx.x; i < n && first == LLONG_MAX; i += blockDim.x)
    if (bad(i))
      first = i;
  first = THCBlockReduce(first, scratch, THCMin());
  if (threadIdx.x == 0 && first != LLONG_MAX)
    THCErrorSlot_record(slot, bad.value(first), first);
}

/* found->flag is 1, with value and where, when bad(i) holds for some i in [0, n). */
template <class Bad>
int THCFindFirst(THNNState *state, Bad bad, int64_t n, THCErrorSlot *found)
{
  memset(found, 0, sizeof *found);
  if (n == 0)
    return 0;
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(1, THC_NUM_THREADS, THCFindFirst_kernel<Bad>)(bad, n, slot);
  int launched = THCCheckLaunch(state, "THCFindFirst");
  TH_TRY(THCErrorSlot_take(state, slot, found));
  return launched;
}

/* Class target t[i] outside [lo, hi), unless it is ignore (when hasIgnore). */
struct THCTargetOutOfRange {
  const int64_t *t;
  int64_t lo, hi;
  bool hasIgnore;
  int64_t ignore;
  __device__ bool operator()(int64_t i) const
  {
    return !(hasIgnore && t[i] == ignore) && (t[i] < lo || t[i] >= hi);
  }
  __device__ long long value(int64_t i) const { return t[i]; }
};

/* The first out-of-range target of a contiguous index tensor, into found. */
static inline int THCFindBadTarget(THNNState *state, const THLongTensor *target, int64_t lo, int64_t hi,
                                   bool hasIgnore, int64_t ignore, THCErrorSlot *found)
{
  THCTargetOutOfRange bad = {THLongTensor_data(target), lo, hi, hasIgnore, ignore};
  return THCFindFirst(state, bad, THLongTensor_nElement(target), found);
}

#endif
