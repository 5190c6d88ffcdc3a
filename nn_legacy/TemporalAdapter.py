from ._helpers.arrays import describe, is_array
from .Decorator import Decorator
from .Module import Module
from .Sequential import Sequential
from .View import View


class TemporalAdapter(Decorator):
    """torch-rnn's TemporalAdapter (jcjohnson/torch-rnn): runs a module made
    for ``[N, A]`` input at every step of ``[N, T, A]`` sequences, giving
    ``[N, T, B]``: the input seen as ``[N * T, A]``, the module, its output
    seen as ``[N, T, B]`` (two Views, resized at each forward).

    Unlike torch-rnn's own class, which had no accGradParameters (the
    wrapped module's parameters got no gradient there), every verb reaches
    the module: parameters(), accGradParameters, backward.

    ``TemporalAdapter(module)``; ``net`` is the Sequential of the two views
    around the module, ``view_in`` / ``view_out`` the views.
    """

    _onnx_unsupported = ("its Views take their sizes from each input (torch-rnn's resetSize in forward); the "
                         "wrapped module on [N * T, A] exports on its own")
    _onnx = None   # (not Decorator's pass-through)

    def __init__(self, module):
        if not isinstance(module, Module):
            raise TypeError(f"TemporalAdapter: module must be an nn_legacy Module, got {type(module).__name__}")
        self.view_in = View(1, -1).setNumInputDims(3)
        self.view_out = View(1, -1).setNumInputDims(2)
        self.net = Sequential().add(self.view_in).add(module).add(self.view_out)
        super().__init__(self.net)

    def _resize(self, input):
        if not is_array(input):
            raise TypeError(f"TemporalAdapter: input must be an array [N, T, size], got {type(input).__name__}")
        if input.ndim != 3:
            raise ValueError(f"TemporalAdapter: input must be 3D [N, T, size], got {describe(input)}")
        N, T = input.shape[:2]
        self.view_in.resetSize(max(N * T, 1), -1)
        self.view_out.resetSize(max(N, 1), max(T, 1), -1)

    def updateOutput(self, input):
        self._resize(input)
        return super().updateOutput(input)

    def _t7_fixup(self, version):
        """torch-rnn's fields: net (the Sequential), view_in, view_out."""
        from ._helpers.lua import T7Error
        net = vars(self).get("net")
        if not isinstance(net, Sequential) or len(net.modules) != 3 or not all(
                isinstance(v, View) for v in (net.modules[0], net.modules[2])):
            raise T7Error("TemporalAdapter (torch-rnn's): net must be a Sequential of a View, the module and a "
                          f"View, got {net!r}")
        self.view_in, self.view_out = net.modules[0], net.modules[2]
        self.modules = [net]
        self.gradInput = None
        self.output = None

    def __repr__(self):
        return "nn.TemporalAdapter @ " + repr(self.net.modules[1])
