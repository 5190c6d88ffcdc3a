#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialFractionalMaxPooling.c"
#else

#include "generic/Pooling.h"

/* Fractional max pooling (Graham, 2014) of [planes, H, W] or
 * [batch, planes, H, W]: poolSizeW x poolSizeH windows whose starts are
 * spread pseudo-randomly over the plane by the plane's two samples
 * (randomSamples [batch, planes, 2]: width, then height).  The loops are in
 * Pooling.h. */

int THNN_(SpatialFractionalMaxPooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THIndexTensor *indices, THTensor *randomSamples,
                                                         int outputW, int outputH, int poolSizeW, int poolSizeH,
                                                         THPoolShape *s, int *pool)
{
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  s->out[1] = outputH;
  s->out[2] = outputW;
  pool[0] = 1;
  pool[1] = poolSizeH;
  pool[2] = poolSizeW;
  TH_TRY(THNN_(Pool_checkFractional)(state, s, pool, randomSamples));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, indices);
}

int THNN_(SpatialFractionalMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    int outputW, int outputH, int poolSizeW, int poolSizeH,
                                                    THIndexTensor *indices, THTensor *randomSamples)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_(SpatialFractionalMaxPooling_shapeCheck)(state, input, NULL, NULL, randomSamples, outputW, outputH,
                                                       poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_fractionalOutput)(state, input, output, indices, randomSamples, &s, pool);
}

int THNN_(SpatialFractionalMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, int outputW, int outputH,
                                                       int poolSizeW, int poolSizeH, THIndexTensor *indices)
{
  THPoolShape s;
  int pool[3];
  TH_TRY(THNN_(SpatialFractionalMaxPooling_shapeCheck)(state, input, gradOutput, indices, NULL, outputW, outputH,
                                                       poolSizeW, poolSizeH, &s, pool));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
