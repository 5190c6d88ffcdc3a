#include "THPooling.h"

#include <stdio.h>
#include <string.h>

static const char *const THPoolAxisName[3] = {"T", "H", "W"};
static const char *const THPoolAxisWord[3] = {"time", "height", "width"};
/* Torch7 names width before height: check and report in that order */
static const int THPoolAxisOrder[3] = {0, 2, 1};

int THPoolInput(THNNState *state, int nd, int nDimension, const int64_t *size, THPoolShape *s)
{
  if (nDimension != nd + 1 && nDimension != nd + 2) {
    char actual[160];
    THDescribeSizes(actual, sizeof actual, nDimension, size);
    if (nd == 2)
      return THError(state, "input must be 3D [planes, height, width] or 4D [batch, planes, height, width], "
                     "got %s", actual);
    return THError(state, "input must be 4D [planes, time, height, width] or 5D "
                   "[batch, planes, time, height, width], got %s", actual);
  }
  s->nd = nd;
  s->batched = nDimension == nd + 2;
  s->batch = s->batched ? size[0] : 1;
  s->planes = size[s->batched];
  const int64_t *pooled = size + s->batched + 1;
  s->in[0] = nd == 3 ? pooled[0] : 1;
  s->in[1] = pooled[nd - 2];
  s->in[2] = pooled[nd - 1];
  for (int a = 0; a < 3; a++)
    s->out[a] = s->in[a];
  return 0;
}

THPoolWindow THPoolWindow2d(int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH)
{
  THPoolWindow w = {{1, kH, kW}, {1, dH, dW}, {0, padH, padW}, {1, dilationH, dilationW}};
  return w;
}

THPoolWindow THPoolWindow3d(int kT, int kW, int kH, int dT, int dW, int dH,
                            int padT, int padW, int padH, int dilationT, int dilationW, int dilationH)
{
  THPoolWindow w = {{kT, kH, kW}, {dT, dH, dW}, {padT, padH, padW}, {dilationT, dilationH, dilationW}};
  return w;
}

