/* THNN.h: every kernel of the library, the contract with the Python binding.
 *
 * The build reads this file and expands it for Float and Double: THNN_(X)
 * becomes THNN_FloatX / THNN_DoubleX, THTensor becomes THFloatTensor /
 * THDoubleTensor, real becomes float / double.  THIndexTensor is always
 * THLongTensor (int64 class targets and indices, 0-based), accreal is double.
 *
 * Every kernel returns 0 on success and -1 on failure, with the reason in
 * state->message; nothing aborts.  Each argument carries one comment; these
 * tags in it tell the binding how to treat it:
 *   [OUT]       resized and written by the kernel (a new array when the shape
 *               changes; the caller's array is reused when it already fits)
 *   [BUFFER]    work space owned by the module, resized by the kernel
 *   [INOUT]     written in place, never resized (accumulators, in-place modes)
 *   [INPLACE]   written in place only when the kernel's inplace flag is true
 *   [OPTIONAL]  may be NULL (None from Python)
 * An argument with none of the tags is only read. */
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "generic/THNN.h"
#else

/* ---- Linear: y = W x + b ---- */
TH_API int THNN_(Linear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nIn] or [batch, nIn]
          THTensor *output,            // [OUT] output, [nOut] or [batch, nOut]
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias);             // [OPTIONAL] bias, [nOut]
TH_API int THNN_(Linear_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nIn] or [batch, nIn]
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight);           // weight, [nOut, nIn]
TH_API int THNN_(Linear_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nIn] or [batch, nIn]
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias,              // [OPTIONAL] bias, [nOut]
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dW, contiguous [nOut, nIn]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/db, contiguous [nOut]
          accreal scale);              // factor applied to the accumulated gradients

