#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/ConnectionMap.cu"
#else

/* What the connection-table twins (SpatialConvolutionMap.cu and
 * SpatialFullConvolutionMap.cu) share, as thnn_c/generic/ConnectionMap.h is
 * for their CPU kernels.  Row k = (i, o) of connTable filters plane i through
 * weight[k] into plane o.  Over one connection, a kernel of kH x kW taps
 * slides without padding over an "image" plane [imageH, imageW] to posH x posW "positions":
 *   correlate: positions[y, x] += sum over a, b of w[a, b] * image[y*dH + a, x*dW + b]
 *   spread:    its transpose, image[y*dH + a, x*dW + b] += w[a, b] * positions[y, x]
 * For SpatialConvolutionMap the input is the image and the output the
 * positions; for the full (transposed) layer the other way round.  Each output element
 * gathers over the rows of the table that reach its plane: no atomics.
 *
 * connTable lives on the device; the CPU shape check reads its entries, so
 * it is given a host copy (THCMapTable). */

#ifndef THC_MAP_SHARED
#define THC_MAP_SHARED
/* The CPU planes of one connection, field for field (thnn_c/generic/SpatialConvolutionMap.c). */
typedef struct THNNMapPlanes {
  int64_t kH, kW, dH, dW;
  int64_t imageH, imageW;
  int64_t posH, posW;
} THNNMapPlanes;

/* The table as the CPU shape check (host) and the kernels (device) read it. */
typedef struct THCMapTable {
  THLongTensor host;       /* a host copy, contiguous */
  THLongTensor devTmp;     /* the device table made contiguous, when it was not */
  const THLongTensor *dev; /* the contiguous device table */
} THCMapTable;

static int THCMapTable_get(THNNState *state, const THLongTensor *table, THCMapTable *m)
{
  m->dev = THCLongTensor_contiguous(state, table, &m->devTmp);
  if (!m->dev)
    return -1;
  TH_TRY(THLongTensor_resizeNd(state, &m->host, m->dev->nDimension, m->dev->size));
  return THCLongStorage_copyToHost(state, THLongTensor_data(&m->host), m->dev->storage, m->dev->storageOffset,
                                   THLongTensor_nElement(m->dev));
}

static void THCMapTable_release(THCMapTable *m)
{
  THLongTensor_release(&m->host);
  THCLongTensor_release(&m->devTmp);
}
#endif


/* dst [batch, nDst, posH, posW]: plane q = bias[q] (or 0) + the correlation
 * of weight[k] with plane table[k][1 - dstCol] of src [batch, nSrc, imageH,
 * imageW], over the rows k with table[k][dstCol] == q. */
__global__ void THNN_(mapCorrelateKernel)(THNNMapPlanes p, const int64_t *table, int64_t nConn, int dstCol,
                                          const real *src, int64_t nSrc, const real *w, const real *bias,
                                          int64_t biasStride, real *dst, int64_t nDst, int64_t n)
{
  const int64_t area = p.posH * p.posW, imageArea = p.imageH * p.imageW;
  THC_KERNEL_LOOP(i, n) {
    int64_t pos = i % area, q = i / area % nDst, b = i / (area * nDst);
    int64_t corner = pos / p.posW * p.dH * p.imageW + pos % p.posW * p.dW;
    accreal sum = bias ? bias[q * biasStride] : 0;
    for (int64_t k = 0; k < nConn; k++) {
      if (table[2 * k + dstCol] != q)
        continue;
      const real *img = src + (b * nSrc + table[2 * k + 1 - dstCol]) * imageArea + corner;
      for (int64_t a = 0; a < p.kH; a++)
        for (int64_t c = 0; c < p.kW; c++)
          sum += (accreal)w[(k * p.kH + a) * p.kW + c] * img[a * p.imageW + c];
    }
    dst[i] = (real)sum;
  }
}

/* dst [batch, nDst, imageH, imageW]: plane q = bias[q] (or 0) + weight[k]
 * spread from plane table[k][1 - dstCol] of src [batch, nSrc, posH, posW],
 * over the rows k with table[k][dstCol] == q (each pixel gathers). */
__global__ void THNN_(mapSpreadKernel)(THNNMapPlanes p, const int64_t *table, int64_t nConn, int dstCol,
                                       const real *src, int64_t nSrc, const real *w, const real *bias,
                                       int64_t biasStride, real *dst, int64_t nDst, int64_t n)
{
  const int64_t area = p.posH * p.posW, imageArea = p.imageH * p.imageW;
  THC_KERNEL_LOOP(i, n) {
    int64_t ix = i % p.imageW, iy = i / p.imageW % p.imageH, q = i / imageArea % nDst, b = i / (imageArea * nDst);
    accreal sum = bias ? bias[q * biasStride] : 0;
    for (int64_t k = 0; k < nConn; k++) {
      if (table[2 * k + dstCol] != q)
        continue;
      const real *plane = src + (b * nSrc + table[2 * k + 1 - dstCol]) * area;
      for (int64_t a = 0; a < p.kH; a++)
        for (int64_t c = 0; c < p.kW; c++) {
          int64_t qy = iy - a, qx = ix - c;   /* = y*dH, x*dW */
          if (qy >= 0 && qx >= 0 && qy % p.dH == 0 && qx % p.dW == 0 && qy / p.dH < p.posH && qx / p.dW < p.posW)
            sum += (accreal)w[(k * p.kH + a) * p.kW + c] * plane[qy / p.dH * p.posW + qx / p.dW];
        }
    }
    dst[i] = (real)sum;
  }
}

