#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricFractionalMaxPooling.c"
#else

#include "generic/Pooling.h"

/* Fractional max pooling of [planes, T, H, W] or [batch, planes, T, H, W]:
 * poolSizeT x poolSizeW x poolSizeH windows whose starts are spread
 * pseudo-randomly by the plane's three samples (randomSamples
 * [batch, planes, 3]: time, width, height, Torch7's order).  The loops are
 * in Pooling.h. */

int THNN_(VolumetricFractionalMaxPooling_shapeCheck)(THNNState *state, THTensor *input,
                                                            THTensor *gradOutput, THIndexTensor *indices,
                                                            THTensor *randomSamples,
                                                            int outputT, int outputW, int outputH,
                                                            int poolSizeT, int poolSizeW, int poolSizeH,
                                                            THPoolShape *s, int *pool)
{
  TH_TRY(THPoolInput(state, 3, input->nDimension, input->size, s));
  s->out[0] = outputT;
  s->out[1] = outputH;
  s->out[2] = outputW;
  pool[0] = poolSizeT;
  pool[1] = poolSizeH;
  pool[2] = poolSizeW;
  TH_TRY(THNN_(Pool_checkFractional)(state, s, pool, randomSamples));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, indices);
}

int THNN_(VolumetricFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                       int outputT, int outputW, int outputH,
                                                       int poolSizeT, int poolSizeW, int poolSizeH,
                                                       THIndexTensor *indices, THTensor *randomSamples)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_(VolumetricFractionalMaxPooling_shapeCheck)(state, input, NULL, NULL, randomSamples,
                                                          outputT, outputW, outputH,
                                                          poolSizeT, poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_fractionalOutput)(state, input, output, indices, randomSamples, &s, pool);
}

int THNN_(VolumetricFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                          THTensor *gradInput, int outputT, int outputW, int outputH,
                                                          int poolSizeT, int poolSizeW, int poolSizeH,
                                                          THIndexTensor *indices)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_(VolumetricFractionalMaxPooling_shapeCheck)(state, input, gradOutput, indices, NULL,
                                                          outputT, outputW, outputH,
                                                          poolSizeT, poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
