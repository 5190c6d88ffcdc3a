"""save_lua of nn.gModule: the node graph nngraph's gModule:__init__ would
have made, rebuilt from the lowered containers
(nn_legacy/serialization/nngraph_writer.py).  For graphs loaded from files
(tests/nngraph_port.py's byte layout), built in Python the nngraph way and
edited by hand: save_lua -> load_lua computes what the model computes
(outputs, gradInput, every parameter gradient, 1e-12), and the raw node
graph written, read back with read_t7 alone, computes it too under the
port's independent evaluator (which walks forwardnodes as gmodule.lua
does).  tools/nngraph_lua_check.py runs the same files in a real Lua
Torch7 (not in CI)."""
import numpy as np
import pytest

import nn_legacy as nn
from nngraph_port import Graph, Node, Run
from nn_legacy.serialization.t7 import read_t7
from test_gModule import (_close, _copy, _lstm_input, _split_cases, _table_valued, _u, char_rnn_lstm,
                          encoder_decoder, gru_cell, load, lstm_cell, python_char_rnn_lstm, python_lstm_cell,
                          residual, several)
import rnn_t7_files as F
from nngraph_port import node, split
from t7_writer import T7Object, t7_bytes


# ---------------------------------------------------------------- the raw graph, read back
def _items(table):
    out, i = [], 1
    while float(i) in table:
        out.append(table[float(i)])
        i += 1
    return out


def raw_graph(obj):
    """A port Graph over a gModule object as read_t7 read it (forwardnodes,
    their data's mapindex and selectindex, innode, outnode, nInputs), for the
    port's evaluator; nested gModules too."""
    fields = obj.fields
    fnodes = _items(fields["forwardnodes"])
    port = {}                        # id(raw data) -> port Node
    for fn in fnodes:
        d = fn.fields["data"]
        data = {"module": d.get("module")}
        if d.get("selectindex") is not None:
            data["selectindex"] = int(d["selectindex"])
        n = Node(data)
        if isinstance(data["module"], object) and getattr(data["module"], "class_name", None) == "nn.gModule":
            n.sub = raw_graph(data["module"])
        port[id(d)] = n
    for fn in fnodes:
        d = fn.fields["data"]
        n = port[id(d)]
        for k, parent in enumerate(_items(d["mapindex"])):
            n.data["mapindex"][k + 1] = port[id(parent)].data
            n.children.append(port[id(parent)])
        n.consumers = [port[id(c.fields["data"])] for c in _items(fn.fields["children"])]
        assert sorted(id(c) for c in n.consumers) == sorted(id(c) for c in set(n.consumers))
    g = Graph.__new__(Graph)
    g.order = [port[id(fn.fields["data"])] for fn in fnodes]
    g.innode = port[id(fields["innode"].fields["data"])]
    g.outnode = port[id(fields["outnode"].fields["data"])]
    g.n_inputs = int(fields["nInputs"])
    assert g.order[0] is g.innode and g.order[-1] is g.outnode
    # every consumer lists the node among its inputs, and backwardnodes is forwardnodes reversed
    for n in g.order:
        for c in n.consumers:
            assert any(v is n.data for v in c.data["mapindex"].values())
    assert [id(b.fields["data"]) for b in _items(fields["backwardnodes"])] == \
        [id(f.fields["data"]) for f in reversed(fnodes)]
    return g


def _raw_modules(obj):
    """The raw module objects of a gModule's nodes in ``modules`` order, into nested graphs."""
    out = []
    for m in _items(obj.fields["modules"]):
        out += _raw_modules(m) if m.class_name == "nn.gModule" else [m]
    return out


def _modules(model):
    out = []
    for m in model.graph_modules:
        out += _modules(m) if isinstance(m, nn.gModule) else [m]
    return out


def _grads(model):
    return [np.array(g) for g in model.parameters()[1]]


