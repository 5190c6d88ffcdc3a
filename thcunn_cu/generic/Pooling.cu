#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Pooling.cu"
#else

/* What the pooling twins share, as thnn_c/generic/Pooling.h for the CPU
 * layers.  The window geometry is the CPU's own: the host builds the grid
 * of windows with THPooling.c (THPoolGridWindows, THPoolGridAdaptive) and
 * copies it to the device, so both sides read exactly the same taps.  One
 * device thread per output element (per input element for unpooling);
 * indices count from 0 within a plane, as the CPU's. */

#ifndef THC_POOLING_SHARED
#define THC_POOLING_SHARED

extern "C" {
#include "THPooling.h"
}

/* The CPU's THPoolGrid on the device, with the plane sizes. */
struct THCPoolGrid {
  const int64_t *first[3], *count[3], *span[3];
  int dil[3];
  int64_t in[3], out[3];
};

/* g's arrays copied into mem (a zeroed THLongTensor on the device; release it). */
static int THCPoolGrid_upload(THNNState *state, const THPoolGrid *g, const THPoolShape *s, THLongTensor *mem,
                              THCPoolGrid *d)
{
  int64_t n = 3 * (s->out[0] + s->out[1] + s->out[2]);
  TH_TRY(THCLongTensor_resize1d(state, mem, n));
  TH_TRY(THCLongStorage_copyFromHost(state, mem->storage, mem->storageOffset, g->mem, n));
  const int64_t *base = THLongTensor_data(mem);
  for (int a = 0; a < 3; a++) {
    d->first[a] = base + (g->first[a] - g->mem);
    d->count[a] = base + (g->count[a] - g->mem);
    d->span[a] = base + (g->span[a] - g->mem);
    d->dil[a] = g->dil[a];
    d->in[a] = s->in[a];
    d->out[a] = s->out[a];
  }
  return 0;
}

__device__ inline int64_t THCPool_planeSize(const int64_t *sizes)
{
  return sizes[0] * sizes[1] * sizes[2];
}

/* Output element o of a plane as (t, h, w), and the offset in the input
 * plane of its window's first tap. */
__device__ inline int64_t THCPool_window(const THCPoolGrid &g, int64_t o, int64_t *ot, int64_t *oh, int64_t *ow)
{
  *ow = o % g.out[2];
  *oh = o / g.out[2] % g.out[1];
  *ot = o / (g.out[2] * g.out[1]);
  return (g.first[0][*ot] * g.in[1] + g.first[1][*oh]) * g.in[2] + g.first[2][*ow];
}

/* Records an element of ind[0..n) outside [0, limit), if any. */
__global__ void THCPool_rangeKernel(const int64_t *ind, int64_t n, int64_t limit, THCErrorSlot *slot)
{
  THC_KERNEL_LOOP(i, n) {
    if ((uint64_t)ind[i] >= (uint64_t)limit)
      THCErrorSlot_record(slot, ind[i], i);
  }
}

/* The range check of THPoolCheckIndices (which skips device memory), on the
 * device: ix is the contiguous indices.  When a value is out of range, the
 * CPU check runs on a host copy, so the message is the CPU's, naming the
 * first bad element. */
static int THCPool_checkIndices(THNNState *state, const THLongTensor *ix, int64_t limit)
{
  int64_t n = THLongTensor_nElement(ix);
  THCErrorSlot *slot = THCErrorSlot_new(state);
  if (!slot)
    return -1;
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THCPool_rangeKernel)(THLongTensor_data(ix), n, limit, slot);
  int launched = THCCheckLaunch(state, "Pool_checkIndices");
  THCErrorSlot bad;
  TH_TRY(THCErrorSlot_take(state, slot, &bad));
  TH_TRY(launched);
  if (!bad.flag)
    return 0;
  THLongTensor host = {};
  if (THLongTensor_resizeNd(state, &host, ix->nDimension, ix->size) == 0 &&
      THCLongStorage_copyToHost(state, THLongTensor_data(&host), ix->storage, ix->storageOffset, n) == 0 &&
      THPoolCheckIndices(state, "indices", &host, limit) == 0)  /* it cannot pass: the device saw a bad value */
    THError(state, "indices[%lld] = %lld is out of range [0, %lld)", bad.where, bad.value, (long long)limit);
  THLongTensor_release(&host);
  return -1;
}

