/* Contiguous rows of exponentials, for the softmax layers.  Destination
 * first, as in Torch7's THVector; n may be 0. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THVector.h"
#else

/* sum_i exp(x_i - shift) over n elements, accumulated in accreal; each
 * exp(x_i - shift) is also stored in y unless y is NULL. */
accreal THVector_(expSum)(real *y, const real *x, real shift, int64_t n);

/* z_i = x_i - exp(y_i) * c over n elements (z may alias x or y). */
void THVector_(subExpMul)(real *z, const real *x, const real *y, accreal c, int64_t n);

#endif
