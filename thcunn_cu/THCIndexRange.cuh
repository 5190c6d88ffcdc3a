/* THCIndexRange.cuh: the first index outside [0, limit), found on the device
 * (LookupTable's indices, TemporalMaxPooling's offsets): the host builds the
 * CPU kernel's message from its position and value. */
#ifndef THC_INDEX_RANGE_CUH
#define THC_INDEX_RANGE_CUH

#include "THC.h"

struct THCIndexRange_min {
  template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

/* One block: each thread finds its first bad position, the block the smallest. */
__global__ void THCIndexRange_kernel(const int64_t *idx, int64_t n, int64_t limit, THCErrorSlot *slot)
{
  __shared__ int64_t scratch[THC_NUM_THREADS];
  int64_t first = n;
  for (int64_t e = threadIdx.x; e < n && first == n; e += blockDim.x)
    if (idx[e] < 0 || idx[e] >= limit)
      first = e;
  first = THCBlockReduce(first, scratch, THCIndexRange_min());
  if (threadIdx.x == 0 && first < n)
    THCErrorSlot_record(slot, idx[first], first);
}

/* bad->flag set (with the position in bad->where, the index in bad->value)
 * when some index of idx[0 .. n) (device memory) is outside [0, limit);
 * -1 with the error set when the check itself failed. */
static inline int THCIndexRange_first(THNNState *state, const int64_t *idx, int64_t n, int64_t limit,
                                      THCErrorSlot *bad)
{
  bad->flag = 0;
  if (n == 0)
    return 0;
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(1, THC_NUM_THREADS, THCIndexRange_kernel)(idx, n, limit, slot);
  int launched = THCCheckLaunch(state, "THCIndexRange_first");
  TH_TRY(THCErrorSlot_take(state, slot, bad));
  return launched;
}

#endif