/* Unpooling: win[o] = 1 + the last input element (within its plane) whose index is o, 0 if none. */
__global__ void THCPool_unpoolWinnerKernel(const int64_t *ind, int *win, int64_t inPlane, int64_t outPlane,
                                           int64_t n)
{
  THC_KERNEL_LOOP(i, n) atomicMax(&win[i / inPlane * outPlane + ind[i]], (int)(i % inPlane + 1));
}

#endif

/* ---------------------------------------------------------------- max */

/* The largest tap of the window at offset first of plane x with count[a]
 * taps dil[a] apart along each axis (in: the plane's sizes), and its offset,
 * by the CPU's rule (v > best || isnan(v): the first of equal values, the
 * last NaN). */
__device__ inline void THNN_(Pool_maxWindow)(const real *x, const int64_t *in, int64_t first, const int64_t *count,
                                             const int *dil, real *best, int64_t *at)
{
  real m = x[first];
  int64_t where = first;
  for (int64_t jt = 0; jt < count[0]; jt++)
    for (int64_t jh = 0; jh < count[1]; jh++)
      for (int64_t jw = 0; jw < count[2]; jw++) {
        int64_t k = first + (jt * dil[0] * in[1] + jh * dil[1]) * in[2] + jw * dil[2];
        if (x[k] > m || x[k] != x[k]) {
          m = x[k];
          where = k;
        }
      }
  *best = m;
  *at = where;
}

/* out[i], ind[i]: the largest tap of output i's window and its offset. */
__global__ void THNN_(Pool_maxKernel)(const real *in, real *out, int64_t *ind, THCPoolGrid g, int64_t n)
{
  int64_t inPlane = THCPool_planeSize(g.in), outPlane = THCPool_planeSize(g.out);
  THC_KERNEL_LOOP(i, n) {
    int64_t ot, oh, ow;
    int64_t first = THCPool_window(g, i % outPlane, &ot, &oh, &ow);
    int64_t count[3] = {g.count[0][ot], g.count[1][oh], g.count[2][ow]};
    THNN_(Pool_maxWindow)(in + i / outPlane * inPlane, g.in, first, count, g.dil, &out[i], &ind[i]);
  }
}

/* gi[plane of i][ind[i]] += go[i] (gi zeroed). */
__global__ void THNN_(Pool_indexGradKernel)(const real *go, const int64_t *ind, real *gi, int64_t inPlane,
                                            int64_t outPlane, int64_t n)
{
  THC_KERNEL_LOOP(i, n) atomicAdd(&gi[i / outPlane * inPlane + ind[i]], go[i]);
}

/* Max pooling's updateOutput over the windows of g (the CPU's grid). */
static int THNN_(Pool_maxOutput)(THNNState *state, THTensor *input, THTensor *output, THIndexTensor *indices,
                                 const THPoolShape *s, const THPoolGrid *g)
{
  int64_t dims[5];
  int nd = THPoolDims(s, s->out, dims);
  TH_TRY(THCTensor_(resizeNd)(state, output, nd, dims));
  TH_TRY(THCLongTensor_resizeNd(state, indices, nd, dims));
  THTensor xTmp = {};
  THLongTensor gridMem = {};
  THCPoolGrid dg;
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  int rc = x ? THCPoolGrid_upload(state, g, s, &gridMem, &dg) : -1;
  if (rc == 0) {
    int64_t n = THTensor_(nElement)(output);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Pool_maxKernel))(
        THTensor_(data)(x), THTensor_(data)(output), THLongTensor_data(indices), dg, n);
    rc = THCCheckLaunch(state, "Pool_maxOutput");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&gridMem);
  return rc;
}

/* updateGradInput of the poolings whose output o took input indices[o] of
 * its plane: gradInput zeroed, every gradOutput element added at its index
 * (the indices' sizes were checked by the CPU's shapeCheck, their values
 * are checked here). */
static int THNN_(Pool_indexGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THIndexTensor *indices, const THPoolShape *s)
{
  THTensor gTmp = {};
  THLongTensor iTmp = {};
  const THTensor *go = THCTensor_(contiguous)(state, gradOutput, &gTmp);
  const THLongTensor *ix = go ? THCLongTensor_contiguous(state, indices, &iTmp) : NULL;
  int64_t inPlane = s->in[0] * s->in[1] * s->in[2], outPlane = s->out[0] * s->out[1] * s->out[2];
  int rc = ix ? THCPool_checkIndices(state, ix, inPlane) : -1;
  if (rc == 0)
    rc = THCTensor_(resizeAs)(state, gradInput, input);
  if (rc == 0)
    rc = THCTensor_(fill)(state, gradInput, 0);
  if (rc == 0) {
    int64_t n = THTensor_(nElement)(go);
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Pool_indexGradKernel))(
        THTensor_(data)(go), THLongTensor_data(ix), THTensor_(data)(gradInput), inPlane, outPlane, n);
    rc = THCCheckLaunch(state, "Pool_indexGradInput");
  }
  THCTensor_(release)(&gTmp);
  THCLongTensor_release(&iTmp);
  return rc;
}

