/* The float forward 3x3 and 5x5 convolutions of step 1 by Winograd's
 * minimal filtering F(2x2, 3x3) and F(2x2, 5x5) (THConvWinograd.c: AVX2 +
 * FMA, chosen at run time): 16 (36) products of 2x2 outputs' worth of
 * transformed tiles in place of 36 (100) multiply-adds.  kernel (3 or 5)
 * picks the one; a = kernel + 1 is the side of a transformed tile.  generic/unfold.h drives it (threads, the choice,
 * the fallback on values a transform could overflow). */
#ifndef TH_CONV_WINOGRAD_H
#define TH_CONV_WINOGRAD_H

#include <stdint.h>

/* The floats from one of the a x a matrices of U, V or M (below) to the
 * next, for matrices of size floats: size rounded up to whole 64-byte
 * lines, and to an odd number of them.  The transforms read or write the
 * 16 at once, and at a multiple of 4096 bytes apart (nOut x nIn = 256 x 256,
 * 64 planes x 784 tiles) they fell in one set of the L1 cache, which holds
 * 8 lines: the weight's took 6.4 ns a kernel at 256 x 256 and 2.3 at
 * 250 x 250.  At an odd number of lines apart they fall in 16 sets. */
int64_t THGemmWino_stride(int64_t size);

/* The transformed weight of nOut x nIn kernel x kernel kernels:
 * U[xi][o][c], xi in [0, a * a), THGemmWino_stride(nOut * nIn) floats apart. */
int64_t THGemmWino_weightSize(int kernel, int64_t nOut, int64_t nIn);

/* Rows [o0, o1) of U from w [nOut][nIn][kernel][kernel] (contiguous);
 * returns the largest magnitude of those rows' weights, NaN when one is
 * infinite or NaN (as THGemmWino_maxAbs, read in the same pass). */
float THGemmWino_weight(int kernel, const float *w, int64_t nOut, int64_t nIn, int64_t o0, int64_t o1, float *U);

/* The tiles of a batch: each sample's output in tiles of 2x2 pixels,
 * tilesH x tilesW of them (the last row and column of tiles hanging over
 * an odd output), sample n's tile row ty numbered n * tilesH + ty. */
typedef struct THGemmWinoShape {
  int64_t nIn, nOut;             /* planes of the image and of the output */
  int64_t inH, inW, padH, padW;  /* the image and its zero padding */
  int64_t outH, outW;            /* the output: inH + 2 padH - kernel + 1, the same along W */
  int64_t tilesH, tilesW;        /* (outH + 1) / 2, (outW + 1) / 2 */
  int kernel;                    /* 3 or 5: the kernel's side */
} THGemmWinoShape;

/* Planes [c0, c1) of the transformed input tiles of tile rows [s0, s1)
 * (all samples' tile rows in a row): V[xi][c][j], j the tile's number from
 * tile row s0's first, (s1 - s0) * tilesW of them per row of V, the
 * matrices V[xi] THGemmWino_stride(nIn * (s1 - s0) * tilesW) apart.  image is the
 * batch, samples nIn * inH * inW floats apart; scratch holds
 * (a * a + 2) * (tilesW + (kernel - 1) / 2) floats. */
void THGemmWino_input(const THGemmWinoShape *s, const float *image, int64_t s0, int64_t s1, int64_t c0, int64_t c1,
                      float *V, float *scratch);

/* The largest magnitude of n floats, NaN when one is NaN. */
float THGemmWino_maxAbs(const float *x, int64_t n);

/* Output planes [o0, o1) of tile rows [s0, s1) from their products
 * M[xi][o][j] (laid out as V, nOut rows), plus bias[o * biasStride]
 * (bias NULL: 0), into out (samples nOut * outH * outW floats apart);
 * scratch holds 2 * a * tilesW floats. */
void THGemmWino_output(const THGemmWinoShape *s, const float *M, int64_t s0, int64_t s1, int64_t o0, int64_t o1,
                       const float *bias, int64_t biasStride, float *out, float *scratch);

/* Whether the forward takes this path: 0 never, 1 where generic/unfold.h's
 * rule says it is faster (the default), 2 always where it can run (tests
 * and benchmarks compare the paths). */
int THGemmWino_mode(void);
void THGemmWino_setMode(int mode);
/* Convolutions (calls of the forward, whole batches) that took it (tests). */
int64_t THGemmWino_calls(void);
void THGemmWino_count(void);

#endif
