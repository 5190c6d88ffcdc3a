"""The char-rnn backend (karpathy/char-rnn): train.lua's checkpoints,
``{protos = {rnn, criterion}, opt, vocab, i, epoch, ...}``, whose
``protos.rnn`` is an nngraph graph (loaded lowered, an ``nn.gModule``).

It samples as char-rnn's sample.lua does:

- the model in evaluation mode (Dropout passes its input on);
- the state: zeros of [1, opt.rnn_size] for each of opt.num_layers layers,
  two per layer (c then h) for an LSTM, one (h) for a GRU or vanilla RNN;
- the graph takes {char, state...} and gives {new state..., log
  probabilities}: the new state is fed back at the next step;
- the prime text is fed through, a byte at a time, and written out; without
  one the first character is drawn from uniform probabilities (greedy: the
  vocabulary's first);
- then ``length`` characters, each the argmax of the last log
  probabilities (``sample=0``) or drawn from softmax(log probabilities /
  temperature), written out and fed through.

The text is the prime text followed by ``length`` characters (sample.lua's
count; torch-rnn's counted the start text in).  char-rnn works on bytes:
``vocab`` maps one byte (a one-character string, or one byte where the
file's byte is not UTF-8) to its 1-based index, 0-based here as every
index in nn_legacy."""
import numpy as np

from ..Module import Module

_STATES_PER_LAYER = {"lstm": 2, "gru": 1, "rnn": 1}
_KIND = {"lstm": "LSTM", "gru": "GRU", "rnn": "vanilla RNN"}


def claims(checkpoint):
    return (isinstance(checkpoint, dict) and "vocab" in checkpoint and isinstance(checkpoint.get("protos"), dict)
            and "rnn" in checkpoint["protos"])


def _whole(opt, name):
    value = opt.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer() or value < 1:
        raise _error(f"the checkpoint's opt.{name} must be a whole number >= 1, got {value!r}")
    return int(value)


def _error(message):
    from . import SampleError
    return SampleError(f"char-rnn checkpoint: {message}")


class _Model:
    """What sample.lua reads from a checkpoint, checked: the rnn, the kind
    (opt.model), layers, rnn size, the number of state tensors, and the
    vocabulary as bytes (idx_to_byte: 0-based index -> one byte)."""

    def __init__(self, checkpoint):
        rnn = checkpoint["protos"]["rnn"]
        if not isinstance(rnn, Module):
            raise _error(f"protos.rnn must be a module (the nngraph graph char-rnn saved), got "
                         f"{type(rnn).__name__}")
        opt = checkpoint.get("opt")
        if not isinstance(opt, dict):
            raise _error(f"opt (train.lua's options: model, rnn_size, num_layers) is missing, got {opt!r}")
        self.kind = opt.get("model")
        if self.kind not in _STATES_PER_LAYER:
            raise _error(f"opt.model must be 'lstm', 'gru' or 'rnn', got {self.kind!r}")
        self.num_layers, self.rnn_size = _whole(opt, "num_layers"), _whole(opt, "rnn_size")
        self.n_states = _STATES_PER_LAYER[self.kind] * self.num_layers
        for name, want in (("nInputs", self.n_states + 1), ("nOutputs", self.n_states + 1)):
            got = getattr(rnn, name, want)
            if got != want:
                raise _error(f"protos.rnn has {got} {name[1:].lower()}, but a {self.num_layers}-layer "
                             f"{self.kind} takes {want} (the character and {self.n_states} state tensors)")
        self.rnn = rnn
        self.idx_to_byte = _vocabulary(checkpoint["vocab"])
        self.byte_to_idx = {b: i for i, b in enumerate(self.idx_to_byte)}

    def describe(self):
        return (f"char-rnn {_KIND[self.kind]}: {self.num_layers} layers of {self.rnn_size}, "
                f"{len(self.idx_to_byte)} characters, {np.dtype(self.rnn.type()).name}")


