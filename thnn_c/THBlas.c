/* The BLAS shim, over the scipy-openblas32 wheel (every symbol prefixed
 * scipy_, 32-bit integers). */
#include "TH.h"

#include <limits.h>
#include <cblas.h>

static int THBlasFits(int64_t v)
{
  return v >= 0 && v <= INT_MAX;
}

static enum CBLAS_TRANSPOSE THBlasTrans(char t)
{
  return (t == 't' || t == 'T') ? CblasTrans : CblasNoTrans;
}

void THSetNumThreads(int n)
{
  scipy_openblas_set_num_threads(n);
}

int THGetNumThreads(void)
{
  return scipy_openblas_get_num_threads();
}

#define TH_GENERIC_FILE "generic/THBlas.c"
#include "THGenerateFloatTypes.h"
