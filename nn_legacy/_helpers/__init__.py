"""Private helpers of nn_legacy's layers: shared base classes (pointwise,
pooling, softmax, recurrent...), argument checks, array and device helpers,
the random generator, and the small pieces of the t7 and ONNX subsystems
that layers need (``lua``, ``onnx_types``, ``rnn_t7``).  Nothing here is
public API; nothing here imports nn_legacy's subsystems (serialization,
onnx, distributed, optim, demos).  See docs/contributing/architecture.md.
"""
