#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialAdaptiveMaxPooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialAdaptiveMaxPooling.c) */
extern "C" int THNN_CPU_(SpatialAdaptiveMaxPooling_shapeCheck)(THNNState *state, THTensor *input,
                                                               THTensor *gradOutput, THIndexTensor *indices,
                                                               int owidth, int oheight, THPoolShape *s);

int THNN_(SpatialAdaptiveMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                  THIndexTensor *indices, int owidth, int oheight)
{
  THPoolShape s;
  THPoolGrid g;
  TH_TRY(THNN_CPU_(SpatialAdaptiveMaxPooling_shapeCheck)(state, input, NULL, NULL, owidth, oheight, &s));
  int rc = THPoolGridAdaptive(state, &g, &s);
  if (rc == 0)
    rc = THNN_(Pool_maxOutput)(state, input, output, indices, &s, &g);
  THPoolGridFree(&g);
  return rc;
}

int THNN_(SpatialAdaptiveMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                     THTensor *gradInput, THIndexTensor *indices,
                                                     int owidth, int oheight)
{
  THPoolShape s;
  TH_TRY(THNN_CPU_(SpatialAdaptiveMaxPooling_shapeCheck)(state, input, gradOutput, indices, owidth, oheight,
                                                         &s));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
