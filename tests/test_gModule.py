"""nn.gModule: nngraph graphs lowered into containers, loaded from the byte
layout nngraph saved (tests/nngraph_port.py builds it the way gmodule.lua
did) and equal to nngraph's own evaluation (the port's evaluator walks the
raw node graph as gmodule.lua does), and built in Python the nngraph way."""
import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from nngraph_port import Graph, Run, node, split
from nn_legacy.serialization.t7 import T7Error
from t7_damage import load_damaged
from t7_writer import T7Object, t7_bytes
from cuda_devices import emulator_only

RNG = np.random.default_rng(26)


def _u(*shape):
    return RNG.uniform(-1, 1, shape)


def lin(n_in, n_out, bias=True):
    w = _u(n_out, n_in)
    return F.linear(w, _u(n_out)) if bias else F.linear_no_bias(w, "tr")


def load(tmp_path, value, name="g.t7"):
    path = tmp_path / name
    path.write_bytes(t7_bytes(value))
    return nn.load_lua(str(path))


def _close(a, b, what):
    if isinstance(a, (list, tuple)):
        assert isinstance(b, (list, tuple)) and len(a) == len(b), what
        for i, (x, y) in enumerate(zip(a, b)):
            _close(x, y, f"{what}[{i}]")
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, f"{what}: {a.shape} vs {b.shape}"
    scale = max(1.0, float(np.abs(b).max(initial=0)))
    assert float(np.abs(a - b).max(initial=0)) <= 1e-12 * scale, f"{what}: max error {np.abs(a - b).max()}"


def _pairs(graph, model):
    """(port module T7Object, loaded module) in graph order, into nested graphs."""
    out = []
    for raw, m in zip(graph.modules(), model.graph_modules):
        sub = next((n.sub for n in graph.order if n.data.get("module") is raw), None)
        if isinstance(m, nn.gModule) and sub is not None:
            out += _pairs(sub, m)
        else:
            out.append((raw, m))
    return out


def _copy(v):
    return [_copy(x) for x in v] if isinstance(v, list) else np.array(v)


def check_equal_to_nngraph(tmp_path, graph, x, gradOutput, model=None):
    """The lowered model's output, gradInput and every parameter gradient
    equal what nngraph computes (float64, 1e-12 relative)."""
    model = load(tmp_path, graph.t7()) if model is None else model
    assert isinstance(model, nn.gModule)
    run = Run(graph)
    want = run.forward(_copy(x))
    want_gi = run.backward(_copy(gradOutput))
    model.zeroGradParameters()
    got = model.forward(_copy(x))
    _close(got, want, "output")
    got_gi = model.backward(_copy(x), _copy(gradOutput))
    _close(got_gi, want_gi, "gradInput")
    checked = 0
    for raw, m in _pairs(graph, model):
        grads = run.grads.get(id(raw), {})
        for name, gname in (("weight", "gradWeight"), ("bias", "gradBias")):
            if getattr(m, name, None) is not None:
                _close(getattr(m, gname), grads.get(name, 0 * getattr(m, name)), f"{type(m).__name__}.{gname}")
                checked += 1
    return model, checked


# ---------------------------------------------------------------- graphs as people built them
def lstm_cell(n_in, H, layout="split", **kw):
    """char-rnn's LSTM.lua: {x, prev_c, prev_h} -> {next_c, next_h}."""
    x, prev_c, prev_h = node(F.obj("Identity")), node(F.obj("Identity")), node(F.obj("Identity"))
    all_sums = node(F.obj("CAddTable"), node(lin(n_in, 4 * H), x), node(lin(H, 4 * H), prev_h))
    if layout == "split":
        reshaped = node(F.obj("Reshape", size=np.array([4.0, H]), nelement=4.0 * H), all_sums)
        n1, n2, n3, n4 = split(node(F.obj("SplitTable", dimension=2.0), reshaped), 4)
    else:     # the older layout: four Narrows of the sums
        n1, n2, n3, n4 = (node(F.obj("Narrow", dimension=2.0, index=float(1 + i * H), length=float(H)), all_sums)
                          for i in range(4))
    in_gate, forget_gate, out_gate = (node(F.obj("Sigmoid"), n) for n in (n1, n2, n3))
    in_transform = node(F.obj("Tanh"), n4)
    next_c = node(F.obj("CAddTable"), node(F.obj("CMulTable"), forget_gate, prev_c),
                  node(F.obj("CMulTable"), in_gate, in_transform))
    next_h = node(F.obj("CMulTable"), out_gate, node(F.obj("Tanh"), next_c))
    return Graph([x, prev_c, prev_h], [next_c, next_h], **kw)


def gru_cell(n_in, H):
    """char-rnn's GRU.lua: {x, prev_h} -> next_h."""
    x, prev_h = node(F.obj("Identity")), node(F.obj("Identity"))

    def new_input_sum(a, b):
        return node(F.obj("CAddTable"), node(lin(n_in, H), a), node(lin(H, H), b))
    update_gate = node(F.obj("Sigmoid"), new_input_sum(x, prev_h))
    reset_gate = node(F.obj("Sigmoid"), new_input_sum(x, prev_h))
    gated_hidden = node(F.obj("CMulTable"), reset_gate, prev_h)
    p2 = node(lin(H, H), gated_hidden)
    p1 = node(lin(n_in, H), x)
    candidate = node(F.obj("Tanh"), node(F.obj("CAddTable"), p1, p2))
    zh = node(F.obj("CMulTable"), update_gate, candidate)
    one_minus = node(F.obj("AddConstant", constant_scalar=1.0, inplace=False),
                     node(F.obj("MulConstant", constant_scalar=-1.0, inplace=False), update_gate))
    zhm1 = node(F.obj("CMulTable"), one_minus, prev_h)
    return Graph([x, prev_h], [node(F.obj("CAddTable"), zh, zhm1)])


def encoder_decoder(n):
    """A pix2pix-shaped graph with Linear layers: in-place LeakyReLUs ahead of
    the skips (the skip reads the value the LeakyReLU changed)."""
    x = node(F.obj("Identity"))
    e1 = node(lin(n, n), x)
    e2 = node(lin(n, n), node(F.obj("LeakyReLU", negval=0.2, inplace=True), e1))
    e3 = node(lin(n, n), node(F.obj("LeakyReLU", negval=0.2, inplace=True), e2))
    d1 = node(F.obj("JoinTable", dimension=2.0), node(lin(n, n), e3), e2)
    d2 = node(F.obj("JoinTable", dimension=2.0), node(lin(2 * n, n), node(F.obj("Tanh"), d1)), e1)
    return Graph([x], [node(F.obj("Tanh"), node(lin(2 * n, n), d2))])


def residual(n, blocks=2):
    x = node(F.obj("Identity"))
    h = x
    for _ in range(blocks):
        h = node(F.obj("CAddTable"), node(lin(n, n), node(F.obj("Tanh"), node(lin(n, n), h))), h)
    return Graph([x], [h])


def several(n):
    """Two inputs, three outputs, one of them also read inside the graph."""
    x1, x2 = node(F.obj("Identity")), node(F.obj("Identity"))
    s = node(F.obj("CAddTable"), x1, node(lin(n, n), x2))
    t = node(F.obj("Tanh"), s)
    return Graph([x1, x2], [t, s, node(lin(n, 2), t)])


