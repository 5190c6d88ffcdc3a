"""python -m nn_legacy.sample on char-rnn checkpoints (karpathy/char-rnn).

Tiny models in char-rnn's own structure (model/LSTM.lua in both of its
layouts, GRU.lua, RNN.lua: char-rnn's OneHot at layer 1, Dropout between
layers and before the decoder, the decoder Linear and LogSoftMax) are built
node by node with the test-only port of nngraph (tests/nngraph_port.py),
loaded lowered, trained here a few steps as train.lua trained (clones of the
graph sharing parameters, backpropagation through time, ClassNLLCriterion),
and written as train.lua wrote its checkpoints (``{protos = {rnn,
criterion}, opt, vocab, ...}``, float, double or GPU-saved), then loaded and
sampled through the command line.  Reference: a sampling loop written here
(sample.lua's, over the loaded model), and nngraph's own evaluation of the
raw graph (the port's evaluator)."""
import os

import numpy as np
import pytest

import nn_legacy as nn
import nn_legacy.sample as sampling
from nngraph_port import Graph, Run, node, split
from sample_cli import sample_subprocess
from t7_writer import Storage, T7Object, Tensor, t7_bytes
from cuda_devices import emulator_only

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = "the cat sat on the mat. " * 4
CHARS = sorted(set(TEXT))                      # CharSplitLMMinibatchLoader's order: sorted bytes
VOCAB = {c: float(i + 1) for i, c in enumerate(CHARS)}
V = len(CHARS)
KINDS = {   # name: (opt.model, layers, rnn_size, dropout, LSTM layout)
    "lstm": ("lstm", 2, 16, 0.25, "split"),
    "lstm-narrow": ("lstm", 1, 24, 0.0, "narrow"),
    "gru": ("gru", 1, 16, 0.25, None),
    "rnn": ("rnn", 2, 24, 0.25, None),
}
CLASSES = {"float": "torch.FloatTensor", "double": "torch.DoubleTensor", "cuda": "torch.CudaTensor"}


# ---------------------------------------------------------------- char-rnn's models, node by node
class Builder:
    """Torch7 objects with tensors of one class; Linear weights by name
    (char-rnn's construction order), drawn uniform(-0.08, 0.08) as
    train.lua's initialization the first time a name is asked for."""

    def __init__(self, cls, weights, rng=None):
        self.cls, self.weights, self.rng = cls, weights, rng
        self.names = {}          # id(Linear T7Object) -> its name

    def t(self, array):
        if self.cls == "torch.DoubleTensor":     # as arrays, which nngraph_port's evaluator reads
            return np.array(array, dtype=np.float64)
        return Tensor(np.asarray(array), self.cls)

    def obj(self, name, **fields):
        f = {"train": True, "output": self.t(np.zeros(0)), "gradInput": self.t(np.zeros(0)), "_type": self.cls}
        f.update(fields)
        return T7Object(name, f)

    def linear(self, key, n_in, n_out):
        if key not in self.weights:
            self.weights[key] = (self.rng.uniform(-0.08, 0.08, (n_out, n_in)), self.rng.uniform(-0.08, 0.08, n_out))
        w, b = self.weights[key]
        linear = self.obj("nn.Linear", weight=self.t(w), bias=self.t(b), gradWeight=self.t(np.zeros_like(w)),
                          gradBias=self.t(np.zeros_like(b)))
        self.names[id(linear)] = key
        return linear

    def one_hot(self, n):
        """util/OneHot.lua: a bare class name, _eye cached (float, as its updateOutput leaves it)."""
        return T7Object("OneHot", {"outputSize": float(n), "_eye": Tensor(np.eye(n), "torch.FloatTensor"),
                                   "train": True, "output": self.t(np.zeros(0)), "gradInput": self.t(np.zeros(0))})

    def dropout(self, p):
        return self.obj("nn.Dropout", p=p, v2=True, noise=self.t(np.zeros(0)))

    def simple(self, name, **fields):
        return self.obj(f"nn.{name}", **fields)


