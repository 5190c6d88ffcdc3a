#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricAveragePooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/VolumetricAveragePooling.c) */
extern "C" int THNN_CPU_(VolumetricAveragePooling_shapeCheck)(THNNState *state, THTensor *input,
                                                              THTensor *gradOutput, int kT, int kW, int kH,
                                                              int dT, int dW, int dH, int padT, int padW, int padH,
                                                              bool ceil_mode, THPoolShape *s, THPoolWindow *w);

/* Both passes: the CPU's checks and windows, then the shared loops. */
static int THNN_(VolumetricAveragePooling_run)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *result, int kT, int kW, int kH, int dT, int dW, int dH,
                                               int padT, int padW, int padH, bool ceil_mode,
                                               bool count_include_pad)
{
  THPoolShape s;
  THPoolWindow w;
  THPoolGrid g;
  TH_TRY(THNN_CPU_(VolumetricAveragePooling_shapeCheck)(state, input, gradOutput, kT, kW, kH, dT, dW, dH,
                                                        padT, padW, padH, ceil_mode, &s, &w));
  int rc = THPoolGridWindows(state, &g, &s, &w);
  if (rc == 0)
    rc = THNN_(Pool_avg)(state, input, gradOutput, result, &s, &g,
                         count_include_pad ? TH_POOL_COUNT_PADDING : TH_POOL_COUNT_INPUT);
  THPoolGridFree(&g);
  return rc;
}

int THNN_(VolumetricAveragePooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                 int kT, int kW, int kH, int dT, int dW, int dH,
                                                 int padT, int padW, int padH, bool ceil_mode,
                                                 bool count_include_pad)
{
  return THNN_(VolumetricAveragePooling_run)(state, input, NULL, output, kT, kW, kH, dT, dW, dH, padT, padW,
                                             padH, ceil_mode, count_include_pad);
}

int THNN_(VolumetricAveragePooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, int kT, int kW, int kH,
                                                    int dT, int dW, int dH, int padT, int padW, int padH,
                                                    bool ceil_mode, bool count_include_pad)
{
  return THNN_(VolumetricAveragePooling_run)(state, input, gradOutput, gradInput, kT, kW, kH, dT, dW, dH,
                                             padT, padW, padH, ceil_mode, count_include_pad);
}

#endif
