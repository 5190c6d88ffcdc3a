"""What torch-rnn's (jcjohnson/torch-rnn, 2016) recurrent layers share, on
top of SeqRecurrent: batch-first sequences ``[N, T, D]``, the sizes
``input_dim`` / ``hidden_dim``, and torch-rnn's ``remember_states`` flag.

remember_states, as torch-rnn's LSTM.lua / VanillaRNN.lua do it: when set,
a forward given no initial state starts from the last step of the previous
forward (its h, and c for the LSTM), whatever the train/evaluate mode;
``resetStates()`` starts over from zeros.  The carried state is a constant:
no gradient flows back into the previous call.  A remembered state needs the
same batch size: another one raises ValueError (torch-rnn asserted).  When
not set, every forward starts from zeros (or from the states in the input
table)."""
import numpy as np

from ..Module import Module
from .seqrnn import SeqRecurrent

# torch-rnn's work buffers, which files hold (empty after clearState())
_BUFFERS = ("cell", "gates", "buffer1", "buffer2", "buffer3", "grad_a_buffer", "grad_c0", "grad_h0", "grad_x",
            "recompute_backward", "_return_grad_c0", "_return_grad_h0")


class TorchRNNRecurrent(SeqRecurrent):
    """The plumbing of TorchRNNLSTM and VanillaRNN (not a layer itself)."""

    batchfirst = True
    remember_states = False
    _t7_rnn_layout = None   # (torch-rnn's classes, not the rnn package's: save_lua writes their fields as they are)
    _buffer_names = SeqRecurrent._buffer_names + ("_output_view", "_gradInput_view")

    # the output and gradInput are time-first buffers seen batch first: the
    # same view object while the buffer is the same (callers may keep it)
    def _seen(self, name, buffer, make):
        held = self.__dict__.get(name)
        if held is None or held[0] is not buffer or not _views_into(held[1], buffer):
            held = [buffer, make()]   # (a list: type() converts lists)
            setattr(self, name, held)
        return held[1]

    def updateOutput(self, input):
        out = super().updateOutput(input)
        self.output = self._seen("_output_view", self._h, lambda: out)
        return self.output

    def _backward(self, input, gradOutput, want_input, scale):
        grad = super()._backward(input, gradOutput, want_input, scale)
        if want_input and not isinstance(grad, list):
            self.gradInput = grad = self._seen("_gradInput_view", self._grad_x, lambda: grad)
        return grad

    def _sizes(self):
        return self.input_dim, self.hidden_dim

    def resetStates(self):
        """Forget the remembered state: the next forward starts from zeros."""
        return self.forget()

    def _initial(self, given, x):
        self._remember = "both" if self.remember_states else "neither"
        last = self._last
        if self.remember_states and last is not None and len(given) < len(self._state_names) \
                and last[0].shape[0] != x.shape[1]:
            raise ValueError(f"{type(self).__name__}: batch sizes must be constant to remember states "
                             f"(remember_states): the previous forward had {last[0].shape[0]} samples, this one "
                             f"{x.shape[1]}; call resetStates() first")
        return super()._initial(given, x)

    # torch-rnn keeps the state across training() / evaluate(): only resetStates() drops it
    def training(self):
        Module.training(self)

    def evaluate(self):
        Module.evaluate(self)

    def _t7_fixup(self, version):
        """torch-rnn's fields: input_dim, hidden_dim, weight, bias,
        remember_states; h0 (and c0) non-empty with output (and cell) held
        mean a remembered state, taken up as the next forward's start."""
        from .._helpers.lua import T7Error
        fields = vars(self)
        for name in ("input_dim", "hidden_dim"):
            value = fields.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 1 \
                    or not float(value).is_integer():
                raise T7Error(f"{type(self).__name__} (torch-rnn's): {name} must be a positive whole number, "
                              f"got {value!r}")
            setattr(self, name, int(value))
        self.remember_states = bool(fields.get("remember_states", False))
        last = self._t7_remembered()
        for name in _BUFFERS:
            fields.pop(name, None)
        SeqRecurrent._t7_fixup(self, version)   # (not the rnn package's SeqLSTM's: other size fields)
        self._check_loaded()
        self._last = last

    def _t7_remembered(self):
        """The state torch-rnn would start the next forward from: the last
        step of the saved sequences named by _t7_sequences (h0 non-empty
        says a forward ran since resetStates), else None."""
        fields = vars(self)
        h0 = fields.get("h0")
        if not (self.remember_states and isinstance(h0, np.ndarray) and h0.size):
            return None
        last = []
        for name in self._t7_sequences:
            seq = fields.get(name)
            if not (isinstance(seq, np.ndarray) and seq.ndim == 3 and seq.shape[0] >= 1 and seq.shape[1] >= 1
                    and seq.shape[2] == self.hidden_dim):
                return None     # cleared by clearState(): torch-rnn itself could not go on from there
            last.append(np.array(seq[:, -1]))
        return last


def _views_into(view, buffer):
    """Whether view still sees buffer's memory (not a copy left by a type conversion)."""
    if isinstance(view, np.ndarray) and isinstance(buffer, np.ndarray):
        return np.may_share_memory(view, buffer)
    storage = getattr(buffer, "_storage", None)
    return storage is not None and getattr(view, "_storage", None) is storage
