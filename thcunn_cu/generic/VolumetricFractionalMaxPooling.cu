#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricFractionalMaxPooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/VolumetricFractionalMaxPooling.c):
 * it reads the samples' values, so it gets a host copy of them */
extern "C" int THNN_CPU_(VolumetricFractionalMaxPooling_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THIndexTensor *indices, THTensor *randomSamples,
    int outputT, int outputW, int outputH, int poolSizeT, int poolSizeW, int poolSizeH, THPoolShape *s, int *pool);

int THNN_(VolumetricFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       int outputT, int outputW, int outputH,
                                                       int poolSizeT, int poolSizeW, int poolSizeH,
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
    rc = THNN_CPU_(VolumetricFractionalMaxPooling_shapeCheck)(state, input, NULL, NULL, &host, outputT, outputW,
                                                              outputH, poolSizeT, poolSizeW, poolSizeH, &s, pool);
  if (rc == 0)
    rc = THNN_(Pool_fractionalOutput)(state, input, output, indices, u, &s, pool);
  THCTensor_(release)(&uTmp);
  THTensor_(release)(&host);
  return rc;
}

int THNN_(VolumetricFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, int outputT, int outputW, int outputH,
                                                          int poolSizeT, int poolSizeW, int poolSizeH,
                                                          THIndexTensor *indices)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_CPU_(VolumetricFractionalMaxPooling_shapeCheck)(state, input, gradOutput, indices, NULL,
                                                              outputT, outputW, outputH,
                                                              poolSizeT, poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
