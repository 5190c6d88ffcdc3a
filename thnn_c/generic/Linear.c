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

/* C = alpha * op(A) op(B) + beta * C, column-major (THBlas_(gemm)), reading
 * A and B through contiguous copies where they are not. */
static int THNN_(Linear_gemm)(THNNState *state, char transA, char transB, int64_t m, int64_t n, int64_t k,
                              real alpha, THTensor *A, int64_t lda, THTensor *B, int64_t ldb, real beta,
                              real *C, int64_t ldc)
{
  THTensor aTmp = {0}, bTmp = {0};
  const THTensor *a = THTensor_(contiguous)(state, A, &aTmp);
  const THTensor *b = a ? THTensor_(contiguous)(state, B, &bTmp) : NULL;
  int rc = b ? THBlas_(gemm)(state, transA, transB, m, n, k, alpha, THTensor_(data)(a), lda, THTensor_(data)(b), ldb,
                             beta, C, ldc)
             : -1;
  THTensor_(release)(&aTmp);
  THTensor_(release)(&bTmp);
  return rc;
}

int THNN_(Linear_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                               THTensor *weight, THTensor *bias)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, NULL, weight, bias, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  TH_TRY(input->nDimension == 1 ? THTensor_(resize1d)(state, output, nOut)
                                : THTensor_(resize2d)(state, output, batch, nOut));
  real *y = THTensor_(data)(output);
  if (bias) {
    const real *b = THTensor_(data)(bias);
    for (int64_t i = 0; i < batch; i++)
      for (int64_t j = 0; j < nOut; j++)
        y[i * nOut + j] = b[j * bias->stride[0]];
  }
  return THNN_(Linear_gemm)(state, 't', 'n', nOut, batch, nIn, 1, weight, nIn, input, nIn, bias ? 1 : 0, y, nOut);
}

int THNN_(Linear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                  THTensor *gradInput, THTensor *weight)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, gradOutput, weight, NULL, NULL, NULL));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  TH_TRY(THTensor_(resizeAs)(state, gradInput, input));
  return THNN_(Linear_gemm)(state, 'n', 'n', nIn, batch, nOut, 1, weight, nIn, gradOutput, nOut, 0,
                            THTensor_(data)(gradInput), nIn);
}

int THNN_(Linear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                    THTensor *weight, THTensor *bias,
                                    THTensor *gradWeight, THTensor *gradBias, accreal scale)
{
  TH_TRY(THNN_(Linear_shapeCheck)(state, input, gradOutput, weight, bias, gradWeight, gradBias));
  int64_t nOut = weight->size[0], nIn = weight->size[1];
  int64_t batch = input->nDimension == 2 ? input->size[0] : 1;
  TH_TRY(THNN_(Linear_gemm)(state, 'n', 't', nIn, nOut, batch, (real)scale, input, nIn, gradOutput, nOut, 1,
                            THTensor_(data)(gradWeight), nIn));
  if (gradBias) {
    /* read in place: gradOutput [batch, nOut] or [nOut], any strides */
    int64_t rowStride = gradOutput->nDimension == 2 ? gradOutput->stride[0] : 0;
    int64_t colStride = gradOutput->stride[gradOutput->nDimension - 1];
    const real *go = THTensor_(data)(gradOutput);
    real *gb = THTensor_(data)(gradBias);
    for (int64_t i = 0; i < batch; i++)
      for (int64_t j = 0; j < nOut; j++)
        gb[j] += (real)scale * go[i * rowStride + j * colStride];
  }
  return 0;
}

#endif