def char_rnn_graph(b, kind, layers, H, dropout=0.0, layout="split"):
    """model/LSTM.lua (layout 'split': Reshape + SplitTable, as since July
    2015; 'narrow': the four Narrows before it), GRU.lua or RNN.lua, node
    by node in the order they build it."""
    per_layer = 2 if kind == "lstm" else 1
    inputs = [node(b.simple("Identity")) for _ in range(per_layer * layers + 1)]
    outputs = []
    for L in range(1, layers + 1):
        if L == 1:
            x, size = node(b.one_hot(V), inputs[0]), V
        else:
            x, size = outputs[-1], H
            if dropout > 0:
                x = node(b.dropout(dropout), x)
        if kind == "lstm":
            prev_c, prev_h = inputs[2 * L - 1], inputs[2 * L]
            sums = node(b.simple("CAddTable"), node(b.linear(f"i2h_{L}", size, 4 * H), x),
                        node(b.linear(f"h2h_{L}", H, 4 * H), prev_h))
            if layout == "split":
                reshaped = node(b.simple("Reshape", size=Storage(np.array([4, H]), "torch.LongStorage"),
                                         nelement=4.0 * H), sums)
                n1, n2, n3, n4 = split(node(b.simple("SplitTable", dimension=2.0), reshaped), 4)
                in_gate, forget_gate, out_gate = (node(b.simple("Sigmoid"), n) for n in (n1, n2, n3))
                in_transform = node(b.simple("Tanh"), n4)
            else:
                chunk = node(b.simple("Sigmoid"), node(b.simple("Narrow", dimension=2.0, index=1.0,
                                                                length=3.0 * H), sums))
                in_gate, forget_gate, out_gate = (
                    node(b.simple("Narrow", dimension=2.0, index=1.0 + i * H, length=float(H)), chunk)
                    for i in range(3))
                in_transform = node(b.simple("Tanh"), node(b.simple("Narrow", dimension=2.0, index=1.0 + 3 * H,
                                                                    length=float(H)), sums))
            next_c = node(b.simple("CAddTable"), node(b.simple("CMulTable"), forget_gate, prev_c),
                          node(b.simple("CMulTable"), in_gate, in_transform))
            next_h = node(b.simple("CMulTable"), out_gate, node(b.simple("Tanh"), next_c))
            outputs += [next_c, next_h]
        elif kind == "gru":
            prev_h = inputs[L]

            def input_sum(name):
                return node(b.simple("CAddTable"), node(b.linear(f"{name}_i2h_{L}", size, H), x),
                            node(b.linear(f"{name}_h2h_{L}", H, H), prev_h))
            update_gate = node(b.simple("Sigmoid"), input_sum("update"))
            reset_gate = node(b.simple("Sigmoid"), input_sum("reset"))
            gated_hidden = node(b.simple("CMulTable"), reset_gate, prev_h)
            p2 = node(b.linear(f"p2_{L}", H, H), gated_hidden)
            p1 = node(b.linear(f"p1_{L}", size, H), x)
            candidate = node(b.simple("Tanh"), node(b.simple("CAddTable"), p1, p2))
            zh = node(b.simple("CMulTable"), update_gate, candidate)
            one_minus = node(b.simple("AddConstant", constant_scalar=1.0, inplace=False),
                             node(b.simple("MulConstant", constant_scalar=-1.0, inplace=False), update_gate))
            zhm1 = node(b.simple("CMulTable"), one_minus, prev_h)
            outputs.append(node(b.simple("CAddTable"), zh, zhm1))
        else:
            prev_h = inputs[L]
            outputs.append(node(b.simple("Tanh"), node(b.simple("CAddTable"),
                                                       node(b.linear(f"i2h_{L}", size, H), x),
                                                       node(b.linear(f"h2h_{L}", H, H), prev_h))))
    top_h = outputs[-1]
    if dropout > 0:
        top_h = node(b.dropout(dropout), top_h)
    outputs.append(node(b.simple("LogSoftMax"), node(b.linear("decoder", H, V), top_h)))
    return Graph(inputs, outputs)


def checkpoint(graph, b, name, layers, H, dropout, vocab=None):
    """train.lua's checkpoint table around protos.rnn."""
    opt = {"model": KINDS[name][0], "rnn_size": float(H), "num_layers": float(layers), "dropout": dropout,
           "seq_length": 12.0, "batch_size": 4.0, "learning_rate": 2e-3, "gpuid": 0.0 if "Cuda" in b.cls else -1.0,
           "savefile": name, "data_dir": "data/tiny"}
    return {"protos": {"rnn": graph.t7(), "criterion": b.obj("nn.ClassNLLCriterion", sizeAverage=True,
                                                             weights=None, total_weight_tensor=b.t(np.ones(1)),
                                                             output_tensor=b.t(np.zeros(1)))},
            "opt": opt, "vocab": dict(VOCAB if vocab is None else vocab), "i": 80.0, "epoch": 3.3, "train_losses": {1: 2.4},
            "val_loss": 0.3, "val_losses": {80: 0.3}}


