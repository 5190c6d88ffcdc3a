#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialDilatedMaxPooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialDilatedMaxPooling.c) */
extern "C" int THNN_CPU_(SpatialDilatedMaxPooling_shapeCheck)(THNNState *state, THTensor *input,
                                                              THTensor *gradOutput, THIndexTensor *indices,
                                                              int kW, int kH, int dW, int dH, int padW, int padH,
                                                              int dilationW, int dilationH, bool ceil_mode,
                                                              THPoolShape *s, THPoolWindow *w);

int THNN_(SpatialDilatedMaxPooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                 THIndexTensor *indices, int kW, int kH, int dW, int dH,
                                                 int padW, int padH, int dilationW, int dilationH,
                                                 bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  THPoolGrid g;
  TH_TRY(THNN_CPU_(SpatialDilatedMaxPooling_shapeCheck)(state, input, NULL, NULL, kW, kH, dW, dH, padW, padH,
                                                        dilationW, dilationH, ceil_mode, &s, &w));
  int rc = THPoolGridWindows(state, &g, &s, &w);
  if (rc == 0)
    rc = THNN_(Pool_maxOutput)(state, input, output, indices, &s, &g);
  THPoolGridFree(&g);
  return rc;
}

/* The same output, its indices in a scratch tensor dropped after the call. */
int THNN_(SpatialDilatedMaxPooling_updateOutputValues)(THNNState *state, THTensor *input, THTensor *output,
                                                       int kW, int kH, int dW, int dH, int padW, int padH,
                                                       int dilationW, int dilationH, bool ceil_mode)
{
  THLongTensor indices = {};
  int rc = THNN_(SpatialDilatedMaxPooling_updateOutput)(state, input, output, &indices, kW, kH, dW, dH, padW,
                                                        padH, dilationW, dilationH, ceil_mode);
  THCLongTensor_release(&indices);
  return rc;
}

int THNN_(SpatialDilatedMaxPooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                    THTensor *gradInput, THIndexTensor *indices,
                                                    int kW, int kH, int dW, int dH, int padW, int padH,
                                                    int dilationW, int dilationH, bool ceil_mode)
{
  THPoolShape s;
  THPoolWindow w;
  TH_TRY(THNN_CPU_(SpatialDilatedMaxPooling_shapeCheck)(state, input, gradOutput, indices, kW, kH, dW, dH,
                                                        padW, padH, dilationW, dilationH, ceil_mode, &s, &w));
  return THNN_(Pool_indexGradInput)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
