/* SoftMaxRows.h: what SoftMax and LogSoftMax do around their formulas,
 * written once: the layout check (THSoftMaxLayout: nframe frames of dim
 * features, `stride` apart), the contiguous copies of the operands, the
 * result's size, and the walk over the frames.  With stride 1 (the 1D and
 * 2D layouts) every frame is one row, and the rows are split between
 * threads; else (3D and 4D) each [dim, stride] frame is handed whole to the
 * layer's frame function, with per-column scratch accumulators.  A layer
 * keeps its shape check and its four formulas:
 *
 *   row(a, b, out, n)                      one row of n features
 *   frame(a, b, out, dim, stride, col)     one frame, col: scratch accumulators
 *
 * forward: a the input, b NULL, out the output; backward: a gradOutput,
 * b the output, out gradInput.
 *
 * A generic header: each generic file that uses it includes it, and it
 * defines its functions once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_SOFTMAXROWS_FLOAT)
#define THNN_SOFTMAXROWS_FLOAT
#define THNN_SOFTMAXROWS_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_SOFTMAXROWS_DOUBLE)
#define THNN_SOFTMAXROWS_DOUBLE
#define THNN_SOFTMAXROWS_NOW
#endif

#ifdef THNN_SOFTMAXROWS_NOW
#undef THNN_SOFTMAXROWS_NOW

#include "THLoop.h"

typedef void (*THNN_(SoftMaxRow))(const real *a, const real *b, real *out, int64_t n);
typedef void (*THNN_(SoftMaxFrame))(const real *a, const real *b, real *out, int64_t dim, int64_t stride,
                                    accreal *col);

/* The layout of input (see THSoftMaxLayout); gradOutput and output, when
 * given, must have its size. */
static int THNN_(SoftMaxRows_check)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *output,
                                    int64_t *nframe, int64_t *dim, int64_t *stride)
{
  TH_TRY(THSoftMaxLayout(state, input->nDimension, input->size, nframe, dim, stride));
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (output)
    TH_TRY(THTensor_(checkSameSize)(state, "output", output, "input", input));
  return 0;
}

/* result (resized as input) = the formulas over a and b (b NULL forward),
 * frame by frame; `cols` scratch accumulators per column for `frame`. */
static int THNN_(SoftMaxRows_map)(THNNState *state, THTensor *result, THTensor *input, THTensor *a, THTensor *b,
                                  int64_t nframe, int64_t dim, int64_t stride, int cols,
                                  THNN_(SoftMaxRow) row, THNN_(SoftMaxFrame) frame)
{
  THTensor aTmp = {0}, bTmp = {0};
  const THTensor *ac = THTensor_(contiguous)(state, a, &aTmp);
  const THTensor *bc = ac && b ? THTensor_(contiguous)(state, b, &bTmp) : NULL;
  int ready = ac && (!b || bc);
  accreal *col = ready && stride > 1 ? THAlloc((size_t)cols * (size_t)stride * sizeof(accreal)) : NULL;
  int rc = -1;
  if (ready && stride > 1 && !col)
    THError(state, "out of memory");
  else if (ready && THTensor_(resizeAs)(state, result, input) == 0) {
    const real *pa = THTensor_(data)(ac), *pb = bc ? THTensor_(data)(bc) : NULL;
    real *out = THTensor_(data)(result);
    int64_t size = dim * stride;   /* elements of a frame */
    if (stride == 1) {
#pragma omp parallel for num_threads(THLoopThreads(nframe * dim))
      for (int64_t f = 0; f < nframe; f++)
        row(pa + f * dim, pb ? pb + f * dim : NULL, out + f * dim, dim);
    } else {
      for (int64_t f = 0; f < nframe; f++)
        frame(pa + f * size, pb ? pb + f * size : NULL, out + f * size, dim, stride, col);
    }
    rc = 0;
  }
  THFree(col);
  THTensor_(release)(&aTmp);
  THTensor_(release)(&bTmp);
  return rc;
}

#endif
