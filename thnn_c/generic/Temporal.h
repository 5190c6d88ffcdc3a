/* Temporal.h: the sequence checks that the temporal layers share, written
 * once (the window by all four, the frames by TemporalConvolution,
 * TemporalSubSampling and TemporalRowConvolution).
 *
 * A generic header: each generic file that uses it includes it, and it
 * defines its functions once per element type, whatever the order of the
 * files in init.c. */
#if defined(TH_REAL_IS_FLOAT) && !defined(THNN_TEMPORAL_FLOAT)
#define THNN_TEMPORAL_FLOAT
#define THNN_TEMPORAL_NOW
#elif defined(TH_REAL_IS_DOUBLE) && !defined(THNN_TEMPORAL_DOUBLE)
#define THNN_TEMPORAL_DOUBLE
#define THNN_TEMPORAL_NOW
#endif

#ifdef THNN_TEMPORAL_NOW
#undef THNN_TEMPORAL_NOW

/* A window of kW frames moved in steps of dW: both positive. */
static int THNN_(Temporal_checkWindow)(THNNState *state, int kW, int dW)
{
  if (kW <= 0 || dW <= 0)
    return THError(state, "kW and dW must be positive, got kW = %d, dW = %d", kW, dW);
  return 0;
}

/* The rest of a temporal layer's shape check once it has read its weight:
 * the input a sequence of frames of nIn features, 2D [nInputFrame, nIn] or
 * 3D [batch, nInputFrame, nIn] (with featFirst [nIn, nInputFrame] or
 * [batch, nIn, nInputFrame]), at least kW frames long; *nOutputFrame, the
 * positions of a window of kW frames moved in steps of dW; then, each where
 * given, the bias of params [nOut] and gradOutput shaped as the input with
 * nOutputFrame frames of nOut features. */
THNN_HELPER int THNN_(Temporal_checkFrames)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            THTensor_(Params) params, int64_t nIn, int64_t nOut, int kW, int dW,
                                            bool featFirst, int64_t *nOutputFrame)
{
  int nd = input->nDimension;
  int featDim = featFirst ? nd - 2 : nd - 1, frameDim = featFirst ? nd - 1 : nd - 2;
  if (!((nd == 2 || nd == 3) && input->size[featDim] == nIn))
    return featFirst
      ? THTensor_(shapeError)(state, "input", input, "2D [%lld, nInputFrame] or 3D [batch, %lld, nInputFrame] "
                              "(featFirst)", (long long)nIn, (long long)nIn)
      : THTensor_(shapeError)(state, "input", input, "2D [nInputFrame, %lld] or 3D [batch, nInputFrame, %lld]",
                              (long long)nIn, (long long)nIn);
  if (input->size[frameDim] < kW)
    return THTensor_(shapeError)(state, "input", input, "at least kW = %d frames long", kW);
  *nOutputFrame = (input->size[frameDim] - kW) / dW + 1;
  if (params.bias)
    TH_TRY(THTensor_(checkSizes)(state, params.bName, params.bias, 1, &nOut));
  if (gradOutput) {
    int64_t size[3];
    for (int d = 0; d < nd; d++)
      size[d] = d == frameDim ? *nOutputFrame : d == featDim ? nOut : input->size[d];
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, nd, size));
  }
  return 0;
}

#endif
