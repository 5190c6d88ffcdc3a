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
/* updateOutput of input + other, in one pass (a CAddTable then an in-place ReLU):
 * y = s if s > threshold else val, s = input + other */
TH_API int THNN_(Threshold_addUpdateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] first summand, any shape; overwritten with the output when inplace
          THTensor *other,             // second summand, sized as input
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          accreal threshold,           // values of the sum at or below it are replaced
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

/* ---- Abs: y = |x| ---- */
TH_API int THNN_(Abs_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(Abs_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput);        // [OUT] gradient w.r.t. input, shaped as input

/* ---- ELU: y = x if x > 0 else alpha * (exp(x) - 1) ---- */
TH_API int THNN_(ELU_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] input, any shape; overwritten with the output when inplace
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          accreal alpha,               // the negative saturation value is -alpha; inplace needs alpha >= 0
          bool inplace);               // write the result into input
TH_API int THNN_(ELU_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (its output when inplace)
          THTensor *gradOutput,        // [INPLACE] gradient w.r.t. output; overwritten when inplace
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (a view of gradOutput when inplace)
          THTensor *output,            // output of the forward pass
          accreal alpha,               // as in the forward pass
          bool inplace);               // write the result into gradOutput

/* ---- GatedLinear: split dim into halves a, b; y = a * sigmoid(b) ---- */
TH_API int THNN_(GatedLinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape with an even size along dim
          THTensor *output,            // [OUT] output, shaped as input with size[dim] halved
          int dim);                    // the dimension to halve, 0-based
TH_API int THNN_(GatedLinear_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int dim);                    // the dimension to halve, 0-based

/* ---- HardShrink: y = x if |x| > lambda else 0 ---- */
TH_API int THNN_(HardShrink_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output,            // [OUT] output, shaped as input
          accreal lambda);             // values in [-lambda, lambda] become 0
TH_API int THNN_(HardShrink_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          accreal lambda);             // as in the forward pass

/* ---- HardTanh: y = min(max(x, min_val), max_val) ---- */
TH_API int THNN_(HardTanh_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] input, any shape; overwritten with the output when inplace
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          accreal min_val,             // lower clip value
          accreal max_val,             // upper clip value, greater than min_val
          bool inplace);               // write the result into input
TH_API int THNN_(HardTanh_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (its output when inplace)
          THTensor *gradOutput,        // [INPLACE] gradient w.r.t. output; overwritten when inplace
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (a view of gradOutput when inplace)
          accreal min_val,             // as in the forward pass
          accreal max_val,             // as in the forward pass
          bool inplace);               // write the result into gradOutput

/* ---- LeakyReLU: y = x if x > 0 else negval * x ---- */
TH_API int THNN_(LeakyReLU_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] input, any shape; overwritten with the output when inplace
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          accreal negval,              // slope for x <= 0; inplace needs negval >= 0
          bool inplace);               // write the result into input
TH_API int THNN_(LeakyReLU_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (its output when inplace)
          THTensor *gradOutput,        // [INPLACE] gradient w.r.t. output; overwritten when inplace
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (a view of gradOutput when inplace)
          accreal negval,              // as in the forward pass
          bool inplace);               // write the result into gradOutput

/* ---- LogSigmoid: y = log(1 / (1 + exp(-x))), computed without overflow ---- */
TH_API int THNN_(LogSigmoid_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output,            // [OUT] output, shaped as input
          THTensor *buffer);           // [BUFFER] exp(-|x|), shaped as input, kept for the backward pass
TH_API int THNN_(LogSigmoid_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *buffer);           // the buffer filled by the forward pass

/* ---- PReLU: y = x if x > 0 else w[c] * x, c the channel of x ----
 * The channel dim is dim 0 of a 1D [n] or 3D [n, h, w] input and dim 1 of
 * a 2D [batch, n] or 4D [batch, n, h, w] input (Torch7's layout). */
TH_API int THNN_(PReLU_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input: any shape when nOutputPlane is 0, else 1D to 4D with nOutputPlane channels
          THTensor *output,            // [OUT] output, shaped as input
          THTensor *weight,            // slopes, [1] when nOutputPlane is 0, else [nOutputPlane]
          int64_t nOutputPlane);       // 0: one slope shared by all elements; else the number of channels
TH_API int THNN_(PReLU_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // slopes, as in the forward pass
          int64_t nOutputPlane);       // as in the forward pass
TH_API int THNN_(PReLU_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *weight,            // slopes, as in the forward pass
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dw, contiguous, shaped as weight
          int64_t nOutputPlane,        // as in the forward pass
          accreal scale);              // factor applied to the accumulated gradient

/* ---- RReLU: y = x if x > 0 else a * x; a ~ U(lower, upper) in training,
 * a = (lower + upper) / 2 in evaluation.  There is no random generator in
 * C: in training the caller draws the slopes into noise (one per element,
 * U(lower, upper)), and the kernel applies them to the elements x <= 0 and
 * sets noise to 1 where x > 0, so noise ends as dy/dx for the backward pass. ---- */
TH_API int THNN_(RReLU_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // [INPLACE] input, any shape; overwritten with the output when inplace
          THTensor *output,            // [OUT] output, shaped as input (a view of input when inplace)
          THTensor *noise,             // [INOUT] [OPTIONAL] training only: contiguous U(lower, upper) draws shaped as input; 1 written where x > 0
          accreal lower,               // lower bound of the slopes, >= 0
          accreal upper,               // upper bound of the slopes, >= lower
          bool train,                  // true: slopes from noise; false: the fixed slope (lower + upper) / 2
          bool inplace);               // write the result into input
TH_API int THNN_(RReLU_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (its output when inplace)
          THTensor *gradOutput,        // [INPLACE] gradient w.r.t. output; overwritten when inplace
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (a view of gradOutput when inplace)
          THTensor *noise,             // [OPTIONAL] training only: the slopes left by the forward pass
          accreal lower,               // as in the forward pass
          accreal upper,               // as in the forward pass
          bool train,                  // as in the forward pass
          bool inplace);               // write the result into gradOutput

/* ---- SoftPlus: y = log(1 + exp(beta * x)) / beta, or x where beta * x > threshold ---- */
TH_API int THNN_(SoftPlus_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output,            // [OUT] output, shaped as input
          accreal beta,                // sharpness, > 0
          accreal threshold);          // above beta * x > threshold the output is x
TH_API int THNN_(SoftPlus_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *output,            // output of the forward pass
          accreal beta,                // as in the forward pass
          accreal threshold);          // as in the forward pass

/* ---- SoftShrink: y = x - lambda if x > lambda, x + lambda if x < -lambda, else 0 ---- */
TH_API int THNN_(SoftShrink_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output,            // [OUT] output, shaped as input
          accreal lambda);             // the shrinkage, >= 0
TH_API int THNN_(SoftShrink_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          accreal lambda);             // as in the forward pass

/* ---- Sqrt: y = sqrt(x + eps) ---- */
TH_API int THNN_(Sqrt_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape (x + eps < 0 gives NaN)
          THTensor *output,            // [OUT] output, shaped as input
          accreal eps);                // added before the square root
TH_API int THNN_(Sqrt_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input (0 where the output is 0)
          THTensor *output);           // output of the forward pass

/* ---- Square: y = x^2 ---- */
TH_API int THNN_(Square_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, any shape
          THTensor *output);           // [OUT] output, shaped as input
TH_API int THNN_(Square_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput);        // [OUT] gradient w.r.t. input, shaped as input

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

/* ---- LookupTable: y[..., :] = weight[input[...], :], 0-based indices ---- */
TH_API int THNN_(LookupTable_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *input,        // row indices in [0, nIndex), [n] or [batch, n]
          THTensor *output,            // [OUT] the rows, [n, nOutput] or [batch, n, nOutput]
          THTensor *weight);           // the table, [nIndex, nOutput]
TH_API int THNN_(LookupTable_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *input,        // row indices in [0, nIndex), [n] or [batch, n]
          THTensor *gradOutput,        // gradient w.r.t. output, [n, nOutput] or [batch, n, nOutput]
          THTensor *gradWeight,        // [INOUT] row input[i] accumulates scale * gradOutput[i], contiguous [nIndex, nOutput]
          bool scaleGradByFreq,        // divide each row's terms by how often its index occurs in input
          int64_t paddingValue,        // indices equal to it add nothing (-1: none)
          accreal scale);              // factor applied to the accumulated gradients
