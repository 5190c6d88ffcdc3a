#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialMaxUnpooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialMaxUnpooling.c); the
 * index values are checked on the device (generic/Pooling.cu) */
extern "C" int THNN_CPU_(SpatialMaxUnpooling_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                         THIndexTensor *indices, int owidth, int oheight,
                                                         THPoolShape *s);

int THNN_(SpatialMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                            THIndexTensor *indices, int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_CPU_(SpatialMaxUnpooling_shapeCheck)(state, input, NULL, indices, owidth, oheight, &s));
  return THNN_(Pool_unpool)(state, input, NULL, output, indices, &s);
}

int THNN_(SpatialMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THIndexTensor *indices,
                                               int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_CPU_(SpatialMaxUnpooling_shapeCheck)(state, input, gradOutput, indices, owidth, oheight, &s));
  return THNN_(Pool_unpool)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
