"""Torch7 objects as the rnn package's constructors built them, to write with
t7_writer and load with nn_legacy.load_lua.

Each builder follows the Lua source of its class (Element-Research/rnn, "er",
or torch/rnn, "tr", whose LSTM / FastLSTM / GRU moved to deprecated/ and
renamed rho to seqlen): the same class names, fields and module trees,
with the weights given (in Torch7's layouts) so a test can check the loaded
module against an independent computation.  ``used=True`` adds what a module
holds after it ran a few steps (step > 1, outputs, cells, step clones).
"""
import numpy as np

from t7_writer import Storage, T7Object

EMPTY = np.zeros(0)


def table(*items):
    return {i + 1: item for i, item in enumerate(items)}


def obj(name, fields=None, **more):
    f = {"train": True, "output": EMPTY, "gradInput": EMPTY, "_type": "torch.DoubleTensor"}
    f.update(fields or {})
    f.update(more)
    return T7Object(f"nn.{name}", f)


def seq(*modules):
    return obj("Sequential", modules=table(*modules))


def concat(*modules):
    return obj("ConcatTable", modules=table(*modules), output={})


def para(*modules):
    return obj("ParallelTable", modules=table(*modules), output={}, gradInput={})


def linear(w, b):
    return obj("Linear", weight=w, bias=b, gradWeight=np.full_like(w, np.nan), gradBias=np.full_like(b, np.nan))


def linear_no_bias(w, flavour="er"):
    """rnn's LinearNoBias (er), or torch/rnn's nn.Linear(...):noBias() (tr)."""
    if flavour == "tr":
        return obj("Linear", weight=w, gradWeight=np.zeros_like(w))
    return obj("LinearNoBias", weight=w, gradWeight=np.zeros_like(w))


def cmul(w):
    return obj("CMul", weight=w, gradWeight=np.zeros_like(w), size=np.array([float(w.size)]))


def dropout():
    """rnn's lazy Dropout with p = 0, as its LSTM / GRU put before each Linear."""
    return obj("Dropout", p=0.0, v2=True, noise=EMPTY, lazy=True, mono=False, flag=True)


def reshape(*sizes):
    """nn.Reshape(...) as torch/nn's constructor made it: size and batchsize
    (1 then the sizes) LongStorages, nelement."""
    return obj("Reshape", size=Storage(np.array(sizes), "torch.LongStorage"),
               batchsize=Storage(np.array((1,) + sizes), "torch.LongStorage"), nelement=float(np.prod(sizes)))


def join_table(dimension, n_input_dims):
    """nn.JoinTable as torch/nn's constructor made it: its size, an empty LongStorage."""
    return obj("JoinTable", dimension=dimension, nInputDims=n_input_dims,
               size=Storage(np.zeros(0, np.int64), "torch.LongStorage"))


def add_module(bias):
    """nn.Add (a vector bias) as torch/nn's constructor made it: its _ones, a one-element tensor of 1."""
    return obj("Add", bias=bias, gradBias=np.zeros_like(bias), scalar=False, _ones=np.ones(1))


def simple(name, **fields):
    return obj(name, **fields)


# ---------------------------------------------------------------- cells
def _recurrent_fields(step, rho, flavour, used, size_fields):
    """The AbstractRecurrent fields around a step module."""
    fields = dict(size_fields)
    fields.update({"outputs": {}, "gradInputs": {}, "_gradOutputs": {}, "gradOutputs": {}, "step": 1.0,
                   "modules": table(step), "sharedClones": table(step)})
    if flavour == "er":
        fields.update({"rho": float(rho), "recurrentModule": step})
    else:
        fields.update({"seqlen": float(rho)})
    if used:
        H = int(size_fields.get("outputSize", 2))
        fields.update({"step": 4.0, "outputs": table(*(np.full((2, H), 0.5) for _ in range(3))),
                       "sharedClones": {1: step, 2: step, 3: step}, "updateGradInputStep": 2.0})
    return fields


