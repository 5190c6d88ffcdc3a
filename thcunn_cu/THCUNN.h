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
/* ==== end of convolutions ==== */


/* ==== pooling, padding, up-sampling, grid sampling ==== */
/* ==== end of pooling, padding, up-sampling, grid sampling ==== */