def _write(path, value):
    with open(path, "wb") as f:
        f.write(t7_bytes(value))
    return str(path)


# ---------------------------------------------------------------- training, as train.lua did
def _train(name, where, steps=60, T=12, B=8):
    """The graph loaded lowered and trained by backpropagation through time
    over T clones sharing its parameters: (weights by name, first loss, last loss)."""
    kind, layers, H, dropout, layout = KINDS[name]
    weights = {}
    b = Builder("torch.DoubleTensor", weights, np.random.default_rng(7))
    g = char_rnn_graph(b, kind, layers, H, dropout, layout)
    proto = sampling.load_checkpoint(_write(where / f"{name}_init.t7", g.t7()))
    proto.evaluate()                 # the Dropouts pass values on while training here (fewer steps needed)
    params, grads = proto.flattenParameters()
    clones = [proto.clone("weight", "bias", "gradWeight", "gradBias") for _ in range(T)]
    crit = nn.ClassNLLCriterion()
    ids = np.array([CHARS.index(c) for c in TEXT], dtype=np.float64)
    n_states = (2 if kind == "lstm" else 1) * layers
    state, losses = {}, []
    for step in range(steps):
        starts = [(step * 5 + k * 23) % (len(TEXT) - T - 1) for k in range(B)]
        x = np.stack([ids[s:s + T] for s in starts])
        y = np.stack([ids[s + 1:s + T + 1] for s in starts]).astype(np.int64)

        def f(_):
            grads[...] = 0
            states = [[np.zeros((B, H)) for _ in range(n_states)]]
            outs, loss = [], 0.0
            for t in range(T):
                out = clones[t].forward([x[:, t]] + states[t])
                outs.append(out)
                states.append(list(out[:-1]))
                loss += crit.forward(out[-1], y[:, t]) / T
            dstate = [np.zeros((B, H)) for _ in range(n_states)]
            for t in reversed(range(T)):
                dlog = crit.backward(outs[t][-1], y[:, t]).copy() / T
                gi = clones[t].backward([x[:, t]] + states[t], dstate + [dlog])
                dstate = [v.copy() for v in gi[1:]]
            return loss, grads
        losses.append(nn.optim.adam(f, params, {"learningRate": 0.03}, state)[1][0])
    trained = {}
    for raw, m in zip(g.modules(), proto.graph_modules):       # gModule.modules' order: forwardnodes'
        if isinstance(m, nn.Linear):
            trained[b.names[id(raw)]] = (m.weight.copy(), m.bias.copy())
    assert sorted(trained) == sorted(weights)
    return trained, losses[0], losses[-1]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """name -> (first loss, last loss, {class: checkpoint path}, the double checkpoint's port Graph)."""
    where = tmp_path_factory.mktemp("char_rnn")
    out = {}
    for name, (kind, layers, H, dropout, layout) in KINDS.items():
        weights, first, last = _train(name, where)
        paths = {}
        for cls_name, cls in CLASSES.items():
            b = Builder(cls, weights)
            g = char_rnn_graph(b, kind, layers, H, dropout, layout)
            paths[cls_name] = _write(where / f"lm_{name}_epoch3.30_0.30_{cls_name}.t7",
                                     checkpoint(g, b, name, layers, H, dropout))
            if cls_name == "double":
                graph = g
        out[name] = (first, last, paths, graph)
    return out


def reference(path, length, prime="", sample=0, temperature=1.0, rng=None):
    """sample.lua's loop written out over the loaded checkpoint: the rnn in
    evaluation mode, zero states, the prime text fed through (or uniform
    probabilities for the first character), then length characters."""
    cp = sampling.load_checkpoint(path)
    rnn, opt = cp["protos"]["rnn"], cp["opt"]
    rnn.evaluate()
    ivocab = {int(i) - 1: c for c, i in cp["vocab"].items()}
    dtype = rnn.type()
    per_layer = 2 if opt["model"] == "lstm" else 1
    state = [np.zeros((1, int(opt["rnn_size"])), dtype) for _ in range(per_layer * int(opt["num_layers"]))]

    def forward(i):
        out = rnn.forward([np.array([i], dtype)] + state)
        state[:] = [np.array(v) for v in out[:-1]]
        return np.array(out[-1][0], dtype=np.float64)
    text = prime
    prediction = np.full(len(ivocab), 1.0 / len(ivocab))
    for c in prime:
        prediction = forward(cp["vocab"][c] - 1)
    for _ in range(length):
        if sample == 0:
            i = int(np.argmax(prediction))
        else:
            probs = np.exp(prediction / temperature)
            i = int(rng.choice(len(ivocab), p=probs / probs.sum()))
        text += ivocab[i]
        prediction = forward(i)
    return text.encode()


