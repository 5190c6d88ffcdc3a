#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/VolumetricMaxUnpooling.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/VolumetricMaxUnpooling.c); the
 * index values are checked on the device (generic/Pooling.cu) */
extern "C" int THNN_CPU_(VolumetricMaxUnpooling_shapeCheck)(THNNState *state, THTensor *input,
                                                            THTensor *gradOutput, THIndexTensor *indices,
                                                            int oT, int oW, int oH, THPoolShape *s);

int THNN_(VolumetricMaxUnpooling_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                               THIndexTensor *indices, int oT, int oW, int oH)
{
  THPoolShape s;
  TH_TRY(THNN_CPU_(VolumetricMaxUnpooling_shapeCheck)(state, input, NULL, indices, oT, oW, oH, &s));
  return THNN_(Pool_unpool)(state, input, NULL, output, indices, &s);
}

int THNN_(VolumetricMaxUnpooling_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradInput, THIndexTensor *indices,
                                                  int oT, int oW, int oH)
{
  THPoolShape s;
  TH_TRY(THNN_CPU_(VolumetricMaxUnpooling_shapeCheck)(state, input, gradOutput, indices, oT, oW, oH, &s));
  return THNN_(Pool_unpool)(state, input, gradOutput, gradInput, indices, &s);
}

#endif
