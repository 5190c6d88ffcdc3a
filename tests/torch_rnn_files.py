"""torch-rnn (jcjohnson/torch-rnn, HEAD 6e72b86, 2017) for the tests: an
independent numpy transcription of its layers' math, and its objects and
checkpoints as Torch7 wrote them, to write with t7_writer.

The math, from LSTM.lua / VanillaRNN.lua / LanguageModel.lua (batch first,
x [N, T, D]; weight [D + H, gates * H], x's rows first; the LSTM's gate
columns i, f, o, g: sigmoid on the first 3H, tanh on the last H)::

    LSTM:        a = x_t Wx + h Wh + b;  c = f * c + i * g;  h = o * tanh(c)
    VanillaRNN:  h = tanh(x_t Wx + h Wh + b)
    LanguageModel: LookupTable -> rnns (-> View, BatchNormalization, View) (-> Dropout)
                   -> View -> Linear(H, V) -> View

The checkpoint is what train.lua saved (model:clearState(); model:float();
torch.save): {opt, train_loss_history, val_loss_history, val_loss_history_it,
forward_backward_times, memory_usage, i, model}, the model an
nn.LanguageModel with its 1-based idx_to_token / token_to_idx tables and
every module's fields as torch-rnn's classes (and nn's) held them.
"""
import numpy as np

from t7_writer import Storage, T7Object, Tensor


