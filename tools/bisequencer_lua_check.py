"""Run torch/rnn's nn.BiSequencer (whole sequences merged) as nn_legacy's
save_lua writes it in a real Lua Torch7 with torch/rnn, and compare (a local
check, not run in CI: it needs a Lua Torch7, which nothing here builds).

    python tools/bisequencer_lua_check.py [--lua "bash /work/lua/luaenv.sh torch"] [--keep DIR]

For each case, writes DIR/<case>.in.t7 = {model, input, gradOutput} with
``save_lua(..., rnn="torch/rnn")``; the Lua side
(tools/bisequencer_lua_check.lua) runs forward, backward, reads the
parameters' gradients, takes one SGD step (updateParameters(0.1)), runs
forward again and saves the results and the trained model as Lua's
torch.save writes it.  This compares each with nn_legacy doing the same,
then loads Lua's trained model with load_lua and compares its forward with
Lua's.  Prints the largest differences relative to max(1, |value|); exit
status 1 if a case failed or any exceeds the dtype's tolerance."""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import nn_legacy as nn  # noqa: E402
from lua_results import relative_error  # noqa: E402

TOL = {np.float64: 1e-12, np.float32: 1e-5}


def cases():
    """name -> (model, input [T, N, D], gradOutput, dtype)."""
    rng = np.random.default_rng(27)

    def u(*shape):
        return rng.uniform(-1, 1, shape)

    nn.manualSeed(27)
    T, N, D, H = 5, 3, 3, 4
    out = {
        "fastlstm_sum": (nn.BiSequencer(nn.FastLSTM(D, H), package="torch/rnn"), H),
        "seqlstm_join": (nn.BiSequencer(nn.SeqLSTM(D, H), merge=nn.JoinTable(2), package="torch/rnn"), 2 * H),
        "seqgru_gru_sum": (nn.BiSequencer(nn.SeqGRU(D, H), nn.Sequencer(nn.GRU(D, H)), package="torch/rnn"), H),
        "linear_recursor_sum": (nn.BiSequencer(nn.Recursor(nn.Linear(D, H)), package="torch/rnn"), H),
    }
    result = {}
    for name, (m, width) in out.items():
        result[name] = (m, u(T, N, D), u(T, N, width), np.float64)
    m = nn.BiSequencer(nn.SeqLSTM(D, H), package="torch/rnn").float()
    result["seqlstm_sum_float32"] = (m, u(T, N, D).astype(np.float32), u(T, N, H).astype(np.float32), np.float32)
    return result


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lua", default="bash /work/lua/luaenv.sh torch", help="runs luajit with torch/rnn")
    p.add_argument("--keep", help="write the files here (kept) instead of a temporary folder")
    args = p.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="bisequencer_lua_")
    os.makedirs(folder, exist_ok=True)
    want = {}
    for name, (m, x, go, dtype) in cases().items():
        nn.save_lua(os.path.join(folder, name + ".in.t7"), {"model": m, "input": x, "gradOutput": go},
                    rnn="torch/rnn")
        m.zeroGradParameters()
        y = np.array(m.forward(x))
        gi = np.array(m.backward(x, go))
        grads = [np.array(g) for g in m.parameters()[1]]
        m.updateParameters(0.1)
        want[name] = (y, gi, grads, np.array(m.forward(x)), x, dtype)
    run = subprocess.run(shlex.split(args.lua) + [os.path.join(HERE, "bisequencer_lua_check.lua"), folder],
                         capture_output=True, text=True)
    sys.stderr.write(run.stdout + run.stderr)
    bad = 0
    for name, (y, gi, grads, trained, x, dtype) in want.items():
        path = os.path.join(folder, name + ".out.t7")
        got = nn.load_lua(path) if os.path.exists(path) else {"error": "no result"}
        if "error" in got:
            print(f"{name:24s} FAILED in Lua: {got['error']}")
            bad += 1
            continue
        lua_model = nn.load_lua(os.path.join(folder, name + ".lua.t7"))
        errors = {"output": relative_error(got["output"], y), "gradInput": relative_error(got["gradInput"], gi),
                  f"gradients({len(grads)})": relative_error(got["gradParameters"], grads),
                  "after a step": relative_error(got["trained"], trained),
                  "Lua's file here": relative_error(lua_model.forward(x), got["trained"])}
        ok = all(e <= TOL[dtype] for e in errors.values()) and lua_model.package == "torch/rnn"
        bad += not ok
        print(f"{name:24s} {'ok  ' if ok else 'DIFF'} " + "  ".join(f"{k} {e:.1e}" for k, e in errors.items()))
    print(f"{len(want)} cases, {bad} failed or differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
