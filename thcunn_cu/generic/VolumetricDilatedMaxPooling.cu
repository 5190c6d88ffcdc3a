#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricDilatedMaxPooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/VolumetricDilatedMaxPooling.c) */
extern "C" int THNN_CPU_(VolumetricDilatedMaxPooling_shapeCheck)(
    THNNState *state, THTensor *input, THTensor *gradOutput, THIndexTensor *indices, int kT, int kW, int kH,
    int dT, int dW, int dH, int padT, int padW, int padH, int dilationT, int dilationW, int dilationH,
    bool ceil_mode, THPoolShape *s, THPoolWindow *w);

int THNN_(VolumetricDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                    THIndexTensor *indices, int kT, int kW, int kH,
                                                    int dT, int dW, int dH, int padT, int padW, int padH,
                                                    int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  THPoolGrid g;
  TH_TRY(THNN_CPU_(VolumetricDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kT, kW, kH, dT, dW, dH,
                                                           padT, padW, padH, dilationT, dilationW, dilationH,
                                                           ceil_mode, &s, &w));
  int rc = THPoolGridWindows(state, &g, &s, &w);
  if (rc == 0)
    rc = THNN_(Pool_maxOutput)(state, input, output, indices, &s, &g);
  THPoolGridFree(&g);
  return rc;
}

/* The same output, its indices in a scratch tensor dropped after the call. */
int THNN_(VolumetricDilatedMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output,
                                                          int kT, int kW, int kH, int dT, int dW, int dH,
                                                          int padT, int padW, int padH,
                                                          int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THLongTensor indices = {};
  int rc = THNN_(VolumetricDilatedMaxPooling_updateOutput)(state, input, output, &indices, kT, kW, kH, dT, dW,
                                                           dH, padT, padW, padH, dilationT, dilationW, dilationH,
                                                           ceil_mode);
  THCLongTensor_release(&indices);
  return rc;
}

int THNN_(VolumetricDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                       THTensor *gradInput, THIndexTensor *indices,
                                                       int kT, int kW, int kH, int dT, int dW, int dH,
                                                       int padT, int padW, int padH,
                                                       int dilationT, int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_CPU_(VolumetricDilatedMaxPooling_shapeCheck)(state, input, gradOutput, indices, kT, kW, kH,
                                                           dT, dW, dH, padT, padW, padH,
                                                           dilationT, dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
