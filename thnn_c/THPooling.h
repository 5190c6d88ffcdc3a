/* THPooling.h: the window geometry every spatial and volumetric pooling
 * kernel shares, independent of the element type.
 *
 * A pooling input is seen as batch x planes x (T x H x W).  A spatial layer
 * has no time axis: T = 1 with a window of 1 along it, so one set of loops
 * serves the spatial and the volumetric layers.  Arrays over the pooled axes
 * are in memory order: [0] time, [1] height, [2] width (the kernels take
 * their arguments in Torch7's order, width before height, and reorder). */
#ifndef TH_POOLING_H
#define TH_POOLING_H

#include <stdbool.h>
#include "TH.h"

typedef struct THPoolShape {
  int nd;              /* pooled axes of the layer: 2 (H, W) or 3 (T, H, W) */
  int batched;         /* the input has a leading batch dim */
  int64_t batch;       /* 1 when not batched */
  int64_t planes;
  int64_t in[3];       /* input size along T, H, W */
  int64_t out[3];      /* output size along T, H, W */
} THPoolShape;

typedef struct THPoolWindow {
  int k[3];            /* kernel size along T, H, W */
  int d[3];            /* stride */
  int pad[3];          /* zero padding added on both sides */
  int dil[3];          /* dilation: the kernel taps lie dil apart */
} THPoolWindow;

/* Reads an input of nd+1 dims [planes, (T,) H, W] or nd+2 dims
 * [batch, planes, (T,) H, W] into s (s->out is set equal to s->in).
 * -1 (error set, naming the layouts) for any other number of dims. */
int THPoolInput(THNNState *state, int nd, int nDimension, const int64_t *size, THPoolShape *s);

/* Windows from Torch7's argument order. */
THPoolWindow THPoolWindow2d(int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH);
THPoolWindow THPoolWindow3d(int kT, int kW, int kH, int dT, int dW, int dH,
                            int padT, int padW, int padH, int dilationT, int dilationW, int dilationH);

/* Checks the window (kernel, stride, dilation > 0; 0 <= pad <= kernel / 2)
 * and sets s->out along every axis as PyTorch does:
 *   out = floor or ceil((in + 2 pad - dil (k - 1) - 1) / d) + 1,
 * in ceil mode minus one when the last window would start past the input
 * and its left padding.  Every output must be at least 1 and every window
 * must hold at least one input element (dilated windows could straddle a
 * small input).  -1 with a message naming the layer's argument otherwise. */
int THPoolOutputSize(THNNState *state, THPoolShape *s, const THPoolWindow *w, bool ceil_mode);

/* Sets s->out to the output sizes of adaptive pooling (T, H, W; T = 1 for a
 * spatial layer), checking that they and the input sizes are at least 1. */
int THPoolAdaptiveOutput(THNNState *state, THPoolShape *s, int64_t outT, int64_t outH, int64_t outW);

/* The first tap of window o along an axis that falls inside the input, and
 * the number of taps inside it: the window covers
 * first, first + dil, ..., first + (count - 1) dil. */
void THPoolTaps(int64_t o, int64_t in, int k, int d, int pad, int dil, int64_t *first, int64_t *count);

/* The windows of every output position, axis by axis: output o along axis
 * a reads the input taps first[a][o] + j * dil[a] for j < count[a][o] (all
 * inside the input); span[a][o] also counts the taps that fall in the
 * padding, up to the padded border (average pooling's divisor when the
 * padding counts). */
typedef struct THPoolGrid {
  int64_t *first[3], *count[3], *span[3];
  int dil[3];
  int64_t *mem;        /* the one allocation behind the arrays */
} THPoolGrid;

/* The grid of a fixed window over s (s->out already set).  -1 (error set)
 * when memory runs out; free with THPoolGridFree either way. */
int THPoolGridWindows(THNNState *state, THPoolGrid *g, const THPoolShape *s, const THPoolWindow *w);
/* The grid of adaptive pooling: s->out windows spread over s->in. */
int THPoolGridAdaptive(THNNState *state, THPoolGrid *g, const THPoolShape *s);
/* Room for a grid over s->out with dilation 1, for the caller to fill. */
int THPoolGridAlloc(THNNState *state, THPoolGrid *g, const THPoolShape *s);
void THPoolGridFree(THPoolGrid *g);

/* What average pooling divides a window's sum by. */
typedef enum {
  TH_POOL_COUNT_PADDING,   /* the taps inside input and padding (count_include_pad) */
  TH_POOL_COUNT_INPUT,     /* the taps inside the input */
  TH_POOL_ADAPTIVE         /* the tap count along T, then H, then W, one division each (as PyTorch) */
} THPoolDivisor;

/* The dims of an array shaped as the input but with sizes `sizes` along the
 * pooled axes (the output, gradOutput and indices): [batch,] planes, (T,) H, W.
 * Returns the number of dims. */
int THPoolDims(const THPoolShape *s, const int64_t *sizes, int64_t *dims);

/* Writes "HxW" or "TxHxW" of sizes (memory order) into buf. */
void THPoolDescribe(const THPoolShape *s, const int64_t *sizes, char *buf, size_t bufsize);

/* Checks that every index in t (any strides) lies in [0, limit); on the
 * first that does not, an error "<arg>[i, j, ...] = v is out of range
 * [0, limit)".  The values of a CUDA tensor (device memory) are not read
 * here: its twin checks them on the device. */
int THPoolCheckIndices(THNNState *state, const char *arg, const THLongTensor *t, int64_t limit);

/* Test hooks (through ctypes): whether max pooling without indices may
 * share the input rows of windows that overlap along H (generic/Pooling.h,
 * Pool_rowsShared; on by default), and how many calls took that path. */
void THPool_setSharedRows(int on);
int THPool_sharedRowsOn(void);
int64_t THPool_sharedRowCalls(void);
void THPool_countSharedRows(void);

/* Adaptive pooling: window o of out along an axis of size in spans
 * [floor(o in / out), ceil((o + 1) in / out)). */
static inline int64_t THPoolAdaptiveStart(int64_t o, int64_t out, int64_t in)
{
  return (o * in) / out;
}

static inline int64_t THPoolAdaptiveEnd(int64_t o, int64_t out, int64_t in)
{
  return ((o + 1) * in + out - 1) / out;
}

#endif
