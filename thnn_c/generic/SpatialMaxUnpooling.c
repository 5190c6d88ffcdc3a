#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialMaxUnpooling.c"
#else

#include "generic/Pooling.h"

/* The inverse of max pooling on [planes, h, w] or [batch, planes, h, w]:
 * an oheight x owidth plane of zeros with every input element put at its
 * index (0-based within the plane, as SpatialMaxPooling's indices).  The
 * loops are in Pooling.h. */

int THNN_(SpatialMaxUnpooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                 THIndexTensor *indices, int owidth, int oheight,
                                                 THPoolShape *s)
{
  TH_TRY(THPoolInput(state, 2, input->nDimension, input->size, s));
  if (owidth < 1 || oheight < 1)
    return THError(state, "the output size must be at least 1x1, got owidth=%d, oheight=%d", owidth, oheight);
  s->out[1] = oheight;
  s->out[2] = owidth;
  TH_TRY(THNN_(Pool_checkIndices)(state, s, s->in, indices, THNN_(Pool_planeSize)(s->out)));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, NULL);
}

int THNN_(SpatialMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                            THIndexTensor *indices, int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialMaxUnpooling_shapeCheck)(state, input, NULL, indices, owidth, oheight, &s));
  return THNN_(Pool_unpoolOutput)(state, input, output, indices, &s);
}

int THNN_(SpatialMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THIndexTensor *indices,
                                               int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_(SpatialMaxUnpooling_shapeCheck)(state, input, gradOutput, indices, owidth, oheight, &s));
  return THNN_(Pool_unpoolGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
