/* THCSelfTest.cu: kernels that exercise what the twins rely on (barriers,
 * shared memory, reductions across blocks, atomics, the error slot), called
 * by tests/test_cuda_emulation.py on every device.  Not part of the layer API. */
#include "THC.h"

/* output[0] = sum of input (contiguous), by block reductions and one atomicAdd per block */
__global__ void THCSelfTest_sumKernel(const double *in, double *out, int64_t n)
{
  __shared__ double scratch[THC_NUM_THREADS];
  double partial = 0;
  THC_KERNEL_LOOP(i, n) partial += in[i];
  double total = THCBlockReduce(partial, scratch, THCSum());
  if (threadIdx.x == 0)
    atomicAdd(out, total);
}

extern "C" int THCSelfTest_sum(THNNState *state, THDoubleTensor *input, THDoubleTensor *output)
{
  TH_TRY(THDoubleTensor_checkContiguous(state, "input", input));
  TH_TRY(THCDoubleTensor_resize1d(state, output, 1));
  TH_TRY(THCDoubleTensor_fill(state, output, 0));
  int64_t n = THDoubleTensor_nElement(input);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCSelfTest_sumKernel)(THDoubleTensor_data(input),
                                                                    THDoubleTensor_data(output), n);
  return THCCheckLaunch(state, "THCSelfTest_sum");
}

/* Each element of input must lie in [0, limit): records the first that does not. */
__global__ void THCSelfTest_rangeKernel(const int64_t *in, int64_t n, int64_t limit, THCErrorSlot *slot)
{
  THC_KERNEL_LOOP(i, n) {
    if (in[i] < 0 || in[i] >= limit)
      THCErrorSlot_record(slot, in[i], i);
  }
}

extern "C" int THCSelfTest_checkRange(THNNState *state, THLongTensor *input, int64_t limit)
{
  TH_TRY(THLongTensor_checkContiguous(state, "input", input));
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  int64_t n = THLongTensor_nElement(input);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCSelfTest_rangeKernel)(THLongTensor_data(input), n, limit, slot);
  THCErrorSlot bad;
  int launched = THCCheckLaunch(state, "THCSelfTest_checkRange");
  TH_TRY(THCErrorSlot_take(state, slot, &bad));
  TH_TRY(launched);
  if (bad.flag)
    return THError(state, "value %lld at %lld is outside [0, %lld)", bad.value, bad.where, (long long)limit);
  return 0;
}

#ifndef __CUDACC__
/* Emulation only (on a GPU this is undefined behaviour): thread 0 of each
 * block returns early while the others wait at a barrier. */
__global__ void THCSelfTest_divergentKernel(void)
{
  if (threadIdx.x == 0)
    return;
  __syncthreads();
}

extern "C" int THCSelfTest_divergentBarrier(THNNState *state)
{
  THC_LAUNCH(2, 64, THCSelfTest_divergentKernel)();
  return THCCheckLaunch(state, "THCSelfTest_divergentBarrier");
}
#else
extern "C" int THCSelfTest_divergentBarrier(THNNState *state)
{
  return THError(state, "THCSelfTest_divergentBarrier runs on the emulator only");
}
#endif

__global__ void THCSelfTest_emptyKernel(void) {}

extern "C" int THCSelfTest_badLaunch(THNNState *state)
{
  THC_LAUNCH(1, 4096, THCSelfTest_emptyKernel)();   /* more threads than a block may have */
  return THCCheckLaunch(state, "THCSelfTest_badLaunch");
}
