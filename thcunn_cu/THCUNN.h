/* THCUNN.h: which layers of thnn_c/generic/THNN.h have a CUDA twin.
 *
 * A twin has exactly the prototype of its CPU kernel (THC.h declares the
 * twins by expanding THNN.h under the Cuda names, so the compiler holds each
 * twin to it), the same arguments, tags and meaning: THNN.h, with its comment
 * on every argument, is the contract for both.  For a layer listed here,
 * every function of it in THNN.h exists as THNN_Cuda<name> (float) and
 * THNN_CudaDouble<name> (double), defined in generic/<Layer>.cu.  The Python
 * side reads this list (THC_LAYER lines, one layer each) and binds those
 * functions; a listed layer missing a function fails the build. */

/* ==== activations and softmax ==== */
THC_LAYER(Sigmoid)
/* ==== end of activations and softmax ==== */


/* ==== criterions ==== */
/* ==== end of criterions ==== */


/* ==== linear, embedding, sparse, temporal, fused cells, batch normalization ==== */
/* ==== end of linear, embedding, sparse, temporal, fused cells, batch normalization ==== */


/* ==== convolutions ==== */
/* ==== end of convolutions ==== */


/* ==== pooling, padding, up-sampling, grid sampling ==== */
THC_LAYER(SpatialMaxPooling)
THC_LAYER(SpatialDilatedMaxPooling)
THC_LAYER(SpatialAveragePooling)
THC_LAYER(SpatialAdaptiveMaxPooling)
THC_LAYER(SpatialAdaptiveAveragePooling)
THC_LAYER(SpatialMaxUnpooling)
THC_LAYER(VolumetricMaxPooling)
THC_LAYER(VolumetricDilatedMaxPooling)
THC_LAYER(VolumetricAveragePooling)
THC_LAYER(VolumetricMaxUnpooling)
THC_LAYER(SpatialReflectionPadding)
THC_LAYER(SpatialReplicationPadding)
THC_LAYER(VolumetricReplicationPadding)
THC_LAYER(SpatialUpSamplingNearest)
THC_LAYER(VolumetricUpSamplingNearest)
THC_LAYER(SpatialUpSamplingBilinear)
THC_LAYER(VolumetricUpSamplingTrilinear)
THC_LAYER(SpatialGridSamplerBilinear)
THC_LAYER(FeatureLPPooling)
THC_LAYER(SpatialFractionalMaxPooling)
THC_LAYER(VolumetricFractionalMaxPooling)
/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