def fast_lstm_step_nn(i2g, o2g, H):
    """FastLSTM.buildModel without nngraph."""
    gates = seq(obj("NarrowTable", offset=1.0, length=2.0), para(i2g, o2g), obj("CAddTable"),
                reshape(4, H),
                obj("SplitTable", dimension=1.0, nInputDims=2.0),
                para(obj("Sigmoid"), obj("Tanh"), obj("Sigmoid"), obj("Sigmoid")))
    hidden = seq(obj("NarrowTable", offset=1.0, length=2.0), obj("CMulTable"))
    cell = seq(concat(obj("SelectTable", index=3.0), obj("SelectTable", index=5.0)), obj("CMulTable"))
    next_cell = seq(concat(hidden, cell), obj("CAddTable"))
    cell_act = seq(obj("SelectTable", index=1.0), obj("Tanh"))
    output = seq(concat(cell_act, obj("SelectTable", index=2.0)), obj("CMulTable"))
    return seq(concat(gates, obj("SelectTable", index=3.0)), obj("FlattenTable"),
               concat(next_cell, obj("SelectTable", index=4.0)), obj("FlattenTable"),
               concat(output, obj("SelectTable", index=1.0)))


def _node(module=None, **data):
    """An nngraph.Node as gModules hold them (never converted: raw)."""
    d = dict(data)
    if module is not None:
        d["module"] = module
    return T7Object("nngraph.Node", {"data": d, "id": float(len(data) + 1), "children": {}, "visited": False,
                                     "marked": False})


def fast_lstm_step_nngraph(i2g, o2g, H):
    """FastLSTM.nngraphModel: a gModule; its modules table in graph order
    (o2g's node may come first), with nodes and graphs as nngraph saved them."""
    mods = [obj("Identity"), obj("Identity"), obj("Identity"), o2g, i2g, obj("CAddTable"),
            reshape(4, H), obj("SplitTable", dimension=2.0),
            obj("Sigmoid"), obj("Tanh"), obj("Sigmoid"), obj("Sigmoid"), obj("CMulTable"), obj("CMulTable"),
            obj("CAddTable"), obj("Tanh"), obj("CMulTable")]
    nodes = [_node(m, annotations={"name": f"n{k}"}) for k, m in enumerate(mods)]
    graph = T7Object("graph.Graph", {"nodes": table(*nodes), "edges": {}})
    return T7Object("nn.gModule", {"modules": table(*mods), "forwardnodes": table(*nodes),
                                   "backwardnodes": table(*reversed(nodes)), "innode": nodes[0],
                                   "outnode": nodes[-1], "fg": graph, "bg": graph, "nInputs": 3.0,
                                   "verbose": False, "train": True, "output": {}, "gradInput": {}})


def fast_lstm(W, U, b, rho=9999, flavour="er", nngraph=False, used=False, mask=None):
    """nn.FastLSTM(D, H): i2g = Linear(W [4H, D], b), o2g = LinearNoBias(U [4H, H]),
    gate blocks i, z, f, o; nngraph: FastLSTM.usenngraph = true; mask: maskZero(mask)."""
    H, D = U.shape[1], W.shape[1]
    i2g, o2g = linear(W, b), linear_no_bias(U, flavour)
    step = (fast_lstm_step_nngraph if nngraph else fast_lstm_step_nn)(i2g, o2g, H)
    if mask is not None:
        step = obj("MaskZero", modules=table(step), module=step, nInputDim=float(mask))
    fields = _recurrent_fields(step, rho, flavour, used, {"inputSize": float(D), "outputSize": float(H)})
    fields.update({"p": 0.0, "mono": False, "cell2gate": True, "zeroTensor": EMPTY, "cells": {},
                   "gradCells": {}, "i2g": i2g, "o2g": o2g, "affine": True})
    return obj("FastLSTM", fields)


def lstm_gate(Wx, bx, Wh, wc, cell2gate=True, flavour="er"):
    """LSTM.buildGate: sigmoid(Linear(x) + LinearNoBias(h) [+ CMul(c)])."""
    branches = [seq(dropout(), linear(Wx, bx)), seq(dropout(), linear_no_bias(Wh, flavour))]
    parts = [] if cell2gate else [obj("NarrowTable", offset=1.0, length=2.0)]
    if cell2gate:
        branches.append(cmul(wc))
    return seq(*parts, para(*branches), obj("CAddTable"), obj("Sigmoid"))


