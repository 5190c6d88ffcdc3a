#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/SpatialClassNLLCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/SpatialClassNLLCriterion.c) */
extern "C" int THNN_CPU_(SpatialClassNLLCriterion_shapeCheck)(THNNState *state, THTensor *input,
                                                              THIndexTensor *target, THTensor *weights,
                                                              THTensor *total_weight);

/* input [batch, nClasses, height, width]: one sample per pixel */
static THNN_(NLL_layout) THNN_(SpatialClassNLLCriterion_layout)(const THTensor *input)
{
  THNN_(NLL_layout) L = {input->size[0], input->size[1], input->size[2], input->size[3],
                         input->stride[0], input->stride[1], input->stride[2], input->stride[3]};
  return L;
}

/* The target values checked on the device, refused with the CPU kernel's message. */
static int THNN_(SpatialClassNLLCriterion_checkTargets)(THNNState *state, const THLongTensor *target,
                                                        THNN_(NLL_layout) L, int64_t ignore_index)
{
  THCErrorSlot bad;
  TH_TRY(THCFindBadTarget(state, target, 0, L.C, true, ignore_index, &bad));
  if (bad.flag)
    return THError(state, "target %lld at [%lld, %lld, %lld] is out of range [0, %lld)", bad.value,
                   bad.where / (L.H * L.W), bad.where / L.W % L.H, bad.where % L.W, (long long)L.C);
  return 0;
}

int THNN_(SpatialClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                 THTensor *output, bool sizeAverage, THTensor *weights,
                                                 THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_CPU_(SpatialClassNLLCriterion_shapeCheck)(state, input, target, weights, NULL));
  THNN_(NLL_layout) L = THNN_(SpatialClassNLLCriterion_layout)(input);
  THLongTensor tTmp = {};
  const THLongTensor *t = THCLongTensor_contiguous(state, target, &tTmp);
  int rc = -1;
  if (t && THNN_(SpatialClassNLLCriterion_checkTargets)(state, t, L, ignore_index) == 0)
    rc = THNN_(NLL_updateOutput)(state, input, L, t, output, sizeAverage, weights, total_weight, ignore_index);
  THCLongTensor_release(&tTmp);
  return rc;
}

int THNN_(SpatialClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                    THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                                    THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_CPU_(SpatialClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  THNN_(NLL_layout) L = THNN_(SpatialClassNLLCriterion_layout)(input);
  THLongTensor tTmp = {};
  const THLongTensor *t = THCLongTensor_contiguous(state, target, &tTmp);
  int rc = -1;
  if (t && THNN_(SpatialClassNLLCriterion_checkTargets)(state, t, L, ignore_index) == 0)
    rc = THNN_(NLL_updateGradInput)(state, input, L, t, gradInput, sizeAverage, weights, total_weight,
                                    ignore_index);
  THCLongTensor_release(&tTmp);
  return rc;
}

#endif
