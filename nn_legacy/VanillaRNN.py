import math

from ._helpers.checks import check_positive
from ._helpers.namespace import array_namespace
from ._helpers.random import generator
from ._bases.torch_rnn import TorchRNNRecurrent


class VanillaRNN(TorchRNNRecurrent):
    """torch-rnn's vanilla RNN (jcjohnson/torch-rnn, ``nn.VanillaRNN``): a
    whole batch-first sequence per forward.  Input x ``[N, T, input_dim]``
    or the table ``[h0, x]`` with h0 ``[N, hidden_dim]``; output h ``[N, T,
    hidden_dim]``::

        h_t = tanh(x_t W_x + h_{t-1} W_h + b)

    ``weight`` is ``[input_dim + hidden_dim, hidden_dim]`` (W_x's rows, then
    W_h's: x multiplies from the left, unlike Linear), ``bias``
    ``[hidden_dim]``.  reset() draws the weight from N(0, 1/(input_dim +
    hidden_dim)) and zeroes the bias, as torch-rnn did.

    Backward through time, from the last step, with gh the gradient w.r.t.
    h_t (gradOutput[t] plus what step t + 1 sent back)::

        d = gh * (1 - h_t^2)
        dL/dx_t = d W_x^T;  to step t - 1: gh = d W_h^T
        gradWeight += [x_t; h_{t-1}]^T d,  gradBias += sum over the batch of d

    ``remember_states`` (False by default; LanguageModel sets it): a forward
    without h0 starts from the last h of the previous one until
    ``resetStates()``, in training and evaluation alike (see
    nn_legacy/_bases/torch_rnn.py).  ``maskZero()`` (not torch-rnn's; as
    SeqLSTM): a sample whose x_t is all zeros gets h_t = 0.

    ``VanillaRNN(input_dim, hidden_dim)``.
    """

    _gates = 1
    _state_names = ("h0",)
    _t7_sequences = ("output",)

    def __init__(self, input_dim, hidden_dim):
        super().__init__()
        check_positive("VanillaRNN", input_dim=input_dim, hidden_dim=hidden_dim)
        self.input_dim, self.hidden_dim = int(input_dim), int(hidden_dim)
        self.remember_states = False
        self._init_parameters(self.input_dim, self.hidden_dim, 1)

    def reset(self, std=None):
        std = 1 / math.sqrt(self.hidden_dim + self.input_dim) if std is None else std
        self.bias[...] = 0
        self.weight[...] = generator().normal(0, std, self.weight.shape).astype(self.weight.dtype)
        return self

    def _forward_steps(self, x, states, mask):
        xp = array_namespace(x)
        (h0,) = states
        T, N, _ = x.shape
        H, D = self.H, self.D
        Wx, Wh = self.weight[:D], self.weight[D:]
        h = self._reuse("_h", (T, N, H), x.dtype)
        xp.matmul(x.reshape(T * N, D), Wx, out=h.reshape(T * N, H))
        h += self.bias
        prev_h = h0
        for t in range(T):
            h[t] += prev_h @ Wh
            h[t] = xp.tanh(h[t])
            if mask is not None:
                h[t][mask[t]] = 0
            prev_h = h[t]
        self._last = [h[T - 1].copy()]
        return h

    def _backward_steps(self, x, grad_h, states, mask, want_input, scale):
        (h0,) = states
        T, N, _ = x.shape
        h = self._h
        grad_x = self._reuse("_grad_x", x.shape, x.dtype) if want_input else None
        gh, _ = self._start_gradients(N, x.dtype)
        for t in reversed(range(T)):
            prev_h = h0 if t == 0 else h[t - 1]
            gh = gh + grad_h[t]
            if mask is not None:
                gh[mask[t]] = 0
            d = gh * (1 - h[t] * h[t])
            gh = self._step_gradients(d, t, x, prev_h, grad_x, scale)
        return grad_x, (gh,)

    def __repr__(self):
        return f"nn.VanillaRNN({self.input_dim} -> {self.hidden_dim})"

    def _onnx(self, g, x, y):
        """RNN (ONNX's, tanh)"""
        return self._onnx_sequence(g, x, "RNN", (0,))
