#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/LogSigmoid.c"
#else

/* With e = exp(-|x|) (never overflows):
 *   log sigmoid(x) = min(x, 0) - log(1 + e)
 *   d/dx           = sigmoid(-x) = e / (1 + e) for x >= 0, 1 / (1 + e) for x < 0
 * The forward pass keeps e in buffer for the backward pass. */

int THNN_(LogSigmoid_shapeCheck)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                        THTensor *buffer)
{
  if (gradOutput)
    TH_TRY(THTensor_(checkSameSize)(state, "gradOutput", gradOutput, "input", input));
  if (buffer)
    TH_TRY(THTensor_(checkSameSize)(state, "buffer", buffer, "input", input));
  return 0;
}

int THNN_(LogSigmoid_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *buffer)
{
  TH_TRY(THNN_(LogSigmoid_shapeCheck)(state, input, NULL, NULL));
  THTensor xTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  if (!x || THTensor_(resizeAs)(state, output, input) != 0 || THTensor_(resizeAs)(state, buffer, input) != 0) {
    THTensor_(release)(&xTmp);
    return -1;
  }
  const real *in = THTensor_(data)(x);
  real *out = THTensor_(data)(output), *e = THTensor_(data)(buffer);
  int64_t n = THTensor_(nElement)(input);
  for (int64_t i = 0; i < n; i++) {
    e[i] = (real)exp(-fabs(in[i]));
    out[i] = (real)((in[i] < 0 ? in[i] : 0) - log1p(e[i]));
  }
  THTensor_(release)(&xTmp);
  return 0;
}

int THNN_(LogSigmoid_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                      THTensor *gradInput, THTensor *buffer)
{
  TH_TRY(THNN_(LogSigmoid_shapeCheck)(state, input, gradOutput, buffer));
  THTensor xTmp = {0}, gTmp = {0}, eTmp = {0};
  const THTensor *x = THTensor_(contiguous)(state, input, &xTmp);
  const THTensor *g = x ? THTensor_(contiguous)(state, gradOutput, &gTmp) : NULL;
  const THTensor *b = g ? THTensor_(contiguous)(state, buffer, &eTmp) : NULL;
  int rc = -1;
  if (b && THTensor_(resizeAs)(state, gradInput, input) == 0) {
    const real *in = THTensor_(data)(x), *go = THTensor_(data)(g), *e = THTensor_(data)(b);
    real *gi = THTensor_(data)(gradInput);
    int64_t n = THTensor_(nElement)(input);
    for (int64_t i = 0; i < n; i++)
      gi[i] = go[i] * (in[i] >= 0 ? e[i] : 1) / (1 + e[i]);
    rc = 0;
  }
  THTensor_(release)(&xTmp);
  THTensor_(release)(&gTmp);
  THTensor_(release)(&eTmp);
  return rc;
}

#endif
