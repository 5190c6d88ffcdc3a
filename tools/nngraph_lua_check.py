"""Run nn.gModule files written by nn_legacy.save_lua in a real Lua Torch7
with nngraph, and compare with nn_legacy (a local check, not run in CI: it
needs a Lua Torch7, which nothing here builds).

    python tools/nngraph_lua_check.py [--lua "bash /work/lua/luaenv.sh {tree}"] [--keep DIR]

For each case (graphs loaded from the byte layout nngraph saved, built in
Python the nngraph way, edited by hand: tests/test_gmodule_save_lua.py's),
writes DIR/<case>.in.t7 = {model, input, gradOutput} with save_lua; the Lua
side (tools/nngraph_lua_check.lua) torch.loads it, runs forward and
backward and saves output, gradInput and the parameters' gradients; this
reads them back with load_lua and prints the largest differences from
nn_legacy's own forward and backward.  Exit status 1 if a case failed or
differs by more than 1e-12 (relative to the values' size).

It needs save_lua to write the work fields Lua's constructors made (an
output and a gradInput tensor of their own per module, JoinTable's size
storage...: the lua branch's _LUA_WORK_FIELDS); without them Lua stops in
JoinTable.updateOutput, and modules whose gradInput is their output tensor
in Lua change their output in backward."""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(os.path.dirname(HERE), "tests")]

import nn_legacy as nn  # noqa: E402
from lua_results import as_list, relative_error  # noqa: E402


def cases(tmp):
    import test_gModule as G
    import test_gmodule_save_lua as S
    u = G._u

    class Dir:     # (what test_gModule.load takes for tmp_path)
        def __truediv__(self, name):
            return _Path(os.path.join(tmp, name))

    def load(graph, name):
        return G.load(Dir(), graph.t7(), name + ".src.t7")
    out = {
        "lstm_split_loaded": (load(G.lstm_cell(3, 4), "a"), G._lstm_input(2, 3, 4), [u(2, 4), u(2, 4)]),
        "lstm_narrow_loaded": (load(G.lstm_cell(3, 4, "narrow"), "b"), G._lstm_input(2, 3, 4), [u(2, 4), u(2, 4)]),
        "gru_loaded": (load(G.gru_cell(3, 4), "c"), [u(2, 3), u(2, 4)], u(2, 4)),
        "encoder_decoder_in_place_loaded": (load(G.encoder_decoder(4), "d"), u(3, 4), u(3, 4)),
        "residual_loaded": (load(G.residual(5), "e"), u(3, 5), u(3, 5)),
        "several_in_out_loaded": (load(G.several(3), "f"), [u(2, 3), u(2, 3)], [u(2, 3), u(2, 3), u(2, 2)]),
        "lstm_python": (G.python_lstm_cell(3, 4), G._lstm_input(2, 3, 4), [u(2, 4), u(2, 4)]),
        "char_rnn_2_layers_python": (G.python_char_rnn_lstm(4, 3), [u(2, 4)] + [u(2, 3) for _ in range(4)],
                                     [u(2, 3) for _ in range(4)] + [u(2, 4)]),
        "unet_in_place_python": (S.python_unet(), u(3, 4), u(3, 4)),
    }
    for name, make in (("split_one_loaded", S.split_one_graph), ("nested_loaded", S.nested_graph),
                       ("just_table_loaded", S.just_table_graph)):
        graph, x, gradOutput = make()
        out[name] = (load(graph, name), x, gradOutput)
    real = os.path.join(os.path.dirname(HERE), "tests", "data", "t7", "torchfile", "gmodule_with_linear_identity.t7")
    out["torchfile_real_file"] = (nn.load_lua(real), [np.array([[0.5], [-1.0]]), u(2, 2)], u(2, 2))
    for k, case in enumerate(G._split_cases()[:2] + [G._table_valued()]):
        out[f"split_outputs_python_{k}"] = case
    out["seq_holding_a_graph"] = (nn.Sequential(G.python_lstm_cell(3, 4), nn.SelectTable(1)),
                                  G._lstm_input(2, 3, 4), u(2, 4))
    out["nested_python"] = S.nested_python_graphs()
    out["edited_tree"] = S.edited_tree()
    out["tables_duplicates_input_out"] = S.tables_duplicates()
    # the rnn package's FastLSTM with recurrent batch normalization: its step module is an nngraph gModule
    for package in ("torch/rnn", "Element-Research/rnn"):
        seq = nn.Sequencer(nn.FastLSTM(3, 4, bn=True))
        step = seq.modules[0].recurrentModule
        out[f"fastlstm_bn_{package.split('/')[0].lower()}"] = (
            seq, [u(5, 3) for _ in range(3)], [u(5, 4) for _ in range(3)],
            lambda step=step, package=package: step._t7_lua_tree(package)[0].parameters()[1], package)
    return out


class _Path(str):
    def write_bytes(self, data):
        with open(self, "wb") as f:
            f.write(data)


def _copy(v):
    return [_copy(x) for x in v] if isinstance(v, (list, tuple)) else np.array(v, dtype=np.float64)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lua", default="bash /work/lua/luaenv.sh {tree}",
                   help="the command that runs luajit with nngraph and rnn ({tree}: torch or er, the rnn package)")
    p.add_argument("--keep", help="write the files here (kept) instead of a temporary folder")
    args = p.parse_args()
    tmp = args.keep or tempfile.mkdtemp(prefix="nngraph_lua_")
    os.makedirs(tmp, exist_ok=True)
    want, where = {}, {}
    for name, (model, x, go, *rest) in cases(tmp).items():
        grads_in_lua_order, package = rest if rest else (lambda model=model: model.parameters()[1], "torch/rnn")
        folder = os.path.join(tmp, package.split("/")[0].lower())
        os.makedirs(folder, exist_ok=True)
        model.zeroGradParameters()
        nn.save_lua(os.path.join(folder, name + ".in.t7"),
                    {"model": model, "input": _copy(x), "gradOutput": _copy(go)}, rnn=package)
        out = _copy(model.forward(_copy(x)))
        gi = _copy(model.backward(_copy(x), _copy(go)))
        want[name] = (out, gi, [np.array(g) for g in grads_in_lua_order()])
        where[name] = folder
    for folder in sorted(set(where.values())):
        tree = "er" if folder.endswith("element-research") else "torch"    # (the rnn package of that tree)
        run = subprocess.run(shlex.split(args.lua.format(tree=tree)) + [os.path.join(HERE, "nngraph_lua_check.lua"),
                                                                        folder], capture_output=True, text=True)
        sys.stderr.write(run.stdout + run.stderr)
    bad = 0
    for name, (out, gi, grads) in want.items():
        path = os.path.join(where[name], name + ".out.t7")
        if not os.path.exists(path):
            print(f"{name:36s} NO RESULT")
            bad += 1
            continue
        got = nn.load_lua(path)
        if "error" in got:
            print(f"{name:36s} FAILED in Lua: {got['error']}")
            bad += 1
            continue
        lua_grads = as_list(got.get("gradParameters", []))
        errors = (relative_error(got["output"], out), relative_error(got["gradInput"], gi),
                  relative_error(lua_grads, grads) if grads else 0.0)
        ok = all(e <= 1e-12 for e in errors)
        bad += not ok
        print(f"{name:36s} {'ok  ' if ok else 'DIFF'} output {errors[0]:.1e}  gradInput {errors[1]:.1e}  "
              f"parameter gradients ({len(grads)}) {errors[2]:.1e}")
    print(f"{len(want)} cases, {bad} failed or differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
