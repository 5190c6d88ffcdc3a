#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricMaxUnpooling.c"
#else

#include "generic/Pooling.h"

/* The inverse of max pooling on [planes, t, h, w] or
 * [batch, planes, t, h, w]: an oT x oheight x owidth block of zeros with
 * every input element put at its index (0-based within the block, as
 * VolumetricMaxPooling's indices).  The loops are in Pooling.h. */

int THNN_(VolumetricMaxUnpooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THIndexTensor *indices, int oT, int oW, int oH,
                                                    THPoolShape *s)
{
  TH_TRY(THPoolInput(state, 3, input->nDimension, input->size, s));
  if (oT < 1 || oW < 1 || oH < 1)
    return THError(state, "the output size must be at least 1x1x1, got oT=%d, oW=%d, oH=%d", oT, oW, oH);
  s->out[0] = oT;
  s->out[1] = oH;
  s->out[2] = oW;
  if (THMulSizes(THMulSizes(s->out[0], s->out[1]), s->out[2]) < 0)  /* three ints may pass int64 */
    return THError(state, "the output size %dx%dx%d (oT x oH x oW) has too many elements", oT, oH, oW);
  TH_TRY(THNN_(Pool_checkIndices)(state, s, s->in, indices, THNN_(Pool_planeSize)(s->out)));
  return THNN_(Pool_checkOutputs)(state, s, gradOutput, NULL);
}

int THNN_(VolumetricMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                               THIndexTensor *indices, int oT, int oW, int oH)
{
  THPoolShape s;
  TH_TRY(THNN_(VolumetricMaxUnpooling_shapeCheck)(state, input, NULL, indices, oT, oW, oH, &s));
  return THNN_(Pool_unpoolOutput)(state, input, output, indices, &s);
}

int THNN_(VolumetricMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradInput, THIndexTensor *indices,
                                                  int oT, int oW, int oH)
{
  THPoolShape s;
  TH_TRY(THNN_(VolumetricMaxUnpooling_shapeCheck)(state, input, gradOutput, indices, oT, oW, oH, &s));
  return THNN_(Pool_unpoolGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