/* A block per weight entry r = (k, a, c): gw[r] += scale * the sum over
 * samples and positions of pos (plane table[k][posCol] of [batch, nPos,
 * posH, posW]) times what tap (a, c) sees of image (plane table[k][1 - posCol]
 * of [batch, nImage, imageH, imageW]). */
__global__ void THNN_(mapGradWeightKernel)(THNNMapPlanes p, const int64_t *table, int64_t nConn, int posCol,
                                           const real *pos, int64_t nPos, const real *image, int64_t nImage,
                                           int64_t batch, real *gw, accreal scale)
{
  __shared__ accreal scratch[THC_NUM_THREADS];
  const int64_t area = p.posH * p.posW, imageArea = p.imageH * p.imageW;
  for (int64_t r = blockIdx.x; r < nConn * p.kH * p.kW; r += gridDim.x) {
    int64_t k = r / (p.kH * p.kW), a = r / p.kW % p.kH, c = r % p.kW;
    const real *pp = pos + table[2 * k + posCol] * area, *ip = image + table[2 * k + 1 - posCol] * imageArea;
    accreal s = 0;
    for (int64_t q = threadIdx.x; q < batch * area; q += blockDim.x) {
      int64_t b = q / area, e = q % area;
      s += (accreal)pp[b * nPos * area + e] *
           ip[b * nImage * imageArea + (e / p.posW * p.dH + a) * p.imageW + e % p.posW * p.dW + c];
    }
    s = THCBlockReduce(s, scratch, THCSum());
    if (threadIdx.x == 0)
      gw[r] += (real)(scale * s);
  }
}

/* dst = the correlate (spread = 0) or spread (spread = 1) kernel above over
 * src (contiguous), from bias (may be NULL).  The planes per sample are the
 * dims before the last two. */
static int THNN_(cuMap)(THNNState *state, int spread, const THNNMapPlanes *p, const THLongTensor *table, int dstCol,
                        const THTensor *src, const THTensor *w, const THTensor *bias, THTensor *dst)
{
  int64_t n = THTensor_(nElement)(dst), nSrc = src->size[src->nDimension - 3], nDst = dst->size[dst->nDimension - 3];
  const real *b = bias ? THTensor_(data)(bias) : NULL;
  int64_t bs = bias ? bias->stride[0] : 0, nConn = table->size[0];
  if (spread)
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(mapSpreadKernel))(
        *p, THLongTensor_data(table), nConn, dstCol, THTensor_(data)(src), nSrc, THTensor_(data)(w), b, bs,
        THTensor_(data)(dst), nDst, n);
  else
    THC_LAUNCH(THC_blocks(n), THC_NUM_THREADS, THNN_(mapCorrelateKernel))(
        *p, THLongTensor_data(table), nConn, dstCol, THTensor_(data)(src), nSrc, THTensor_(data)(w), b, bs,
        THTensor_(data)(dst), nDst, n);
  return THCCheckLaunch(state, spread ? "mapSpread" : "mapCorrelate");
}

/* gradWeight += scale * its gradient (pos the plane side of table column
 * posCol), gradBias += scale * the plane sums of gradOutput (nOutputPlane planes). */
static int THNN_(cuMapGradParameters)(THNNState *state, const THNNMapPlanes *p, const THLongTensor *table,
                                      int posCol, const THTensor *pos, const THTensor *image,
                                      const THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                      accreal scale)
{
  int batched = pos->nDimension == 4;
  int64_t batch = batched ? pos->size[0] : 1, rows = table->size[0] * p->kH * p->kW;
  unsigned blocks = (unsigned)(rows < 1 ? 1 : rows < THC_MAX_BLOCKS ? rows : THC_MAX_BLOCKS);
  THC_LAUNCH(blocks, THC_NUM_THREADS, THNN_(mapGradWeightKernel))(
      *p, THLongTensor_data(table), table->size[0], posCol, THTensor_(data)(pos), pos->size[batched],
      THTensor_(data)(image), image->size[batched], batch, THTensor_(data)(gradWeight), scale);
  TH_TRY(THCCheckLaunch(state, "mapGradWeight"));
  int64_t nOut = gradOutput->size[batched], area = gradOutput->size[batched + 1] * gradOutput->size[batched + 2];
  return THNN_(cuGradBias)(state, THTensor_(data)(gradBias), THTensor_(data)(gradOutput), batch, nOut, area, scale);
}

#endif