def round_trip(tmp_path, model, x, gradOutput, name="g.t7", raw=True, same_nodes=True):
    """save_lua -> load_lua gives model's numbers, and so does the raw node
    graph written (the port's evaluator); returns the model loaded back.
    same_nodes: the graph written has as many nodes as the graph the model
    was lowered from (no node added, none lost)."""
    model.zeroGradParameters()
    want = _copy(model.forward(_copy(x)))
    want_gi = _copy(model.backward(_copy(x), _copy(gradOutput)))
    want_grads = _grads(model)
    path = str(tmp_path / name)
    nn.save_lua(path, model)
    back = nn.load_lua(path)
    assert type(back) is type(model)
    back.zeroGradParameters()
    _close(back.forward(_copy(x)), want, "output loaded back")
    _close(back.backward(_copy(x), _copy(gradOutput)), want_gi, "gradInput loaded back")
    got = _grads(back)
    assert len(got) == len(want_grads)
    for i, (a, b) in enumerate(zip(got, want_grads)):
        _close(a, b, f"parameter gradient {i} loaded back")
    if same_nodes and isinstance(model, nn.gModule):
        assert len(_items(read_t7(path).fields["forwardnodes"])) == model.nNodes
    if raw:
        obj = read_t7(path)
        run = Run(raw_graph(obj))
        _close(run.forward(_copy(x)), want, "output of the raw graph")
        _close(run.backward(_copy(gradOutput)), want_gi, "gradInput of the raw graph")
        checked = 0
        for r, m in zip(_raw_modules(obj), _modules(model)):
            assert r.class_name == f"nn.{type(m).__name__}" or r.class_name == getattr(m, "_t7_name", None), \
                (r.class_name, type(m).__name__)
            for key, gkey in (("weight", "gradWeight"), ("bias", "gradBias")):
                if getattr(m, key, None) is not None:
                    _close(run.grads.get(id(r), {}).get(key, 0 * getattr(m, key)), getattr(m, gkey),
                           f"{type(m).__name__}.{gkey} of the raw graph")
                    checked += 1
        assert checked == sum(1 for m in _modules(model) for k in ("weight", "bias")
                              if getattr(m, k, None) is not None)
    return back


# ---------------------------------------------------------------- graphs loaded from files
@pytest.mark.parametrize("layout", ["split", "narrow"])
def test_char_rnn_lstm_step_loaded_from_a_file(tmp_path, layout):
    model = load(tmp_path, lstm_cell(3, 4, layout).t7(), "in.t7")
    back = round_trip(tmp_path, model, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)])
    assert repr(back) == repr(model)


def test_a_char_rnn_lstm_of_two_layers_with_its_one_hot(tmp_path):
    model = load(tmp_path, char_rnn_lstm(5, 4).t7(), "in.t7")
    x = [np.array([0.0, 4.0, 2.0])] + [_u(3, 4) for _ in range(4)]
    back = round_trip(tmp_path, model, x, [_u(3, 4) for _ in range(4)] + [_u(3, 5)], raw=False)
    assert repr(back) == repr(model)


def test_gru_cell(tmp_path):
    model = load(tmp_path, gru_cell(3, 4).t7(), "in.t7")
    back = round_trip(tmp_path, model, [_u(2, 3), _u(2, 4)], _u(2, 4))
    assert repr(back) == repr(model)


def test_in_place_leaky_relus_at_a_fan_out_keep_their_order(tmp_path):
    """The skips read what the in-place LeakyReLUs left, in the written graph as in the model."""
    model = load(tmp_path, encoder_decoder(4).t7(), "in.t7")
    back = round_trip(tmp_path, model, _u(3, 4), _u(3, 4))
    assert repr(back) == repr(model)


# Graphs (in the port's byte layout, or built in Python) with an input and a
# gradOutput, shared with tools/nngraph_lua_check.py, which runs them in Lua.
def split_one_graph():
    """A graph whose output reads the one entry of a split(1)."""
    x = node(F.obj("Identity"))
    only = split(node(F.obj("SplitTable", dimension=2.0), node(F.obj("Reshape", size=np.array([1.0, 4.0]),
                                                                       nelement=4.0), node(F.linear(_u(4, 3), _u(4)),
                                                                                           x))), 1)
    return Graph([x], [node(F.obj("Tanh"), only)]), _u(2, 3), _u(2, 4)


def nested_graph():
    """A residual graph used as a node of another graph."""
    x = node(F.obj("Identity"))
    inner = residual(4, blocks=1)
    return Graph([x], [node(F.obj("Tanh"), node(inner, node(F.linear(_u(4, 4), _u(4)), x)))]), _u(2, 4), _u(2, 4)


def just_table_graph():
    """nngraph's JustTable (a table of one entry) read by a JoinTable."""
    x = node(F.obj("Identity"))
    a = node(F.linear(_u(3, 3), _u(3)), x)
    joined = node(F.obj("JoinTable", dimension=2.0), node(T7Object("nngraph.JustTable", {"output": {},
                                                                                        "train": True}), a))
    return Graph([x], [node(F.obj("Tanh"), node(F.obj("CAddTable"), joined, x))]), _u(2, 3), _u(2, 3)