/* ---------------------------------------------------------------- average */

/* The CPU's divisors (THPoolDivisor): the sum in accreal, the gradient share in real. */
__device__ inline accreal THNN_(Pool_mean)(accreal sum, const THCPoolGrid &g, int64_t ot, int64_t oh,
                                           int64_t ow, int mode)
{
  if (mode == TH_POOL_ADAPTIVE)
    return sum / g.count[0][ot] / g.count[1][oh] / g.count[2][ow];
  if (mode == TH_POOL_COUNT_PADDING)
    return sum / (g.span[0][ot] * g.span[1][oh] * g.span[2][ow]);
  return sum / (g.count[0][ot] * g.count[1][oh] * g.count[2][ow]);
}

__device__ inline real THNN_(Pool_share)(real grad, const THCPoolGrid &g, int64_t ot, int64_t oh, int64_t ow,
                                         int mode)
{
  if (mode == TH_POOL_ADAPTIVE)
    return grad / (real)g.count[0][ot] / (real)g.count[1][oh] / (real)g.count[2][ow];
  if (mode == TH_POOL_COUNT_PADDING)
    return grad / (real)(g.span[0][ot] * g.span[1][oh] * g.span[2][ow]);
  return grad / (real)(g.count[0][ot] * g.count[1][oh] * g.count[2][ow]);
}

/* out[i] = the mean of output i's window (dilation 1). */
__global__ void THNN_(Pool_avgKernel)(const real *in, real *out, THCPoolGrid g, int mode, int64_t n)
{
  int64_t inPlane = THCPool_planeSize(g.in), outPlane = THCPool_planeSize(g.out);
  THC_KERNEL_LOOP(i, n) {
    int64_t ot, oh, ow;
    int64_t first = THCPool_window(g, i % outPlane, &ot, &oh, &ow);
    const real *x = in + i / outPlane * inPlane + first;
    accreal sum = 0;
    for (int64_t jt = 0; jt < g.count[0][ot]; jt++)
      for (int64_t jh = 0; jh < g.count[1][oh]; jh++)
        for (int64_t jw = 0; jw < g.count[2][ow]; jw++)
          sum += x[(jt * g.in[1] + jh) * g.in[2] + jw];
    out[i] = (real)THNN_(Pool_mean)(sum, g, ot, oh, ow, mode);
  }
}

/* Output i's share of go[i] added to every tap of its window (gi zeroed). */
__global__ void THNN_(Pool_avgGradKernel)(const real *go, real *gi, THCPoolGrid g, int mode, int64_t n)
{
  int64_t inPlane = THCPool_planeSize(g.in), outPlane = THCPool_planeSize(g.out);
  THC_KERNEL_LOOP(i, n) {
    int64_t ot, oh, ow;
    int64_t first = THCPool_window(g, i % outPlane, &ot, &oh, &ow);
    real *x = gi + i / outPlane * inPlane + first;
    real share = THNN_(Pool_share)(go[i], g, ot, oh, ow, mode);
    for (int64_t jt = 0; jt < g.count[0][ot]; jt++)
      for (int64_t jh = 0; jh < g.count[1][oh]; jh++)
        for (int64_t jw = 0; jw < g.count[2][ow]; jw++)
          atomicAdd(&x[(jt * g.in[1] + jh) * g.in[2] + jw], share);
  }
}

/* Average pooling, forward (gradOutput NULL: result = output) or backward
 * (result = gradInput), over the windows of g (the CPU's grid). */
