#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ClassNLLCriterion.cu"
#else

/* shared with the CPU kernel (thnn_c/generic/ClassNLLCriterion.c) */
extern "C" int THNN_CPU_(ClassNLLCriterion_shapeCheck)(THNNState *state, THTensor *input, THIndexTensor *target,
                                                       THTensor *weights, THTensor *total_weight);

/* input [nClasses] or [batch, nClasses]: one sample per row */
static THNN_(NLL_layout) THNN_(ClassNLLCriterion_layout)(const THTensor *input)
{
  int two = input->nDimension == 2;
  THNN_(NLL_layout) L = {two ? input->size[0] : 1, input->size[two], 1, 1,
                         two ? input->stride[0] : 0, input->stride[two], 0, 0};
  return L;
}

/* The target values checked on the device, refused with the CPU kernel's message. */
static int THNN_(ClassNLLCriterion_checkTargets)(THNNState *state, const THLongTensor *target, int64_t nClasses,
                                                 int64_t ignore_index)
{
  THCErrorSlot bad;
  TH_TRY(THCFindBadTarget(state, target, 0, nClasses, true, ignore_index, &bad));
  if (bad.flag)
    return THError(state, "target %lld at index %lld is out of range [0, %lld)", bad.value, bad.where,
                   (long long)nClasses);
  return 0;
}

int THNN_(ClassNLLCriterion_updateOutput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                          THTensor *output, bool sizeAverage, THTensor *weights,
                                          THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_CPU_(ClassNLLCriterion_shapeCheck)(state, input, target, weights, NULL));
  THNN_(NLL_layout) L = THNN_(ClassNLLCriterion_layout)(input);
  THLongTensor tTmp = {};
  const THLongTensor *t = THCLongTensor_contiguous(state, target, &tTmp);
  int rc = -1;
  if (t && THNN_(ClassNLLCriterion_checkTargets)(state, t, L.C, ignore_index) == 0)
    rc = THNN_(NLL_updateOutput)(state, input, L, t, output, sizeAverage, weights, total_weight, ignore_index);
  THCLongTensor_release(&tTmp);
  return rc;
}

int THNN_(ClassNLLCriterion_updateGradInput)(THNNState *state, THTensor *input, THIndexTensor *target,
                                             THTensor *gradInput, bool sizeAverage, THTensor *weights,
                                             THTensor *total_weight, int64_t ignore_index)
{
  TH_TRY(THNN_CPU_(ClassNLLCriterion_shapeCheck)(state, input, target, weights, total_weight));
  THNN_(NLL_layout) L = THNN_(ClassNLLCriterion_layout)(input);
  THLongTensor tTmp = {};
  const THLongTensor *t = THCLongTensor_contiguous(state, target, &tTmp);
  int rc = -1;
  if (t && THNN_(ClassNLLCriterion_checkTargets)(state, t, L.C, ignore_index) == 0)
    rc = THNN_(NLL_updateGradInput)(state, input, L, t, gradInput, sizeAverage, weights, total_weight,
                                    ignore_index);
  THCLongTensor_release(&tTmp);
  return rc;
}

#endif