TH_API int THNN_(LookupTable_renorm)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *idx,          // rows to renormalise (repeats count once), [n] or [batch, n]
          THTensor *weight,            // [INOUT] rows whose normType-norm exceeds maxNorm are scaled to it, contiguous [nIndex, nOutput]
          accreal maxNorm,             // the largest norm a row keeps (non-negative)
          accreal normType);           // p of the p-norm (positive; inf allowed)

/* ---- SparseLinear: y[h] = b + sum of v W[:, k] over the (k, v) pairs of sample h ---- */
TH_API int THNN_(SparseLinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // COO rows (sample, feature, value), [nnz, 3]; 0-based integers in range
          THTensor *output,            // [OUT] output, [batchSize, nOut]
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias,              // bias, [nOut]
          int64_t batchSize);          // number of samples (rows of output)
TH_API int THNN_(SparseLinear_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // COO rows (sample, feature, value), [nnz, 3]
          THTensor *gradOutput,        // gradient w.r.t. output, [batchSize, nOut]
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dW (+ weightDecay * W), contiguous [nOut, nIn]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/db, contiguous [nOut]
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias,              // bias, [nOut]
          accreal weightDecay,         // adds weightDecay * weight to all of gradWeight (unscaled)
          accreal scale);              // factor applied to the accumulated gradients
TH_API int THNN_(SparseLinear_zeroGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradWeight,        // [INOUT] its columns of the features lastInput has nonzero values for are zeroed, contiguous [nOut, nIn]
          THTensor *gradBias,          // [INOUT] zeroed, contiguous [nOut]
          THTensor *lastInput);        // COO rows (sample, feature, value), [nnz, 3]
TH_API int THNN_(SparseLinear_updateParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *weight,            // [INOUT] its columns of the features lastInput has nonzero values for step by -learningRate * gradWeight, contiguous [nOut, nIn]
          THTensor *bias,              // [INOUT] steps by -learningRate * gradBias, contiguous [nOut]
          THTensor *gradWeight,        // gradient w.r.t. weight, [nOut, nIn]
          THTensor *gradBias,          // gradient w.r.t. bias, [nOut]
          THTensor *lastInput,         // COO rows (sample, feature, value), [nnz, 3]
          accreal learningRate);       // step size
TH_API int THNN_(SparseLinear_legacyUpdateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // (feature, value) pairs per sample, [batch, nnz, 2]; 0-based features in range
          THTensor *output,            // [OUT] output, [batch, nOut]
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias);             // bias, [nOut]
TH_API int THNN_(SparseLinear_legacyAccGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // (feature, value) pairs per sample, [batch, nnz, 2]
          THTensor *gradOutput,        // gradient w.r.t. output, [batch, nOut]
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dW (+ weightDecay * W), contiguous [nOut, nIn]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/db, contiguous [nOut]
          THTensor *weight,            // weight, [nOut, nIn]
          THTensor *bias,              // bias, [nOut]
          accreal weightDecay,         // adds weightDecay * weight to all of gradWeight (unscaled)
          accreal scale);              // factor applied to the accumulated gradients
TH_API int THNN_(SparseLinear_legacyZeroGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradWeight,        // [INOUT] its columns of the features lastInput has nonzero values for are zeroed, contiguous [nOut, nIn]
          THTensor *gradBias,          // [INOUT] zeroed, contiguous [nOut]
          THTensor *lastInput);        // (feature, value) pairs per sample, [batch, nnz, 2]
TH_API int THNN_(SparseLinear_legacyUpdateParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *weight,            // [INOUT] its columns of the features lastInput has nonzero values for step by -learningRate * gradWeight, contiguous [nOut, nIn]
          THTensor *bias,              // [INOUT] steps by -learningRate * gradBias, contiguous [nOut]
          THTensor *gradWeight,        // gradient w.r.t. weight, [nOut, nIn]
          THTensor *gradBias,          // gradient w.r.t. bias, [nOut]
          THTensor *lastInput,         // (feature, value) pairs per sample, [batch, nnz, 2]
          accreal learningRate);       // step size

/* ---- IndexLinear: y[j] = b + sum of v W[k + keysOffset] over the (key k, value v) of sample j ---- */
TH_API int THNN_(IndexLinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *keys,         // feature keys of all samples, concatenated, [nnz]
          int64_t keysOffset,          // added to each key to give its row of weight, in [0, nIn)
          THTensor *values,            // feature values, [nnz]
          THIndexTensor *sizes,        // keys per sample, [batch], summing to nnz
          THTensor *output,            // [OUT] output, [batch, nOut]
          THTensor *weight,            // [INOUT] [nIn, nOut], or [nIn, 4 + nOut] normalized: columns 0-2 updated when train
          THTensor *bias,              // bias, [nOut]
          THTensor *normalizedValues,  // [BUFFER] the normalized values, [nnz] (normalized weight only)
          bool train);                 // update the running max |value| of normalized features
TH_API int THNN_(IndexLinear_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *keys,         // feature keys of all samples, concatenated, [nnz]
          int64_t keysOffset,          // added to each key to give its row of weight
          THTensor *values,            // feature values (the normalized ones with a normalized weight), [nnz]
          THIndexTensor *sizes,        // keys per sample, [batch], summing to nnz
          THTensor *gradOutput,        // gradient w.r.t. output, [batch, nOut]
          THTensor *gradWeight,        // [OUT] per-key gradient rows, [nnz, nOut] or [nnz, 2 nOut] normalized (overwritten)
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/db, contiguous [nOut]
          THTensor *weight,            // weight, [nIn, nOut] or [nIn, 4 + nOut]
          THTensor *bias,              // bias, [nOut]
          accreal scale);              // factor applied to the gradients
TH_API int THNN_(IndexLinear_accUpdateGradParameters)(
          THNNState *state,            // library state: receives the error message
          THIndexTensor *keys,         // feature keys of all samples, concatenated, [nnz]
          int64_t keysOffset,          // added to each key to give its row of weight
          THTensor *values,            // feature values (the normalized ones with a normalized weight), [nnz]
          THIndexTensor *sizes,        // keys per sample, [batch], summing to nnz
          THTensor *gradOutput,        // gradient w.r.t. output, [batch, nOut]
          THTensor *weight,            // [INOUT] the rows of the keys step by -scale * gradient (sparse decay), contiguous
          THTensor *bias,              // [INOUT] steps by -scale * dL/db, contiguous [nOut]
          accreal weightDecay,         // w -= weightDecay * w for each key naming the row
          accreal scale);              // the learning rate
TH_API int THNN_(IndexLinear_updateParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradWeight,        // per-key gradient rows of accGradParameters, [nKeys, nOut] or [nKeys, 2 nOut]
          THTensor *gradBias,          // gradient w.r.t. bias, [nOut]
          THTensor *weight,            // [INOUT] the rows of the keys step by -learningRate * gradient (sparse decay), contiguous
          THTensor *bias,              // [INOUT] steps by -learningRate * gradBias, contiguous [nOut]
          THIndexTensor *runningKeys,  // the keys of the gradient rows, [nKeys]
          int64_t keysOffset,          // added to each key to give its row of weight
          accreal weightDecay,         // w -= weightDecay * w for each key naming the row
          accreal learningRate);       // step size

/* ==== end of linear, sparse and embedding layers ==== */

/* ==== temporal layers and recurrent cells ==== */

/* Temporal layers take a sequence [nInputFrame, frameSize] or a batch of them
 * [batch, nInputFrame, frameSize] (TemporalRowConvolution with featFirst:
 * [frameSize, nInputFrame] / [batch, frameSize, nInputFrame]).  A window of
 * kW frames moves by dW, so nOutputFrame = (nInputFrame - kW) / dW + 1; the
 * input needs at least kW frames; frames past the last window are unused. */

/* ---- TemporalConvolution: y[t] = W (x[t*dW], ..., x[t*dW+kW-1]) + b ---- */
TH_API int THNN_(TemporalConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputFrame, inputFrameSize] or [batch, nInputFrame, inputFrameSize]
          THTensor *output,            // [OUT] output, [nOutputFrame, outputFrameSize] (or with batch)
          THTensor *weight,            // weight, [outputFrameSize, kW * inputFrameSize], frame-major in each row
          THTensor *bias,              // bias, [outputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          int inputFrameSize,          // features per input frame (must match weight)
          int outputFrameSize);        // features per output frame (must match weight)
