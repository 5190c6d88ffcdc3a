#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDilatedConvolution.cu"
#else

/* The twin of thnn_c/generic/SpatialDilatedConvolution.c: the input is the
 * "image" of the engine in im2col.cu, the output its "other" side. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(SpatialDilatedConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    THNNConvGeometry *g, int64_t *nOutputPlane);
extern "C" int THNN_CPU_(SpatialDilatedConvolution_packedCheck)(THNNState *state, const THTensor *packed,
                                                              int contiguous1d, const real *header, int64_t nOut,
                                                              int64_t K);
extern "C" int THNN_CPU_(SpatialDilatedConvolution_packCheck)(THNNState *state, THTensor *weight, THTensor *bias,
                                                            int64_t *nOut, int64_t *K);

/* The shape check, and the call it describes for the engine. */
static int THNN_(SpatialDilatedConvolution_call)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    THCConvCall *c)
{
  THNNConvGeometry g = {};
  int64_t nOut = 0;
  TH_TRY(THNN_CPU_(SpatialDilatedConvolution_shapeCheck)(state, input, gradOutput, params,
                                                         kW, kH, dW, dH, padW, padH, dilationW, dilationH, &g, &nOut));
  int batched = input->nDimension == 4;
  *c = THCConvCall{THCConv_volume(&g), batched ? input->size[0] : 1, nOut, batched, 2, 0};
  return 0;
}

int THNN_(SpatialDilatedConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialDilatedConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                               kW, kH, dW, dH, padW, padH, dilationW, dilationH, &c));
  return THNN_(cuConvOutput)(state, &c, input, output, weight, bias, finput);
}

int THNN_(SpatialDilatedConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    THTensor *fgradInput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialDilatedConvolution_call)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                               kW, kH, dW, dH, padW, padH, dilationW, dilationH, &c));
  return THNN_(cuConvGradInput)(state, &c, input, gradOutput, gradInput, weight, fgradInput);
}

int THNN_(SpatialDilatedConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    THTensor *finput, int kW, int kH, int dW, int dH, int padW, int padH, int dilationW, int dilationH,
    accreal scale)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialDilatedConvolution_call)(state, input, gradOutput, THTensor_(gradParams)(gradWeight, gradBias),
                                               kW, kH, dW, dH, padW, padH,
                                               dilationW, dilationH, &c));
  return THNN_(cuConvGradParameters)(state, &c, input, gradOutput, gradWeight, gradBias, finput, scale);
}

/* No packed form on the device: packWeight leaves packed empty, and
 * updateOutputPacked checks packed as the CPU does (empty, or a packed
 * weight of this shape: its header read back to the host), then is
 * updateOutput (the weight read from weight). */
int THNN_(SpatialDilatedConvolution_packWeight)(THNNState *state, THTensor *weight, THTensor *bias, THTensor *packed)
{
  int64_t nOut, K;
  TH_TRY(THNN_CPU_(SpatialDilatedConvolution_packCheck)(state, weight, bias, &nOut, &K));
  return THCTensor_(resize1d)(state, packed, 0);
}

int THNN_(SpatialDilatedConvolution_updateOutputPacked)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    THTensor *finput, THTensor *packed, int kW, int kH, int dW, int dH, int padW, int padH,
    int dilationW, int dilationH)
{
  THCConvCall c;
  TH_TRY(THNN_(SpatialDilatedConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                               kW, kH, dW, dH, padW, padH, dilationW, dilationH, &c));
  real header[64 / sizeof(real)];
  int64_t n = THTensor_(nElement)(packed), nOut = weight->size[0], K = nOut ? THTensor_(nElement)(weight) / nOut : 0;
  int contiguous1d = packed->nDimension == 1 && THTensor_(isContiguous)(packed);
  int whole = contiguous1d && n >= (int64_t)(64 / sizeof(real));
  if (whole)
    TH_TRY(THCStorage_(copyToHost)(state, header, packed->storage, packed->storageOffset, 64 / sizeof(real)));
  TH_TRY(THNN_CPU_(SpatialDilatedConvolution_packedCheck)(state, packed, contiguous1d, whole ? header : NULL,
                                                         nOut, K));
  return THNN_(SpatialDilatedConvolution_updateOutput)(state, input, output, weight, bias, finput,
                                                       kW, kH, dW, dH, padW, padH, dilationW, dilationH);
}

#endif
