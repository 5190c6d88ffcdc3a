#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricConvolution.cu"
#else

/* The twin of thnn_c/generic/VolumetricConvolution.c.  The CPU kernel sums
 * tap by tap without work space; the twin goes through the columns of the
 * engine in im2col.cu, in a column buffer of its own for the call. */

/* shared with the CPU kernel */
extern "C" int THNN_CPU_(VolumetricConvolution_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    THNNVolGeometry *g, int64_t *nOutputPlane);

/* The shape check, and the call it describes for the engine. */
static int THNN_(VolumetricConvolution_call)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor_(Params) params,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH,
    THCConvCall *c)
{
  THNNVolGeometry g = {};
  int64_t nOut = 0;
  TH_TRY(THNN_CPU_(VolumetricConvolution_shapeCheck)(state, input, gradOutput, params,
                                                     kT, kW, kH, dT, dW, dH, padT, padW, padH, &g, &nOut));
  int batched = input->nDimension == 5;
  *c = THCConvCall{g, batched ? input->size[0] : 1, nOut, batched, 3, 0};
  return 0;
}

int THNN_(VolumetricConvolution_updateOutput)(
    THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricConvolution_call)(state, input, NULL, THTensor_(params)(weight, bias),
                                           kT, kW, kH, dT, dW, dH, padT, padW, padH, &c));
  THTensor columns = {};
  int rc = THNN_(cuConvOutput)(state, &c, input, output, weight, bias, &columns);
  THCTensor_(release)(&columns);
  return rc;
}

int THNN_(VolumetricConvolution_updateGradInput)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput, THTensor *weight,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricConvolution_call)(state, input, gradOutput, THTensor_(weightOnly)(weight),
                                           kT, kW, kH, dT, dW, dH, padT, padW, padH, &c));
  THTensor columns = {};
  int rc = THNN_(cuConvGradInput)(state, &c, input, gradOutput, gradInput, weight, &columns);
  THCTensor_(release)(&columns);
  return rc;
}

int THNN_(VolumetricConvolution_accGradParameters)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
    int kT, int kW, int kH, int dT, int dW, int dH, int padT, int padW, int padH, accreal scale)
{
  THCConvCall c;
  TH_TRY(THNN_(VolumetricConvolution_call)(state, input, gradOutput, THTensor_(gradParams)(gradWeight, gradBias),
                                           kT, kW, kH, dT, dW, dH, padT, padW, padH, &c));
  THTensor columns = {};
  int rc = THNN_(cuConvGradParameters)(state, &c, input, gradOutput, gradWeight, gradBias, &columns, scale);
  THCTensor_(release)(&columns);
  return rc;
}

#endif