TH_API int THNN_(TemporalConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [outputFrameSize, kW * inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW);                     // frames the window moves by, > 0
TH_API int THNN_(TemporalConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dW, contiguous [outputFrameSize, kW * inputFrameSize]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/db, contiguous [outputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          accreal scale);              // factor applied to the accumulated gradients

/* ---- TemporalSubSampling: y[t][c] = w[c] * sum_k x[t*dW+k][c] + b[c] ---- */
TH_API int THNN_(TemporalSubSampling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputFrame, inputFrameSize] or [batch, nInputFrame, inputFrameSize]
          THTensor *output,            // [OUT] output, [nOutputFrame, inputFrameSize] (or with batch)
          THTensor *weight,            // weight, [inputFrameSize]
          THTensor *bias,              // bias, [inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          int inputFrameSize);         // features per frame (must match weight)
TH_API int THNN_(TemporalSubSampling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW);                     // frames the window moves by, > 0
TH_API int THNN_(TemporalSubSampling_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dw, contiguous [inputFrameSize]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/db, contiguous [inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          accreal scale);              // factor applied to the accumulated gradients

/* ---- TemporalRowConvolution: each feature c filtered by its own kernel,
 *      y[t][c] = sum_k w[c][0][k] x[t*dW+k][c] + b[c] ---- */
TH_API int THNN_(TemporalRowConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputFrame, inputFrameSize] (featFirst: [inputFrameSize, nInputFrame]), optional batch dim first
          THTensor *output,            // [OUT] output, laid out as input with nOutputFrame frames
          THTensor *weight,            // weight, [inputFrameSize, 1, kW]
          THTensor *bias,              // [OPTIONAL] bias, [inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          bool featFirst);             // features before frames in input and output
TH_API int THNN_(TemporalRowConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [inputFrameSize, 1, kW]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          bool featFirst);             // features before frames in input and output
TH_API int THNN_(TemporalRowConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dw, contiguous [inputFrameSize, 1, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/db, contiguous [inputFrameSize]
          int kW,                      // frames per window, > 0
          int dW,                      // frames the window moves by, > 0
          bool featFirst,              // features before frames in input and output
          accreal scale);              // factor applied to the accumulated gradients

/* ---- TemporalMaxPooling: y[t][c] = max_k x[t*dW+k][c] ---- */
TH_API int THNN_(TemporalMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputFrame, frameSize] or [batch, nInputFrame, frameSize]
          THTensor *output,            // [OUT] output, [nOutputFrame, frameSize] (or with batch)
          THIndexTensor *indices,      // [BUFFER] shaped as output: offset k (0 .. kW-1) of the max in its window: first max wins, NaN wins
          int kW,                      // frames per window, > 0
          int dW);                     // frames the window moves by, > 0
TH_API int THNN_(TemporalMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input (overlapping windows add up)
          THIndexTensor *indices,      // indices written by updateOutput, shaped as output
          int kW,                      // frames per window, > 0
          int dW);                     // frames the window moves by, > 0

/* ---- GRUFused: one GRU step from precomputed gate pre-activations ----
 * Gates are blocks of hiddenSize in the order r (reset), z (update), n (new):
 *   r  = sigmoid(input_r + hidden_r + bias1_r + bias2_r)
 *   z  = sigmoid(input_z + hidden_z + bias1_z + bias2_z)
 *   n  = tanh(input_n + bias1_n + r * (hidden_n + bias2_n))
 *   hy = (1 - z) * n + z * hx
 * where input = W_ih x, hidden = W_hh hx (torch.nn.GRUCell's gates). */
TH_API int THNN_(GRUFused_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input-side gate pre-activations, [3*hiddenSize] or [batch, 3*hiddenSize]
          THTensor *hidden,            // hidden-side gate pre-activations, shaped as input
          THTensor *bias1,             // [OPTIONAL] bias of the input side, [3*hiddenSize] (given with bias2)
          THTensor *bias2,             // [OPTIONAL] bias of the hidden side, [3*hiddenSize] (given with bias1)
          THTensor *hx,                // previous hidden state, [hiddenSize] or [batch, hiddenSize]
          THTensor *hy,                // [OUT] new hidden state, shaped as hx
          THTensor *storage);          // [BUFFER] saved for backward: r, z, n, hx, hidden_n + bias2_n; [5*hiddenSize] or [batch, 5*hiddenSize]
TH_API int THNN_(GRUFused_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradInInput,       // [OUT] gradient w.r.t. input (and bias1), shaped as input gates
          THTensor *gradInHidden,      // [OUT] gradient w.r.t. hidden (and bias2), shaped as input gates
          THTensor *gradOutput,        // gradient w.r.t. hy, [hiddenSize] or [batch, hiddenSize]
          THTensor *gradInputHx,       // [OUT] gradient w.r.t. hx through this step, shaped as gradOutput
          THTensor *storage);          // storage written by updateOutput

/* ---- LSTMFused: one LSTM step from precomputed gate pre-activations ----
 * Gates are blocks of hiddenSize in the order i (input), f (forget),
 * g (cell candidate), o (output); with a_X = input_X + hidden_X + bias1_X + bias2_X:
 *   i = sigmoid(a_i), f = sigmoid(a_f), g = tanh(a_g), o = sigmoid(a_o)
 *   cy = f * cx + i * g,  hy = o * tanh(cy)
 * (torch.nn.LSTMCell's gates).  The gradient w.r.t. input, hidden, bias1 and
 * bias2 is the same, gradInGates. */
TH_API int THNN_(LSTMFused_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input-side gate pre-activations, [4*hiddenSize] or [batch, 4*hiddenSize]
          THTensor *hidden,            // hidden-side gate pre-activations, shaped as input
          THTensor *bias1,             // [OPTIONAL] bias of the input side, [4*hiddenSize] (given with bias2)
          THTensor *bias2,             // [OPTIONAL] bias of the hidden side, [4*hiddenSize] (given with bias1)
          THTensor *cx,                // previous cell state, [hiddenSize] or [batch, hiddenSize]
          THTensor *hy,                // [OUT] new hidden state, shaped as cx
          THTensor *cy,                // [OUT] new cell state, shaped as cx
          THTensor *storage);          // [BUFFER] the activated gates i, f, g, o saved for backward, shaped as input
TH_API int THNN_(LSTMFused_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *storage,           // storage written by updateOutput, [4*hiddenSize] or [batch, 4*hiddenSize]
          THTensor *gradInGates,       // [OUT] gradient w.r.t. the gate pre-activations, shaped as storage
          THTensor *cx,                // previous cell state of the forward pass
          THTensor *cy,                // new cell state computed by the forward pass
          THTensor *gradOutput,        // gradient w.r.t. hy, shaped as cx
          THTensor *gradOutputCell,    // [OPTIONAL] gradient w.r.t. cy, shaped as cx (None: zero)
          THTensor *gradInputCx);      // [OUT] gradient w.r.t. cx, shaped as cx

/* ==== end of temporal layers and recurrent cells ==== */

/* ==== spatial convolutions ==== */

/* ---- SpatialConvolutionMM: output[o] = bias[o] + sum over c of weight[o, c] (*) input[c], by im2col + GEMM ---- */
TH_API int THNN_(SpatialConvolutionMM_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [nOutputPlane, outH, outW] or [batch, nOutputPlane, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread: [threads, nInputPlane*kH*kW, outH*outW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right, in [0, kW)
          int padH);                   // zero rows added above and below, in [0, kH)
TH_API int THNN_(SpatialConvolutionMM_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          THTensor *fgradInput,        // [BUFFER] column buffers, one per thread: [threads, nInputPlane*kH*kW, outH*outW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH);                   // zero rows added above and below
TH_API int THNN_(SpatialConvolutionMM_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread (recomputed from input)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialDilatedConvolution: SpatialConvolutionMM with taps dilation apart ---- */
TH_API int THNN_(SpatialDilatedConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [nOutputPlane, outH, outW] or [batch, nOutputPlane, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread: [threads, nInputPlane*kH*kW, outH*outW]
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right, in [0, (kW-1)*dilationW + 1)
          int padH,                    // zero rows added above and below, in [0, (kH-1)*dilationH + 1)
          int dilationW,               // horizontal distance between taps
          int dilationH);              // vertical distance between taps
/* The forward convolution's weight packed once, for a weight that no
 * longer changes (nn.freeze): SpatialDilatedConvolution_updateOutputPacked
 * then skips packing it in every call.  Serves SpatialConvolution(MM) too
 * (dilation 1). */
TH_API int THNN_(SpatialDilatedConvolution_packWeight)(
          THNNState *state,            // library state: receives the error message
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane] (packed with the weight)
          THTensor *packed);           // [BUFFER] 1-d: a 64-byte header, then weight and bias in panels of 16 output planes; empty in double or without AVX2 and FMA (no packed path)
/* updateOutput, with the indirect product (where its packed-weight rule
 * or THGemmConv_setMode chooses it) reading the weight from packed instead
 * of packing it.  packed must be packWeight's result for this very weight
 * and bias, unchanged since (the kernel checks its header: the shape, not
 * the values), or empty (then as updateOutput).  The tensor packWeight
 * allocated is read in place; a copy not 32-byte aligned past its header
 * is copied to an aligned buffer in every call. */
TH_API int THNN_(SpatialDilatedConvolution_updateOutputPacked)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [nOutputPlane, outH, outW] or [batch, nOutputPlane, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kH, kW] or [nOutputPlane, nInputPlane*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread: [threads, nInputPlane*kH*kW, outH*outW]
          THTensor *packed,            // packWeight's result for weight and bias (or empty)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right, in [0, (kW-1)*dilationW + 1)
          int padH,                    // zero rows added above and below, in [0, (kH-1)*dilationH + 1)
          int dilationW,               // horizontal distance between taps
          int dilationH);              // vertical distance between taps
TH_API int THNN_(SpatialDilatedConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          THTensor *fgradInput,        // [BUFFER] column buffers, one per thread: [threads, nInputPlane*kH*kW, outH*outW]
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int dilationW,               // horizontal distance between taps
          int dilationH);              // vertical distance between taps
TH_API int THNN_(SpatialDilatedConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread (recomputed from input)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialFullConvolution: the transpose of SpatialConvolutionMM (deconvolution) ---- */
TH_API int THNN_(SpatialFullConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (inH-1)*dH - 2*padH + kH + adjH, (inW-1)*dW - 2*padW + kW + adjW]
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kH, kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread: [threads, nOutputPlane*kH*kW, inH*inW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right, in [0, kW)
          int padH,                    // rows cropped above and below, in [0, kH)
          int adjW,                    // extra output columns on the right, in [0, dW)
          int adjH);                   // extra output rows at the bottom, in [0, dH)
TH_API int THNN_(SpatialFullConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kH, kW]
          THTensor *fgradInput,        // [BUFFER] column buffers, one per thread: [threads, nOutputPlane*kH*kW, inH*inW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int adjW,                    // extra output columns on the right
          int adjH);                   // extra output rows at the bottom
TH_API int THNN_(SpatialFullConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nInputPlane, nOutputPlane, kH, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread (recomputed from gradOutput)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int adjW,                    // extra output columns on the right
          int adjH,                    // extra output rows at the bottom
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialFullDilatedConvolution: the transpose of SpatialDilatedConvolution ---- */
TH_API int THNN_(SpatialFullDilatedConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (inH-1)*dH - 2*padH + (kH-1)*dilationH + 1 + adjH, same for W]
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kH, kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread: [threads, nOutputPlane*kH*kW, inH*inW]
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right, in [0, (kW-1)*dilationW + 1)
          int padH,                    // rows cropped above and below, in [0, (kH-1)*dilationH + 1)
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjW,                    // extra output columns on the right, >= 0 and < dW or < dilationW
          int adjH);                   // extra output rows at the bottom, >= 0 and < dH or < dilationH
TH_API int THNN_(SpatialFullDilatedConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kH, kW]
          THTensor *fgradInput,        // [BUFFER] column buffers, one per thread: [threads, nOutputPlane*kH*kW, inH*inW]
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjW,                    // extra output columns on the right
          int adjH);                   // extra output rows at the bottom
TH_API int THNN_(SpatialFullDilatedConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nInputPlane, nOutputPlane, kH, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] column buffers, one per thread (recomputed from gradOutput)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjW,                    // extra output columns on the right
          int adjH,                    // extra output rows at the bottom
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialDepthWiseConvolution: each input plane c convolved alone by M kernels into planes c*M .. c*M+M-1 ---- */
TH_API int THNN_(SpatialDepthWiseConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [(batch,) nInputPlane*M, outH, outW]
          THTensor *weight,            // weight, [M, nInputPlane, kH, kW] or [M, nInputPlane*kH*kW] (M: depthwiseMultiplier)
          THTensor *bias,              // [OPTIONAL] bias, [M, nInputPlane]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right, in [0, kW)
          int padH);                   // zero rows added above and below, in [0, kH)
TH_API int THNN_(SpatialDepthWiseConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH);                   // zero rows added above and below
TH_API int THNN_(SpatialDepthWiseConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [M, nInputPlane]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialSubSampling: output[k] = bias[k] + weight[k] * (sum of input[k] over each kW x kH window) ---- */
TH_API int THNN_(SpatialSubSampling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inH, inW] or [batch, nInputPlane, inH, inW]
          THTensor *output,            // [OUT] output, [(batch,) nInputPlane, (inH-kH)/dH + 1, (inW-kW)/dW + 1]
          THTensor *weight,            // weight, [nInputPlane]
          THTensor *bias,              // bias, [nInputPlane]
          int kW,                      // window width
          int kH,                      // window height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialSubSampling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nInputPlane]
          int kW,                      // window width
          int kH,                      // window height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialSubSampling_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nInputPlane]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/dbias, contiguous [nInputPlane]
          int kW,                      // window width
          int kH,                      // window height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          accreal scale);              // factor applied to the accumulated gradients

/* ==== end of spatial convolutions ==== */

/* ==== spatial and volumetric pooling ==== */
/* Inputs are [planes, H, W] or [batch, planes, H, W] (spatial) and
 * [planes, T, H, W] or [batch, planes, T, H, W] (volumetric); outputs keep
 * the batch and plane dims.  Window arguments come in Torch7's order, width
 * before height.  Output size along an axis (PyTorch's rule):
 *   floor or ceil((in + 2 pad - dilation (k - 1) - 1) / d) + 1,
 * in ceil mode one less when the last window would start past the input and
 * its left padding.  Kernel, stride and dilation must be > 0, the padding
 * between 0 and half the kernel size.  indices hold, for every output
 * element, the 0-based offset of the chosen input element within its plane
 * (h * W + w, or (t * H + h) * W + w), as PyTorch's return_indices. */

/* ---- SpatialMaxPooling: max over kW x kH windows (SpatialDilatedMaxPooling with dilation 1) ---- */
TH_API int THNN_(SpatialMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outH, outW]
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode);             // round the output size up instead of down
/* updateOutputValues: the output of updateOutput without its indices (inference: what a module in
 * evaluation mode runs; nothing is left for a backward pass). */
TH_API int THNN_(SpatialMaxPooling_updateOutputValues)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outH, outW], the values updateOutput gives
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode);             // round the output size up instead of down
TH_API int THNN_(SpatialMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // indices of the forward pass, each in [0, H * W)
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          bool ceil_mode);             // as in the forward pass

/* ---- SpatialDilatedMaxPooling: max over kW x kH windows whose taps lie dilation apart ---- */
TH_API int THNN_(SpatialDilatedMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outH, outW]
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          int dilationW,               // distance between the kernel's taps along the width
          int dilationH,               // distance between the kernel's taps along the height
          bool ceil_mode);             // round the output size up instead of down
/* updateOutputValues: the output of updateOutput without its indices (inference: what a module in
 * evaluation mode runs; nothing is left for a backward pass). */
TH_API int THNN_(SpatialDilatedMaxPooling_updateOutputValues)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outH, outW], the values updateOutput gives
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          int dilationW,               // distance between the kernel's taps along the width
          int dilationH,               // distance between the kernel's taps along the height
          bool ceil_mode);             // round the output size up instead of down
TH_API int THNN_(SpatialDilatedMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // indices of the forward pass, each in [0, H * W)
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          int dilationW,               // as in the forward pass
          int dilationH,               // as in the forward pass
          bool ceil_mode);             // as in the forward pass

/* ---- SpatialAveragePooling: mean over kW x kH windows ---- */
TH_API int THNN_(SpatialAveragePooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outH, outW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padW,                    // implicit zero padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit zero padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode,              // round the output size up instead of down
          bool count_include_pad);     // divide by the taps inside input and padding, not only the input's
TH_API int THNN_(SpatialAveragePooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          bool ceil_mode,              // as in the forward pass
          bool count_include_pad);     // as in the forward pass

/* ---- SpatialAdaptiveMaxPooling: max over the windows of an owidth x oheight grid laid over the plane ---- */
TH_API int THNN_(SpatialAdaptiveMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, oheight, owidth]
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          int owidth,                  // output width, >= 1 (window j spans columns [floor(j W / owidth), ceil((j + 1) W / owidth)))
          int oheight);                // output height, >= 1 (likewise for the rows)
