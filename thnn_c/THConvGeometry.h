/* THConvGeometry.h: the geometry of a sliding kernel, as the convolution
 * shape checks of thnn_c fill it.  Shared by the CPU layers and their CUDA
 * twins (thcunn_cu/), which call the same shape checks. */
#ifndef TH_CONV_GEOMETRY_H
#define TH_CONV_GEOMETRY_H

#include <stdint.h>

/* 2D: unfold.h (im2col) and the spatial convolutions. */
typedef struct THNNConvGeometry {
  int kW, kH;                  /* taps */
  int dW, dH;                  /* steps */
  int padW, padH;              /* zeros added on each side */
  int dilationW, dilationH;    /* distance between taps */
  int64_t nPlane;              /* planes of the image the kernel slides over */
  int64_t inH, inW;            /* size of that image */
  int64_t outH, outW;          /* positions of the kernel */
} THNNConvGeometry;

/* 3D: vol2col.h and the volumetric convolutions. */
typedef struct THNNVolGeometry {
  int k[3];                    /* taps along T, H, W */
  int d[3];                    /* steps */
  int pad[3];                  /* zeros added at both ends */
  int dilation[3];             /* distance between taps */
  int64_t nPlane;              /* planes of the image the kernel slides over */
  int64_t in[3];               /* size of that image */
  int64_t out[3];              /* positions of the kernel */
} THNNVolGeometry;

/* SpatialConvolutionLocal: one kernel per output position. */
typedef struct THNNLocalGeometry {
  int kW, kH, dW, dH, padW, padH;
  int64_t nIn, nOut, iH, iW, oH, oW;
} THNNLocalGeometry;

#endif
