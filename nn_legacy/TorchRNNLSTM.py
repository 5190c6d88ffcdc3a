import math

from ._helpers.checks import check_positive
from ._helpers.random import generator
from ._bases.torch_rnn import TorchRNNRecurrent
from .SeqLSTM import SeqLSTM


class TorchRNNLSTM(TorchRNNRecurrent, SeqLSTM):
    """torch-rnn's LSTM (jcjohnson/torch-rnn, saved as ``nn.LSTM``: not the
    rnn package's LSTM of that name, which is ``nn_legacy.LSTM``): a whole
    batch-first sequence per forward.  Input x ``[N, T, input_dim]``, or
    the table ``[h0, x]`` or ``[c0, h0, x]`` with states ``[N,
    hidden_dim]``; output h ``[N, T, hidden_dim]``::

        a_t = x_t W_x + h_{t-1} W_h + b       split as i, f, o, g (hidden_dim each)
        i, f, o = sigmoid(a_i), sigmoid(a_f), sigmoid(a_o);  g = tanh(a_g)
        c_t = f * c_{t-1} + i * g
        h_t = o * tanh(c_t)

    ``weight`` is ``[input_dim + hidden_dim, 4 * hidden_dim]`` (W_x's rows,
    then W_h's), ``bias`` ``[4 * hidden_dim]``: torch-rnn's layout and gate
    order, the one the rnn package's SeqLSTM took over (the step and its
    backward through time are SeqLSTM's, with ``batchfirst``).  reset()
    draws the weight from N(0, 1/(input_dim + hidden_dim)) and sets the bias
    to 0, the forget gate's to 1, as torch-rnn did.

    ``remember_states`` (torch-rnn's flag, False by default; LanguageModel
    sets it): a forward without initial states starts from the last h and c
    of the previous one, in training and evaluation alike, until
    ``resetStates()``; see nn_legacy/_bases/torch_rnn.py.  ``backward`` is
    one pass for gradInput and the parameters, as torch-rnn's;
    ``updateGradInput`` and ``accGradParameters`` also work alone.

    ``TorchRNNLSTM(input_dim, hidden_dim)``.  load_lua gives this class for
    an ``nn.LSTM`` object holding torch-rnn's fields (``input_dim``,
    ``hidden_dim``, the ``[D + H, 4H]`` weight), the rnn package's class for
    the others.
    """

    _t7_name = "nn.LSTM"                 # save_lua writes torch-rnn's class name back
    _t7_sequences = ("cell", "output")   # the saved c and h sequences (the state order is c0, h0)

    def __init__(self, input_dim, hidden_dim):
        TorchRNNRecurrent.__init__(self)
        check_positive("TorchRNNLSTM", input_dim=input_dim, hidden_dim=hidden_dim)
        self.input_dim, self.hidden_dim = int(input_dim), int(hidden_dim)
        self.remember_states = False
        self._init_parameters(self.input_dim, self.hidden_dim, 4)

    def reset(self, std=None):
        H = self.hidden_dim
        std = 1 / math.sqrt(H + self.input_dim) if std is None else std
        self.bias[...] = 0
        self.bias[H:2 * H] = 1
        self.weight[...] = generator().normal(0, std, self.weight.shape).astype(self.weight.dtype)
        return self

    def __repr__(self):
        return f"nn.TorchRNNLSTM({self.input_dim} -> {self.hidden_dim})"