TH_API int THNN_(SpatialAdaptiveMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // indices of the forward pass, each in [0, H * W)
          int owidth,                  // as in the forward pass
          int oheight);                // as in the forward pass

/* ---- SpatialAdaptiveAveragePooling: mean over the windows of SpatialAdaptiveMaxPooling ---- */
TH_API int THNN_(SpatialAdaptiveAveragePooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, oheight, owidth]
          int owidth,                  // output width, >= 1
          int oheight);                // output height, >= 1
TH_API int THNN_(SpatialAdaptiveAveragePooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int owidth,                  // as in the forward pass
          int oheight);                // as in the forward pass

/* ---- SpatialFractionalMaxPooling: max over poolSizeW x poolSizeH windows at pseudo-random starts ---- */
TH_API int THNN_(SpatialFractionalMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, H, W] or [batch, planes, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outputH, outputW]
          int outputW,                 // output width, >= 1, with outputW + poolSizeW - 1 <= W
          int outputH,                 // output height, >= 1, with outputH + poolSizeH - 1 <= H
          int poolSizeW,               // window width
          int poolSizeH,               // window height
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          THTensor *randomSamples);    // [batch, planes, 2] in [0, 1): each plane's samples for the width, then the height (batch 1 unbatched)
TH_API int THNN_(SpatialFractionalMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int outputW,                 // as in the forward pass
          int outputH,                 // as in the forward pass
          int poolSizeW,               // as in the forward pass
          int poolSizeH,               // as in the forward pass
          THIndexTensor *indices);     // indices of the forward pass, each in [0, H * W)