def nested_python_graphs():
    """Graphs built in Python as nodes of another, their outputs split."""
    def cell():
        a, b = nn.Identity()(), nn.Identity()()
        s = nn.Linear(3, 6)(nn.CAddTable()([a, b]))
        p, q, r = nn.SplitTable(1)(nn.Reshape(3, 2)(s)).split(3)
        return nn.gModule([a, b], [nn.CMulTable()([p, q]), nn.Tanh()(r)])
    x1, x2 = nn.Identity()(), nn.Identity()()
    u, v = cell()([x1, x2]).split(2)
    w, z = cell()([nn.Linear(2, 3)(u), nn.Linear(2, 3)(v)]).split(2)
    return nn.gModule([x1, x2], [nn.CAddTable()([w, z]), u]), [_u(2, 3), _u(2, 3)], [_u(2, 2), _u(2, 2)]


def _tree(*stages):
    x = nn.Identity()()
    g = nn.gModule([x], [nn.Tanh()(x)])
    g.modules[:] = list(stages)
    g.graph_modules = []
    return g


def edited_tree():
    """A lowered tree replaced by hand: a ParallelTable, a NarrowTable, a table
    read twice by one module, entries read by index from the end."""
    return _tree(nn.ConcatTable(nn.Linear(3, 3), nn.Linear(3, 3), nn.Identity()),
                 nn.ParallelTable(nn.Tanh(), nn.Sigmoid(), nn.Identity()),
                 nn.ConcatTable(nn.Sequential(nn.NarrowTable(0, 2), nn.CMulTable()),
                                nn.Sequential(nn.ConcatTable(nn.SelectTable(-1), nn.SelectTable(2)),
                                              nn.CAddTable()),
                                nn.Sequential(nn.SelectTable(0), nn.SplitTable(1), nn.SelectTable(-1)))), \
        _u(2, 3), [_u(2, 3), _u(2, 3), _u(2)]


def tables_duplicates():
    """A table of one entry (nngraph's JustTable), the same value twice in one
    table, an output that is the input itself and read inside too."""
    return _tree(nn.ConcatTable(nn.Sequential(nn.Tanh(), nn.ConcatTable(nn.Identity(), nn.Identity()),
                                              nn.CAddTable()),
                                nn.Sequential(nn.ConcatTable(nn.Identity()), nn.JoinTable(1)),
                                nn.Identity())), _u(2, 3), [_u(2, 3), _u(2, 3), _u(2, 3)]


def test_residual_blocks_several_inputs_outputs_and_split_one(tmp_path):
    round_trip(tmp_path, load(tmp_path, residual(5).t7(), "r.t7"), _u(3, 5), _u(3, 5), "r2.t7")
    round_trip(tmp_path, load(tmp_path, several(3).t7(), "s.t7"), [_u(2, 3), _u(2, 3)],
               [_u(2, 3), _u(2, 3), _u(2, 2)], "s2.t7")
    graph, x, gradOutput = split_one_graph()
    round_trip(tmp_path, load(tmp_path, graph.t7(), "one.t7"), x, gradOutput, "one2.t7")


def test_nested_graphs_and_a_graph_inside_a_sequential(tmp_path):
    outer, x, gradOutput = nested_graph()
    back = round_trip(tmp_path, load(tmp_path, outer.t7(), "in.t7"), x, gradOutput)
    assert isinstance(back.graph_modules[-2], nn.gModule)
    seq = nn.Sequential(python_lstm_cell(3, 4), nn.SelectTable(1))
    x = _lstm_input(2, 3, 4)
    want = seq.forward(_copy(x))
    nn.save_lua(str(tmp_path / "seq.t7"), seq)
    _close(nn.load_lua(str(tmp_path / "seq.t7")).forward(_copy(x)), want, "output")


def test_just_table_and_a_real_nngraph_file(tmp_path):
    import os
    graph, x, gradOutput = just_table_graph()
    round_trip(tmp_path, load(tmp_path, graph.t7(), "jt.t7"), x, gradOutput, "jt2.t7")
    path = os.path.join(os.path.dirname(__file__), "data", "t7", "torchfile", "gmodule_with_linear_identity.t7")
    model = nn.load_lua(path)
    round_trip(tmp_path, model, [np.array([[0.5], [-1.0]]), _u(2, 2)], _u(2, 2), "real.t7")