def lstm(weights, rho=9999, cell2gate=True, used=False, flavour="er"):
    """nn.LSTM(D, H) (Element-Research, or torch/rnn's deprecated/LSTM.lua
    with flavour "tr"): weights[g] = (Wx, bx, Wh, wc) for the gates 'i',
    'f', 'o' and (Wx, bx, Wh) for the hidden 'z'."""
    Wx = weights["i"][0]
    H, D = Wx.shape
    input_gate = lstm_gate(*weights["i"], cell2gate=cell2gate, flavour=flavour)
    forget_gate = lstm_gate(*weights["f"], cell2gate=cell2gate, flavour=flavour)
    output_gate = lstm_gate(*weights["o"], cell2gate=cell2gate, flavour=flavour)
    zx, zb, zh = weights["z"]
    hidden = seq(obj("NarrowTable", offset=1.0, length=2.0),
                 para(seq(dropout(), linear(zx, zb)), seq(dropout(), linear_no_bias(zh, flavour))), obj("CAddTable"),
                 obj("Tanh"))
    forget = seq(concat(forget_gate, obj("SelectTable", index=3.0)), obj("CMulTable"))
    inp = seq(concat(input_gate, hidden), obj("CMulTable"))
    cell = seq(concat(forget, inp), obj("CAddTable"))
    cell_act = seq(obj("SelectTable", index=3.0), obj("Tanh"))
    output = seq(concat(output_gate, cell_act), obj("CMulTable"))
    step = seq(concat(obj("NarrowTable", offset=1.0, length=2.0), cell), obj("FlattenTable"),
               concat(output, obj("SelectTable", index=3.0)))
    fields = _recurrent_fields(step, rho, flavour, used, {"inputSize": float(D), "outputSize": float(H)})
    fields.update({"p": 0.0, "mono": False, "cell2gate": cell2gate, "zeroTensor": EMPTY, "cells": {},
                   "gradCells": {}, "inputGate": input_gate, "forgetGate": forget_gate, "hiddenLayer": hidden,
                   "outputGate": output_gate, "cellLayer": cell})
    return obj("LSTM", fields)


def gru(Wg, bg, Ug, Wn, bn, Un, rho=9999, flavour="er", used=False):
    """nn.GRU(D, H): i2g = Linear(Wg [2H, D], bg) (r then z), o2g =
    LinearNoBias(Ug), candidate Linear(Wn, bn) and LinearNoBias(Un) on r * h."""
    H, D = Un.shape[0], Wn.shape[1]
    i2g, o2g = linear(Wg, bg), linear_no_bias(Ug, flavour)
    gates = seq(para(i2g, o2g), obj("CAddTable"), reshape(2, H),
                obj("SplitTable", dimension=1.0, nInputDims=2.0), para(obj("Sigmoid"), obj("Sigmoid")))
    t1 = seq(obj("SelectTable", index=1.0), linear(Wn, bn))
    t2 = seq(obj("NarrowTable", offset=2.0, length=2.0), obj("CMulTable"), linear_no_bias(Un, flavour))
    hidden = seq(concat(t1, t2), obj("CAddTable"), obj("Tanh"))
    z1 = seq(obj("SelectTable", index=4.0), obj("SAdd", addend=-1.0, negate=True))
    z2 = seq(obj("NarrowTable", offset=4.0, length=2.0), obj("CMulTable"))
    o1 = seq(concat(hidden, z1), obj("CMulTable"))
    o2 = seq(concat(o1, z2), obj("CAddTable"))
    step = seq(concat(obj("Identity"), gates), obj("FlattenTable"),
               concat(obj("NarrowTable", offset=1.0, length=4.0), obj("SelectTable", index=2.0)),
               obj("FlattenTable"), o2)
    fields = _recurrent_fields(step, rho, flavour, used, {"inputSize": float(D), "outputSize": float(H)})
    fields.update({"p": 0.0, "mono": False, "zeroTensor": EMPTY, "cells": {}, "gradCells": {}, "i2g": i2g,
                   "o2g": o2g})
    return obj("GRU", fields)