static int THNN_(Pool_avg)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                           const THPoolShape *s, const THPoolGrid *g, THPoolDivisor mode)
{
  int64_t dims[5];
  int nd = THPoolDims(s, s->out, dims);
  if (gradOutput)
    TH_TRY(THCTensor_(resizeAs)(state, result, input));
  else
    TH_TRY(THCTensor_(resizeNd)(state, result, nd, dims));
  THTensor xTmp = {};
  THLongTensor gridMem = {};
  THCPoolGrid dg;
  const THTensor *x = THCTensor_(contiguous)(state, gradOutput ? gradOutput : input, &xTmp);
  int rc = x ? THCPoolGrid_upload(state, g, s, &gridMem, &dg) : -1;
  if (rc == 0 && gradOutput)
    rc = THCTensor_(fill)(state, result, 0);
  if (rc == 0) {
    int64_t n = THTensor_(nElement)(gradOutput ? x : result);
    if (gradOutput)
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Pool_avgGradKernel))(
          THTensor_(data)(x), THTensor_(data)(result), dg, (int)mode, n);
    else
      THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Pool_avgKernel))(
          THTensor_(data)(x), THTensor_(data)(result), dg, (int)mode, n);
    rc = THCCheckLaunch(state, "Pool_avg");
  }
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&gridMem);
  return rc;
}

/* ---------------------------------------------------------------- fractional */

/* The start of window o along an axis for the sample u, in the element type
 * as the CPU's Pool_fractionalStarts: alpha = (in - pool) / (out - 1),
 * start = int((o + u) alpha) - int(u alpha), the last window ending at the
 * input's end. */
__device__ inline int64_t THNN_(Pool_fractionalStart)(real u, int64_t in, int64_t out, int pool, int64_t o)
{
  if (o == out - 1)
    return in - pool;
  real alpha = (real)(in - pool) / (real)(out - 1);
  int64_t first = (int64_t)((o + u) * alpha) - (int64_t)(u * alpha);
  return first > in - pool ? in - pool : first;
}

/* Fractional max pooling: plane p's windows start where its nd samples
 * (u[p * nd ..], width first, then height, then time) put them. */
__global__ void THNN_(Pool_fractionalKernel)(const real *in, const real *u, real *out, int64_t *ind,
                                             THCPoolGrid g, int nd, int px, int py, int pz, int64_t n)
{
  int64_t inPlane = THCPool_planeSize(g.in), outPlane = THCPool_planeSize(g.out);
  const int64_t pool[3] = {pz, py, px};
  const int sampleAxis[3] = {nd == 3 ? 0 : -1, nd == 3 ? 2 : 1, nd == 3 ? 1 : 0};  /* as the CPU's */
  const int dil[3] = {1, 1, 1};
  THC_KERNEL_LOOP(i, n) {
    int64_t p = i / outPlane, o = i % outPlane;
    int64_t pos[3] = {o / (g.out[2] * g.out[1]), o / g.out[2] % g.out[1], o % g.out[2]}, first[3];
    for (int a = 0; a < 3; a++)
      first[a] = sampleAxis[a] < 0 ? 0 : THNN_(Pool_fractionalStart)(u[p * nd + sampleAxis[a]], g.in[a], g.out[a],
                                                                      (int)pool[a], pos[a]);
    int64_t at = (first[0] * g.in[1] + first[1]) * g.in[2] + first[2];
    THNN_(Pool_maxWindow)(in + p * inPlane, g.in, at, pool, dil, &out[i], &ind[i]);
  }
}

/* updateOutput of fractional max pooling: samples is the host copy the CPU
 * check read, sx its device original (contiguous); pool[] along T, H, W. */
static int THNN_(Pool_fractionalOutput)(THNNState *state, THTensor *input, THTensor *output,
                                        THIndexTensor *indices, const THTensor *sx, const THPoolShape *s,
                                        const int *pool)
{
  int64_t dims[5];
  int nd = THPoolDims(s, s->out, dims);
  TH_TRY(THCTensor_(resizeNd)(state, output, nd, dims));
  TH_TRY(THCLongTensor_resizeNd(state, indices, nd, dims));
  THTensor xTmp = {};
  const THTensor *x = THCTensor_(contiguous)(state, input, &xTmp);
  if (!x)
    return -1;
  THCPoolGrid g = {};
  for (int a = 0; a < 3; a++) {
    g.in[a] = s->in[a];
    g.out[a] = s->out[a];
  }
  int64_t n = THTensor_(nElement)(output);
  THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(Pool_fractionalKernel))(
      THTensor_(data)(x), THTensor_(data)(sx), THTensor_(data)(output), THLongTensor_data(indices), g, s->nd,
      pool[2], pool[1], pool[0], n);
  int rc = THCCheckLaunch(state, "Pool_fractionalOutput");
  THCTensor_(release)(&xTmp);
  return rc;
}

