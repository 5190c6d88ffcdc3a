#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/GatedLinear.c"
#else

/* A contiguous input is [outer, 2 * half, inner] around dim: the first half
 * a and the second half b of each outer block are half * inner elements
 * apart, and the output is [outer, half, inner]. */

int THNN_(GatedLinear_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput, int dim,
                                         int64_t *outSize, int64_t *outer, int64_t *half, int64_t *inner)
{
  if (dim < 0 || dim >= input->nDimension)
    return THTensor_(shapeError)(state, "input", input, "a tensor with a dim %d (0-based) to halve", dim);
  if (input->size[dim] % 2 != 0)
    return THTensor_(shapeError)(state, "input", input, "of even size along dim %d (it is halved)", dim);
  *outer = *inner = 1;
  for (int d = 0; d < input->nDimension; d++) {
    outSize[d] = d == dim ? input->size[d] / 2 : input->size[d];
    if (d < dim)
      *outer *= input->size[d];
    if (d > dim)
      *inner *= input->size[d];
  }
  *half = outSize[dim];
  if (gradOutput)
    TH_TRY(THTensor_(checkSizes)(state, "gradOutput", gradOutput, input->nDimension, outSize));
  return 0;
}

/* y = a * sigmoid(b) */
int THNN_(GatedLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, int dim)
{
  int64_t outSize[TH_MAX_DIM], outer, half, inner;
  TH_TRY(THNN_(GatedLinear_shapeCheck)(state, input, NULL, dim, outSize, &outer, &half, &inner));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeNd)(state, output, input->nDimension, outSize) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  int64_t block = half * inner;
  for (int64_t o = 0; o < outer; o++) {
    const real *a = THTensor_(data)(x) + 2 * o * block, *b = a + block;
    real *y = THTensor_(data)(output) + o * block;
    for (int64_t i = 0; i < block; i++)
      y[i] = a[i] / (1 + exp(-b[i]));
  }
  THTensor_(release)(&xTmp);
  return 0;
}

/* dL/da = dL/dy * sigmoid(b),  dL/db = dL/dy * a * sigmoid(b) * (1 - sigmoid(b)) */
int THNN_(GatedLinear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                       THTensor *gradInput, int dim)
{
  int64_t outSize[TH_MAX_DIM], outer, half, inner;
  TH_TRY(THNN_(GatedLinear_shapeCheck)(state, input, gradOutput, dim, outSize, &outer, &half, &inner));
  THTensor xTmp = {0}, gTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  int rc = -1;
  if (g && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    int64_t block = half * inner;
    for (int64_t o = 0; o < outer; o++) {
      const real *a = THTensor_(data)(x) + 2 * o * block, *b = a + block;
      const real *go = THTensor_(data)(g) + o * block;
      real *ga = THTensor_(data)(gradInput) + 2 * o * block, *gb = ga + block;
      for (int64_t i = 0; i < block; i++) {
        real s = (real)(1 / (1 + exp(-b[i])));
        ga[i] = go[i] * s;
        gb[i] = go[i] * a[i] * s * (1 - s);
      }
    }
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  return rc;
}

#endif