# ---------------------------------------------------------------- the tests
pytestmark = pytest.mark.slow      # the models train first (about 10 s)


@pytest.mark.parametrize("name", list(KINDS))
def test_the_model_trained(models, name):
    first, last = models[name][:2]
    assert last < 0.2 * first, (first, last)


@pytest.mark.parametrize("name", list(KINDS))
def test_the_loaded_rnn_steps_as_nngraph_does(models, name):
    """Step by step on the double checkpoint, the states fed back: every
    output equals nngraph's evaluation of the raw graph (float64, 1e-12)."""
    _, _, paths, graph = models[name]
    rnn = sampling.load_checkpoint(paths["double"])["protos"]["rnn"]
    rnn.evaluate()
    H = KINDS[name][2]
    state = [np.zeros((1, H)) for _ in range(rnn.nInputs - 1)]
    want_state = [s.copy() for s in state]
    for c in "the ca":
        i = CHARS.index(c)
        got = rnn.forward([np.array([float(i)])] + state)
        want = Run(graph).forward([np.array([i + 1.0])] + [s.copy() for s in want_state])   # Lua's 1-based
        assert len(got) == len(want) == rnn.nInputs
        for k, (a, b) in enumerate(zip(got, want)):
            assert a.shape == b.shape and np.abs(a - b).max() <= 1e-12 * max(1.0, np.abs(b).max()), (c, k)
        state, want_state = [np.array(v) for v in got[:-1]], [np.array(v) for v in want[:-1]]


@pytest.mark.parametrize("saved", list(CLASSES))
@pytest.mark.parametrize("name", list(KINDS))
def test_greedy_reproduces_the_text(models, name, saved, run_cli):
    """--sample 0: the prime text, then --length characters (sample.lua's
    count), each the argmax, as the reference loop gives them."""
    _, _, paths, _ = models[name]
    rc, out, err = run_cli(paths[saved], "--length", "40", "--sample", "0", "--primetext", "the c")
    assert rc == 0 and err == ""
    assert out == reference(paths[saved], 40, "the c") + b"\n" and len(out) == 5 + 40 + 1
    assert b"the cat sat on the mat" in out          # a few steps taught it the sentence


def test_the_same_seed_gives_the_same_bytes_as_a_command(models):
    """Two real processes: the text alone on stdout, the same for a seed,
    as the reference loop draws it with numpy's generator of that seed."""
    path = models["lstm"][2]["float"]
    rc, out, err = sample_subprocess(path, "--length", "50", "--temperature", "0.7", "--seed", "5", "--primetext", "on")
    assert rc == 0 and err == "", err
    assert out.endswith(b"\n") and out.count(b"\n") == 1 and len(out) == 2 + 50 + 1
    assert set(out[:-1].decode()) <= set(CHARS)
    rc, again, _ = sample_subprocess(path, "-length", "50", "-temperature", "0.7", "-seed", "5", "-primetext", "on")
    assert rc == 0 and again == out
    assert out[:-1] == reference(path, 50, "on", sample=1, temperature=0.7, rng=np.random.default_rng(5))


@pytest.mark.parametrize("name", list(KINDS))
def test_sampling_draws_as_sample_lua(models, name, run_cli):
    _, _, paths, _ = models[name]
    args = ("--length", "60", "--temperature", "0.9", "--seed", "11", "--primetext", "the ")
    rc, out, _ = run_cli(paths["double"], *args)
    assert rc == 0
    assert out[:-1] == reference(paths["double"], 60, "the ", 1, 0.9, np.random.default_rng(11))
    assert run_cli(paths["double"], *args)[1] == out
    assert run_cli(paths["double"], *args[:-3], "12", *args[-2:])[1] != out
    # the GPU-saved file holds the float one's float32 bits: the same draws
    assert run_cli(paths["cuda"], *args)[1] == run_cli(paths["float"], *args)[1]
    # the library call the command line makes
    loaded = sampling.load_checkpoint(paths["double"])
    assert sampling.generate(loaded, length=60, temperature=0.9, start_text="the ",
                             rng=np.random.default_rng(11)) + b"\n" == out