def recurrent(start_bias, Wi, bi, Wf, bf, rho=9999, used=False):
    """nn.Recurrent(H, Linear(D, H), Linear(H, H), Tanh(), rho)."""
    start = add_module(start_bias)
    inp, fb, transfer, merge = linear(Wi, bi), linear(Wf, bf), obj("Tanh"), obj("CAddTable")
    initial = seq(linear(Wi, bi), start, obj("Tanh"))
    rec = seq(para(inp, fb), merge, transfer)
    fields = {"rho": float(rho), "outputs": {}, "gradInputs": {}, "_gradOutputs": {}, "gradOutputs": {},
              "step": 1.0, "startModule": start, "inputModule": inp, "feedbackModule": fb, "transferModule": transfer,
              "mergeModule": merge, "modules": table(start, inp, fb, transfer, merge), "initialModule": initial,
              "recurrentModule": rec, "sharedClones": {2: rec}}
    if used:
        fields.update({"step": 3.0, "sharedClones": {2: rec, 3: rec}})
    return obj("Recurrent", fields)


def recursor(module, rho=9999999, flavour="er"):
    fields = _recurrent_fields(module, rho, flavour, False, {})
    if flavour == "er":
        fields["module"] = module
    return obj("Recursor", fields)


# ---------------------------------------------------------------- sequencers
RECURRENT = ("nn.FastLSTM", "nn.LSTM", "nn.GRU", "nn.Recurrent", "nn.Recursor")


def sequencer(module, flavour="er", remember="neither"):
    """nn.Sequencer(module): a module that is not recurrent goes in a Recursor."""
    if module.class_name not in RECURRENT:
        module = recursor(module, flavour=flavour)
    fields = {"modules": table(module), "output": {}, "tableoutput": {}, "tablegradInput": {}, "_output": {},
              "_remember": remember, "gradInput": {}}
    if flavour == "er":
        fields.update({"module": module, "dpnn_mediumEmpty": table("output", "gradInput", "_output")})
    return obj("Sequencer", fields)


def repeater(module, rho, flavour="er"):
    fields = {"module": module, "modules": table(module), "output": {}}
    fields["rho" if flavour == "er" else "seqlen"] = float(rho)
    return obj("Repeater", fields)


def bisequencer(fwd, bwd, merge=None):
    """BiSequencer (Element-Research): three Sequencers inside a Sequential
    with dpnn's ReverseTable and ZipTable."""
    merge = merge or join_table(1.0, 1.0)
    fwd_seq, bwd_seq, merge_seq = sequencer(fwd), sequencer(bwd), sequencer(merge)
    backward = seq(obj("ReverseTable"), bwd_seq, obj("ReverseTable"))
    brnn = seq(concat(fwd_seq, backward), obj("ZipTable"), merge_seq)
    return obj("BiSequencer", {"forwardModule": fwd, "backwardModule": bwd, "mergeModule": merge,
                               "fwdSeq": fwd_seq, "bwdSeq": bwd_seq, "mergeSeq": merge_seq, "module": brnn,
                               "modules": table(brnn), "output": {}, "gradInput": {}})


def bisequencer_lm(fwd, bwd, merge=None):
    merge = merge or join_table(1.0, 1.0)
    fwd_seq, bwd_seq, merge_seq = sequencer(fwd), sequencer(bwd), sequencer(merge)
    _bwd = seq(obj("ReverseTable"), bwd_seq, obj("ReverseTable"))
    _merge = seq(obj("ZipTable"), merge_seq)
    return obj("BiSequencerLM", {"forwardModule": fwd, "backwardModule": bwd, "mergeModule": merge,
                                 "fwdSeq": fwd_seq, "bwdSeq": bwd_seq, "mergeSeq": merge_seq, "_fwd": fwd_seq,
                                 "_bwd": _bwd, "_merge": _merge, "modules": table(fwd_seq, _bwd, _merge),
                                 "output": {}, "gradInput": {}})


def seq_lstm(weight, bias, flavour="er", batchfirst=False, maskzero=False, old=False):
    """nn.SeqLSTM(D, H): weight [D + H, 4H] (gates i, f, o, z), bias [4H].
    old: a file from before SeqLSTM had hiddensize (and batchfirst, maskzero)."""
    D = weight.shape[0] - weight.shape[1] // 4
    H = weight.shape[1] // 4
    fields = {"inputsize": float(D), "outputsize": float(H), "weight": weight, "bias": bias,
              "gradWeight": np.zeros_like(weight), "gradBias": np.zeros_like(bias), "cell": EMPTY, "gates": EMPTY,
              "buffer1": EMPTY, "buffer2": EMPTY, "buffer3": EMPTY, "grad_a_buffer": EMPTY, "h0": EMPTY,
              "c0": EMPTY, "_remember": "neither"}
    if not old:
        fields.update({"hiddensize": float(H), "maskzero": maskzero})
    if flavour == "er" and not old:
        fields.update({"grad_c0": EMPTY, "grad_h0": EMPTY, "grad_x": EMPTY, "batchfirst": batchfirst,
                       "gradInput": table(EMPTY, EMPTY, EMPTY)})
    if flavour == "tr":
        fields["v2"] = True
    return obj("SeqLSTM", fields)