def _lstm_input(B, n_in, H):
    return [_u(B, n_in), _u(B, H), _u(B, H)]


# ---------------------------------------------------------------- equal to nngraph
@pytest.mark.parametrize("layout", ["split", "narrow"])
def test_lstm_cell_equals_nngraph(tmp_path, layout):
    g = lstm_cell(3, 4, layout)
    model, checked = check_equal_to_nngraph(tmp_path, g, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)])
    assert checked == 4
    assert model.nInputs == 3 and model.nOutputs == 2
    assert len(model.graph_modules) == len(g.modules())


def test_gru_cell_equals_nngraph(tmp_path):
    _, checked = check_equal_to_nngraph(tmp_path, gru_cell(3, 4), [_u(2, 3), _u(2, 4)], _u(2, 4))
    assert checked == 12


def test_in_place_modules_at_a_fan_out_equal_nngraph(tmp_path):
    """The skips read e1 / e2 after the in-place LeakyReLU changed them, in
    nngraph and in the lowered model alike."""
    g = encoder_decoder(4)
    x = _u(3, 4)
    model, _ = check_equal_to_nngraph(tmp_path, g, x, _u(3, 4))
    # the aliasing is real: a value-semantics evaluation (no in-place) differs
    plain = Run(encoder_decoder_without_in_place(g)).forward(x.copy())
    assert np.abs(plain - model.forward(x.copy())).max() > 1e-3


def test_in_place_modules_keep_any_topological_order_nngraph_ran(tmp_path):
    """forwardnodes in an order other than nngraph's depth-first one (a
    LeakyReLU, then a reader of its input, then the LeakyReLU's reader): the
    Tanh sees the changed value, as it did in the order saved."""
    x = node(F.obj("Identity"))
    a = node(lin(3, 3), x)
    b = node(F.obj("LeakyReLU", negval=0.2, inplace=True), a)
    c = node(lin(3, 3), b)
    d = node(F.obj("Tanh"), a)
    g = Graph([x], [node(F.obj("CAddTable"), c, d)])
    assert g.order.index(c) == g.order.index(b) + 1
    g.order.remove(d)
    g.order.insert(g.order.index(c), d)
    check_equal_to_nngraph(tmp_path, g, _u(4, 3), _u(4, 3))


def encoder_decoder_without_in_place(g):
    for n in g.order:
        m = n.data.get("module")
        if isinstance(m, T7Object) and m.class_name == "nn.LeakyReLU":
            n.data["module"] = T7Object("nn.LeakyReLU", dict(m.fields, inplace=False))
    return g


def test_residual_blocks_equal_nngraph(tmp_path):
    _, checked = check_equal_to_nngraph(tmp_path, residual(5), _u(3, 5), _u(3, 5))
    assert checked == 8


def test_several_inputs_and_outputs_equal_nngraph(tmp_path):
    model, _ = check_equal_to_nngraph(tmp_path, several(3), [_u(2, 3), _u(2, 3)], [_u(2, 3), _u(2, 3), _u(2, 2)])
    out = model.forward([_u(2, 3), _u(2, 3)])
    assert isinstance(out, list) and len(out) == 3


def test_split_one_is_just_element(tmp_path):
    x = node(F.obj("Identity"))
    only = split(node(F.obj("SplitTable", dimension=2.0), node(F.obj("Reshape", size=np.array([1.0, 4.0]),
                                                                       nelement=4.0), node(lin(3, 4), x))), 1)
    check_equal_to_nngraph(tmp_path, Graph([x], [node(F.obj("Tanh"), only)]), _u(2, 3), _u(2, 4))


def test_nested_graphs_equal_nngraph(tmp_path):
    inner = residual(4, blocks=1)
    x = node(F.obj("Identity"))
    mid = node(inner, node(lin(4, 4), x))
    outer = Graph([x], [node(F.obj("Tanh"), mid)])
    model, checked = check_equal_to_nngraph(tmp_path, outer, _u(2, 4), _u(2, 4))
    assert checked == 6
    assert isinstance(model.graph_modules[-2], nn.gModule)


def test_a_graph_inside_a_sequential(tmp_path):
    g = lstm_cell(3, 4)
    seq = load(tmp_path, F.seq(g.t7(), F.obj("SelectTable", index=2.0)))
    x = _lstm_input(2, 3, 4)
    want = Run(g).forward(_copy(x))[1]
    _close(seq.forward(_copy(x)), want, "output")
    assert isinstance(seq.modules[0], nn.gModule)


def test_files_without_modules_or_n_inputs(tmp_path):
    g = lstm_cell(3, 4, with_modules=False, with_n_inputs=False)
    model, checked = check_equal_to_nngraph(tmp_path, g, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)])
    assert checked == 4 and model.nInputs == 3


