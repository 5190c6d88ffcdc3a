import numpy as np

from ._helpers.arrays import describe, is_array
from .BatchNormalization import BatchNormalization
from .Decorator import Decorator
from .Dropout import Dropout
from .Linear import Linear
from .LookupTable import LookupTable
from .Sequential import Sequential
from .TorchRNNLSTM import TorchRNNLSTM
from .VanillaRNN import VanillaRNN
from .View import View


class LanguageModel(Decorator):
    """torch-rnn's character language model (jcjohnson/torch-rnn,
    ``nn.LanguageModel``): token ids ``[N, T]`` in, scores (not
    probabilities: no softmax) ``[N, T, V]`` out.  ``net`` is a Sequential::

        LookupTable(V, wordvec_size)
        num_layers x [VanillaRNN or TorchRNNLSTM(prev, rnn_size)
                      (+ View, BatchNormalization(rnn_size), View with batchnorm)
                      (+ Dropout(dropout) when dropout > 0)]
        View, Linear(rnn_size, V), View       (the Views reshape [N, T, H] <-> [N * T, H])

    Every recurrent layer has ``remember_states`` set, as torch-rnn does: a
    forward goes on from where the previous one stopped (one character at a
    time when sampling) until ``resetStates()``.

    Token ids are 0-based here, as every index in nn_legacy: Torch7 id k
    (1-based, what torch-rnn's files and its JSON vocabularies hold) is id
    k - 1.  ``idx_to_token`` is the list of tokens (id i is
    ``idx_to_token[i]``), ``token_to_idx`` the dict back; a file's 1-based
    tables are turned into these when it loads.

    ``LanguageModel(idx_to_token, model_type="lstm", wordvec_size=64,
    rnn_size=128, num_layers=2, dropout=0, batchnorm=0)`` (torch-rnn's
    kwargs and train.lua's defaults; model_type "lstm" or "rnn").
    ``encode_string`` / ``decode_string`` map text and ids, ``sample``
    generates text as torch-rnn's LanguageModel:sample (``python -m
    nn_legacy.sample`` is its command line).
    """

    _onnx_unsupported = ("its Views take their sizes from each input (torch-rnn's resetSize in forward) and its "
                         "layers remember their states between calls; export a Sequential of its layers instead")
    _onnx = None   # (not Decorator's pass-through)

    def __init__(self, idx_to_token, model_type="lstm", wordvec_size=64, rnn_size=128, num_layers=2, dropout=0,
                 batchnorm=0):
        if isinstance(idx_to_token, (str, bytes)) or not hasattr(idx_to_token, "__len__") or not len(idx_to_token):
            raise ValueError(f"LanguageModel: idx_to_token must be a non-empty list of tokens, got {idx_to_token!r}")
        if model_type not in ("lstm", "rnn"):
            raise ValueError(f"LanguageModel: model_type must be 'lstm' or 'rnn', got {model_type!r}")
        self.idx_to_token = list(idx_to_token)
        self.token_to_idx = {token: i for i, token in enumerate(self.idx_to_token)}
        self.vocab_size = len(self.idx_to_token)
        self.model_type = model_type
        self.wordvec_dim, self.rnn_size = int(wordvec_size), int(rnn_size)
        self.num_layers, self.dropout, self.batchnorm = int(num_layers), float(dropout), int(batchnorm)
        V, D, H = self.vocab_size, self.wordvec_dim, self.rnn_size
        net = Sequential().add(LookupTable(V, D))
        self.rnns, self.bn_view_in, self.bn_view_out = [], [], []
        for i in range(self.num_layers):
            rnn = (TorchRNNLSTM if model_type == "lstm" else VanillaRNN)(D if i == 0 else H, H)
            rnn.remember_states = True
            self.rnns.append(rnn)
            net.add(rnn)
            if self.batchnorm == 1:
                self.bn_view_in.append(View(1, 1, -1).setNumInputDims(3))
                self.bn_view_out.append(View(1, -1).setNumInputDims(2))
                net.add(self.bn_view_in[-1]).add(BatchNormalization(H)).add(self.bn_view_out[-1])
            if self.dropout > 0:
                net.add(Dropout(self.dropout))
        self.view1 = View(1, 1, -1).setNumInputDims(3)
        self.view2 = View(1, -1).setNumInputDims(2)
        net.add(self.view1).add(Linear(H, V)).add(self.view2)
        self.net = net
        super().__init__(net)

    # ---- the verbs ----
    def updateOutput(self, input):
        if not is_array(input):
            raise TypeError(f"LanguageModel: input must be an array of token ids [N, T], got {type(input).__name__}")
        if input.ndim != 2:
            raise ValueError(f"LanguageModel: input must be 2D token ids [N, T] (0-based), got {describe(input)}")
        N, T = input.shape
        if N < 1 or T < 1:
            raise ValueError(f"LanguageModel: input must hold at least one token, got {describe(input)}")
        for view in self.bn_view_in + ([self.view1] if self.view1 is not None else []):
            view.resetSize(N * T, -1)
        for view in self.bn_view_out + ([self.view2] if self.view2 is not None else []):
            view.resetSize(N, T, -1)
        return super().updateOutput(input)

    def reset(self, stdv=None):
        """Every layer's own reset (each its default spread unless stdv is given)."""
        for m in self.net.modules:
            m.reset() if stdv is None else m.reset(stdv)
        return self

    def resetStates(self):
        """Every recurrent layer starts over from zeros at the next forward."""
        for rnn in self.rnns:
            rnn.resetStates()
        return self

    def forget(self):
        return self.resetStates()

    # ---- text ----
    def encode_string(self, text):
        """The 0-based ids of the tokens of text (one token per character,
        as torch-rnn's vocabularies are), an int64 array; ValueError naming
        a character the vocabulary lacks."""
        ids = np.empty(len(text), dtype=np.int64)
        for k, char in enumerate(text):
            idx = self.token_to_idx.get(char)
            if idx is None:
                raise ValueError(f"LanguageModel.encode_string: {char!r} (character {k} of the text) is not in the "
                                 f"vocabulary of {self.vocab_size} tokens")
            ids[k] = idx
        return ids

    def decode_bytes(self, ids):
        """The tokens of 0-based ids, joined, as bytes (UTF-8 for text
        tokens; a file's tokens that are not UTF-8 come as they are)."""
        out = []
        for idx in np.asarray(ids).ravel():
            if not 0 <= int(idx) < self.vocab_size:
                raise ValueError(f"LanguageModel.decode_string: id {int(idx)} is outside the vocabulary "
                                 f"[0, {self.vocab_size})")
            token = self.idx_to_token[int(idx)]
            out.append(token if isinstance(token, bytes) else str(token).encode("utf-8"))
        return b"".join(out)

    def decode_string(self, ids):
        """The text of 0-based ids (bytes that are not UTF-8 as U+FFFD)."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    def sample(self, length=100, start_text="", sample=1, temperature=1.0, rng=None, as_bytes=False):
        """Text of ``length`` tokens, the first ones start_text's, as
        torch-rnn's LanguageModel:sample: start_text is fed through the model
        (without it the first token is drawn from uniform scores), then each
        next token is the argmax of the scores (``sample=0``) or drawn from
        softmax(scores / temperature) with ``rng`` (a numpy Generator;
        default nn_legacy's generator, see nn_legacy.manualSeed), and fed
        back.  The states are reset before and after.  Scores have their
        maximum subtracted before the exponential (the same distribution;
        torch-rnn's overflowed to NaN at low temperatures).  Run it after
        ``evaluate()`` (sample.lua does) for Dropout and batch normalization
        to compute as at inference."""
        from ._helpers.random import generator
        length = int(length)
        if not sample == 0 and not float(temperature) > 0:
            raise ValueError(f"LanguageModel.sample: temperature must be > 0, got {temperature!r}")
        rng = generator() if rng is None else rng
        prime = self.encode_string(start_text)
        if len(prime) > length:
            prime = prime[:length]
        sampled = np.zeros(max(length, 0), dtype=np.int64)
        self.resetStates()
        try:
            if len(prime):
                sampled[:len(prime)] = prime
                scores = self._host(self.forward(self._ids(prime[None, :])))[0, -1]
            else:
                scores = np.ones(self.vocab_size, dtype=np.float64)
            for t in range(len(prime), length):
                if sample == 0:
                    nxt = int(np.argmax(scores))
                else:
                    z = np.asarray(scores, dtype=np.float64) / float(temperature)
                    p = np.exp(z - z.max())
                    p /= p.sum()
                    nxt = int(rng.choice(self.vocab_size, p=p))
                sampled[t] = nxt
                scores = self._host(self.forward(self._ids(np.array([[nxt]], dtype=np.int64))))[0, -1]
        finally:
            self.resetStates()
        return self.decode_bytes(sampled) if as_bytes else self.decode_string(sampled)

    def _ids(self, ids):
        """ids for the LookupTable, on the device the model is on."""
        weight = self.net.modules[0].weight
        return ids if isinstance(weight, np.ndarray) else weight.device.to_device(ids)

    @staticmethod
    def _host(array):
        return array if isinstance(array, np.ndarray) else array.numpy()

    # ---- Torch7 files ----
    def _t7_fixup(self, version):
        """torch-rnn's fields; its 1-based token tables become 0-based."""
        from ._helpers.lua import T7Error
        fields = vars(self)
        net = fields.get("net")
        if not isinstance(net, Sequential) or not net.modules or not isinstance(net.modules[0], LookupTable):
            raise T7Error(f"LanguageModel (torch-rnn's): net must be a Sequential starting with a LookupTable, "
                          f"got {net!r}")
        self.idx_to_token = _tokens(fields.get("idx_to_token"))
        V = len(self.idx_to_token)
        self.token_to_idx = {token: i for i, token in enumerate(self.idx_to_token)}
        if net.modules[0].weight.shape[0] != V:
            raise T7Error(f"LanguageModel (torch-rnn's): {V} tokens in idx_to_token, but the LookupTable has "
                          f"{net.modules[0].weight.shape[0]} rows")
        self.vocab_size = V
        for name in ("wordvec_dim", "rnn_size", "num_layers", "batchnorm"):
            value = fields.get(name)
            if isinstance(value, float) and value.is_integer():
                setattr(self, name, int(value))
        self.dropout = float(fields.get("dropout") or 0)
        for name in ("view1", "view2"):   # absent in the layout of March 2016 (TemporalAdapters instead)
            if not isinstance(fields.get(name), (View, type(None))):
                raise T7Error(f"LanguageModel (torch-rnn's): {name} must be a View, got {fields.get(name)!r}")
            setattr(self, name, fields.get(name))
        for name in ("rnns", "bn_view_in", "bn_view_out"):
            value = fields.get(name)
            value = [] if value is None or value == {} else value
            if not isinstance(value, list):
                raise T7Error(f"LanguageModel (torch-rnn's): {name} must be a list, got {type(value).__name__}")
            setattr(self, name, value)
        if not all(callable(getattr(rnn, "resetStates", None)) for rnn in self.rnns):
            raise T7Error(f"LanguageModel (torch-rnn's): rnns must hold torch-rnn's LSTM / VanillaRNN, got "
                          f"{[type(r).__name__ for r in self.rnns]}")
        self.modules = [net]
        self.output = self.gradInput = None

    def __repr__(self):
        head = (f"nn.LanguageModel({self.model_type}, {self.vocab_size} tokens, {self.num_layers} layers of "
                f"{self.rnn_size})")
        return head + " @ " + repr(self.net)


def _tokens(table):
    """torch-rnn's idx_to_token as loaded (a list for keys 1..V; a dict
    {1.0: token} if not read as a list) -> the list of tokens, 0-based."""
    from ._helpers.lua import T7Error
    if isinstance(table, dict):
        keys = sorted(k for k in table if isinstance(k, float))
        if len(keys) != len(table) or keys != [float(i) for i in range(1, len(keys) + 1)]:
            raise T7Error("LanguageModel (torch-rnn's): idx_to_token must have the keys 1..V, got "
                          f"{sorted(map(repr, table))[:8]}")
        table = [table[k] for k in keys]
    if not isinstance(table, list) or not table or not all(isinstance(t, (str, bytes)) for t in table):
        raise T7Error(f"LanguageModel (torch-rnn's): idx_to_token must be a table of V strings, got {table!r:.200}")
    if len(set(table)) != len(table):
        raise T7Error("LanguageModel (torch-rnn's): idx_to_token holds a token twice")
    return table