# ---------------------------------------------------------------- built in Python, edited
def test_graphs_built_in_python(tmp_path):
    back = round_trip(tmp_path, python_lstm_cell(3, 4), _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)])
    assert repr(back) == repr(python_lstm_cell(3, 4))
    round_trip(tmp_path, python_char_rnn_lstm(4, 3), [_u(2, 4)] + [_u(2, 3) for _ in range(4)],
               [_u(2, 3) for _ in range(4)] + [_u(2, 4)], "c.t7")
    for k, (model, x, go) in enumerate(_split_cases()[:2] + [_table_valued()]):
        round_trip(tmp_path, model, x, go, f"s{k}.t7")


def python_unet(n=4, inplace=True):
    """A U-Net of Linear layers, in-place LeakyReLUs ahead of its skips (pix2pix's layout)."""
    x = nn.Identity()()
    e1 = nn.Linear(n, n)(x)
    e2 = nn.Linear(n, n)(nn.LeakyReLU(0.2, inplace)(e1))
    e3 = nn.Linear(n, n)(nn.LeakyReLU(0.2, inplace)(e2))
    d1 = nn.JoinTable(1)([nn.Linear(n, n)(nn.ReLU(inplace)(e3)), e2])
    d2 = nn.JoinTable(1)([nn.Linear(2 * n, n)(nn.Tanh()(d1)), e1])
    return nn.gModule([x], [nn.Tanh()(nn.Linear(2 * n, n)(d2))])


def test_a_unet_with_in_place_modules_at_its_skips(tmp_path):
    model = python_unet()
    x = _u(3, 4)
    back = round_trip(tmp_path, model, x, _u(3, 4))
    assert repr(back) == repr(model)
    # the aliasing is there to keep: without in-place modules the numbers differ
    plain = python_unet(inplace=False)
    for a, b in zip(plain.graph_modules, model.graph_modules):
        if isinstance(a, nn.Linear):
            a.weight[...], a.bias[...] = b.weight, b.bias
    assert np.abs(plain.forward(x.copy()) - back.forward(x.copy())).max() > 1e-3


def test_nested_python_graphs_and_split_outputs(tmp_path):
    round_trip(tmp_path, *nested_python_graphs())


def test_a_lowered_tree_edited_by_hand(tmp_path):
    """Containers a user put in (a Sequential around a stage's child, a
    ParallelTable, a NarrowTable, a table read twice by one module, an
    entry read by index from the end) are walked, not refused."""
    model = python_lstm_cell(3, 4)
    stage = next(m for m in model.modules if isinstance(m, nn.ConcatTable) and len(m.modules) > 1)
    k = next(i for i, c in enumerate(stage.modules) if isinstance(c, nn.Sequential))
    stage.modules[k] = nn.Sequential(nn.Identity(), stage.modules[k])
    round_trip(tmp_path, model, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)], "a.t7", same_nodes=False)
    round_trip(tmp_path, *edited_tree(), "b.t7", raw=False, same_nodes=False)


# ---------------------------------------------------------------- the node graph written
def test_the_node_graph_has_nngraph_layout(tmp_path):
    model = python_lstm_cell(3, 4)
    nn.save_lua(str(tmp_path / "g.t7"), model)
    obj = read_t7(str(tmp_path / "g.t7"))
    assert obj.class_name == "nn.gModule"
    f = obj.fields
    assert f["nInputs"] == 3.0 and f["verbose"] is False
    assert not ({"graph_modules", "nOutputs", "nNodes"} & set(f))
    nodes = _items(f["forwardnodes"])
    datas = [n.fields["data"] for n in nodes]
    assert all(n.class_name == "nngraph.Node" for n in nodes)
    assert f["innode"] is nodes[0] and f["outnode"].fields["data"] is datas[-1]
    assert len(nodes) == model.nNodes               # the graph nngraph had: no node added, none lost
    assert [d["forwardNodeId"] for d in datas] != []
    # the inputs: the input node split in three, one node per input
    assert datas[1]["nSplitOutputs"] == 3.0 and [d.get("selectindex") for d in datas[2:5]] == [1.0, 2.0, 3.0]
    # the gates: SplitTable's output split in four
    splits = [d for d in datas if d.get("nSplitOutputs") == 4.0]
    assert len(splits) == 1 and splits[0].get("module") is None
    # mapindex: inputs in order, and the reverse map keyed by the input's data
    for d in datas:
        ins = _items(d["mapindex"])
        assert len(d["mapindex"]) == 2 * len(ins)
        for k, parent in enumerate(ins):
            assert d["mapindex"][("object", id(parent))] == k + 1
    # modules: graph_modules' order; fg and bg graphs of nngraph.Node / graph.Edge
    assert [m.class_name for m in _items(f["modules"])] == [f"nn.{type(m).__name__}" for m in model.graph_modules]
    assert f["fg"].class_name == f["bg"].class_name == "graph.Graph"
    assert len(_items(f["bg"].fields["edges"])) == sum(len(_items(d["mapindex"])) for d in datas)