def _strip(obj, fields, seen):
    """Every field of fields dropped from the Torch7 objects and tables below obj (once each)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, T7Object):
        for f in fields:
            obj.fields.pop(f, None)
        _strip(obj.fields, fields, seen)
    elif isinstance(obj, dict):
        for f in fields:
            obj.pop(f, None)
        for v in list(obj.values()):
            _strip(v, fields, seen)


@pytest.mark.parametrize("version", ["2013", "2014", "2015"])
def test_files_of_every_nngraph_version(tmp_path, version):
    """What nngraph's graphs held before its later fields: 2013 (af33a42, mapindex; no nInputs, modules,
    annotations, forwardNodeId, reverseMap, _type), 2014 (nInputs, annotations, forwardNodeId), 2015
    (modules and _type; reverseMap came in 2016)."""
    g = lstm_cell(3, 4)
    t = g.t7()
    later = {"2013": ("nInputs", "modules", "annotations", "forwardNodeId", "reverseMap", "_type"),
             "2014": ("modules", "reverseMap", "_type"), "2015": ("reverseMap",)}[version]
    _strip(t, later, set())
    model, checked = check_equal_to_nngraph(tmp_path, g, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)],
                                            model=load(tmp_path, t))
    assert checked == 4 and model.nInputs == 3


def test_just_table_of_nest(tmp_path):
    """nngraph.nest({node}) makes an nngraph.JustTable node (x -> {x})."""
    x = node(F.obj("Identity"))
    a = node(lin(3, 3), x)
    joined = node(F.obj("JoinTable", dimension=2.0), node(T7Object("nngraph.JustTable", {"output": {},
                                                                                        "train": True}), a))
    g = Graph([x], [node(F.obj("Tanh"), node(F.obj("CAddTable"), joined, x))])
    model, checked = check_equal_to_nngraph(tmp_path, g, _u(2, 3), _u(2, 3))
    assert checked == 2


def test_parameters_flatten_in_the_graph_modules_order(tmp_path):
    g = lstm_cell(3, 4)
    model = load(tmp_path, g.t7())
    flat, _ = model.flattenParameters()
    want = np.concatenate([np.ravel(m.fields[k]) for m in g.modules() for k in ("weight", "bias")
                           if k in m.fields])
    np.testing.assert_array_equal(flat, want)


def test_shared_clones_stay_shared(tmp_path):
    w, b = _u(4, 4), _u(4)
    x = node(F.obj("Identity"))
    a = node(F.linear(w, b), x)
    c = node(F.linear(w, b), node(F.obj("Tanh"), a))      # clone('weight', 'bias'): the same storages
    g = Graph([x], [c])
    model, _ = check_equal_to_nngraph(tmp_path, g, _u(2, 4), _u(2, 4))
    first, second = [m for m in model.graph_modules if isinstance(m, nn.Linear)]
    assert first is not second and np.shares_memory(first.weight, second.weight)
    assert len(model.parameters()[0]) == 2      # listed once


def test_the_same_module_at_two_nodes_is_refused_naming_the_nodes(tmp_path):
    x = node(F.obj("Identity"))
    t = F.obj("Tanh")
    g = Graph([x], [node(t, node(t, x, label="[model.lua]:12_"), label="[model.lua]:13_")])
    with pytest.raises(T7Error, match=r"same Tanh object is the module of two nodes, node \d+ \(nn.Tanh\) "
                                      r"declared at \[model.lua\]:1[23]_"):
        load(tmp_path, g.t7())


def test_a_node_without_inputs_is_refused_naming_it(tmp_path):
    x = node(F.obj("Identity"))
    p = node(F.obj("Identity"), label="[params.lua]:3_")
    g = Graph([x], [node(F.obj("CAddTable"), x, p)])
    g.order.remove(p)   # nngraph kept parameter nodes as extra roots, ahead of the rest
    g.order.insert(0, p)
    with pytest.raises(T7Error, match=r"node \d+ \(nn.Identity\) declared at \[params.lua\]:3_ has no inputs "
                                      r"\(an nnop parameter node\)"):
        load(tmp_path, g.t7())


@pytest.mark.parametrize("damage", ["no forwardnodes", "not a node", "input missing", "out of order"])
def test_damaged_graphs_raise_t7error(tmp_path, damage):
    g = residual(3, blocks=1)
    t = g.t7()
    nodes = t.fields["forwardnodes"]
    if damage == "no forwardnodes":
        del t.fields["forwardnodes"]
    elif damage == "not a node":
        nodes[2] = 3.0
    elif damage == "input missing":
        nodes[3].fields["data"]["mapindex"][1] = {"stranger": True}
    else:
        nodes[2], nodes[3] = nodes[3], nodes[2]
    with pytest.raises(T7Error, match="nn.gModule"):
        load(tmp_path, t)


def test_print_says_it_came_from_a_graph(tmp_path):
    model = load(tmp_path, lstm_cell(3, 4).t7())
    text = repr(model)
    assert text.startswith("nn.gModule (an nngraph graph of ")
    assert "3 inputs -> 2 outputs; lowered)" in text and "nn.SplitTable(1)" in text


def test_a_chain_is_one_sequential(tmp_path):
    x = node(F.obj("Identity"))
    g = Graph([x], [node(F.obj("Tanh"), node(lin(3, 4), node(F.obj("Tanh"), node(lin(2, 3), x))))])
    model, _ = check_equal_to_nngraph(tmp_path, g, _u(2, 2), _u(2, 4))
    assert [type(m).__name__ for m in model.modules] == ["Identity", "Linear", "Tanh", "Linear", "Tanh"]


# ---------------------------------------------------------------- a real file
def test_a_file_nngraph_saved_loads_and_computes():
    """torchfile's gmodule_with_linear_identity.t7 (tests/data/t7/README.md):
    nn.gModule({a, b}, {nn.CAddTable(){b, nn.Linear(1, 2)(a)}})."""
    import os
    path = os.path.join(os.path.dirname(__file__), "data", "t7", "torchfile", "gmodule_with_linear_identity.t7")
    model = nn.load_lua(path)
    assert isinstance(model, nn.gModule) and model.nInputs == 2 and model.nOutputs == 1
    linear = next(m for m in model.graph_modules if isinstance(m, nn.Linear))
    a, b = np.array([[0.5]]), np.array([[1.0, -2.0]])
    out = model.forward([a, b])
    np.testing.assert_allclose(out, b + a @ linear.weight.T + linear.bias, rtol=1e-12)
    gi = model.backward([a, b], np.ones((1, 2)))
    np.testing.assert_allclose(gi[0], np.ones((1, 2)) @ linear.weight, rtol=1e-12)
    np.testing.assert_array_equal(gi[1], np.ones((1, 2)))


# ---------------------------------------------------------------- ONNX
def test_onnx_export_of_several_inputs_and_outputs(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from nn_legacy import onnx as nn_onnx
    model = load(tmp_path, lstm_cell(3, 4).t7())
    x = _lstm_input(2, 3, 4)
    proto = nn_onnx.export(model, x, None)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {i.name: v for i, v in zip(session.get_inputs(), x)}
    got = session.run(None, feeds)
    want = model.forward(_copy(x))
    assert len(got) == 2
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_onnx_export_computes_what_in_place_modules_made_of_the_skips(tmp_path):
    """The model's skips read what the in-place LeakyReLUs left; ONNX values
    never change in place: the export reads the LeakyReLUs' outputs there."""
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    from nn_legacy import onnx as nn_onnx
    g = encoder_decoder(4)
    model = load(tmp_path, g.t7())
    assert model._value_semantics is not None
    x = _u(3, 4)
    want = Run(g).forward(x.copy())                # nngraph's numbers
    model.float()                                  # (onnxruntime runs LeakyReLU's PRelu in float32 only)
    x32 = x.astype(np.float32)
    proto = nn_onnx.export(model, x32, None)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x32})[0]
    np.testing.assert_allclose(got, model.forward(x32.copy()), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    plain = Run(encoder_decoder_without_in_place(g)).forward(x.copy())
    assert np.abs(got - plain).max() > 1e-3       # (not what a copy-everywhere reading would give)


# ---------------------------------------------------------------- built in Python, the nngraph way
def python_lstm_cell(n_in, H):
    """lstm_cell's graph written as a Lua user would port it (0-based dims)."""
    x, prev_c, prev_h = nn.Identity()(), nn.Identity()(), nn.Identity()()
    all_sums = nn.CAddTable()([nn.Linear(n_in, 4 * H)(x), nn.Linear(H, 4 * H)(prev_h)])
    reshaped = nn.Reshape(4, H)(all_sums)
    n1, n2, n3, n4 = nn.SplitTable(1)(reshaped).split(4)
    in_gate, forget_gate, out_gate = nn.Sigmoid()(n1), nn.Sigmoid()(n2), nn.Sigmoid()(n3)
    in_transform = nn.Tanh()(n4)
    next_c = nn.CAddTable()([nn.CMulTable()([forget_gate, prev_c]), nn.CMulTable()([in_gate, in_transform])])
    next_h = nn.CMulTable()([out_gate, nn.Tanh()(next_c)])
    return nn.gModule([x, prev_c, prev_h], [next_c, next_h])


def test_a_graph_built_in_python_is_the_graph_loaded_from_torch7(tmp_path):
    loaded = load(tmp_path, lstm_cell(3, 4).t7())
    built = python_lstm_cell(3, 4)
    assert repr(built) == repr(loaded)
    for a, b in zip(built.graph_modules, loaded.graph_modules):
        assert type(a) is type(b)
        if isinstance(a, nn.Linear):
            a.weight[...] = b.weight
            a.bias[...] = b.bias
    x, go = _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)]
    for m in (built, loaded):
        m.zeroGradParameters()
    _close(built.forward(_copy(x)), loaded.forward(_copy(x)), "output")
    _close(built.backward(_copy(x), _copy(go)), loaded.backward(_copy(x), _copy(go)), "gradInput")
    _close(built.flattenParameters()[1], loaded.flattenParameters()[1], "gradients")


