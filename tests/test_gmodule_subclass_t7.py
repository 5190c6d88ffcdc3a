"""Torch7 files holding subclasses of nngraph's gModule that nn_legacy does
not have (``torch.class('nn.MyNet', 'nn.gModule')`` in research code, a
bare-named ``LSTM`` class, a graph cell inside an rnn-package module): the
file names the class, never its base, so load_lua tells them by nngraph's
fields (forwardnodes, innode, outnode) and loads them as their gModule base,
lowered, equal to nngraph (tests/nngraph_port.py's evaluator), their own
fields kept, a T7Warning and print(model) saying so.  Damaged and hostile
variants raise only T7Error."""
import warnings

import numpy as np
import pytest

import nn_legacy as nn
import rnn_t7_files as F
from nngraph_port import Graph, Run, node
from nn_legacy.serialization.t7 import T7Error, T7Warning
from t7_damage import load_damaged
from t7_writer import Function, T7Object, t7_bytes
from test_gModule import _close, _u, check_equal_to_nngraph, lstm_cell, residual


def _write(tmp_path, value, name="g.t7"):
    path = tmp_path / name
    path.write_bytes(t7_bytes(value))
    return str(path)


def _load_warned(tmp_path, value, name="g.t7", **kw):
    """load_lua, and the texts of the T7Warnings it gave."""
    path = _write(tmp_path, value, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = nn.load_lua(path, **kw)
    return model, [str(w.message) for w in caught if issubclass(w.category, T7Warning)]


def _subclass(graph, class_name, **own):
    """graph's gModule object under another torch class name, with fields of its own."""
    t = graph.t7()
    t.class_name = class_name
    t.fields.update(own)
    return t


# ---------------------------------------------------------------- research models subclassing nn.gModule
def test_a_subclass_nn_legacy_does_not_have_loads_as_its_gmodule_base(tmp_path):
    g = lstm_cell(3, 4)
    t = _subclass(g, "nn.Captioner", vocab_size=7.0, seq_length=16.0, opts={"beam": 2.0, "tag": "x"})
    model, said = _load_warned(tmp_path, t)
    assert type(model) is nn.gModule
    assert model.lua_class == "nn.Captioner" and model.lua_fields == ("opts", "seq_length", "vocab_size")
    assert model.vocab_size == 7.0 and model.seq_length == 16.0 and model.opts == {"beam": 2.0, "tag": "x"}
    assert len(said) == 1
    assert "root: nn.Captioner" in said[0] and "loaded as nn.gModule, its base" in said[0]
    assert "its own fields (opts, seq_length, vocab_size)" in said[0] and "not run" in said[0]
    head = repr(model).splitlines()[0]
    assert head.startswith("nn.Captioner loaded as nn.gModule, its base (an nngraph graph of ")
    assert "3 inputs -> 2 outputs; lowered; its own fields: opts, seq_length, vocab_size)" in head
    _, checked = check_equal_to_nngraph(tmp_path, g, [_u(2, 3), _u(2, 4), _u(2, 4)], [_u(2, 4), _u(2, 4)],
                                        model=model)
    assert checked == 4


def test_a_bare_named_subclass_and_one_without_fields_of_its_own(tmp_path):
    """torch.class('LSTM', 'nn.gModule') (no nn. prefix); a subclass adding only methods."""
    g = residual(3)
    model, said = _load_warned(tmp_path, _subclass(g, "LSTM"))
    assert model.lua_class == "LSTM" and model.lua_fields == ()
    assert "LSTM, a class nn_legacy does not have" in said[0] and "no fields of its own" in said[0]
    assert "its own fields" not in repr(model).splitlines()[0]
    check_equal_to_nngraph(tmp_path, g, _u(2, 3), _u(2, 3), model=model)


@pytest.mark.parametrize("name", ["nn.LSTM", "nn.Sequential"])
def test_a_subclass_named_as_an_nn_legacy_class(tmp_path, name):
    """torch.class('nn.LSTM', 'nn.gModule') in a research model: an object
    of that name holding a graph is the graph (nn_legacy's LSTM or
    Sequential never hold forwardnodes)."""
    g = lstm_cell(3, 4)
    model, said = _load_warned(tmp_path, _subclass(g, name, layers=1.0))
    assert type(model) is nn.gModule and model.lua_class == name and model.layers == 1.0
    assert f"{name}, a subclass of nngraph's gModule named as nn_legacy's {name} (which it is not" in said[0]
    check_equal_to_nngraph(tmp_path, g, [_u(2, 3), _u(2, 4), _u(2, 4)], [_u(2, 4), _u(2, 4)], model=model)


def test_the_modules_of_a_subclass_are_still_checked(tmp_path):
    """A module nn_legacy does not have inside the subclass's graph: the usual
    error naming it (the subclass itself is not listed as unknown)."""
    x = node(F.obj("Identity"))
    g = Graph([x], [node(T7Object("nn.MyLayer", {"train": True}), x)])
    with pytest.raises(T7Error, match=r"does not have: nn.MyLayer \(") as e:
        nn.load_lua(_write(tmp_path, _subclass(g, "nn.MyNet")))
    assert "nn.MyNet" not in str(e.value)


def test_subclasses_inside_containers_graphs_and_checkpoints(tmp_path):
    """A subclass as a node of a gModule, inside a Sequential, and in a
    checkpoint table, twice (the same object: loaded once); one warning
    names every place."""
    inner = residual(3, blocks=1)
    inner_t = _subclass(inner, "nn.ResBlock", width=3.0)
    x = node(F.obj("Identity"))
    y = node(F.obj("Tanh"), node(inner, x))
    outer = Graph([x], [y])
    node_of_inner = next(n for n in outer.order if n.sub is inner)
    node_of_inner.data["module"] = inner_t          # (the port keeps the Graph for its evaluator)
    outer_t = outer.t7()
    outer_t.fields["modules"] = {i + 1: n.data["module"] for i, n in
                                 enumerate(n for n in outer.order if n.data.get("module") is not None)}
    checkpoint = {"model": F.seq(outer_t, F.obj("Tanh")), "block": inner_t, "epoch": 3.0}
    got, said = _load_warned(tmp_path, checkpoint)
    seq = got["model"]
    graph = seq.modules[0]
    block = next(m for m in graph.graph_modules if isinstance(m, nn.gModule))
    assert block is got["block"] and block.lua_class == "nn.ResBlock" and block.width == 3.0
    assert graph.lua_class is None
    assert len(said) == 1 and "nn.ResBlock" in said[0]
    v = _u(2, 3)
    want = np.tanh(Run(outer).forward(v.copy()))
    _close(seq.forward(v.copy()), want, "output")


def test_an_rnn_package_module_whose_step_is_a_graph_subclass(tmp_path):
    """nn.Recurrence(stepmodule, H, 1) whose step module is an Elman cell
    built with nngraph in a class of its own: y_t = tanh(W x_t + V y_{t-1} + b)."""
    D, H = 3, 4
    W, b, V = _u(H, D), _u(H), _u(H, H)
    x, prev = node(F.obj("Identity")), node(F.obj("Identity"))
    cell = Graph([x, prev], [node(F.obj("Tanh"), node(F.obj("CAddTable"), node(F.linear(W, b), x),
                                                      node(F.linear_no_bias(V, "tr"), prev)))])
    step = _subclass(cell, "nn.ElmanCell", hiddenSize=float(H))
    m, said = _load_warned(tmp_path, F.recurrence(step, {1: float(H)}, 1))
    assert isinstance(m, nn.Recurrence) and "nn.ElmanCell" in said[0]
    xs = [_u(2, D) for _ in range(3)]
    y = np.zeros((2, H))
    m.forget()
    for t in range(3):
        y = np.tanh(xs[t] @ W.T + b + y @ V.T)
        np.testing.assert_allclose(m.forward(xs[t]), y, rtol=1e-12, atol=1e-14)


def test_a_registered_class_of_that_name_wins(tmp_path):
    class MyNet(nn.gModule):
        pass

    t = _subclass(residual(3), "nn.MyNet", depth=2.0)
    model, said = _load_warned(tmp_path, t, classes={"nn.MyNet": MyNet})
    assert type(model) is MyNet and model.depth == 2.0 and model.lua_class is None and not said


def test_a_field_named_as_a_method_does_not_hide_it(tmp_path):
    """A subclass's field called like a method of the class (a Lua
    ``self.clone = ...``, ``self.forward = 0``): kept in lua_shadowed."""
    g = residual(3, blocks=1)
    t = _subclass(g, "nn.MyNet", forward=0.0, clone=Function(), depth=5.0)
    model, said = _load_warned(tmp_path, t)
    assert model.lua_fields == ("clone", "depth", "forward")
    assert set(model.lua_shadowed) == {"clone", "forward"} and model.lua_shadowed["forward"] == 0.0
    assert model.depth == 5.0
    v = _u(2, 3)
    _close(model.forward(v.copy()), Run(g).forward(v.copy()), "output")
    assert model.clone().lua_class == "nn.MyNet"


def test_save_and_load_keep_the_class_and_its_fields(tmp_path):
    t = _subclass(residual(3), "nn.Captioner", vocab_size=7.0)
    model, _ = _load_warned(tmp_path, t)
    nn.save(model, str(tmp_path / "m.nnl"))
    again = nn.load(str(tmp_path / "m.nnl"))
    assert again.lua_class == "nn.Captioner" and again.lua_fields == ("vocab_size",) and again.vocab_size == 7.0
    assert repr(again) == repr(model)
    v = _u(2, 3)
    _close(again.forward(v.copy()), model.forward(v.copy()), "output")


# ---------------------------------------------------------------- damaged and hostile variants
@pytest.mark.parametrize("lacks", [("innode",), ("outnode",), ("innode", "outnode")])
def test_a_class_with_some_of_the_fields_is_an_unknown_class(tmp_path, lacks):
    t = _subclass(residual(3, blocks=1), "nn.Half")
    for f in lacks:
        del t.fields[f]
    path = _write(tmp_path, t)
    with pytest.raises(T7Error, match=r"g.t7: nn.Half holds some of nngraph's gModule fields but not "
                                      rf"{', '.join(lacks)}, so it does not load as a gModule subclass .*"
                                      r"does not have: graph.Edge, graph.Graph, nn.Half, nngraph.Node \("):
        nn.load_lua(path)
    kept = nn.load_lua(path, unknown_classes="object")
    assert type(kept).__name__ == "TorchObject" and kept.class_name == "nn.Half"


def _hostile(t, damage):
    f = t.fields
    nodes = f["forwardnodes"]
    if damage == "forwardnodes a number":
        f["forwardnodes"] = 3.0
    elif damage == "innode a string":
        f["innode"] = "in"
    elif damage == "outnode not a node of the graph":
        f["outnode"] = F.obj("Tanh")
    elif damage == "a node reads itself":
        d = nodes[3].fields["data"]
        d["mapindex"][len([k for k in d["mapindex"] if isinstance(k, int)]) + 1] = d
    elif damage == "the graph in its own node":
        next(n for n in nodes.values() if n.fields["data"].get("module") is not None).fields["data"]["module"] = t
    elif damage == "the graph as its own innode":
        f["innode"] = t
    elif damage == "forwardnodes holding the graph":
        nodes[2] = t
    elif damage == "data of a node the graph itself":
        nodes[2].fields["data"] = t
    elif damage == "two subclasses in each other":
        other = T7Object("nn.Other", dict(f))
        next(n for n in nodes.values() if n.fields["data"].get("module") is not None).fields["data"]["module"] = other
    return t


@pytest.mark.parametrize("damage", ["forwardnodes a number", "innode a string", "outnode not a node of the graph",
                                    "a node reads itself", "the graph in its own node", "the graph as its own innode",
                                    "forwardnodes holding the graph", "data of a node the graph itself",
                                    "two subclasses in each other"])
def test_hostile_subclasses_raise_only_t7error(tmp_path, damage):
    t = _hostile(_subclass(residual(3, blocks=1), "nn.MyNet", extra=1.0), damage)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(T7Error, match="gModule"):
            nn.load_lua(_write(tmp_path, t))


def test_damaged_bytes_of_a_subclass_raise_only_t7error(tmp_path):
    """Bytes of a saved subclass changed at random: T7Error, or a model."""
    data = t7_bytes(_subclass(lstm_cell(3, 4), "nn.MyNet", extra=1.0))
    loaded = load_damaged(data, tmp_path / "f.t7", 25, 261,
                          lambda model: model.forward([_u(2, 3), _u(2, 4), _u(2, 4)]))
    assert loaded < 25


def test_a_plain_gmodule_ignores_fields_named_as_load_luas(tmp_path):
    """lua_class / lua_fields / lua_shadowed are load_lua's to set: in a
    plain nn.gModule's fields they are dropped (print still works)."""
    t = residual(3, blocks=1).t7()
    t.fields.update(lua_class=3.0, lua_fields=4.0, lua_shadowed="x")
    model = nn.load_lua(_write(tmp_path, t))
    assert model.lua_class is None and model.lua_fields == () and "lua_shadowed" not in vars(model)
    assert repr(model).startswith("nn.gModule (")


def test_a_registered_subclass_that_holds_itself_is_refused(tmp_path):
    """The check for graphs holding themselves covers registered subclasses too."""
    class MyNet(nn.gModule):
        pass

    t = _hostile(_subclass(residual(3, blocks=1), "nn.MyNet"), "the graph in its own node")
    with pytest.raises(T7Error, match="the graph holds itself"):
        nn.load_lua(_write(tmp_path, t), classes={"nn.MyNet": MyNet})


def test_a_field_holding_the_object_itself_is_no_graph_cycle(tmp_path):
    """self.net = self in the Lua class: an attribute back to the model (its
    graph does not hold it), loaded as such."""
    g = residual(3, blocks=1)
    t = _subclass(g, "nn.MyNet")
    t.fields["net"] = t
    model, _ = _load_warned(tmp_path, t)
    assert model.net is model and model.lua_fields == ("net",)
    v = _u(2, 3)
    _close(model.forward(v.copy()), Run(g).forward(v.copy()), "output")
    nn.save(model, str(tmp_path / "m.nnl"))
    again = nn.load(str(tmp_path / "m.nnl"))
    assert again.net is again


def test_unknown_classes_object_still_loads_the_subclass_as_a_graph(tmp_path):
    """unknown_classes='object' keeps unknown classes raw; a gModule subclass
    is known by its fields, and loads as the graph either way."""
    t = _subclass(residual(3, blocks=1), "nn.MyNet", extra=F.obj("Mystery", a=1.0))
    model, _ = _load_warned(tmp_path, t, unknown_classes="object")
    assert type(model) is nn.gModule and model.lua_class == "nn.MyNet"
    assert type(model.extra).__name__ == "TorchObject" and model.extra.class_name == "nn.Mystery"
    with pytest.raises(T7Error, match=r"does not have: nn.Mystery \("):
        nn.load_lua(_write(tmp_path, t, "again.t7"))