def _vocabulary(vocab):
    """char -> 1-based index (Lua) as a list: 0-based index -> one byte."""
    if not isinstance(vocab, dict) or not vocab:
        raise _error(f"vocab must be a table of characters to indices, got {type(vocab).__name__}")
    by_index = {}
    for char, index in vocab.items():
        raw = char.encode("utf-8") if isinstance(char, str) else char
        if not isinstance(raw, bytes) or len(raw) != 1:
            raise _error(f"vocab keys must be one character (byte) each, got {char!r}")
        if isinstance(index, bool) or not isinstance(index, (int, float)) or not float(index).is_integer():
            raise _error(f"vocab[{char!r}] must be a whole number, got {index!r}")
        by_index[int(index)] = raw
    V = len(vocab)
    if sorted(by_index) != list(range(1, V + 1)):
        raise _error(f"vocab's indices must be 1 to {V} (one character each), got "
                     f"{sorted(by_index)[:8]}{'...' if len(by_index) > 8 else ''}")
    return [by_index[i] for i in range(1, V + 1)]


def describe(checkpoint):
    return _Model(checkpoint).describe()


def generate(checkpoint, options):
    from . import SampleError, place
    model = _Model(checkpoint)
    rnn = model.rnn
    prime = options.start_text.encode("utf-8", "surrogateescape")      # the bytes the command line was given
    missing = sorted({bytes([b]) for b in prime} - set(model.byte_to_idx))
    if missing:
        raise SampleError(f"the prime text holds characters the model's vocabulary of {len(model.idx_to_byte)} "
                          f"lacks: {b''.join(missing).decode('utf-8', 'backslashreplace')!r}")
    place(rnn, options)
    rnn.evaluate()
    params = rnn.parameters()[0]
    dtype = np.dtype(rnn.type())
    device = None if not params or isinstance(params[0], np.ndarray) else params[0].device

    def there(array):
        return array if device is None else device.to_device(array)

    def host(array):
        return array if isinstance(array, np.ndarray) else array.numpy()

    V = len(model.idx_to_byte)
    state = [there(np.zeros((1, model.rnn_size), dtype=dtype)) for _ in range(model.n_states)]

    def step(index):
        """Feed one character (0-based index): the next log probabilities (host, [V])."""
        nonlocal state
        try:
            out = rnn.forward([there(np.array([index], dtype=dtype))] + state)
        except (ValueError, IndexError) as e:
            raise SampleError(f"char-rnn checkpoint: protos.rnn does not take a character and {model.n_states} "
                              f"states of [1, {model.rnn_size}] (opt.model {model.kind!r}, opt.num_layers "
                              f"{model.num_layers}, opt.rnn_size {model.rnn_size}): {e}") from None
        if not isinstance(out, (list, tuple)) or len(out) != model.n_states + 1:
            raise SampleError(f"char-rnn checkpoint: protos.rnn gave {type(out).__name__} of "
                              f"{len(out) if isinstance(out, (list, tuple)) else 1}, not {model.n_states} states "
                              f"and the log probabilities")
        # copies: the outputs are the graph's module buffers, which the next forward writes
        state = [s.copy() for s in out[:-1]]
        scores = np.asarray(host(out[-1]), dtype=np.float64)
        if scores.shape != (1, V):
            raise SampleError(f"char-rnn checkpoint: protos.rnn gave log probabilities of shape {scores.shape}, "
                              f"not (1, {V}) for its vocabulary of {V}")
        return scores[0]

    text = bytearray()
    if prime:
        if options.verbose:
            options.log(f"seeding with {options.start_text}")
        for b in prime:
            text.append(b)
            scores = step(model.byte_to_idx[bytes([b])])
    else:
        if options.verbose:
            options.log("missing seed text, using uniform probability over first character")
        scores = np.full(V, 1.0 / V)      # sample.lua's uniform probabilities (not log probabilities)
    temperature = float(options.temperature)
    for _ in range(int(options.length)):
        if options.sample == 0:
            nxt = int(np.argmax(scores))
        else:
            z = scores / temperature
            p = np.exp(z - z.max())
            p /= p.sum()
            nxt = int(options.rng.choice(V, p=p))
        text += model.idx_to_byte[nxt]
        scores = step(nxt)
    return bytes(text)