def test_save_and_load_round_trip(tmp_path):
    g = python_lstm_cell(3, 4)
    x = _lstm_input(2, 3, 4)
    want = g.forward(_copy(x))
    nn.save(g, tmp_path / "g.thnn")
    back = nn.load(tmp_path / "g.thnn")
    assert isinstance(back, nn.gModule) and repr(back) == repr(g)
    _close(back.forward(_copy(x)), want, "output")
    np.testing.assert_array_equal(back.flattenParameters()[0], g.flattenParameters()[0])
    linear = back.graph_modules[1]
    assert isinstance(linear, nn.Linear) and any(linear is m for m in back.listModules())


@emulator_only
def test_on_a_cuda_device_it_computes_what_it_computes_on_the_host(tmp_path):
    from thnn import cuda
    g = load(tmp_path, lstm_cell(3, 4).t7())
    x, go = _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)]
    want, want_gi = _copy(g.forward(_copy(x))), _copy(g.backward(_copy(x), _copy(go)))
    dev = cuda.emulator()
    g.cuda(dev)
    out = g.forward([dev.to_device(v) for v in x])
    gi = g.backward([dev.to_device(v) for v in x], [dev.to_device(v) for v in go])
    _close([o.numpy() for o in out], want, "output")
    _close([v.numpy() for v in gi], want_gi, "gradInput")


def test_replace_keeps_the_graph_modules_in_step():
    g = python_lstm_cell(3, 4)
    g.replace(lambda m: nn.ReLU() if isinstance(m, nn.Tanh) else m)
    assert not any(isinstance(m, nn.Tanh) for m in g.listModules())
    assert sum(isinstance(m, nn.ReLU) for m in g.graph_modules) == 2
    assert all(any(m is n for n in g.listModules()) for m in g.graph_modules)


def test_calling_a_module_on_an_array_says_to_use_forward():
    with pytest.raises(TypeError, match=r"Linear\(\.\.\.\): calling a module builds a node of a graph .* "
                                        r"input 0 is a ndarray, not a graph node; to compute, use "
                                        r"module.forward\(input\)"):
        nn.Linear(3, 2)(np.zeros((1, 3)))


def test_graphs_that_cannot_be_built_say_why():
    x = nn.Identity()()
    h = nn.Linear(3, 3)(x)
    with pytest.raises(ValueError, match="the same node is passed twice"):
        nn.CAddTable()([h, h])
    with pytest.raises(ValueError, match="has inputs of its own"):
        nn.gModule([h], [nn.Tanh()(h)])
    with pytest.raises(TypeError, match=r"outputs\[0\] is a Linear, not a graph node"):
        nn.gModule([x], [nn.Linear(3, 3)])
    a, b, c = nn.SplitTable(1)(nn.Reshape(3, 1)(h)).split(3)
    with pytest.raises(ValueError, match="1 of the 3 outputs of split"):
        nn.gModule([x], [nn.CAddTable()([a, b])])
    stray = nn.Identity()()
    with pytest.raises(ValueError, match="has no inputs and is not one of the graph's inputs"):
        nn.gModule([x], [nn.CAddTable()([h, stray])])
    t = nn.Tanh()
    with pytest.raises(ValueError, match="the same Tanh object is the module of two nodes"):
        nn.gModule([x], [t(t(x))])
    with pytest.raises(ValueError, match=r"split: n must be a positive whole number, got 0"):
        h.split(0)


def test_split_one_and_annotations():
    x = nn.Identity()()
    only = nn.SplitTable(0, 2)(nn.Reshape(1, 3)(nn.Linear(3, 3)(x).annotate(name="proj"))).split(1)
    g = nn.gModule([x], [nn.Tanh()(only)])
    v = _u(2, 3)
    lin_ = g.graph_modules[1]
    np.testing.assert_allclose(g.forward(v), np.tanh(v @ lin_.weight.T + lin_.bias), rtol=1e-12)


def test_a_graph_that_holds_itself_is_refused(tmp_path):
    g = residual(3, blocks=1)
    t = g.t7()
    inner = next(n for n in g.order if n.data.get("module") is not None
                 and n.data["module"].class_name == "nn.Tanh")
    inner.data["module"] = t            # the file's graph is one of its own nodes' module
    with pytest.raises(T7Error, match="the graph holds itself"):
        load(tmp_path, t)
    outer = residual(3, blocks=1)
    wrapper = F.seq(outer.t7())
    n = next(n for n in outer.order if n.data.get("module") is not None
             and n.data["module"].class_name == "nn.Tanh")
    n.data["module"] = wrapper          # through a Sequential
    with pytest.raises(T7Error, match="the graph holds itself"):
        load(tmp_path, wrapper)


# ---------------------------------------------------------------- char-rnn checkpoints
def char_rnn_lstm(vocab, H, layers=2):
    """karpathy/char-rnn model/LSTM.lua (dropout 0): inputs {x, c1, h1, c2, h2},
    outputs {c1, h1, c2, h2, logsoft}; x through char-rnn's own OneHot."""
    inputs = [node(F.obj("Identity")) for _ in range(2 * layers + 1)]
    outputs = []
    for L in range(layers):
        prev_c, prev_h = inputs[2 * L + 1], inputs[2 * L + 2]
        if L == 0:
            x = node(T7Object("OneHot", {"outputSize": float(vocab), "_eye": np.eye(vocab), "train": True,
                                         "output": np.zeros(0), "gradInput": np.zeros(0)}), inputs[0])
            size = vocab
        else:
            x, size = outputs[-1], H
        sums = node(F.obj("CAddTable"), node(lin(size, 4 * H), x), node(lin(H, 4 * H), prev_h))
        n1, n2, n3, n4 = split(node(F.obj("SplitTable", dimension=2.0),
                                    node(F.obj("Reshape", size=np.array([4.0, H]), nelement=4.0 * H), sums)), 4)
        in_gate, forget_gate, out_gate = (node(F.obj("Sigmoid"), n) for n in (n1, n2, n3))
        next_c = node(F.obj("CAddTable"), node(F.obj("CMulTable"), forget_gate, prev_c),
                      node(F.obj("CMulTable"), in_gate, node(F.obj("Tanh"), n4)))
        next_h = node(F.obj("CMulTable"), out_gate, node(F.obj("Tanh"), next_c))
        outputs += [next_c, next_h]
    outputs.append(node(F.obj("LogSoftMax"), node(lin(H, vocab), outputs[-1])))
    return Graph(inputs, outputs)