/* ---- Sigmoid: y = 1 / (1 + exp(-x)) ---- */
TH_API int THNN_(Sigmoid_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(Sigmoid_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as output
          THTensor *output);           // output of the forward pass

/* ---- Tanh: y = tanh(x) ---- */
TH_API int THNN_(Tanh_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(Tanh_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as output
          THTensor *output);           // output of the forward pass

/* ---- Threshold: y = x if x > threshold else val ---- */
TH_API int THNN_(Threshold_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] input, any shape; overwritten with the output when inplace
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          accreal threshold,           // values at or below it are replaced
          accreal val,                 // the replacement value
          bool inplace);               // write the result into input
TH_API int THNN_(Threshold_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (its output when inplace)
          THTensor *gradOutput,        // [INPLACE] gradient w.r.t. output; overwritten when inplace
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (a view of gradOutput when inplace)
          accreal threshold,           // as in the forward pass
          accreal val,                 // as in the forward pass
          bool inplace);               // write the result into gradOutput

/* ---- SoftMax over the feature dim: [n], [batch, n], [n, h, w] or [batch, n, h, w] ---- */
TH_API int THNN_(SoftMax_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 1D to 4D
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(SoftMax_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *output);           // output of the forward pass

/* ---- LogSoftMax over the feature dim, same layouts as SoftMax ---- */
TH_API int THNN_(LogSoftMax_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 1D to 4D
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(LogSoftMax_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *output);           // output of the forward pass

/* ---- MSECriterion: sum (x - t)^2, divided by the element count with sizeAverage ---- */
TH_API int THNN_(MSECriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage);           // divide by the number of elements
TH_API int THNN_(MSECriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage);           // divide by the number of elements

/* ---- ClassNLLCriterion: -weight[t] * x[t], 0-based targets ---- */
TH_API int THNN_(ClassNLLCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, [nClasses] or [batch, nClasses]
          THIndexTensor *target,       // class indices in [0, nClasses), [1] or [batch]
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage,            // divide by the total weight of the counted targets
          THTensor *weights,           // [OPTIONAL] class weights, [nClasses]
          THTensor *total_weight,      // [OUT] sum of the weights of the counted targets, 1 element
          int64_t ignore_index);       // targets equal to it add nothing (may lie outside the range)
TH_API int THNN_(ClassNLLCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, [nClasses] or [batch, nClasses]
          THIndexTensor *target,       // class indices in [0, nClasses), [1] or [batch]
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage,            // divide by the total weight of the counted targets
          THTensor *weights,           // [OPTIONAL] class weights, [nClasses]
          THTensor *total_weight,      // total weight computed by updateOutput, 1 element
          int64_t ignore_index);       // targets equal to it add nothing (may lie outside the range)

/* ==== activations ==== */

/* ==== end of activations ==== */

/* ==== criterions ==== */

/* ---- AbsCriterion: sum |x - t|, divided by the element count with sizeAverage ---- */
TH_API int THNN_(AbsCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage);           // divide by the number of elements
TH_API int THNN_(AbsCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input: sign(x - t), +1 at x == t
          bool sizeAverage);           // divide by the number of elements

/* ---- BCECriterion: -sum w (t log x + (1 - t) log(1 - x)), logs clamped at -100 ---- */
TH_API int THNN_(BCECriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // probabilities in [0, 1], any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage,            // divide by the number of elements
          THTensor *weights);          // [OPTIONAL] per-element weights, same number of elements as input
TH_API int THNN_(BCECriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // probabilities in [0, 1], any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage,            // divide by the number of elements
          THTensor *weights);          // [OPTIONAL] per-element weights, same number of elements as input

/* ---- DistKLDivCriterion: sum over t > 0 of t (log t - x), x being log-probabilities ---- */
TH_API int THNN_(DistKLDivCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, any shape
          THTensor *target,            // probabilities, same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage);           // divide by the number of elements
TH_API int THNN_(DistKLDivCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, any shape
          THTensor *target,            // probabilities, same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage);           // divide by the number of elements

/* ---- L1Cost: sum |x| (no target) ---- */
TH_API int THNN_(L1Cost_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] the cost, a 1-element tensor
TH_API int THNN_(L1Cost_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *gradInput);        // [OUT] gradient w.r.t. input, shaped as input: sign(x), 0 at 0

/* ---- MarginCriterion: sum max(0, margin - x t), targets t = 1 or -1 ---- */
TH_API int THNN_(MarginCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target (1 or -1), same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage,            // divide by the number of elements
          accreal margin);             // the margin
TH_API int THNN_(MarginCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target (1 or -1), same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage,            // divide by the number of elements
          accreal margin);             // the margin

/* ---- MultiLabelMarginCriterion: sum over target j, non-target i of max(0, 1 - x[j] + x[i]) / dim ---- */
TH_API int THNN_(MultiLabelMarginCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // scores, [dim] or [batch, dim]
          THIndexTensor *target,       // shaped as input: each row's 0-based classes, then -1 padding
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          THTensor *isTarget,          // [BUFFER] shaped as input: 1 where the class is a target of the row
          bool sizeAverage);           // divide by batch
TH_API int THNN_(MultiLabelMarginCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // scores, [dim] or [batch, dim]
          THIndexTensor *target,       // shaped as input: each row's 0-based classes, then -1 padding
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *isTarget,          // [BUFFER] shaped as input: recomputed from target
          bool sizeAverage);           // divide by batch

/* ---- MultiMarginCriterion: sum over i != t of w[t] max(0, margin - x[t] + x[i])^p / dim ---- */
TH_API int THNN_(MultiMarginCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // scores, [dim] or [batch, dim]
          THIndexTensor *target,       // class indices in [0, dim), [1] or [batch]
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage,            // divide by batch
          int p,                       // the power, 1 or 2
          THTensor *weights,           // [OPTIONAL] class weights, [dim]
          accreal margin);             // the margin
TH_API int THNN_(MultiMarginCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // scores, [dim] or [batch, dim]
          THIndexTensor *target,       // class indices in [0, dim), [1] or [batch]
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage,            // divide by batch
          int p,                       // the power, 1 or 2
          THTensor *weights,           // [OPTIONAL] class weights, [dim]
          accreal margin);             // the margin

/* ---- SmoothL1Criterion: sum of 0.5 d^2 where |d| < 1, |d| - 0.5 elsewhere, d = x - t ---- */
TH_API int THNN_(SmoothL1Criterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage);           // divide by the number of elements
TH_API int THNN_(SmoothL1Criterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target, same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage);           // divide by the number of elements

/* ---- SoftMarginCriterion: sum log(1 + exp(-x t)), targets t = 1 or -1 ---- */
TH_API int THNN_(SoftMarginCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target (1 or -1), same number of elements as input
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage);           // divide by the number of elements
TH_API int THNN_(SoftMarginCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *target,            // target (1 or -1), same number of elements as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage);           // divide by the number of elements

/* ---- SpatialClassNLLCriterion: ClassNLLCriterion at every pixel of [batch, nClasses, h, w] ---- */
TH_API int THNN_(SpatialClassNLLCriterion_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, [batch, nClasses, height, width]
          THIndexTensor *target,       // class indices in [0, nClasses), [batch, height, width]
          THTensor *output,            // [OUT] the loss, a 1-element tensor
          bool sizeAverage,            // divide by the total weight of the counted targets
          THTensor *weights,           // [OPTIONAL] class weights, [nClasses]
          THTensor *total_weight,      // [OUT] sum of the weights of the counted targets, 1 element
          int64_t ignore_index);       // targets equal to it add nothing (may lie outside the range)
TH_API int THNN_(SpatialClassNLLCriterion_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // log-probabilities, [batch, nClasses, height, width]
          THIndexTensor *target,       // class indices in [0, nClasses), [batch, height, width]
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          bool sizeAverage,            // divide by the total weight of the counted targets
          THTensor *weights,           // [OPTIONAL] class weights, [nClasses]
          THTensor *total_weight,      // total weight computed by updateOutput, 1 element
          int64_t ignore_index);       // targets equal to it add nothing (may lie outside the range)


/* ==== end of criterions ==== */

/* ==== linear, sparse and embedding layers ==== */

/* ==== end of linear, sparse and embedding layers ==== */

/* ==== temporal layers and recurrent cells ==== */

/* ==== end of temporal layers and recurrent cells ==== */

#endif