/* ---- SpatialMaxUnpooling: zeros with each input element put back at its pooling index ---- */
TH_API int THNN_(SpatialMaxUnpooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, h, w] or [batch, planes, h, w]
          THTensor *output,            // [OUT] output, [(batch,) planes, oheight, owidth]
          THIndexTensor *indices,      // shaped as input: where each element goes in its output plane, in [0, oheight * owidth)
          int owidth,                  // output width
          int oheight);                // output height
TH_API int THNN_(SpatialMaxUnpooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // as in the forward pass
          int owidth,                  // as in the forward pass
          int oheight);                // as in the forward pass

/* ---- VolumetricMaxPooling: max over kT x kW x kH windows (VolumetricDilatedMaxPooling with dilation 1) ---- */
TH_API int THNN_(VolumetricMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outT, outH, outW]
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          int kT,                      // kernel size along time
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // stride along time
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padT,                    // implicit padding at both ends in time, in [0, kT / 2]
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode);             // round the output size up instead of down
/* updateOutputValues: the output of updateOutput without its indices (inference: what a module in
 * evaluation mode runs; nothing is left for a backward pass). */
TH_API int THNN_(VolumetricMaxPooling_updateOutputValues)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outT, outH, outW], the values updateOutput gives
          int kT,                      // kernel size along time
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // stride along time
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padT,                    // implicit padding at both ends in time, in [0, kT / 2]
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode);             // round the output size up instead of down
TH_API int THNN_(VolumetricMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // indices of the forward pass, each in [0, T * H * W)
          int kT,                      // as in the forward pass
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dT,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padT,                    // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          bool ceil_mode);             // as in the forward pass

/* ---- VolumetricDilatedMaxPooling: max over kT x kW x kH windows whose taps lie dilation apart ---- */
TH_API int THNN_(VolumetricDilatedMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outT, outH, outW]
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          int kT,                      // kernel size along time
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // stride along time
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padT,                    // implicit padding at both ends in time, in [0, kT / 2]
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          int dilationT,               // distance between the kernel's taps in time
          int dilationW,               // distance between the kernel's taps along the width
          int dilationH,               // distance between the kernel's taps along the height
          bool ceil_mode);             // round the output size up instead of down
/* updateOutputValues: the output of updateOutput without its indices (inference: what a module in
 * evaluation mode runs; nothing is left for a backward pass). */
TH_API int THNN_(VolumetricDilatedMaxPooling_updateOutputValues)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outT, outH, outW], the values updateOutput gives
          int kT,                      // kernel size along time
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // stride along time
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padT,                    // implicit padding at both ends in time, in [0, kT / 2]
          int padW,                    // implicit padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit padding on the top and bottom, in [0, kH / 2]
          int dilationT,               // distance between the kernel's taps in time
          int dilationW,               // distance between the kernel's taps along the width
          int dilationH,               // distance between the kernel's taps along the height
          bool ceil_mode);             // round the output size up instead of down
TH_API int THNN_(VolumetricDilatedMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // indices of the forward pass, each in [0, T * H * W)
          int kT,                      // as in the forward pass
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dT,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padT,                    // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          int dilationT,               // as in the forward pass
          int dilationW,               // as in the forward pass
          int dilationH,               // as in the forward pass
          bool ceil_mode);             // as in the forward pass

/* ---- VolumetricAveragePooling: mean over kT x kW x kH windows ---- */
TH_API int THNN_(VolumetricAveragePooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outT, outH, outW]
          int kT,                      // kernel size along time
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // stride along time
          int dW,                      // stride along the width
          int dH,                      // stride along the height
          int padT,                    // implicit zero padding at both ends in time, in [0, kT / 2]
          int padW,                    // implicit zero padding on the left and right, in [0, kW / 2]
          int padH,                    // implicit zero padding on the top and bottom, in [0, kH / 2]
          bool ceil_mode,              // round the output size up instead of down
          bool count_include_pad);     // divide by the taps inside input and padding, not only the input's
TH_API int THNN_(VolumetricAveragePooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int kT,                      // as in the forward pass
          int kW,                      // as in the forward pass
          int kH,                      // as in the forward pass
          int dT,                      // as in the forward pass
          int dW,                      // as in the forward pass
          int dH,                      // as in the forward pass
          int padT,                    // as in the forward pass
          int padW,                    // as in the forward pass
          int padH,                    // as in the forward pass
          bool ceil_mode,              // as in the forward pass
          bool count_include_pad);     // as in the forward pass

/* ---- VolumetricFractionalMaxPooling: max over poolSizeT x poolSizeW x poolSizeH windows at pseudo-random starts ---- */
TH_API int THNN_(VolumetricFractionalMaxPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, T, H, W] or [batch, planes, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) planes, outputT, outputH, outputW]
          int outputT,                 // output size in time, >= 1, with outputT + poolSizeT - 1 <= T
          int outputW,                 // output width, >= 1, with outputW + poolSizeW - 1 <= W
          int outputH,                 // output height, >= 1, with outputH + poolSizeH - 1 <= H
          int poolSizeT,               // window size in time
          int poolSizeW,               // window width
          int poolSizeH,               // window height
          THIndexTensor *indices,      // [BUFFER] offset of each output's maximum in its input plane, shaped as output
          THTensor *randomSamples);    // [batch, planes, 3] in [0, 1): each plane's samples for time, width, height (batch 1 unbatched)
TH_API int THNN_(VolumetricFractionalMaxPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int outputT,                 // as in the forward pass
          int outputW,                 // as in the forward pass
          int outputH,                 // as in the forward pass
          int poolSizeT,               // as in the forward pass
          int poolSizeW,               // as in the forward pass
          int poolSizeH,               // as in the forward pass
          THIndexTensor *indices);     // indices of the forward pass, each in [0, T * H * W)

/* ---- VolumetricMaxUnpooling: zeros with each input element put back at its pooling index ---- */
TH_API int THNN_(VolumetricMaxUnpooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, t, h, w] or [batch, planes, t, h, w]
          THTensor *output,            // [OUT] output, [(batch,) planes, oT, oH, oW]
          THIndexTensor *indices,      // shaped as input: where each element goes in its output plane, in [0, oT * oH * oW)
          int oT,                      // output size in time
          int oW,                      // output width
          int oH);                     // output height
TH_API int THNN_(VolumetricMaxUnpooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THIndexTensor *indices,      // as in the forward pass
          int oT,                      // as in the forward pass
          int oW,                      // as in the forward pass
          int oH);                     // as in the forward pass

/* ---- FeatureLPPooling: y_o = (sum_{i < width} x_{o stride + i}^power)^(1 / power) across features ---- */
TH_API int THNN_(FeatureLPPooling_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [features, ...] (1D to 3D) or, in batch mode, [batch, features, ...] (2D to 4D)
          THTensor *output,            // [OUT] output, shaped as input with (features - width) / stride + 1 features
          accreal power,               // the power p, > 0
          int width,                   // features per window, 2 to 16
          int stride,                  // step between windows, 1 to 4
          bool batchMode);             // the first dim is the batch