def seq_gru(weight, bias, flavour="er"):
    D = weight.shape[0] - weight.shape[1] // 3
    H = weight.shape[1] // 3
    names = ("inputSize", "outputSize") if flavour == "er" else ("inputsize", "outputsize")
    fields = {names[0]: float(D), names[1]: float(H), "weight": weight, "bias": bias,
              "gradWeight": np.zeros_like(weight), "gradBias": np.zeros_like(bias), "gates": EMPTY,
              "buffer1": EMPTY, "buffer2": EMPTY, "buffer3": EMPTY, "grad_a_buffer": EMPTY, "h0": EMPTY,
              "_remember": "neither", "maskzero": False}
    if flavour == "er":
        fields.update({"seqLength": 1.0, "miniBatch": 1.0, "batchfirst": False, "grad_h0": EMPTY,
                       "grad_x": EMPTY})
    else:
        fields["v2"] = True
    return obj("SeqGRU", fields)


def gru_nngraph(Wg, bg, Ug, Wn, bn, Un):
    """A GRU object whose step module is a gModule listing its modules in
    graph order (candidate layers first), without i2g / o2g fields: the
    layers must be told apart by their sizes and biases."""
    f = gru(Wg, bg, Ug, Wn, bn, Un)
    mods = [obj("Identity"), obj("Identity"), linear_no_bias(Un), linear(Wn, bn), linear_no_bias(Ug),
            linear(Wg, bg), obj("CAddTable"), obj("Sigmoid"), obj("Tanh")]
    nodes = [_node(m) for m in mods]
    step = T7Object("nn.gModule", {"modules": table(*mods), "forwardnodes": table(*nodes), "innode": nodes[0],
                                   "outnode": nodes[-1], "nInputs": 2.0, "train": True})
    for name in ("i2g", "o2g"):
        del f.fields[name]
    f.fields.update({"recurrentModule": step, "modules": table(step), "sharedClones": table(step)})
    return f


# ---------------------------------------------------------------- issue 27: the rest of the package
def batch_norm(n, weight=None, bias=None, mean=None, var=None, eps=1e-5, momentum=0.1, old=False):
    """nn.BatchNormalization(n) as nn saved it: class version 2 (running_var),
    or old = the 2015 version 1 (running_std = 1 / sqrt(var + eps))."""
    mean = np.zeros(n) if mean is None else mean
    var = np.ones(n) if var is None else var
    fields = {"eps": eps, "momentum": momentum, "affine": weight is not None, "running_mean": mean,
              "save_mean": EMPTY, "save_std": EMPTY}
    if old:
        fields["running_std"] = 1 / np.sqrt(var + eps)
    else:
        fields["running_var"] = var
    if weight is not None:
        fields.update({"weight": weight, "bias": bias, "gradWeight": np.zeros_like(weight),
                       "gradBias": np.zeros_like(bias)})
    return T7Object("nn.BatchNormalization", _module_fields(fields), version=1 if old else 2)


def _module_fields(fields):
    f = {"train": True, "output": EMPTY, "gradInput": EMPTY, "_type": "torch.DoubleTensor"}
    f.update(fields)
    return f