def test_without_prime_text_the_first_character_is_uniform(models, run_cli):
    """sample.lua: uniform probabilities for the first character: greedy
    takes the vocabulary's first (' '), sampling draws it."""
    path = models["gru"][2]["float"]
    rc, out, err = run_cli(path, "--length", "30", "--sample", "0", "--verbose")
    assert rc == 0 and out[:1] == CHARS[0].encode() and out == reference(path, 30) + b"\n"
    assert "char-rnn GRU: 1 layers of 16, 11 characters, float32" in err
    assert "missing seed text, using uniform probability over first character" in err
    for seed in (1, 2, 3):
        rc, out, _ = run_cli(path, "--length", "30", "--seed", str(seed))
        assert out[:-1] == reference(path, 30, sample=1, rng=np.random.default_rng(seed))


@emulator_only
def test_on_a_cuda_device_it_samples_what_it_samples_on_the_host(models, run_cli):
    from thnn import cuda
    path = models["lstm"][2]["float"]
    cp = sampling.load_checkpoint(path)
    cp["protos"]["rnn"].cuda(cuda.emulator())
    assert sampling.generate(cp, length=30, start_text="the", sample=0) == reference(path, 30, "the")
    rc, out, err = run_cli(path, "--length", "30", "--sample", "0", "--gpu", "0")
    if cuda.gpu_unavailable_reason() is None:
        assert rc == 0 and out == reference(path, 30) + b"\n"
    else:
        assert rc == 1 and out == b"" and "-gpu -1 runs on the CPU" in err


def _damaged(path, change):
    cp = sampling.load_checkpoint(path)    # a char-rnn checkpoint, changed and handed over in memory
    change(cp)
    return cp


def test_what_cannot_be_sampled_is_one_error_line(models, run_cli):
    path = models["rnn"][2]["float"]
    rc, out, err = run_cli(path, "--primetext", "dog!", "--seed", "1")
    assert rc == 1 and out == b"" and err.strip().splitlines() == [
        "error: the prime text holds characters the model's vocabulary of 11 lacks: '!dg'"]
    cases = [
        (lambda cp: cp["opt"].update(model="lstm2"), "opt.model must be 'lstm', 'gru' or 'rnn', got 'lstm2'"),
        (lambda cp: cp["opt"].update(num_layers=3.0), "protos.rnn has 3 inputs, but a 3-layer rnn takes 4"),
        (lambda cp: cp["opt"].update(rnn_size=8.0), "does not take a character and 2 states of [1, 8]"),
        (lambda cp: cp["opt"].update(model="lstm"), "protos.rnn has 3 inputs, but a 2-layer lstm takes 5"),
        (lambda cp: cp["opt"].update(num_layers=1.5), "opt.num_layers must be a whole number >= 1, got 1.5"),
        (lambda cp: cp.pop("opt"), "opt (train.lua's options: model, rnn_size, num_layers) is missing"),
        (lambda cp: cp["vocab"].pop("a"), "vocab's indices must be 1 to 10"),
        (lambda cp: cp["vocab"].update(xy=12.0), "vocab keys must be one character (byte) each, got 'xy'"),
        (lambda cp: cp["vocab"].update(z=12.0), "protos.rnn gave log probabilities of shape (1, 11), not (1, 12)"),
        (lambda cp: cp["protos"].update(rnn=None), "protos.rnn must be a module"),
    ]
    for change, message in cases:
        cp = _damaged(path, change)
        assert sampling.backend_for(cp).name == "char-rnn"
        with pytest.raises(sampling.SampleError, match="char-rnn checkpoint: ") as e:
            sampling.generate(cp, length=5, sample=0)
        assert message in str(e.value)


def test_a_byte_vocabulary_samples_bytes(models, tmp_path, run_cli):
    """char-rnn works on bytes: a byte that is not UTF-8 on its own loads
    as a bytes key, is taken from the command line's argument (Python's
    surrogate escape) and comes out as that byte."""
    _, _, paths, graph = models["rnn"]
    kind, layers, H, dropout, _ = KINDS["rnn"]
    vocab = dict(VOCAB)
    vocab[b"\xe9"] = vocab.pop(" ")
    path = _write(tmp_path / "bytes.t7", checkpoint(graph, Builder("torch.DoubleTensor", {}), "rnn", layers, H,
                                                    dropout, vocab))
    assert b"\xe9" in sampling.load_checkpoint(path)["vocab"]
    rc, out, err = run_cli(path, "--length", "40", "--sample", "0", "--primetext", "the\udce9c")
    assert rc == 0, err
    assert out == reference(paths["double"], 40, "the c").replace(b" ", b"\xe9") + b"\n"