TH_API int THNN_(FeatureLPPooling_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *input,             // input of the forward pass
          THTensor *output,            // output of the forward pass
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          accreal power,               // as in the forward pass
          int width,                   // as in the forward pass
          int stride,                  // as in the forward pass
          bool batchMode);             // as in the forward pass

/* ==== end of spatial and volumetric pooling ==== */

/* ==== volumetric convolutions ==== */

/* Volumetric layers take a volume [nPlane, T, H, W] or a batch of them
 * [batch, nPlane, T, H, W]; settings come in Torch7's order time, width,
 * height (kT, kW, kH), weights are laid out [.., kT, kH, kW].  Along each
 * axis a kernel of k taps, dilation apart, slides in steps of d over the
 * input padded with pad zeros at both ends: (in + 2*pad - (k-1)*dilation - 1) / d + 1
 * positions, at least 1.  The full (transposed) convolutions give
 * (in - 1)*d - 2*pad + (k-1)*dilation + 1 + adj voxels along each axis. */

/* ---- VolumetricConvolution: output[o] = bias[o] + sum over c of weight[o, c] (*) input[c], computed directly ---- */
TH_API int THNN_(VolumetricConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, T, H, W] or [batch, nInputPlane, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, outT, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kT, kH, kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after, >= 0
          int padW,                    // zero columns added left and right, >= 0
          int padH);                   // zero rows added above and below, >= 0
TH_API int THNN_(VolumetricConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kT, kH, kW]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH);                   // zero rows added above and below
TH_API int THNN_(VolumetricConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nOutputPlane, nInputPlane, kT, kH, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          accreal scale);              // factor applied to the accumulated gradients

/* ---- VolumetricDilatedConvolution: VolumetricConvolution with taps dilation apart, by vol2col + GEMM ---- */
TH_API int THNN_(VolumetricDilatedConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, T, H, W] or [batch, nInputPlane, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, outT, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kT, kH, kW] or [nOutputPlane, nInputPlane*kT*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample, [nInputPlane*kT*kH*kW, outT*outH*outW]
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after, >= 0
          int padW,                    // zero columns added left and right, >= 0
          int padH,                    // zero rows added above and below, >= 0
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH);              // vertical distance between taps
TH_API int THNN_(VolumetricDilatedConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          THTensor *fgradInput,        // [BUFFER] the columns of one sample, [nInputPlane*kT*kH*kW, outT*outH*outW]
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH);              // vertical distance between taps
TH_API int THNN_(VolumetricDilatedConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample (recomputed from input)
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          accreal scale);              // factor applied to the accumulated gradients

/* ---- VolumetricConvolutionMM: VolumetricConvolution by vol2col + GEMM (VolumetricDilatedConvolution with dilation 1) ---- */
TH_API int THNN_(VolumetricConvolutionMM_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, T, H, W] or [batch, nInputPlane, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, outT, outH, outW]
          THTensor *weight,            // weight, [nOutputPlane, nInputPlane, kT, kH, kW] or [nOutputPlane, nInputPlane*kT*kH*kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample, [nInputPlane*kT*kH*kW, outT*outH*outW]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after, >= 0
          int padW,                    // zero columns added left and right, >= 0
          int padH);                   // zero rows added above and below, >= 0
TH_API int THNN_(VolumetricConvolutionMM_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          THTensor *fgradInput,        // [BUFFER] the columns of one sample, [nInputPlane*kT*kH*kW, outT*outH*outW]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH);                   // zero rows added above and below
TH_API int THNN_(VolumetricConvolutionMM_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample (recomputed from input)
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // zero frames added before and after
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          accreal scale);              // factor applied to the accumulated gradients

/* ---- VolumetricFullDilatedConvolution: the transpose of VolumetricDilatedConvolution ---- */
TH_API int THNN_(VolumetricFullDilatedConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, T, H, W] or [batch, nInputPlane, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (T-1)*dT - 2*padT + (kT-1)*dilationT + 1 + adjT, same for H, W]
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample, [nOutputPlane*kT*kH*kW, T*H*W]
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end, >= 0
          int padW,                    // columns cropped left and right, >= 0
          int padH,                    // rows cropped above and below, >= 0
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjT,                    // extra output frames at the end, >= 0 and < dT or < dilationT
          int adjW,                    // extra output columns on the right, >= 0 and < dW or < dilationW
          int adjH);                   // extra output rows at the bottom, >= 0 and < dH or < dilationH
TH_API int THNN_(VolumetricFullDilatedConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *fgradInput,        // [BUFFER] the columns of one sample, [nOutputPlane*kT*kH*kW, T*H*W]
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjT,                    // extra output frames at the end
          int adjW,                    // extra output columns on the right
          int adjH);                   // extra output rows at the bottom
TH_API int THNN_(VolumetricFullDilatedConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample (recomputed from gradOutput)
          int kT,                      // kernel depth (taps in time)
          int kW,                      // kernel width (taps)
          int kH,                      // kernel height (taps)
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int dilationT,               // distance between taps in time
          int dilationW,               // horizontal distance between taps
          int dilationH,               // vertical distance between taps
          int adjT,                    // extra output frames at the end
          int adjW,                    // extra output columns on the right
          int adjH,                    // extra output rows at the bottom
          accreal scale);              // factor applied to the accumulated gradients

/* ---- VolumetricFullConvolution: the transpose of VolumetricConvolution (VolumetricFullDilatedConvolution with dilation 1) ---- */
TH_API int THNN_(VolumetricFullConvolution_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, T, H, W] or [batch, nInputPlane, T, H, W]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (T-1)*dT - 2*padT + kT + adjT, same for H, W]
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *bias,              // [OPTIONAL] bias, [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample, [nOutputPlane*kT*kH*kW, T*H*W]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end, >= 0
          int padW,                    // columns cropped left and right, >= 0
          int padH,                    // rows cropped above and below, >= 0
          int adjT,                    // extra output frames at the end, in [0, dT)
          int adjW,                    // extra output columns on the right, in [0, dW)
          int adjH);                   // extra output rows at the bottom, in [0, dH)
TH_API int THNN_(VolumetricFullConvolution_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *fgradInput,        // [BUFFER] the columns of one sample, [nOutputPlane*kT*kH*kW, T*H*W]
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int adjT,                    // extra output frames at the end
          int adjW,                    // extra output columns on the right
          int adjH);                   // extra output rows at the bottom
TH_API int THNN_(VolumetricFullConvolution_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nInputPlane, nOutputPlane, kT, kH, kW]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THTensor *finput,            // [BUFFER] the columns of one sample (recomputed from gradOutput)
          int kT,                      // kernel depth (time)
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dT,                      // step in time
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padT,                    // frames cropped at the start and the end
          int padW,                    // columns cropped left and right
          int padH,                    // rows cropped above and below
          int adjT,                    // extra output frames at the end
          int adjW,                    // extra output columns on the right
          int adjH,                    // extra output rows at the bottom
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialConvolutionLocal: a kernel of its own at every output pixel,
 *      output[o, y, x] = bias[o, y, x] + sum over c, i, j of
 *          weight[y, x, o, c, i, j] * input[c, y*dH - padH + i, x*dW - padW + j] ---- */
TH_API int THNN_(SpatialConvolutionLocal_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [nInputPlane, inputHeight, inputWidth] or [batch, nInputPlane, inputHeight, inputWidth]
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, outputHeight, outputWidth]
          THTensor *weight,            // weight, [oH, oW, nOutputPlane, nInputPlane, kH, kW] or [oH*oW, nOutputPlane, nInputPlane*kH*kW]
          THTensor *bias,              // bias, [nOutputPlane, oH, oW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right, >= 0
          int padH,                    // zero rows added above and below, >= 0
          int64_t inputWidth,          // iW: the input must be this wide
          int64_t inputHeight,         // iH: the input must be this high
          int64_t outputWidth,         // oW = (iW + 2*padW - kW) / dW + 1
          int64_t outputHeight);       // oH = (iH + 2*padH - kH) / dH + 1
TH_API int THNN_(SpatialConvolutionLocal_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *weight,            // weight, as in the forward pass
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int64_t inputWidth,          // iW
          int64_t inputHeight,         // iH
          int64_t outputWidth,         // oW
          int64_t outputHeight);       // oH
