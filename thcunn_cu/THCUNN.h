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
THC_LAYER(Tanh)
THC_LAYER(Threshold)
THC_LAYER(Abs)
THC_LAYER(ELU)
THC_LAYER(GatedLinear)
THC_LAYER(HardShrink)
THC_LAYER(HardTanh)
THC_LAYER(LeakyReLU)
THC_LAYER(LogSigmoid)
THC_LAYER(PReLU)
THC_LAYER(RReLU)
THC_LAYER(SoftPlus)
THC_LAYER(SoftShrink)
THC_LAYER(Sqrt)
THC_LAYER(Square)
THC_LAYER(SoftMax)
THC_LAYER(LogSoftMax)
/* ==== end of activations and softmax ==== */


/* ==== criterions ==== */
THC_LAYER(AbsCriterion)
THC_LAYER(BCECriterion)
THC_LAYER(ClassNLLCriterion)
THC_LAYER(DistKLDivCriterion)
THC_LAYER(L1Cost)
THC_LAYER(MSECriterion)
THC_LAYER(MarginCriterion)
THC_LAYER(MultiLabelMarginCriterion)
THC_LAYER(MultiMarginCriterion)
THC_LAYER(SmoothL1Criterion)
THC_LAYER(SoftMarginCriterion)
THC_LAYER(SpatialClassNLLCriterion)
/* ==== end of criterions ==== */


/* ==== linear, embedding, sparse, temporal, fused cells, batch normalization ==== */
THC_LAYER(Linear)
THC_LAYER(BatchNormalization)
THC_LAYER(LookupTable)
THC_LAYER(GRUFused)
THC_LAYER(LSTMFused)
THC_LAYER(TemporalConvolution)
THC_LAYER(TemporalSubSampling)
THC_LAYER(TemporalRowConvolution)
THC_LAYER(TemporalMaxPooling)
THC_LAYER(SparseLinear)
THC_LAYER(IndexLinear)
/* ==== end of linear, embedding, sparse, temporal, fused cells, batch normalization ==== */


/* ==== convolutions ==== */
THC_LAYER(SpatialDilatedConvolution)
THC_LAYER(SpatialConvolutionMM)
THC_LAYER(SpatialFullDilatedConvolution)
THC_LAYER(SpatialFullConvolution)
THC_LAYER(VolumetricDilatedConvolution)
THC_LAYER(VolumetricConvolutionMM)
THC_LAYER(VolumetricFullDilatedConvolution)
THC_LAYER(VolumetricFullConvolution)
THC_LAYER(VolumetricConvolution)
THC_LAYER(SpatialDepthWiseConvolution)
THC_LAYER(SpatialSubSampling)
THC_LAYER(SpatialConvolutionLocal)
THC_LAYER(SpatialConvolutionMap)
THC_LAYER(SpatialFullConvolutionMap)
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