def fast_lstm_bn_step(i2g, o2g, bns, add, H, names=True):
    """FastLSTM.nngraphModel with bn = true: a gModule whose modules table is
    in graph order.  bns = (bn_wx, bn_wh, bn_c).  names: the nodes carry the
    annotations FastLSTM gave them (bn_wx, bn_wh, bn_c); without, only the
    graph tells BN_h (its node feeds the nn.Add) from BN_x."""
    bn_wx, bn_wh, bn_c = bns
    mods = [("x", obj("Identity")), ("h", obj("Identity")), ("c", obj("Identity")), ("h2h", o2g),
            ("bn_wh", bn_wh), ("add", add), ("i2h", i2g), ("bn_wx", bn_wx), ("sums", obj("CAddTable")),
            ("reshape", reshape(4, H)),
            ("split", obj("SplitTable", dimension=2.0)), ("in_gate", obj("Sigmoid")),
            ("in_transform", obj("Tanh")), ("forget_gate", obj("Sigmoid")), ("out_gate", obj("Sigmoid")),
            ("fc", obj("CMulTable")), ("iz", obj("CMulTable")), ("next_c", obj("CAddTable")), ("bn_c", bn_c),
            ("tanh_c", obj("Tanh")), ("next_h", obj("CMulTable"))]
    nodes = {}
    for name, m in mods:
        data = {"module": m}
        if names and name.startswith("bn_"):
            data["annotations"] = {"name": name}
        nodes[name] = T7Object("nngraph.Node", {"data": data, "children": {}, "id": float(len(nodes) + 1),
                                                "visited": False, "marked": False})
    edges = [("h", "h2h"), ("h2h", "bn_wh"), ("bn_wh", "add"), ("x", "i2h"), ("i2h", "bn_wx"), ("bn_wx", "sums"),
             ("add", "sums"), ("next_c", "bn_c"), ("bn_c", "tanh_c")]
    for a, b in edges:
        children = nodes[a].fields["children"]
        children[len(children) + 1] = nodes[b]
    ordered = [nodes[name] for name, _ in mods]
    return T7Object("nn.gModule", {"modules": table(*(m for _, m in mods)), "forwardnodes": table(*ordered),
                                   "backwardnodes": table(*reversed(ordered)), "innode": ordered[0],
                                   "outnode": ordered[-1], "nInputs": 3.0, "verbose": False, "train": True,
                                   "output": {}, "gradInput": {}})


def fast_lstm_bn(W, U, b, bias, bns, rho=9999, flavour="er", names=True, fields=True, used=False):
    """nn.FastLSTM(D, H) built while FastLSTM.bn = true: bns = (bn_wx, bn_wh,
    bn_c) raw BatchNormalizations, bias the nn.Add's [4H].  fields=False: a
    file without the i2g / o2g fields (the layers told apart by their sizes)."""
    H, D = U.shape[1], W.shape[1]
    i2g, o2g = linear(W, b), linear_no_bias(U, flavour)
    add = add_module(bias)
    step = fast_lstm_bn_step(i2g, o2g, bns, add, H, names)
    f = _recurrent_fields(step, rho, flavour, used, {"inputSize": float(D), "outputSize": float(H)})
    f.update({"p": 0.0, "mono": False, "cell2gate": True, "zeroTensor": EMPTY, "cells": {}, "gradCells": {},
              "affine": True})
    if fields:
        f.update({"i2g": i2g, "o2g": o2g})
    return obj("FastLSTM", f)


def sequencer_criterion(criterion, size_average=False, flavour="er", steps=0):
    """nn.SequencerCriterion(criterion): Element-Research kept it as
    ``criterion`` (clones: the steps' clones made so far); torch/rnn
    (AbstractSequencerCriterion) as clones[1] only."""
    if flavour == "er":
        fields = {"criterion": criterion, "sizeAverage": size_average, "clones": table(*[criterion] * steps),
                  "gradInput": {}, "output": 0.0}
    else:
        fields = {"clones": table(*[criterion] * max(steps, 1)), "sizeAverage": size_average,
                  "gradInput": EMPTY, "output": 0.0}
    return T7Object("nn.SequencerCriterion", fields)


def criterion(name, **fields):
    f = {"sizeAverage": True, "output": 0.0, "gradInput": EMPTY}
    f.update(fields)
    return T7Object(f"nn.{name}", f)


def mask_zero_criterion(inner, n_input_dim=None, flavour="er", zero_mask=None):
    """nn.MaskZeroCriterion(criterion, nInputDim) (Element-Research), or
    torch/rnn's MaskZeroCriterion(criterion) (v2 = true, zeroMask set by
    setZeroMask; after a run it is still in the file)."""
    fields = {"criterion": inner, "output": 0.0, "gradInput": EMPTY}
    if flavour == "er":
        fields.update({"nInputDim": float(n_input_dim), "zeroMask": np.zeros(0, dtype=np.int64),
                       "_zeroMask": EMPTY})
    else:
        fields["v2"] = True
        if zero_mask is not None:
            fields["zeroMask"] = zero_mask
    return T7Object("nn.MaskZeroCriterion", fields)


