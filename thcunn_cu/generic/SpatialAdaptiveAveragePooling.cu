#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialAdaptiveAveragePooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialAdaptiveAveragePooling.c) */
extern "C" int THNN_CPU_(SpatialAdaptiveAveragePooling_shapeCheck)(THNNState *state, THTensor *input,
                                                                   THTensor *gradOutput, int owidth, int oheight,
                                                                   THPoolShape *s);

/* Both passes: the CPU's checks and windows, then the shared loops. */
static int THNN_(SpatialAdaptiveAveragePooling_run)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *result, int owidth, int oheight)
{
  THPoolShape s;
  THPoolGrid g;
  TH_TRY(THNN_CPU_(SpatialAdaptiveAveragePooling_shapeCheck)(state, input, gradOutput, owidth, oheight, &s));
  int rc = THPoolGridAdaptive(state, &g, &s);
  if (rc == 0)
    rc = THNN_(Pool_avg)(state, input, gradOutput, result, &s, &g, TH_POOL_ADAPTIVE);
  THPoolGridFree(&g);
  return rc;
}

int THNN_(SpatialAdaptiveAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                      int owidth, int oheight)
{
  return THNN_(SpatialAdaptiveAveragePooling_run)(state, input, NULL, output, owidth, oheight);
}

int THNN_(SpatialAdaptiveAveragePooling_updateGradInput)(THNNState *state, THTensor *input,
                                                         THTensor *gradOutput, THTensor *gradInput,
                                                         int owidth, int oheight)
{
  return THNN_(SpatialAdaptiveAveragePooling_run)(state, input, gradOutput, gradInput, owidth, oheight);
}

#endif