/* A host copy (in host, zeroed; release it) of the contiguous device tensor
 * c, for a CPU check that reads values (fractional pooling's samples). */
static int THNN_(Pool_hostCopy)(THNNState *state, const THTensor *c, THTensor *host)
{
  int64_t n = THTensor_(nElement)(c);
  TH_TRY(THTensor_(resizeNd)(state, host, c->nDimension, c->size));
  return n > 0 ? THCStorage_(copyToHost)(state, THTensor_(data)(host), c->storage, c->storageOffset, n) : 0;
}

/* ---------------------------------------------------------------- unpooling */

/* out[o] = the input element that won o (see THCPool_unpoolWinnerKernel), or 0. */
__global__ void THNN_(Pool_unpoolKernel)(const real *in, const int *win, real *out, int64_t inPlane,
                                         int64_t outPlane, int64_t n)
{
  THC_KERNEL_LOOP(o, n) out[o] = win[o] ? in[o / outPlane * inPlane + win[o] - 1] : 0;
}

/* gi[i] = go[plane of i][ind[i]]. */
__global__ void THNN_(Pool_unpoolGradKernel)(const real *go, const int64_t *ind, real *gi, int64_t inPlane,
                                             int64_t outPlane, int64_t n)
{
  THC_KERNEL_LOOP(i, n) gi[i] = go[i / inPlane * outPlane + ind[i]];
}

/* Max unpooling, forward (gradOutput NULL: result = output, zero but for
 * output[indices[i]] = input[i], the later of two inputs with one index
 * staying, as on the CPU) or backward (result = gradInput).  s->in is the
 * pooled input, s->out the unpooled output. */
static int THNN_(Pool_unpool)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *result,
                              THIndexTensor *indices, const THPoolShape *s)
{
  int64_t inPlane = s->in[0] * s->in[1] * s->in[2], outPlane = s->out[0] * s->out[1] * s->out[2];
  if (!gradOutput && inPlane >= INT32_MAX)
    return THError(state, "the CUDA max unpooling takes at most %d input elements per plane, got %lld",
                   INT32_MAX - 1, (long long)inPlane);
  THTensor xTmp = {};
  THLongTensor iTmp = {};
  int *win = NULL;
  const THTensor *x = THCTensor_(contiguous)(state, gradOutput ? gradOutput : input, &xTmp);
  const THLongTensor *ix = x ? THCLongTensor_contiguous(state, indices, &iTmp) : NULL;
  int rc = ix ? THCPool_checkIndices(state, ix, outPlane) : -1;
  int64_t dims[5];
  int nd = THPoolDims(s, s->out, dims);
  if (rc == 0)
    rc = gradOutput ? THCTensor_(resizeAs)(state, result, input) : THCTensor_(resizeNd)(state, result, nd, dims);
  int64_t nIn = THLongTensor_nElement(indices), nOut = s->batch * s->planes * outPlane;
  if (rc == 0 && gradOutput) {
    THC_LAUNCH(THC_blocks(nIn), THC_NUM_THREADS, THNN_(Pool_unpoolGradKernel))(
        THTensor_(data)(x), THLongTensor_data(ix), THTensor_(data)(result), inPlane, outPlane, nIn);
    rc = THCCheckLaunch(state, "Pool_unpool");
  } else if (rc == 0) {
    if (cudaMalloc((void **)&win, (size_t)(nOut > 0 ? nOut : 1) * sizeof(int)) != cudaSuccess ||
        cudaMemset(win, 0, (size_t)nOut * sizeof(int)) != cudaSuccess) {
      cudaGetLastError();
      rc = THError(state, "out of device memory for the unpooling of %lld elements", (long long)nOut);
    }
  }
  if (rc == 0 && !gradOutput) {
    THC_LAUNCH(THC_blocks(nIn), THC_NUM_THREADS, THCPool_unpoolWinnerKernel)(
        THLongTensor_data(ix), win, inPlane, outPlane, nIn);
    rc = THCCheckLaunch(state, "Pool_unpool");
    if (rc == 0) {
      THC_LAUNCH(THC_blocks(nOut), THC_NUM_THREADS, THNN_(Pool_unpoolKernel))(
          THTensor_(data)(x), win, THTensor_(data)(result), inPlane, outPlane, nOut);
      rc = THCCheckLaunch(state, "Pool_unpool");
    }
  }
  if (win)
    cudaFree(win);
  THCTensor_(release)(&xTmp);
  THCLongTensor_release(&iTmp);
  return rc;
}

#endif