def lookup_table_mask_zero(weight, used=False):
    """nn.LookupTableMaskZero(nIndex, nOutput): a LookupTable of nIndex + 1
    rows (row 1, Lua's index 0, the padding); after a run it holds __input."""
    f = {"weight": weight, "gradWeight": np.zeros_like(weight), "paddingValue": 0.0,
         "shouldScaleGradByFreq": False}
    if used:
        f["__input"] = np.array([[1.0, 3.0]])
    return obj("LookupTableMaskZero", f)


def step_lstm(weight, bias, early=False, maskzero=False, weight_o=None):
    """torch/rnn's nn.StepLSTM(inputsize, hiddensize[, outputsize]); early: the
    April 2017 class (no hiddensize, no v2)."""
    G = weight.shape[1]
    H = G // 4
    D = weight.shape[0] - (H if weight_o is None else weight_o.shape[1])
    fields = {"inputsize": float(D), "outputsize": float(H if weight_o is None else weight_o.shape[1]),
              "weight": weight, "bias": bias, "gradWeight": np.zeros_like(weight), "gradBias": np.zeros_like(bias),
              "gates": EMPTY, "output": table(EMPTY, EMPTY), "gradInput": table(EMPTY, EMPTY, EMPTY),
              "maskzero": maskzero}
    if not early:
        fields.update({"hiddensize": float(H), "v2": True})
    if weight_o is not None:
        fields.update({"weightO": weight_o, "gradWeightO": np.zeros_like(weight_o)})
    return obj("StepLSTM", fields)


def step_gru(weight, bias, maskzero=False):
    H = weight.shape[1] // 3
    fields = {"inputsize": float(weight.shape[0] - H), "outputsize": float(H), "weight": weight, "bias": bias,
              "gradWeight": np.zeros_like(weight), "gradBias": np.zeros_like(bias), "gates": EMPTY,
              "gradInput": table(EMPTY, EMPTY), "maskzero": maskzero, "v2": True}
    return obj("StepGRU", fields)


def rec_lstm(step, seqlen=9999, early=False, used=False):
    """torch/rnn's nn.RecLSTM around a raw StepLSTM: the AbstractRecurrent(stepmodule)
    layout of May 2017 on, or early = the April 2017 RecLSTM (an nn.LSTM
    subclass: inputSize, outputSize, rho, recurrentModule)."""
    D, H = step.fields["inputsize"], step.fields["outputsize"]
    if early:
        fields = _recurrent_fields(step, seqlen, "er", used, {"inputSize": D, "outputSize": H})
        fields.update({"p": 0.0, "mono": False, "cell2gate": True, "zeroTensor": EMPTY, "cells": {},
                       "gradCells": {}})
    else:
        fields = _recurrent_fields(step, seqlen, "tr", used, {"inputsize": D, "outputsize": H,
                                                             "hiddensize": step.fields.get("hiddensize", H)})
        fields.update({"cells": {}, "gradCells": {}, "zeroOutput": EMPTY, "zeroCell": EMPTY})
    return obj("RecLSTM", fields)


def rec_gru(step, seqlen=9999, used=False):
    D, H = step.fields["inputsize"], step.fields["outputsize"]
    fields = _recurrent_fields(step, seqlen, "tr", used, {"inputsize": D, "outputsize": H})
    fields["zeroOutput"] = EMPTY
    return obj("RecGRU", fields)


def recurrence(step, output_size, n_input_dim, rho=9999, flavour="er", used=False):
    """nn.Recurrence(stepmodule, outputSize, nInputDim[, rho]): outputSize as
    Lua kept it ({n} for a number, a table of sizes, or a LongStorage)."""
    fields = _recurrent_fields(step, rho, flavour, used, {})
    fields.update({"outputSize": output_size, "nInputDim": float(n_input_dim), "typeTensor": EMPTY})
    if flavour == "er":
        fields["module"] = step
    if used:
        fields["zeroTensor"] = np.zeros((2, 4))
    return obj("Recurrence", fields)


def seq_lstm_raw(weight, bias, batch_first=None):
    f = seq_lstm(weight, bias)
    if batch_first is not None:
        f.fields["batchFirst"] = batch_first
    return f


