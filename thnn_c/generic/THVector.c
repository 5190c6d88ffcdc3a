#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THVector.c"
#else

/* The portable loops: the C library's exp, vectorized through libmvec. */
TH_VECTOR_CLONES static accreal THVector_(expSumLoop)(real *y, const real *x, real shift, int64_t n)
{
  accreal sum = 0;
  if (y) {
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < n; i++) {
      y[i] = THVector_exp(x[i] - shift);
      sum += y[i];
    }
  } else {
#pragma omp simd reduction(+ : sum)
    for (int64_t i = 0; i < n; i++)
      sum += THVector_exp(x[i] - shift);
  }
  return sum;
}

TH_VECTOR_CLONES static void THVector_(subExpMulLoop)(real *z, const real *x, const real *y, accreal c, int64_t n)
{
#pragma omp simd
  for (int64_t i = 0; i < n; i++)
    z[i] = (real)(x[i] - THVector_exp(y[i]) * c);
}

accreal THVector_(expSum)(real *y, const real *x, real shift, int64_t n)
{
#if defined(TH_REAL_IS_FLOAT) && defined(TH_VECTOR_AVX512)
  if (THUseAVX512())
    return THFloatVector_expSumAVX512(y, x, shift, n);
#endif
  return THVector_(expSumLoop)(y, x, shift, n);
}

void THVector_(subExpMul)(real *z, const real *x, const real *y, accreal c, int64_t n)
{
#if defined(TH_REAL_IS_FLOAT) && defined(TH_VECTOR_AVX512)
  if (THUseAVX512()) {
    THFloatVector_subExpMulAVX512(z, x, y, c, n);
    return;
  }
#endif
  THVector_(subExpMulLoop)(z, x, y, c, n);
}

#endif