def test_a_char_rnn_checkpoint_loads_with_its_lowered_rnn(tmp_path):
    V, H = 5, 4
    g = char_rnn_lstm(V, H)
    checkpoint = {"protos": {"rnn": g.t7(), "criterion": T7Object("nn.ClassNLLCriterion", {"sizeAverage": True})},
                  "opt": {"rnn_size": float(H), "num_layers": 2.0, "model": "lstm", "dropout": 0.0},
                  "vocab": {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "\n": 5.0}, "epoch": 1.5}
    got = load(tmp_path, checkpoint)
    rnn = got["protos"]["rnn"]
    assert isinstance(rnn, nn.gModule) and isinstance(rnn.graph_modules[1], nn.OneHot)
    assert rnn.nInputs == 5 and rnn.nOutputs == 5
    chars = np.array([0.0, 4.0, 2.0])                   # 0-based classes here, 1-based in Lua
    state = [_u(3, H) for _ in range(4)]
    run = Run(g)
    want = run.forward([chars + 1] + _copy(state))
    gos = [_u(3, H) for _ in range(4)] + [_u(3, V)]
    want_gi = run.backward(_copy(gos))
    _close(rnn.forward([chars] + _copy(state)), want, "output")
    gi = rnn.backward([chars] + _copy(state), _copy(gos))
    _close(gi[1:], want_gi[1:], "gradInput")
    np.testing.assert_array_equal(gi[0], np.zeros(3))
    for raw, m in _pairs(g, rnn):
        if isinstance(m, nn.Linear):
            _close(m.gradWeight, run.grads[id(raw)]["weight"], "gradWeight")
    loss = got["protos"]["criterion"].forward(rnn.output[-1], np.array([1, 0, 3]))
    assert np.isfinite(loss)


def test_a_gmodule_subclass_with_fields_of_its_own_loads_when_registered(tmp_path):
    class Captioner(nn.gModule):
        """a user's subclass: a gModule with a field of its own"""

    g = Graph(*_two_nodes(), extra={"vocab_size": 7.0, "seq_length": 16.0})
    t = g.t7()
    t.class_name = "nn.Captioner"
    path = tmp_path / "c.t7"
    path.write_bytes(t7_bytes(t))
    model = nn.load_lua(str(path), classes={"nn.Captioner": Captioner})     # (no warning: the class is known)
    assert type(model) is Captioner and model.vocab_size == 7.0 and model.seq_length == 16.0
    assert model.lua_class is None and repr(model).startswith("nn.gModule (")
    x = _u(2, 3)
    _close(model.forward(x.copy()), Run(g).forward(x.copy()), "output")


def _two_nodes():
    x = node(F.obj("Identity"))
    return [x], [node(F.obj("Tanh"), node(lin(3, 2), x))]


@pytest.mark.slow
def test_damaged_bytes_of_a_graph_raise_only_t7error(tmp_path):
    """Bytes of a saved LSTM cell changed at random: load_lua raises T7Error
    or loads a graph (which then computes or raises a Python error)."""
    data = t7_bytes(lstm_cell(3, 4).t7())
    loaded = load_damaged(data, tmp_path / "f.t7", 80, 2026, lambda model: model.forward(_lstm_input(2, 3, 4)))
    assert 0 < loaded < 80


def test_an_unrolled_rnn_of_nested_graphs_with_modules_at_their_inputs(tmp_path):
    """The layout of Cadene/AS_Exam's model.t7 (tests/data/t7/README.md):
    each step a gModule({nn.Linear()(), nn.Linear()()}, {tanh(sum)}), cloned
    with shared storages, the outer graph feeding step t with step t-1."""
    dimx, dimh, steps = 3, 4, 3
    wh, bh, wx, bx = _u(dimh, dimh), _u(dimh), _u(dimh, dimx), _u(dimh)
    wg, bg = _u(dimx, dimh), _u(dimx)

    def step():
        a, b = node(F.linear(wh, bh)), node(F.linear(wx, bx))      # graph inputs that carry a module
        return Graph([a, b], [node(F.obj("Tanh"), node(F.obj("CAddTable"), a, b))])
    inputs = [node(F.obj("Identity")) for _ in range(steps + 1)]
    h, outs = inputs[0], []
    for t in range(steps):
        h = node(step(), h, inputs[t + 1])
        outs.append(node(F.obj("LogSoftMax"), node(F.linear(wg, bg), h)))
    g = Graph(inputs, outs, extra={"name": "rnn", "dimh": float(dimh)})
    x = [_u(2, dimh)] + [_u(2, dimx) for _ in range(steps)]
    model = load(tmp_path, g.t7())
    want = Run(g).forward(_copy(x))
    _close(model.forward(_copy(x)), want, "output")
    assert model.name == "rnn" and len(model.parameters()[0]) == 6      # the clones share their arrays
    run = Run(g)
    run.forward(_copy(x))
    gos = [_u(2, dimx) for _ in range(steps)]
    want_gi = run.backward(_copy(gos))
    _close(model.backward(_copy(x), _copy(gos)), want_gi, "gradInput")
    steps_ = [m for m in model.graph_modules if isinstance(m, nn.gModule)]
    first, last = steps_[0], steps_[-1]
    assert isinstance(first, nn.gModule) and np.shares_memory(first.graph_modules[0].weight,
                                                                last.graph_modules[0].weight)


# ---------------------------------------------------------------- backward's sparse plumbing
def _table_valued():
    """A value that is a table, read whole by two nodes (its gradient a
    table summed entry by entry), and kept across a stage."""
    x = nn.Identity()()
    t = nn.SplitTable(1)(nn.Reshape(2, 3)(nn.Linear(4, 6)(x)))
    s = nn.CAddTable()(t)
    j = nn.JoinTable(1)(t)
    return nn.gModule([x], [nn.CAddTable()([nn.Linear(6, 3)(j), nn.Tanh()(s)]), s]), _u(2, 4), [_u(2, 3), _u(2, 3)]


def _plumbing_cases(tmp_path):
    lstm = load(tmp_path, char_rnn_lstm(5, 4).t7(), "lstm.t7")
    cases = [(lstm, [np.array([0.0, 4.0, 2.0])] + [_u(3, 4) for _ in range(4)], [_u(3, 4) for _ in range(4)]
              + [_u(3, 5)]),
             (load(tmp_path, gru_cell(3, 4).t7(), "gru.t7"), [_u(2, 3), _u(2, 4)], _u(2, 4)),
             (load(tmp_path, encoder_decoder(4).t7(), "ed.t7"), _u(3, 4), _u(3, 4)),
             (load(tmp_path, several(3).t7(), "several.t7"), [_u(2, 3), _u(2, 3)], [_u(2, 3), _u(2, 3), _u(2, 2)]),
             _table_valued()]
    edited = python_lstm_cell(3, 4)      # a stage a user changed: a child that is no selector pipeline
    stage = next(m for m in edited.modules if isinstance(m, nn.ConcatTable) and len(m.modules) > 1)
    k = next(i for i, c in enumerate(stage.modules) if isinstance(c, nn.Sequential))
    stage.modules[k] = nn.Sequential(nn.Identity(), stage.modules[k])
    cases.append((edited, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)]))
    x1, x2 = nn.Identity()(), nn.Identity()()      # a table of more entries than inputs: zeros for the rest
    longer = nn.gModule([x1, x2], [nn.Tanh()(nn.CAddTable()([nn.Linear(3, 3)(x1), x2]))])
    cases.append((longer, [_u(2, 3), _u(2, 3), _u(2, 5)], _u(2, 3)))
    return cases