def seq_brnn(fwd, bwd, batch_first=False, merge=None, early=False):
    """nn.SeqBRNN(inputDim, hiddenDim, batchFirst, merge) around two raw
    SeqLSTMs.  early: the first SeqBRNN (April 19, 2016), which set
    batchFirst on its SeqLSTMs and reversed dim 2, with no Transpose."""
    merge = merge or obj("CAddTable")
    dim = 2.0 if (early and batch_first) else 1.0
    backward = seq(obj("SeqReverseSequence", dim=dim), bwd, obj("SeqReverseSequence", dim=dim))
    parts = [concat(fwd, backward), merge]
    if batch_first and not early:
        parts = [obj("Transpose", permutations=table(table(1.0, 2.0)))] + parts + \
            [obj("Transpose", permutations=table(table(1.0, 2.0)))]
    brnn = seq(*parts)
    fields = {"forwardModule": fwd, "backwardModule": bwd, "merge": merge, "dim": dim, "module": brnn,
              "modules": table(brnn)}
    return obj("SeqBRNN", fields)


def reverse_unreverse(module, used=False):
    """torch/rnn's nn.ReverseUnreverse(sequencer): a Decorator of
    Sequential(ReverseSequence(), sequencer, ReverseSequence()); used: the
    reversals hold the _range of the last sequence (seqlen .. 1)."""
    def reverse():
        return obj("ReverseSequence", _range=np.arange(5, 0, -1).astype(np.int64)) if used else obj("ReverseSequence")
    return obj("ReverseUnreverse", modules=table(seq(reverse(), module, reverse())))


def seq_bidirectional(name, fwd, bwd, merge=None, used=False):
    """torch/rnn's nn.SeqBLSTM / nn.SeqBGRU (BiSequencer.__init): modules[1]
    = Sequential(ConcatTable(fwd, ReverseUnreverse(bwd)), merge), merge a
    CAddTable unless given; nothing else of its own."""
    brnn = seq(concat(fwd, reverse_unreverse(bwd, used)), merge or obj("CAddTable"))
    return obj(name, modules=table(brnn))


def bisequencer_whole(fwd, bwd, merge=None, used=False):
    """torch/rnn's nn.BiSequencer(forward, backward, merge) (2017, the only
    layout of that package): forward and backward go in Sequencers unless
    isSeq says they take whole sequences (an AbstractSequencer, or a class
    name matching 'nn.Seq.+'), then seq_bidirectional's tree, merge a
    CAddTable unless given; the object holds modules[1] alone."""
    def as_seq(m):
        whole = m.class_name in ("nn.Sequencer", "nn.Repeater", "nn.BiSequencer") or \
            m.class_name.startswith("nn.Seq") and len(m.class_name) > len("nn.Seq")
        return m if whole else sequencer(m, flavour="tr")
    return seq_bidirectional("BiSequencer", as_seq(fwd), as_seq(bwd), merge, used)


def linear_rnn(W, b, used=False):
    """torch/rnn's nn.LinearRNN(inputsize, outputsize): a Recurrence of
    Sequential(JoinTable(1, 1), Linear(W [H, D + H], b), Sigmoid), nInputDim 1."""
    H, DH = W.shape
    step = seq(join_table(1.0, 1.0), linear(W, b), obj("Sigmoid"))
    f = recurrence(step, table(float(H)), 1, flavour="tr", used=used)
    f.fields.update({"inputsize": float(DH - H), "outputsize": float(H)})
    f.class_name = "nn.LinearRNN"
    return f


def lookup_rnn(E, W, b, used=False):
    """torch/rnn's nn.LookupRNN(nindex, outputsize): a Recurrence of
    Sequential(ParallelTable(LookupTableMaskZero(E: nindex + 1 rows, row 1
    the padding), Linear(W [H, H], b)), CAddTable, Sigmoid), nInputDim 0."""
    H = W.shape[0]
    step = seq(para(lookup_table_mask_zero(E), linear(W, b)), obj("CAddTable"), obj("Sigmoid"))
    f = recurrence(step, table(float(H)), 0, flavour="tr", used=used)
    f.fields.update({"nindex": float(E.shape[0] - 1), "outputsize": float(H)})
    f.class_name = "nn.LookupRNN"
    return f
