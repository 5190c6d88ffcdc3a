#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/Linear.c"
#else

/* Rows are samples: X [batch, nIn], W [nOut, nIn], Y [batch, nOut].  BLAS is
 * column-major, where a row-major matrix is its transpose, so Y = X W^T + b
 * becomes Y^T = W^T^T X^T in the calls below. */

int THNN_(Linear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *weight, THTensor *bias,
                                    THTensor *gradWeight, THTensor *gradBias)
{
  if (weight->nDimension != 2)
    return THTensor_(shapeError)(state, "weight", weight, "2D [nOutput, nInput]");
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  if (!((input->nDimension == 1 || input->nDimension == 2) && input->size[input->nDimension - 1] == nIn))
    return THTensor_(shapeError)(state, "input", input, "1D or 2D with %lld features", (long long)nIn);
  if (bias)
    TH_TRY(THTensor_(checkSizes)(state, "bias", bias, 1, &nOut));
  if (gradOutput) {
    int64_t outSize[2] = {input->size[0], nOut};
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension,
                                 input->nDimension == 1 ? &nOut : outSize));
  }
  if (gradWeight) {
    TH_TRY(THTensor_(checkSameSize)(state, "gradWeight", gradWeight, "weight", weight));
    TH_TRY(THTensor_(checkContiguous)(state, "gradWeight", gradWeight));
  }
  if (gradBias) {
    if (!bias)
      return THError(state, "gradBias given but bias is missing");
    TH_TRY(THTensor_(checkSameSize)(state, "gradBias", gradBias, "bias", bias));
    TH_TRY(THTensor_(checkContiguous)(state, "gradBias", gradBias));
  }
  return 0;
}

int THNN_(Linear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                               THTensor *weight, THTensor *bias)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, NULL, weight, bias, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor xTmp = {0}, wTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *w = x ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && (input->nDimension == 1 ? THTensor_(resize1d)(state, output, nOut)
                                   : THTensor_(resize2d)(state, output, batch, nOut)) == 0) {
    real *y = THTensor_(data)(output);
    if (bias) {
      const real *b = THTensor_(data)(bias);
      for (int64_t i = 0; i < batch; i++)
        for (int64_t j = 0; j < nOut; j++)
          y[i * nOut + j] = b[j * bias->stride[0]];
    }
    rc = THBlas_(gemm)(state, 't', 'n', nOut, batch, nIn, 1, THTensor_(data)(w), nIn,
                       THTensor_(data)(x), nIn, bias ? 1 : 0, y, nOut);
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(Linear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                  THTensor *gradInput, THTensor *weight)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, gradOutput, weight, NULL, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor gTmp = {0}, wTmp = {0};
  const THTensor *g = THTensor_(contiguous)(state, gradOutput, &gTmp);
  const THTensor *w = g ? THTensor_(contiguous)(state, weight, &wTmp) : NULL;
  int rc = -1;
  if (w && THTensor_(resizeAs)(state, gradInput, input) == 0)
    rc = THBlas_(gemm)(state, 'n', 'n', nIn, batch, nOut, 1, THTensor_(data)(w), nIn,
                       THTensor_(data)(g), nOut, 0, THTensor_(data)(gradInput), nIn);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&wTmp);
  return rc;
}

int THNN_(Linear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *weight, THTensor *bias,
                                    THTensor *gradWeight, THTensor *gradBias, accreal scale)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, gradOutput, weight, bias, gradWeight, gradBias));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g) {
    const real *go = THTensor_(data)(g);
    rc = THBlas_(gemm)(state, 'n', 't', nIn, nOut, batch, (real)scale, THTensor_(data)(x), nIn,
                       go, nOut, 1, THTensor_(data)(gradWeight), nIn);
    if (rc == 0 && gradBias) {
      real *gb = THTensor_(data)(gradBias);
      for (int64_t i = 0; i < batch; i++)
        for (int64_t j = 0; j < nOut; j++)
          gb[j] += (real)scale * go[i * nOut + j];
    }
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