def test_flat_parameters_keep_their_order(tmp_path):
    model = load(tmp_path, lstm_cell(3, 4).t7(), "in.t7")
    nn.save_lua(str(tmp_path / "g.t7"), model)
    back = nn.load_lua(str(tmp_path / "g.t7"))
    np.testing.assert_array_equal(back.flattenParameters()[0], model.flattenParameters()[0])


# ---------------------------------------------------------------- refused
def _refused(tmp_path, model, match):
    with pytest.raises(TypeError, match=match):
        nn.save_lua(str(tmp_path / "no.t7"), model)


def test_what_nngraph_cannot_express_is_refused(tmp_path):
    x = nn.Identity()()
    g = nn.gModule([x], [nn.Tanh()(x)])
    g.modules[:] = [nn.ConcatTable(nn.Linear(3, 3), nn.Identity()), nn.ParallelTable(nn.Tanh())]
    _refused(tmp_path, g, r"gModule.modules\[1\] \(nn.ParallelTable of 1 modules\) is given a table of 2")
    lin = nn.Linear(3, 3)
    g.modules[:] = [nn.ConcatTable(lin, nn.Sequential(nn.Tanh(), lin)), nn.CAddTable()]
    _refused(tmp_path, g, r"the same Linear object is the module of two nodes")
    g.modules[:] = [nn.ConcatTable(nn.Linear(3, 3), nn.Tanh()), nn.SelectTable(1)]
    _refused(tmp_path, g, r"modules\[0\]\.modules\[0\] \(Linear\): no output of the graph depends on this "
                          r"module's output, and it holds parameters")
    g.modules[:] = [nn.ConcatTable(nn.ReLU(True), nn.Tanh()), nn.SelectTable(1)]
    _refused(tmp_path, g, r"\(ReLU\): no output .* works in place")
    g.modules[:] = [nn.ConcatTable(nn.Tanh()), nn.SelectTable(3)]
    _refused(tmp_path, g, r"nn.SelectTable\(3\)\) is given a table of 1 entries")
    g.modules[:] = [nn.ConcatTable(nn.Tanh()), nn.NarrowTable(1, 2)]
    _refused(tmp_path, g, r"nn.NarrowTable\(1, 2\)\) is given a table of 1 entries")
    g.modules[:] = [nn.ConcatTable(), nn.CAddTable()]
    _refused(tmp_path, g, r"\(CAddTable\) is given an empty table")
    g.modules[:] = [nn.Linear(3, 3)]     # a dropped stage that computed nothing an output needs: fine
    x1, x2 = nn.Identity()(), nn.Identity()()
    two = nn.gModule([x1, x2], [nn.Tanh()(x1), x2])
    two.modules[:] = [nn.SelectTable(0), nn.Tanh()]
    _refused(tmp_path, two, r"input 1 of the graph is read by nothing an output depends on")


def test_tables_duplicates_and_a_graph_returning_its_input(tmp_path):
    round_trip(tmp_path, *tables_duplicates(), raw=False, same_nodes=False)


def test_a_gmodule_subclass_is_written_under_its_own_class(tmp_path):
    """A Lua subclass of nn.gModule (loaded as its base) goes back under its
    class name, with its own fields and the node graph."""
    import warnings
    from test_gmodule_subclass_t7 import _subclass
    g = lstm_cell(3, 4)
    path = tmp_path / "sub.t7"
    path.write_bytes(t7_bytes(_subclass(g, "nn.Captioner", vocab_size=7.0, opts={"beam": 2.0})))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.load_lua(str(path))
        back = round_trip(tmp_path, model, _lstm_input(2, 3, 4), [_u(2, 4), _u(2, 4)], "sub2.t7")
    raw = read_t7(str(tmp_path / "sub2.t7"))
    assert raw.class_name == "nn.Captioner" and raw.fields["vocab_size"] == 7.0 and raw.fields["opts"]["beam"] == 2.0
    assert not {"lua_class", "lua_fields"} & set(raw.fields)
    assert back.lua_class == "nn.Captioner" and back.lua_fields == ("opts", "vocab_size")