@pytest.mark.parametrize("method", ["backward", "updateGradInput"])
def test_backward_adds_the_environment_gradients_as_the_containers_sum_them(tmp_path, method):
    """gModule's backward (gradients added into the entries they belong to)
    gives bit for bit what the same containers' own backward gives (every
    selector's gradient laid out as the whole environment, summed by
    ConcatTable), twice in a row (buffers reused), and hands out a new
    table each time."""
    for model, x, go in _plumbing_cases(tmp_path):
        twin = model.clone()
        for m in (model, twin):
            m.zeroGradParameters()
            m.forward(_copy(x))
        for _ in range(2):
            if method == "backward":
                got = model.backward(_copy(x), _copy(go))
                want = nn.Sequential.backward(twin, _copy(x), _copy(go))
            else:
                got = model.updateGradInput(_copy(x), _copy(go))
                want = nn.Sequential.updateGradInput(twin, _copy(x), _copy(go))
            assert _layout_equal(got, want), type(model)
        for a, b in zip(model.parameters()[1], twin.parameters()[1]):
            np.testing.assert_array_equal(a, b)
        if method == "updateGradInput":
            assert not any(np.any(g) for g in model.parameters()[1])


def _layout_equal(a, b):
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(_layout_equal(x, y) for x, y in zip(a, b))
    return isinstance(a, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)


def test_jacobians_through_sparse_plumbing():
    """A value that is a table read by two nodes, and char-rnn's two-layer
    LSTM: input and parameter Jacobians (float64, central differences)."""
    from table_module_checks import assert_table_jacobian, assert_table_parameter_jacobians
    model, x, _ = _table_valued()
    assert_table_jacobian(model, x)
    assert_table_parameter_jacobians(model, x)
    lstm = python_char_rnn_lstm(4, 3)
    state = [_u(2, 3) for _ in range(4)]
    assert_table_jacobian(lstm, [_u(2, 4)] + state)
    assert_table_parameter_jacobians(lstm, [_u(2, 4)] + state)


def test_jacobians_through_loaded_graphs(tmp_path):
    """Graphs loaded from Torch7 files: the GRU cell (a value read by five
    nodes) and the encoder-decoder with its skips.  With its LeakyReLUs in
    place, the skips read the changed values but their gradients reach the
    values before the LeakyReLUs, in nngraph (the port's evaluator, which
    the model equals: test_in_place_modules_at_a_fan_out_equal_nngraph) as
    here: not the derivative of the forward (docs/guides/graph-models.md)."""
    from table_module_checks import assert_table_jacobian, assert_table_parameter_jacobians
    gru = load(tmp_path, gru_cell(3, 4).t7(), "gru.t7")
    x = [_u(2, 3), _u(2, 4)]
    assert_table_jacobian(gru, x)
    assert_table_parameter_jacobians(gru, x)
    g = encoder_decoder(3)
    v = _u(2, 3)
    in_place = load(tmp_path, g.t7(), "in_place.t7")
    with pytest.raises(AssertionError, match="Jacobian w.r.t. input"):
        assert_table_jacobian(in_place, v)
    ed = load(tmp_path, encoder_decoder_without_in_place(g).t7(), "ed.t7")
    assert_table_jacobian(ed, v)
    assert_table_parameter_jacobians(ed, v)


def python_char_rnn_lstm(V, H, layers=2):
    """char-rnn's LSTM.lua built the nngraph way in Python (the input already one-hot)."""
    inputs = [nn.Identity()() for _ in range(2 * layers + 1)]
    outputs = []
    for L in range(layers):
        prev_c, prev_h = inputs[2 * L + 1], inputs[2 * L + 2]
        x = inputs[0] if L == 0 else outputs[-1]
        sums = nn.CAddTable()([nn.Linear(V if L == 0 else H, 4 * H)(x), nn.Linear(H, 4 * H)(prev_h)])
        n1, n2, n3, n4 = nn.SplitTable(1)(nn.Reshape(4, H)(sums)).split(4)
        next_c = nn.CAddTable()([nn.CMulTable()([nn.Sigmoid()(n2), prev_c]),
                                 nn.CMulTable()([nn.Sigmoid()(n1), nn.Tanh()(n4)])])
        outputs += [next_c, nn.CMulTable()([nn.Sigmoid()(n3), nn.Tanh()(next_c)])]
    outputs.append(nn.LogSoftMax()(nn.Linear(H, V)(outputs[-1])))
    return nn.gModule(inputs, outputs)


def test_a_wrong_gradient_of_a_kept_value_names_the_stage():
    model, x, go = _table_valued()
    model.forward(x)
    with pytest.raises(ValueError, match=r"gModule \(\d+\) -> ConcatTable \(\d+\) -> SelectTable: .*gradOutput "
                                         r"must be of size \[2, 3\]"):
        model.backward(x, [go[0], _u(2, 4)])


def _split_cases():
    """Tables read through split's pickers: a part read by two nodes
    (summed), the table also read whole; char-rnn's LSTM (values read once,
    their gradients passed on, not copied)."""
    x = nn.Identity()()
    a, b = nn.SplitTable(1)(nn.Reshape(2, 2)(nn.Linear(4, 4)(x))).split(2)
    partly = nn.gModule([x], [nn.CMulTable()([nn.Tanh()(a), b]), nn.Sigmoid()(b)])
    x = nn.Identity()()
    t = nn.SplitTable(1)(nn.Reshape(2, 3)(nn.Linear(4, 6)(x)))
    a, b = t.split(2)
    whole = nn.gModule([x], [nn.CAddTable()([nn.Tanh()(a), b]), nn.JoinTable(1)(t)])
    return [(partly, _u(2, 4), [_u(2, 2), _u(2, 2)]), (whole, _u(2, 4), [_u(2, 3), _u(2, 6)]),
            (python_char_rnn_lstm(4, 3), [_u(2, 4)] + [_u(2, 3) for _ in range(4)], [_u(2, 3) for _ in range(4)]
             + [_u(2, 4)])]


def test_stages_run_by_the_graph_compute_what_their_containers_compute():
    """gModule runs its stages' selectors itself (forward and backward):
    outputs, gradInputs, every module's gradInput and parameter gradients
    are bit for bit those of the same containers run as containers, twice
    in a row; a gradient passed on uncopied is never changed afterwards."""
    for model, x, go in _split_cases():
        assert model._share_gradients
        twin = model.clone()
        for m in (model, twin):
            m.zeroGradParameters()
        for _ in range(2):
            out, want = model.forward(_copy(x)), nn.Sequential.updateOutput(twin, _copy(x))
            assert _layout_equal(out, want)
            got = model.backward(_copy(x), _copy(go))
            assert _layout_equal(got, nn.Sequential.backward(twin, _copy(x), _copy(go)))
            for m, t in zip(model.graph_modules, twin.graph_modules):
                assert _layout_equal(m.gradInput, t.gradInput), type(m)
        for a, b in zip(model.parameters()[1], twin.parameters()[1]):
            np.testing.assert_array_equal(a, b)


