/* The float forward convolution as an "indirect" matrix product
 * (THConvDirect.c: AVX2 + FMA, chosen at run time): no column matrix, the
 * image read where it lies (or from a zero-padded copy), only the weight
 * packed.  generic/unfold.h drives it (threads, padding, the choice). */
#ifndef TH_CONV_DIRECT_H
#define TH_CONV_DIRECT_H

#include <stdint.h>

/* Output planes per panel of the packed weight. */
#define THGEMM_CONV_PANEL 16
/* Output pixels per tile of the micro-kernel. */
#define THGEMM_CONV_TILE 6

/* Floats of the packed weight of nOut output planes and K = planes * kH *
 * kW taps: panels of THGEMM_CONV_PANEL planes, each its bias row then
 * [K][THGEMM_CONV_PANEL] weights, zeros past nOut. */
int64_t THGemmConv_packedSize(int64_t nOut, int64_t K);

/* Panels [q0, q1) of the packed weight from w [nOut][K] (rows lda apart)
 * and bias (NULL: zeros; else nOut values biasStride apart) into dst (32-byte aligned). */
void THGemmConv_pack(const float *w, int64_t lda, int64_t nOut, int64_t K, const float *bias, int64_t biasStride,
                     int64_t q0, int64_t q1, float *dst);

/* Output pixels [p0, p1) of every output plane, out[o * area + p]: the bias
 * plus the sum over k of weight[o][k] * image[pix(p) + off[k]], in the
 * order of k, where pix(p) = (p / outW) * rowStep + (p % outW) * colStep.
 * Every image[pix(p) + off[k]] for p in [p0, p1) must be readable (the
 * caller pads the image); nothing else is read.  Where THGemm_floatAvailable(). */
void THGemmConv_tiles(const float *image, const int64_t *off, int64_t K, const float *packed, int64_t nOut,
                      int64_t outW, int64_t rowStep, int64_t colStep, int64_t p0, int64_t p1, float *out,
                      int64_t area);

/* Whether the float forward convolution takes this path: 0 never, 1 where
 * generic/unfold.h's rule says it is faster (the default), 2 always where
 * the CPU runs it (tests and benchmarks compare the paths). */
int THGemmConv_mode(void);
void THGemmConv_setMode(int mode);
/* Convolutions (calls of the forward, whole batches) that took it (tests). */
int64_t THGemmConv_calls(void);
void THGemmConv_count(void);

#endif