static int64_t THPoolFloorDiv(int64_t a, int64_t b)
{
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t THPoolCeilDiv(int64_t a, int64_t b)  /* a >= 0, b > 0 */
{
  return (a + b - 1) / b;
}

void THPoolTaps(int64_t o, int64_t in, int k, int d, int pad, int dil, int64_t *first, int64_t *count)
{
  int64_t start = o * d - pad;
  int64_t skip = start < 0 ? THPoolCeilDiv(-start, dil) : 0;  /* taps in the left padding */
  *first = start + skip * dil;
  if (skip >= k || *first >= in) {
    *count = 0;
    return;
  }
  int64_t inside = THPoolCeilDiv(in - *first, dil);
  *count = k - skip < inside ? k - skip : inside;
}

/* One axis: "kW=3, dW=2, padW=1, dilationW=1" (dilation only when not 1). */
static void THPoolDescribeAxis(const THPoolWindow *w, int a, char *buf, size_t bufsize)
{
  const char *n = THPoolAxisName[a];
  int len = snprintf(buf, bufsize, "k%s=%d, d%s=%d, pad%s=%d", n, w->k[a], n, w->d[a], n, w->pad[a]);
  if (w->dil[a] != 1 && len > 0 && (size_t)len < bufsize)
    snprintf(buf + len, bufsize - len, ", dilation%s=%d", n, w->dil[a]);
}

static int THPoolCheckWindow(THNNState *state, const THPoolShape *s, const THPoolWindow *w)
{
  for (int i = 0; i < 3; i++) {
    int a = THPoolAxisOrder[i];
    const char *n = THPoolAxisName[a];
    if (a == 0 && s->nd == 2)
      continue;
    if (w->k[a] <= 0)
      return THError(state, "kernel size must be > 0, got k%s=%d", n, w->k[a]);
    if (w->d[a] <= 0)
      return THError(state, "stride must be > 0, got d%s=%d", n, w->d[a]);
    if (w->dil[a] <= 0)
      return THError(state, "dilation must be > 0, got dilation%s=%d", n, w->dil[a]);
    if (w->pad[a] < 0 || w->pad[a] > w->k[a] / 2)
      return THError(state, "padding must be >= 0 and at most half the kernel size, got pad%s=%d for k%s=%d",
                     n, w->pad[a], n, w->k[a]);
  }
  return 0;
}

int THPoolOutputSize(THNNState *state, THPoolShape *s, const THPoolWindow *w, bool ceil_mode)
{
  TH_TRY(THPoolCheckWindow(state, s, w));
  for (int i = 0; i < 3; i++) {
    int a = THPoolAxisOrder[i];
    int64_t in = s->in[a];
    int k = w->k[a], d = w->d[a], pad = w->pad[a], dil = w->dil[a];
    int64_t span = in + 2 * (int64_t)pad - (int64_t)dil * (k - 1) - 1;
    int64_t out = THPoolFloorDiv(span + (ceil_mode ? d - 1 : 0), d) + 1;
    if (ceil_mode && out >= 1 && (out - 1) * d >= in + pad)
      out--;  /* the last window would start in the right padding */
    char window[160], dims[160];
    int64_t size[5];
    if (out < 1) {
      THPoolDescribeAxis(w, a, window, sizeof window);
      THDescribeSizes(dims, sizeof dims, THPoolDims(s, s->in, size), size);
      return THError(state, "input (%s) is too small along %s (%lld) for the window %s: "
                     "the output %s would be %lld, it must be at least 1",
                     dims, THPoolAxisWord[a], (long long)in, window, THPoolAxisWord[a], (long long)out);
    }
    for (int64_t o = 0; o * d < pad && o < out; o++) {  /* only windows starting in the padding can miss */
      int64_t first, count;
      THPoolTaps(o, in, k, d, pad, dil, &first, &count);
      if (count == 0) {
        THPoolDescribeAxis(w, a, window, sizeof window);
        return THError(state, "window %lld along %s lies wholly in the padding: input %s %lld, %s",
                       (long long)o, THPoolAxisWord[a], THPoolAxisWord[a], (long long)in, window);
      }
    }
    s->out[a] = out;
  }
  return 0;
}

int THPoolAdaptiveOutput(THNNState *state, THPoolShape *s, int64_t outT, int64_t outH, int64_t outW)
{
  int64_t out[3] = {outT, outH, outW};
  for (int i = 0; i < 3; i++) {
    int a = THPoolAxisOrder[i];
    if (out[a] < 1)
      return THError(state, "output %s must be at least 1, got %lld", THPoolAxisWord[a], (long long)out[a]);
    char dims[160];
    int64_t size[5];
    if (s->in[a] < 1 || THMulSizes(s->in[a], out[a] + 1) < 0) {  /* the window bounds multiply the two */
      THDescribeSizes(dims, sizeof dims, THPoolDims(s, s->in, size), size);
      if (s->in[a] < 1)
        return THError(state, "input must have a %s of at least 1, got %s", THPoolAxisWord[a], dims);
      return THError(state, "output %s %lld is too large for an input %s", THPoolAxisWord[a],
                     (long long)out[a], dims);
    }
    s->out[a] = out[a];
  }
  return 0;
}

int THPoolGridAlloc(THNNState *state, THPoolGrid *g, const THPoolShape *s)
{
  int64_t total = 3 * (s->out[0] + s->out[1] + s->out[2]);
  memset(g, 0, sizeof *g);
  g->mem = THAlloc((size_t)total * sizeof(int64_t));
  if (!g->mem)
    return THError(state, "out of memory for the pooling windows of an output of %lldx%lldx%lld",
                   (long long)s->out[0], (long long)s->out[1], (long long)s->out[2]);
  int64_t *p = g->mem;
  for (int a = 0; a < 3; a++) {
    g->first[a] = p;
    g->count[a] = p + s->out[a];
    g->span[a] = p + 2 * s->out[a];
    g->dil[a] = 1;
    p += 3 * s->out[a];
  }
  return 0;
}

int THPoolGridWindows(THNNState *state, THPoolGrid *g, const THPoolShape *s, const THPoolWindow *w)
{
  TH_TRY(THPoolGridAlloc(state, g, s));
  for (int a = 0; a < 3; a++) {
    g->dil[a] = w->dil[a];
    for (int64_t o = 0; o < s->out[a]; o++) {
      int64_t start = o * w->d[a] - w->pad[a];
      int64_t end = start + w->k[a] < s->in[a] + w->pad[a] ? start + w->k[a] : s->in[a] + w->pad[a];
      THPoolTaps(o, s->in[a], w->k[a], w->d[a], w->pad[a], w->dil[a], &g->first[a][o], &g->count[a][o]);
      g->span[a][o] = end - start;
    }
  }
  return 0;
}

int THPoolGridAdaptive(THNNState *state, THPoolGrid *g, const THPoolShape *s)
{
  TH_TRY(THPoolGridAlloc(state, g, s));
  for (int a = 0; a < 3; a++)
    for (int64_t o = 0; o < s->out[a]; o++) {
      g->first[a][o] = THPoolAdaptiveStart(o, s->out[a], s->in[a]);
      g->count[a][o] = THPoolAdaptiveEnd(o, s->out[a], s->in[a]) - g->first[a][o];
      g->span[a][o] = g->count[a][o];
    }
  return 0;
}

void THPoolGridFree(THPoolGrid *g)
{
  THFree(g->mem);
  memset(g, 0, sizeof *g);
}

int THPoolDims(const THPoolShape *s, const int64_t *sizes, int64_t *dims)
{
  int n = 0;
  if (s->batched)
    dims[n++] = s->batch;
  dims[n++] = s->planes;
  for (int a = 3 - s->nd; a < 3; a++)
    dims[n++] = sizes[a];
  return n;
}

void THPoolDescribe(const THPoolShape *s, const int64_t *sizes, char *buf, size_t bufsize)
{
  if (s->nd == 3)
    snprintf(buf, bufsize, "%lldx%lldx%lld", (long long)sizes[0], (long long)sizes[1], (long long)sizes[2]);
  else
    snprintf(buf, bufsize, "%lldx%lld", (long long)sizes[1], (long long)sizes[2]);
}

static int THPoolIndexError(THNNState *state, const char *arg, const THLongTensor *t, int64_t e,
                            int64_t value, int64_t limit)
{
  char where[160];
  int len = 0;
  int64_t stride = THLongTensor_nElement(t);
  for (int d = 0; d < t->nDimension && len >= 0 && (size_t)len < sizeof where; d++) {
    stride /= t->size[d];
    len += snprintf(where + len, sizeof where - len, d ? ", %lld" : "%lld", (long long)(e / stride));
    e %= stride;
  }
  return THError(state, "%s[%s] = %lld is out of range [0, %lld)", arg, where, (long long)value,
                 (long long)limit);
}

/* as thcunn_cu/THC.h: a CUDA tensor, whose memory the host cannot read */
#ifndef TH_STORAGE_DEVICE
#define TH_STORAGE_DEVICE 2
#endif

int THPoolCheckIndices(THNNState *state, const char *arg, const THLongTensor *t, int64_t limit)
{
  if (t->storage && (t->storage->flag & TH_STORAGE_DEVICE))
    return 0;  /* the CUDA twin checks the values on the device (thcunn_cu/generic/Pooling.cu) */
  int64_t n = THLongTensor_nElement(t);
  const int64_t *idx = THLongTensor_data(t);
  if (!THLongTensor_isContiguous(t)) {
    int64_t pos[TH_MAX_DIM] = {0};
    for (int64_t e = 0; e < n; e++) {
      int64_t offset = 0;
      for (int d = 0; d < t->nDimension; d++)
        offset += pos[d] * t->stride[d];
      if ((uint64_t)idx[offset] >= (uint64_t)limit)
        return THPoolIndexError(state, arg, t, e, idx[offset], limit);
      for (int d = t->nDimension - 1; d >= 0 && ++pos[d] == t->size[d]; d--)
        pos[d] = 0;
    }
    return 0;
  }
  const int64_t block = 4096;
  for (int64_t b = 0; b < n; b += block) {
    int64_t end = b + block < n ? b + block : n;
    int bad = 0;
    for (int64_t e = b; e < end; e++)  /* no early exit, so it vectorizes */
      bad |= (uint64_t)idx[e] >= (uint64_t)limit;
    for (int64_t e = b; bad && e < end; e++)
      if ((uint64_t)idx[e] >= (uint64_t)limit)
        return THPoolIndexError(state, arg, t, e, idx[e], limit);
  }
  return 0;
}

static int THPoolSharedRows = 1;
static int64_t THPoolSharedRowCalls;

void THPool_setSharedRows(int on)
{
  __atomic_store_n(&THPoolSharedRows, on != 0, __ATOMIC_RELAXED);
}

int THPool_sharedRowsOn(void)
{
  return __atomic_load_n(&THPoolSharedRows, __ATOMIC_RELAXED);
}

int64_t THPool_sharedRowCalls(void)
{
  return __atomic_load_n(&THPoolSharedRowCalls, __ATOMIC_RELAXED);
}

void THPool_countSharedRows(void)
{
  __atomic_fetch_add(&THPoolSharedRowCalls, 1, __ATOMIC_RELAXED);
}