def test_in_place_graphs_copy_the_gradients_they_pass_on(tmp_path):
    """An in-place module's backward writes into its gradOutput: in a graph
    holding one, no gradient is passed on uncopied (also after replace())."""
    assert not load(tmp_path, encoder_decoder(3).t7(), "ed.t7")._share_gradients
    model = python_char_rnn_lstm(4, 3)
    model.replace(lambda m: nn.ReLU(True) if isinstance(m, nn.Tanh) else m)
    assert not model._share_gradients


def test_values_read_once_are_computed_by_their_reader():
    """Without in-place modules, a value read by one node is computed inside
    that node's expression, not kept: the LSTM cell lowers to 3 stages
    (the gates' input, next_c, next_h) and char-rnn's 2-layer LSTM to 7."""
    assert len(python_lstm_cell(3, 4).modules) == 3
    assert len(python_char_rnn_lstm(4, 3).modules) == 7


# ---------------------------------------------------------------- forward's plan
def _outputs(model):
    """Every container's, selector's and module's output in the tree, in tree order."""
    out, todo = [], [model]
    while todo:
        m = todo.pop()
        out.append(m.output)
        todo.extend(reversed(getattr(m, "modules", None) or []))
    return out


def _same_objects(a, b):
    """Which entries of two walks of outputs are the same objects (tables handed out again, arrays reused)."""
    return [x is y for x, y in zip(a, b)]


def _planned(model):
    from nn_legacy.gModule import _PLANS
    plan = _PLANS.get(model)
    return not isinstance(plan, (int, type(None))) and plan.run is not None and plan.fits(model)


def _plan_cases(tmp_path):
    cases = [(m, x) for m, x, _ in _plumbing_cases(tmp_path) + _split_cases()]
    cases.append((_narrowing(), _u(2, 3)))
    return cases


def _narrowing():
    """Values read in order by two nodes: NarrowTables pick them."""
    x = nn.Identity()()
    a, b = nn.Tanh()(x), nn.Sigmoid()(x)
    g = nn.gModule([x], [nn.CAddTable()([a, b]), nn.CMulTable()([a, b]), nn.Tanh()(x)])
    assert isinstance(g.modules[2].modules[0].modules[0], nn.NarrowTable)
    return g


def test_an_edited_narrow_table_gets_a_new_plan():
    g, x = _narrowing(), _u(2, 3)
    for _ in range(2):
        before = _copy(g.forward(x))
    assert _planned(g)
    narrow = g.modules[2].modules[0].modules[0]
    for offset, length in ((0, 2), (0, 3), (1, 2)):
        narrow.offset, narrow.length = offset, length
        got = g.forward(x)
        assert _layout_equal(got, nn.Sequential.updateOutput(g.clone(), x))
        assert _layout_equal(got, before) == (offset == 1)


def test_the_forward_plan_sets_what_the_containers_set(tmp_path):
    """From the second call on, forward runs the tree's plan: its output and
    every container's, selector's and module's output are bit for bit what
    the same containers' own forward gives, and the same objects where
    theirs are (a table handed out again when it holds the same arrays)."""
    for model, x in _plan_cases(tmp_path):
        twin = model.clone()
        x = _copy(x)
        seen, seen_twin = [], []
        for call in range(3):
            got = model.forward(x if call < 2 else _copy(x))
            want = nn.Sequential.updateOutput(twin, x if call < 2 else _copy(x))
            assert _layout_equal(got, want)
            outs, outs_twin = _outputs(model), _outputs(twin)
            assert len(outs) == len(outs_twin)
            for a, b in zip(outs, outs_twin):
                assert (a is None and b is None) or _layout_equal(a, b)
            seen.append(outs)
            seen_twin.append(outs_twin)
            assert _planned(model) == (call > 0)
        for k in (1, 2):
            assert _same_objects(seen[k - 1], seen[k]) == _same_objects(seen_twin[k - 1], seen_twin[k])


def _edits():
    """Edits a user may make to a lowered char-rnn LSTM (7 stages), each
    changing what forward computes."""
    def expression(g, stage, child):
        return g.modules[stage].modules[child]

    def replace_module(g):      # the last stage's LogSoftMax becomes a SoftMax
        expression(g, 6, 4).modules[2] = nn.SoftMax()

    def add_module(g):
        expression(g, 6, 4).add(nn.MulConstant(2.0))

    def insert_module(g):       # into an expression that a later stage reads
        expression(g, 3, 3).insert(nn.MulConstant(0.5), 2)

    def remove_module(g):       # the LogSoftMax: the Linear's output is the graph's
        expression(g, 6, 4).remove()

    def add_child(g):           # the stage hands on one more value first (the next stage reads by index)
        g.modules[5].modules.insert(0, nn.SelectTable(0))

    def remove_child(g):        # the graph has four outputs
        g.modules[6].modules.pop(0)

    def change_index(g):
        expression(g, 6, 0).index = 2

    def change_picker(g):       # another gate (a split's picker)
        gate = expression(g, 1, 3).modules[0].modules[0].modules[0].modules[0]
        assert [type(m) for m in gate.modules] == [nn.SelectTable, nn.SelectTable, nn.Sigmoid]
        gate.modules[1].index = 2

    def replace_list(g):
        g.modules[6].modules = list(reversed(g.modules[6].modules))

    def add_stage(g):
        g.add(nn.SelectTable(4))

    def remove_stage(g):        # the graph's output is the last stage's input, a table of 4
        g.remove()

    def replace_stage(g):
        g.modules[6] = nn.ConcatTable(nn.SelectTable(3), nn.SelectTable(0))

    def swap_dtype_and_replace(g):
        g.replace(lambda m: nn.Sigmoid() if isinstance(m, nn.Tanh) else m)
    return [replace_module, add_module, insert_module, remove_module, add_child, remove_child, change_index,
            change_picker, replace_list, add_stage, remove_stage, replace_stage, swap_dtype_and_replace]


@pytest.mark.parametrize("edit", _edits(), ids=lambda f: f.__name__)
def test_an_edited_tree_gets_a_new_plan(edit):
    """A tree edited after its plan was made (a module replaced, added or
    removed in an expression, a child added to or removed from a stage, a
    selector's index, a stage) computes what its containers compute, from
    the first forward after the edit on."""
    model = python_char_rnn_lstm(4, 3)
    x = [_u(2, 4)] + [_u(2, 3) for _ in range(4)]
    for _ in range(2):
        before = _copy(model.forward(x))
    assert _planned(model)
    edit(model)
    twin = model.clone()
    for _ in range(2):
        got = model.forward(x)
        want = nn.Sequential.updateOutput(twin, x)
        assert _layout_equal(got, want)
        assert not _layout_equal(got, before)
        for a, b in zip(_outputs(model), _outputs(twin)):
            assert (a is None and b is None) or _layout_equal(a, b)
    assert _planned(model)


def _error_chain(e):
    out = []
    while e is not None:
        out.append((type(e), str(e)))
        e = e.__cause__
    return out


def _refuse(input):
    raise ValueError("not this one")


