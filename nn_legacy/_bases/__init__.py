"""Private base classes and building blocks of nn_legacy's layers: what
several layers share and that is itself built on ``Module`` or
``Criterion`` (pointwise, softmax, table and recurrent bases, criteria
computed in numpy, the local-mean normalisers, the t7 fixup of recurrent
cells).  It sits between Module/Criterion and the layers; what Module and
Criterion themselves use is in ``nn_legacy._helpers``, below them.  Not
public API.  See docs/contributing/architecture.md.
"""