TH_API int THNN_(SpatialConvolutionLocal_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous, shaped as weight
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/dbias, contiguous [nOutputPlane, oH, oW]
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          int padW,                    // zero columns added left and right
          int padH,                    // zero rows added above and below
          int64_t inputWidth,          // iW
          int64_t inputHeight,         // iH
          int64_t outputWidth,         // oW
          int64_t outputHeight,        // oH
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialConvolutionMap: planes linked by a connection table; row k = (i, o) adds
 *      weight[k] (*) input[i] (valid cross-correlation, steps dW, dH) to output[o] ---- */
TH_API int THNN_(SpatialConvolutionMap_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, iH, iW] or [batch, planes, iH, iW], planes >= nInputPlane
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (iH - kH) / dH + 1, (iW - kW) / dW + 1]
          THTensor *weight,            // weight, [nConnections, kH, kW]: the kernel of each row of connTable
          THTensor *bias,              // bias, [nOutputPlane]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based, in range
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialConvolutionMap_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input (0 for planes no row names)
          THTensor *weight,            // weight, [nConnections, kH, kW]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialConvolutionMap_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nConnections, kH, kW]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          accreal scale);              // factor applied to the accumulated gradients

/* ---- SpatialFullConvolutionMap: the transpose of SpatialConvolutionMap; row k = (i, o)
 *      spreads input[i] over output[o]: output[o, y*dH + a, x*dW + b] += weight[k, a, b] * input[i, y, x] ---- */
TH_API int THNN_(SpatialFullConvolutionMap_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [planes, iH, iW] or [batch, planes, iH, iW], planes >= nInputPlane
          THTensor *output,            // [OUT] output, [(batch,) nOutputPlane, (iH - 1) * dH + kH, (iW - 1) * dW + kW]
          THTensor *weight,            // weight, [nConnections, kH, kW]: the kernel of each row of connTable
          THTensor *bias,              // bias, [nOutputPlane]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based, in range
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialFullConvolutionMap_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input (0 for planes no row names)
          THTensor *weight,            // weight, [nConnections, kH, kW]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH);                     // vertical step
TH_API int THNN_(SpatialFullConvolutionMap_accGradParameters)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradWeight,        // [INOUT] accumulates scale * dL/dweight, contiguous [nConnections, kH, kW]
          THTensor *gradBias,          // [INOUT] accumulates scale * dL/dbias, contiguous [nOutputPlane]
          THIndexTensor *connTable,    // [nConnections, 2] rows (input plane, output plane), 0-based
          int nInputPlane,             // input planes the table may name
          int nOutputPlane,            // output planes
          int kW,                      // kernel width
          int kH,                      // kernel height
          int dW,                      // horizontal step
          int dH,                      // vertical step
          accreal scale);              // factor applied to the accumulated gradients

/* ==== end of volumetric convolutions ==== */

/* ==== padding and resampling ==== */

/* The spatial layers take [nPlane, h, w] or batched [batch, nPlane, h, w]
 * input, the volumetric ones [nPlane, t, h, w] or [batch, nPlane, t, h, w];
 * every plane is handled alike.  A pad below zero crops that side. */

/* ---- SpatialReflectionPadding: pads by mirroring the input about its edge
 * rows and columns (without repeating them): dcb|abcd|cba.  Each pad must be
 * smaller than the input size along its dim (Torch7's rule). ---- */
TH_API int THNN_(SpatialReflectionPadding_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 3D [nPlane, h, w] or 4D [batch, nPlane, h, w]
          THTensor *output,            // [OUT] output, [.., h + pad_t + pad_b, w + pad_l + pad_r]
          int pad_l,                   // columns added on the left (< 0 removes columns)
          int pad_r,                   // columns added on the right
          int pad_t,                   // rows added on top
          int pad_b);                  // rows added at the bottom
TH_API int THNN_(SpatialReflectionPadding_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int pad_l,                   // as in the forward pass
          int pad_r,                   // as in the forward pass
          int pad_t,                   // as in the forward pass
          int pad_b);                  // as in the forward pass

/* ---- SpatialReplicationPadding: pads by repeating the edge rows and
 * columns: aaa|abcd|ddd ---- */
TH_API int THNN_(SpatialReplicationPadding_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 3D [nPlane, h, w] or 4D [batch, nPlane, h, w]
          THTensor *output,            // [OUT] output, [.., h + pad_t + pad_b, w + pad_l + pad_r]
          int pad_l,                   // columns added on the left (< 0 removes columns)
          int pad_r,                   // columns added on the right
          int pad_t,                   // rows added on top
          int pad_b);                  // rows added at the bottom
TH_API int THNN_(SpatialReplicationPadding_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int pad_l,                   // as in the forward pass
          int pad_r,                   // as in the forward pass
          int pad_t,                   // as in the forward pass
          int pad_b);                  // as in the forward pass

/* ---- VolumetricReplicationPadding: SpatialReplicationPadding along time
 * (front/back), height (top/bottom) and width (left/right) ---- */
TH_API int THNN_(VolumetricReplicationPadding_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w]
          THTensor *output,            // [OUT] output, [.., t + pfront + pback, h + ptop + pbottom, w + pleft + pright]
          int pleft,                   // columns added on the left (< 0 removes columns)
          int pright,                  // columns added on the right
          int ptop,                    // rows added on top
          int pbottom,                 // rows added at the bottom
          int pfront,                  // frames added in front
          int pback);                  // frames added at the back
TH_API int THNN_(VolumetricReplicationPadding_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int pleft,                   // as in the forward pass
          int pright,                  // as in the forward pass
          int ptop,                    // as in the forward pass
          int pbottom,                 // as in the forward pass
          int pfront,                  // as in the forward pass
          int pback);                  // as in the forward pass

/* ---- SpatialUpSamplingNearest: each pixel becomes a scale x scale block:
 * y[.., i, j] = x[.., i / scale, j / scale] ---- */
TH_API int THNN_(SpatialUpSamplingNearest_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 3D [nPlane, h, w] or 4D [batch, nPlane, h, w]
          THTensor *output,            // [OUT] output, [.., h * scale_factor, w * scale_factor]
          int scale_factor);           // integer factor >= 1
TH_API int THNN_(SpatialUpSamplingNearest_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (sum over each block), shaped as input
          int scale_factor);           // as in the forward pass

/* ---- VolumetricUpSamplingNearest: each voxel becomes a scale^3 block ---- */
TH_API int THNN_(VolumetricUpSamplingNearest_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w]
          THTensor *output,            // [OUT] output, [.., t * scale_factor, h * scale_factor, w * scale_factor]
          int scale_factor);           // integer factor >= 1
TH_API int THNN_(VolumetricUpSamplingNearest_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as output
          THTensor *gradInput,         // [OUT] gradient w.r.t. input (sum over each block), shaped as input
          int scale_factor);           // as in the forward pass

/* ---- SpatialUpSamplingBilinear: bilinear interpolation with the corners
 * aligned (Torch7's, PyTorch's align_corners=True): output row i samples
 * input row i * (h - 1) / (outputHeight - 1), likewise for columns ---- */
TH_API int THNN_(SpatialUpSamplingBilinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 3D [nPlane, h, w] or 4D [batch, nPlane, h, w]
          THTensor *output,            // [OUT] output, [.., outputHeight, outputWidth]
          int outputHeight,            // >= 1
          int outputWidth);            // >= 1
TH_API int THNN_(SpatialUpSamplingBilinear_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, [.., outputHeight, outputWidth]
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int outputHeight,            // as in the forward pass
          int outputWidth);            // as in the forward pass

/* ---- VolumetricUpSamplingTrilinear: SpatialUpSamplingBilinear along time,
 * height and width ---- */
TH_API int THNN_(VolumetricUpSamplingTrilinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 4D [nPlane, t, h, w] or 5D [batch, nPlane, t, h, w]
          THTensor *output,            // [OUT] output, [.., outputDepth, outputHeight, outputWidth]
          int outputDepth,             // >= 1
          int outputHeight,            // >= 1
          int outputWidth);            // >= 1
TH_API int THNN_(VolumetricUpSamplingTrilinear_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass (only its sizes are read)
          THTensor *gradOutput,        // gradient w.r.t. output, [.., outputDepth, outputHeight, outputWidth]
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          int outputDepth,             // as in the forward pass
          int outputHeight,            // as in the forward pass
          int outputWidth);            // as in the forward pass