def test_the_plan_names_errors_as_the_stages_do():
    """An error a module raises while the plan runs is named as forward
    stage by stage names it (the same message, the same chain of causes);
    an input the plan was not made for (a shorter table, a split giving
    fewer entries) runs stage by stage."""
    model = python_char_rnn_lstm(4, 3)
    x = [_u(2, 4)] + [_u(2, 3) for _ in range(4)]
    bad_inputs = [[_u(2, 5)] + x[1:],                 # the first Linear (inside a tree of expressions)
                  x[:1] + [_u(2, 3), _u(2, 2)] + x[3:],   # prev_h of layer 0 (a kept value, then a CMulTable)
                  x[:-1] + [_u(2, 4)],                # the second layer's state: a later stage
                  x[:3],                              # a shorter table: stage by stage, as the plan cannot run
                  _u(2, 4)]                           # not a table
    for bad in bad_inputs:
        model.forward(x)
        model.forward(x)
        assert _planned(model)
        with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)) as planned:
            model.forward(_copy(bad))
        with pytest.raises((ValueError, TypeError, IndexError, RuntimeError)) as staged:
            model.clone()._stages_output(_copy(bad), 0)
        assert _error_chain(planned.value) == _error_chain(staged.value)
        assert str(planned.value).startswith("gModule (")
    # a module's own message, which the containers prefix with its class name (a Sigmoid after a split's
    # picker, a Linear inside a tree of expressions, the last stage's LogSoftMax)
    for m in (model.modules[1].modules[3].modules[0].modules[0].modules[0].modules[0].modules[2],
              model.graph_modules[1], model.graph_modules[-1]):
        assert type(m) in (nn.Sigmoid, nn.Linear, nn.LogSoftMax)
        for _ in range(2):
            model.forward(x)
        m.updateOutput = _refuse
        with pytest.raises(ValueError) as planned:
            model.forward(x)
        with pytest.raises(ValueError) as staged:
            model._stages_output(x, 0)
        del m.updateOutput
        assert _error_chain(planned.value) == _error_chain(staged.value)
        assert f"-> {type(m).__name__}: not this one" in str(planned.value)
    # a split's picker whose table is shorter than it was: SelectTable's own error, named
    h = nn.Identity()()
    a, b = nn.SplitTable(1)(h).split(2)
    g = nn.gModule([h], [nn.Tanh()(b), nn.Sigmoid()(a)])
    for _ in range(2):
        g.forward(_u(2, 2))
    assert _planned(g)
    x3 = _u(2, 3)       # a longer table: the pickers still find their entries
    assert _layout_equal(g.forward(x3), nn.Sequential.updateOutput(g.clone(), x3))
    with pytest.raises(ValueError) as planned:
        g.forward(_u(2, 1))
    with pytest.raises(ValueError) as staged:
        g.clone()._stages_output(_u(2, 1), 0)
    assert _error_chain(planned.value) == _error_chain(staged.value)
    assert "SelectTable" in str(planned.value)


def test_a_planned_graph_saves_converts_and_clones(tmp_path):
    """The plan is kept outside the module: a graph that ran its plan
    saves, loads, converts and clones as before, and the copies make plans
    of their own."""
    g = python_lstm_cell(3, 4)
    x = _lstm_input(2, 3, 4)
    for _ in range(2):
        want = _copy(g.forward(_copy(x)))
    assert _planned(g)
    nn.save(g, tmp_path / "g.thnn")
    back = nn.load(tmp_path / "g.thnn")
    copy = g.clone()
    g.float()
    for m in (back, copy):
        for _ in range(2):
            _close(m.forward(_copy(x)), want, "output")
        assert _planned(m)
    out = g.forward([v.astype(np.float32) for v in x])
    assert out[0].dtype == np.float32 and _planned(g)


def test_a_tree_edited_at_every_call_runs_stage_by_stage():
    """An index changed at every call, or set to a numpy integer (which the
    plan does not take for the int it equals): every call computes what the
    containers compute, and no plan is made at every call."""
    from nn_legacy.gModule import _PLANS
    model = python_char_rnn_lstm(4, 3)
    x = [_u(2, 4)] + [_u(2, 3) for _ in range(4)]
    kept = model.modules[6].modules[0]
    made = []
    for call in range(12):
        kept.index = call % 3
        got = model.forward(x)
        assert _layout_equal(got, nn.Sequential.updateOutput(model.clone(), x))
        plan = _PLANS.get(model)
        if not isinstance(plan, int) and all(plan is not p for p in made):
            made.append(plan)
    assert isinstance(_PLANS[model], int) and len(made) == 1       # (made at the first call)
    kept.index = np.int64(2)
    for _ in range(3):
        assert _layout_equal(model.forward(x), nn.Sequential.updateOutput(model.clone(), x))
    assert not _planned(model)


def _skip_graph():
    """A residual block as nngraph writes it: stages that are modules of their own (an Identity, a
    ConcatTable of an array, a CAddTable, a ReLU), not stages of selectors."""
    x = nn.Identity()()
    h = nn.Linear(3, 3)(nn.ReLU()(nn.Linear(3, 3)(x)))
    g = nn.gModule([x], [nn.ReLU()(nn.CAddTable()([h, x]))])
    assert [type(m) for m in g.modules] == [nn.Identity, nn.ConcatTable, nn.CAddTable, nn.ReLU]
    return g


def test_the_plan_of_module_stages_sets_what_the_containers_set():
    """Stages that are modules (an Identity's output set by the plan itself, the others called
    directly): every output in the tree equal to, and the same objects as, the containers' own forward,
    and backward's gradients after a planned forward equal to the twin's."""
    g, x = _skip_graph(), _u(2, 3)
    twin = g.clone()
    for call in range(3):
        got = g.forward(x)
        assert _layout_equal(got, nn.Sequential.updateOutput(twin, x))
        assert _planned(g) == (call > 0)
        assert g.modules[0].output is x
        for a, b in zip(_outputs(g), _outputs(twin)):
            assert (a is None and b is None) or _layout_equal(a, b)
    gy = _u(2, 3)
    g.zeroGradParameters()
    twin.zeroGradParameters()
    assert _layout_equal(g.backward(x, gy), twin.backward(x, gy))
    for p, q in zip(g.parameters()[1], twin.parameters()[1]):
        assert np.array_equal(p, q)


def test_the_plan_names_a_module_stage_error_as_the_stages_do():
    """An error of a stage the plan calls directly (CAddTable given a ConcatTable's table of
    mismatched arrays) is named as Container._child names it, stage by stage and planned alike."""
    g, x = _skip_graph(), _u(2, 3)
    g.forward(x)
    g.forward(x)
    assert _planned(g)
    g.modules[1].modules[0].modules[-1] = nn.Linear(3, 4)     # (inside a stage the plan calls: the plan holds)
    assert _planned(g)
    with pytest.raises(ValueError) as planned:
        g.forward(x)
    with pytest.raises(ValueError) as staged:
        g.clone()._stages_output(x, 0)
    assert _error_chain(planned.value) == _error_chain(staged.value)
    assert str(planned.value).startswith("gModule (2) -> CAddTable: input[1] must be of size [2, 4]")