# ---------------------------------------------------------------- the math
def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def lstm_forward(x, weight, bias, h0=None, c0=None):
    """torch-rnn's LSTM: h [N, T, H], and the last (h, c)."""
    N, T, D = x.shape
    H = weight.shape[1] // 4
    h = np.zeros((N, H)) if h0 is None else np.array(h0, dtype=np.float64)
    c = np.zeros((N, H)) if c0 is None else np.array(c0, dtype=np.float64)
    out = np.zeros((N, T, H))
    for t in range(T):
        a = x[:, t] @ weight[:D] + h @ weight[D:] + bias
        i, f, o = _sigmoid(a[:, :H]), _sigmoid(a[:, H:2 * H]), _sigmoid(a[:, 2 * H:3 * H])
        g = np.tanh(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(c)
        out[:, t] = h
    return out, (h, c)


def rnn_forward(x, weight, bias, h0=None):
    """torch-rnn's VanillaRNN: h [N, T, H], and the last h."""
    N, T, D = x.shape
    H = weight.shape[1]
    h = np.zeros((N, H)) if h0 is None else np.array(h0, dtype=np.float64)
    out = np.zeros((N, T, H))
    for t in range(T):
        h = np.tanh(x[:, t] @ weight[:D] + h @ weight[D:] + bias)
        out[:, t] = h
    return out, h


def lm_forward(params, ids, states=None):
    """torch-rnn's LanguageModel in evaluation (no dropout, batch
    normalization with running statistics) from plain arrays: params is
    {"embed": [V, D], "rnns": [(kind, weight, bias)], "bn": [(mean, var,
    weight, bias, eps)] or None, "proj": (weight [V, H], bias [V])}; ids
    [N, T] 0-based; states: each layer's start state (None: zeros).
    Returns (scores [N, T, V], each layer's last state)."""
    h = params["embed"][ids]
    last = []
    for k, (kind, w, b) in enumerate(params["rnns"]):
        start = None if states is None else states[k]
        if kind == "lstm":
            h, state = lstm_forward(h, w, b, *(start or (None, None)))
        else:
            h, state = rnn_forward(h, w, b, start)
        last.append(state)
        if params.get("bn"):
            mean, var, gamma, beta, eps = params["bn"][k]
            h = (h - mean) / np.sqrt(var + eps) * gamma + beta
    w, b = params["proj"]
    return h @ w.T + b, last


def params_of(model):
    """The plain arrays of an nn_legacy LanguageModel, for lm_forward."""
    import nn_legacy as nn
    mods = model.net.modules
    rnns = [("lstm" if isinstance(m, nn.TorchRNNLSTM) else "rnn", np.float64(m.weight), np.float64(m.bias))
            for m in mods if isinstance(m, (nn.TorchRNNLSTM, nn.VanillaRNN))]
    bns = [(np.float64(m.running_mean), np.float64(m.running_var), np.float64(m.weight), np.float64(m.bias), m.eps)
           for m in mods if isinstance(m, nn.BatchNormalization)]
    linear = [m for m in mods if isinstance(m, nn.Linear)][-1]
    return {"embed": np.float64(mods[0].weight), "rnns": rnns, "bn": bns or None,
            "proj": (np.float64(linear.weight), np.float64(linear.bias))}


# ---------------------------------------------------------------- Torch7 objects
EMPTY = np.zeros(0)


class Writer:
    """Builds torch-rnn's objects with tensors of one class (tensor_class:
    'torch.FloatTensor', 'torch.DoubleTensor', 'torch.CudaTensor' for a
    model saved on the GPU, 'torch.CudaDoubleTensor')."""

    def __init__(self, tensor_class="torch.FloatTensor"):
        self.cls = tensor_class

    def t(self, array):
        return Tensor(np.asarray(array), self.cls)

    def empty(self):
        return Tensor(EMPTY, self.cls)

    def module(self, name, version=None, **fields):
        base = {"output": self.empty(), "gradInput": self.empty(), "train": False, "_type": self.cls}
        base.update(fields)
        return T7Object(name, base, version=version)

    def lstm(self, weight, bias, remember=True, h0=None, c0=None, output=None, cell=None):
        """LSTM.lua's object after clearState() (h0 / c0 as resetStates() leaves them)."""
        D = weight.shape[0] - weight.shape[1] // 4
        H = weight.shape[1] // 4
        grad_x = self.empty()
        return self.module(
            "nn.LSTM", input_dim=float(D), hidden_dim=float(H), weight=self.t(weight), bias=self.t(bias),
            gradWeight=self.t(np.zeros_like(weight)), gradBias=self.t(np.zeros_like(bias)),
            cell=self.empty() if cell is None else self.t(cell), gates=self.empty(), buffer1=self.empty(),
            buffer2=self.empty(), buffer3=self.empty(), grad_a_buffer=self.empty(),
            h0=self.empty() if h0 is None else self.t(h0), c0=self.empty() if c0 is None else self.t(c0),
            remember_states=remember, grad_c0=self.empty(), grad_h0=self.empty(), grad_x=grad_x,
            gradInput=grad_x, recompute_backward=False, _return_grad_c0=False, _return_grad_h0=False,
            output=self.empty() if output is None else self.t(output))

    def vanilla(self, weight, bias, remember=True, h0=None, output=None):
        D = weight.shape[0] - weight.shape[1]
        H = weight.shape[1]
        grad_x = self.empty()
        return self.module(
            "nn.VanillaRNN", input_dim=float(D), hidden_dim=float(H), weight=self.t(weight), bias=self.t(bias),
            gradWeight=self.t(np.zeros_like(weight)), gradBias=self.t(np.zeros_like(bias)),
            h0=self.empty() if h0 is None else self.t(h0), remember_states=remember, buffer1=self.empty(),
            buffer2=self.empty(), grad_h0=self.empty(), grad_x=grad_x, gradInput=grad_x,
            recompute_backward=False, _return_grad_h0=False,
            output=self.empty() if output is None else self.t(output))

    def view(self, sizes, num_input_dims):
        return self.module("nn.View", size=Storage(np.array(sizes), "torch.LongStorage"),
                           numElements=float(np.prod([s for s in sizes if s != -1])),
                           numInputDims=float(num_input_dims))

    def lookup(self, weight):
        return self.module("nn.LookupTable", version=4, weight=self.t(weight),
                           gradWeight=self.t(np.zeros_like(weight)), paddingValue=0.0,
                           shouldScaleGradByFreq=False)

    def linear(self, weight, bias):
        return self.module("nn.Linear", weight=self.t(weight), bias=self.t(bias),
                           gradWeight=self.t(np.zeros_like(weight)), gradBias=self.t(np.zeros_like(bias)))

    def batchnorm(self, mean, var, weight, bias, eps=1e-5):
        return self.module("nn.BatchNormalization", version=2, eps=eps, momentum=0.1, affine=True,
                           running_mean=self.t(mean), running_var=self.t(var), weight=self.t(weight),
                           bias=self.t(bias), gradWeight=self.t(np.zeros_like(weight)),
                           gradBias=self.t(np.zeros_like(bias)))

    def dropout(self, p):
        return self.module("nn.Dropout", p=float(p), v2=True, noise=self.empty(), inplace=False)

    def sequential(self, modules):
        return self.module("nn.Sequential", modules={i + 1: m for i, m in enumerate(modules)})

    def temporal_adapter(self, inner):
        """TemporalAdapter.lua's object (its __init never called Module's: no output / gradInput)."""
        view_in, view_out = self.view([1, -1], 3), self.view([1, -1], 2)
        net = self.sequential([view_in, inner, view_out])
        return T7Object("nn.TemporalAdapter", {"view_in": view_in, "view_out": view_out, "net": net,
                                               "train": False})

    def language_model(self, tokens, params, dropout=0.0, adapter=False, remembered=None):
        """LanguageModel.lua's object: tokens the vocabulary (token of Lua
        id k at tokens[k - 1]), params as lm_forward's.  adapter: the
        layout of March 2-4, 2016 (cc52203), TemporalAdapters instead of the
        views.  remembered: per layer, (h0, output[, c0, cell]) to save as
        a model that was not reset."""
        kinds = {kind for kind, _, _ in params["rnns"]}
        assert len(kinds) == 1
        model_type = "lstm" if kinds == {"lstm"} else "rnn"
        H = params["rnns"][0][1].shape[1] // (4 if model_type == "lstm" else 1)
        rnns, net, bn_in, bn_out = [], [self.lookup(params["embed"])], [], []
        for k, (kind, w, b) in enumerate(params["rnns"]):
            saved = remembered[k] if remembered else None
            if kind == "lstm":
                rnn = self.lstm(w, b, h0=saved and saved[0], output=saved and saved[1], c0=saved and saved[2],
                                cell=saved and saved[3])
            else:
                rnn = self.vanilla(w, b, h0=saved and saved[0], output=saved and saved[1])
            rnns.append(rnn)
            net.append(rnn)
            if params.get("bn"):
                mean, var, gamma, beta, eps = params["bn"][k]
                bn = self.batchnorm(mean, var, gamma, beta, eps)
                if adapter:
                    net.append(self.temporal_adapter(bn))
                else:
                    bn_in.append(self.view([1, 1, -1], 3))
                    bn_out.append(self.view([1, -1], 2))
                    net += [bn_in[-1], bn, bn_out[-1]]
            if dropout > 0:
                net.append(self.dropout(dropout))
        fields = {}
        if adapter:
            net.append(self.temporal_adapter(self.linear(*params["proj"])))
        else:
            fields["view1"], fields["view2"] = self.view([1, 1, -1], 3), self.view([1, -1], 2)
            net += [fields["view1"], self.linear(*params["proj"]), fields["view2"]]
        fields.update({
            "idx_to_token": {k + 1: tok for k, tok in enumerate(tokens)},
            "token_to_idx": {tok: float(k + 1) for k, tok in enumerate(tokens)},
            "vocab_size": float(len(tokens)), "model_type": model_type,
            "wordvec_dim": float(params["embed"].shape[1]), "rnn_size": float(H),
            "num_layers": float(len(rnns)), "dropout": float(dropout), "batchnorm": float(bool(params.get("bn"))),
            "net": self.sequential(net), "rnns": {i + 1: r for i, r in enumerate(rnns)}})
        if not adapter:
            fields["bn_view_in"] = {i + 1: v for i, v in enumerate(bn_in)}
            fields["bn_view_out"] = {i + 1: v for i, v in enumerate(bn_out)}
        return self.module("nn.LanguageModel", **fields)

    def checkpoint(self, model, i=10):
        """train.lua's checkpoint table around the model."""
        opt = {"input_h5": "data/tiny.h5", "input_json": "data/tiny.json", "batch_size": 2.0, "seq_length": 5.0,
               "model_type": "lstm", "wordvec_size": 4.0, "rnn_size": 5.0, "num_layers": 2.0, "dropout": 0.0,
               "batchnorm": 0.0, "max_epochs": 1.0, "learning_rate": 2e-3, "grad_clip": 5.0,
               "checkpoint_name": "cv/checkpoint", "gpu": -1.0, "gpu_backend": "cuda", "init_from": ""}
        return {"opt": opt, "train_loss_history": {1: 2.5, 2: 2.25}, "val_loss_history": {1: 2.4},
                "val_loss_history_it": {1: float(i)}, "forward_backward_times": {}, "memory_usage": {},
                "i": float(i), "model": model}