/* ---- SpatialGridSamplerBilinear: output pixel (i, j) of sample n is input
 * n bilinearly sampled at grid[n, i, j] = (x, y), coordinates in [-1, 1]
 * with -1 and 1 the centres of the corner pixels (align_corners=True).
 * Padding mode 0 (zeros, Torch7's): pixels outside the input read as 0;
 * 1 (border): coordinates are clamped into the input.  A NaN coordinate
 * gives NaN in every channel of its output pixel. ---- */
TH_API int THNN_(SpatialGridSamplerBilinear_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, 4D [batch, nPlane, h, w]
          THTensor *grid,              // sampling points, 4D [batch, oh, ow, 2], (x, y) last
          THTensor *output,            // [OUT] output, [batch, nPlane, oh, ow]
          int padding_mode);           // 0 zeros, 1 border
TH_API int THNN_(SpatialGridSamplerBilinear_updateGradInput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradInput,         // [OUT] gradient w.r.t. input, shaped as input
          THTensor *grid,              // grid of the forward pass
          THTensor *gradGrid,          // [OUT] gradient w.r.t. grid, shaped as grid
          THTensor *gradOutput,        // gradient w.r.t. output, [batch, nPlane, oh, ow]
          int padding_mode);           // as in the forward pass

/* ==== end of padding and resampling ==== */

/* ==== batch normalization ==== */

/* ---- BatchNormalization: per channel c (dim 1 of an input of 2 or more
 * dims, [batch, nInput, ...]), over the batch and every position,
 *   y = (x - mean[c]) * invstd[c] * weight[c] + bias[c]
 * Training: mean and invstd = 1 / sqrt(var + eps) come from the input (var
 * biased), are kept in save_mean / save_std for the backward pass, and the
 * running statistics move towards them:
 *   running_mean = momentum * mean + (1 - momentum) * running_mean
 *   running_var  = momentum * var * n / (n - 1) + (1 - momentum) * running_var
 * (the unbiased variance, n values per channel; training refuses n = 1, and
 * an empty batch leaves them alone, with save_mean = save_std = 0).
 * Evaluation: mean and var are running_mean and running_var.  Without weight
 * and bias, w = 1, b = 0. */
TH_API int THNN_(BatchNormalization_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [batch, nInput, ...], 2D or more (the modules use 2D, 4D, 5D)
          THTensor *output,            // [OUT] output, shaped as input
          THTensor *weight,            // [OPTIONAL] scale per channel, [nInput]
          THTensor *bias,              // [OPTIONAL] shift per channel, [nInput]
          THTensor *running_mean,      // [INOUT] [nInput]; updated in training (then contiguous)
          THTensor *running_var,       // [INOUT] [nInput]; updated in training (then contiguous)
          THTensor *save_mean,         // [BUFFER] training: the batch mean, [nInput]; untouched in evaluation
          THTensor *save_std,          // [BUFFER] training: the batch 1 / sqrt(var + eps), [nInput]; untouched in evaluation
          bool train,                  // batch statistics (true) or running ones (false)
          accreal momentum,            // weight of the batch in the running statistics
          accreal eps);                // added to the variance
/* Evaluation followed by Threshold in one pass (an evaluated BatchNormalization
 * then an in-place ReLU): y = (x - running_mean[c]) * invstd[c] * weight[c] +
 * bias[c], then y = y <= threshold ? val : y; output holds, to the bit, what
 * updateOutput in evaluation and then Threshold_updateOutput leave. */
TH_API int THNN_(BatchNormalization_evaluateThreshold)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input, [batch, nInput, ...], 2D or more
          THTensor *output,            // [OUT] output, shaped as input
          THTensor *weight,            // [OPTIONAL] scale per channel, [nInput]
          THTensor *bias,              // [OPTIONAL] shift per channel, [nInput]
          THTensor *running_mean,      // running mean, [nInput]
          THTensor *running_var,       // running variance, [nInput]
          accreal eps,                 // added to the variance
          accreal threshold,           // values <= threshold (after the normalization) ...
          accreal val);                // ... become val
/* dL/dx = w * invstd * (dL/dy - mean(dL/dy) - xhat * mean(xhat * dL/dy)) in
 * training (xhat = (x - mean) * invstd, means per channel), w * invstd *
 * dL/dy in evaluation; dL/dw += scale * sum(xhat * dL/dy), dL/db += scale *
 * sum(dL/dy), sums per channel. */
TH_API int THNN_(BatchNormalization_backward)(
          THNNState *state,            // library state: receives the error message
          THTensor *input,             // input of the forward pass
          THTensor *gradOutput,        // gradient w.r.t. output, shaped as input
          THTensor *gradInput,         // [INOUT] [OPTIONAL] overwritten with dL/dx: contiguous, shaped as input
          THTensor *gradWeight,        // [INOUT] [OPTIONAL] accumulates scale * dL/dw, contiguous [nInput]
          THTensor *gradBias,          // [INOUT] [OPTIONAL] accumulates scale * dL/db, contiguous [nInput]
          THTensor *weight,            // [OPTIONAL] scale per channel, as in the forward pass
          THTensor *running_mean,      // running mean, [nInput] (read in evaluation)
          THTensor *running_var,       // running variance, [nInput] (read in evaluation)
          THTensor *save_mean,         // [OPTIONAL] training: save_mean of the forward pass (NULL: recomputed from input)
          THTensor *save_std,          // [OPTIONAL] training: save_std of the forward pass (NULL: recomputed from input)
          bool train,                  // as in the forward pass
          accreal scale,               // factor applied to the accumulated gradients
          accreal eps);                // as in the forward pass

/* ==== end of batch normalization ==== */

/* ==== recurrent layers over a whole sequence (the rnn package's SeqLSTM, SeqGRU) ==== */

/* ---- SeqLSTM: the time loop of an LSTM over T steps, the input side of
 * every step's gates computed beforehand (x_t W_x + b for all t in one
 * product).  Gates are blocks of hiddenSize in the order i, f, o, z; per
 * step t, with h_{-1} = h0, c_{-1} = c0:
 *   a = gates[t] + h_{t-1} W_h
 *   i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o);  z = tanh(a_z)
 *   c_t = f * c_{t-1} + i * z
 *   h_t = o * tanh(c_t)
 * gates[t] is left holding i, f, o, z (what the backward pass reads).  With
 * mask, a sample whose mask[t] is nonzero gets h_t = c_t = 0 and zero gates
 * (maskZero: the next step starts from zeros). */
TH_API int THNN_(SeqLSTM_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gates,             // [INOUT] contiguous [seqlen, batch, 4*hiddenSize]: x_t W_x + b on entry, the gates i, f, o, z of every step on return
          THTensor *weight,            // recurrent weight W_h, [hiddenSize, 4*hiddenSize] (h multiplies from the left)
          THTensor *c0,                // initial cell state, [batch, hiddenSize]
          THTensor *h0,                // initial output, [batch, hiddenSize]
          THIndexTensor *mask,         // [OPTIONAL] [seqlen, batch]: nonzero where a sample's step is padding (zeroed)
          THTensor *output,            // [OUT] h_t of every step, [seqlen, batch, hiddenSize]
          THTensor *cell);             // [OUT] c_t of every step, [seqlen, batch, hiddenSize]

/* ---- SeqGRU: the time loop of a GRU over T steps, the input side of every
 * step's gates computed beforehand.  Gates are blocks of hiddenSize in the
 * order r (reset), u (update), n (new); per step t, with h_{-1} = h0:
 *   r, u = sigmoid(gates[t]_r + h_{t-1} W_h[:, :H]), sigmoid(gates[t]_u + h_{t-1} W_h[:, H:2H])
 *   n    = tanh(gates[t]_n + (r * h_{t-1}) W_h[:, 2H:])
 *   h_t  = (1 - u) * n + u * h_{t-1}
 * gates[t] is left holding r, u, n.  With mask, a sample whose mask[t] is
 * nonzero gets h_t = 0 and zero gates. */
TH_API int THNN_(SeqGRU_updateOutput)(
          THNNState *state,            // library state: receives the error message
          THTensor *gates,             // [INOUT] contiguous [seqlen, batch, 3*hiddenSize]: x_t W_x + b on entry, the gates r, u, n of every step on return
          THTensor *weight,            // recurrent weight W_h, [hiddenSize, 3*hiddenSize] (h multiplies from the left)
          THTensor *h0,                // initial output, [batch, hiddenSize]
          THIndexTensor *mask,         // [OPTIONAL] [seqlen, batch]: nonzero where a sample's step is padding (zeroed)
          THTensor *output);           // [OUT] h_t of every step, [seqlen, batch, hiddenSize]

/* ==== end of recurrent layers over a whole sequence ==== */

#endif
