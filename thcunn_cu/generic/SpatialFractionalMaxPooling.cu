#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFractionalMaxPooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialFractionalMaxPooling.c):
 * it reads the samples' values, so it gets a host copy of them */
extern "C" int THNN_CPU_(SpatialFractionalMaxPooling_shapeCheck)(THNNState *state, THTensor *input,
                                                                 THTensor *gradOutput, THIndexTensor *indices,
                                                                 THTensor *randomSamples, int outputW, int outputH,
                                                                 int poolSizeW, int poolSizeH, THPoolShape *s,
                                                                 int *pool);

int THNN_(SpatialFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    int outputW, int outputH, int poolSizeW, int poolSizeH,
                                                    THIndexTensor *indices, THTensor *randomSamples)
{
  if (!randomSamples)
    return THError(state, "randomSamples is required");
  THPoolShape s;
  int pool[3];
  THTensor uTmp = {}, host = {};
  const THTensor *u = THCTensor_(contiguous)(state, randomSamples, &uTmp);
  int rc = u ? THNN_(Pool_hostCopy)(state, u, &host) : -1;
  if (rc == 0)
    rc = THNN_CPU_(SpatialFractionalMaxPooling_shapeCheck)(state, input, NULL, NULL, &host, outputW, outputH,
                                                           poolSizeW, poolSizeH, &s, pool);
  if (rc == 0)
    rc = THNN_(Pool_fractionalOutput)(state, input, output, indices, u, &s, pool);
  THCTensor_(release)(&uTmp);
  THTensor_(release)(&host);
  return rc;
}

int THNN_(SpatialFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, int outputW, int outputH,
                                                       int poolSizeW, int poolSizeH, THIndexTensor *indices)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_CPU_(SpatialFractionalMaxPooling_shapeCheck)(state, input, gradOutput, indices, NULL, outputW,
                                                           outputH, poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
