"""Check in a real Lua Torch7 what nn_legacy.save_lua writes.

Writes with ``save_lua``, in float64 and float32: a hand-written catalogue of
models (a sample of every family; the rnn package's trees for each ``rnn=``
package), every entry of tests/module_table.py (its own constructor arguments
and inputs, index inputs counted from 1 for Lua, in both rnn packages' trees),
and every file of tests/data/t7/torch7_built read with ``load_lua`` (run on
the file's own input and gradOutput, compared with the output and gradInput
Torch7 recorded).  Runs forward and backward on each in Lua through
tools/torch7_check.lua and compares Lua's output and gradInput with
nn_legacy's (max absolute error, relative to the values' largest); ends with a
per-class summary of the module table (agree, differ as documented, fail, not
run and why).  ``--quick``: the hand-written catalogue alone (about 8 s; the
whole check about 15 s).  Not run by CI: it needs a CPU-only Lua
Torch7 built from source (tests/data/t7/README.md names the commits).

    python tools/torch7_check.py --torch7 /work/lua [--keep DIR] [--only SUBSTRING] [--quick]

``--torch7`` is the folder holding ``install/`` (LuaJIT, torch, nn, nngraph)
and the two rnn trees ``tree_torch_rnn`` and ``tree_er_rnn``.  Exit status 1
when a case failed (in save_lua, in Lua, or beyond the dtype's tolerance).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import nn_legacy as nn  # noqa: E402
from nn_legacy.serialization.t7 import load_lua  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# what save_lua refuses on purpose: torch/rnn's nn.BiSequencer is another module than Element-Research/rnn's
REFUSED = {("torch_rnn", "BiSequencer(FastLSTM)")}
TOL = {np.float64: 1e-10, np.float32: 1e-5}     # relative to the output's largest magnitude
# documented deviations: nn_legacy's Euclidean divides its gradient by the distance, Torch7 by distance + 1e-7
GRAD_TOL = {"Euclidean": 1e-6}


# Module-table entries that are not run in Lua, with the reason (by entry id, or by class for all its entries)
NOT_RUN = {
    "SpatialDepthWiseConvolution": "Torch7's kernel takes the input's height from size[3] and its width from size[2] "
                                   "(torch/nn lib/THNN/generic/SpatialDepthWiseConvolution.c): on the entry's "
                                   "non-square input and kernel it reports a size mismatch and crashes Lua; the "
                                   "hand-written square case runs instead",
    "TorchRNNLSTM": "jcjohnson/torch-rnn's nn.LSTM is not installed; with rnn loaded the name is the rnn package's LSTM",
    "ReinforceGamma": "the rnn packages' ReinforceGamma needs the randomkit and cephes Lua packages, not built here",
    "TemporalSubSampling": "Torch7's TemporalSubSampling takes no batch (2D input only): the entry's input is a batch",
    "SpatialFullConvolutionMap": "Torch7's SpatialFullConvolutionMap takes no batch (3D input only): the entry's "
                                 "input is a batch",
    "SpatialFractionalMaxPooling": "Torch7 asks outputW + poolSizeW - 1 < inputW, stricter than nn_legacy's <= "
                                   "(the entry's sizes meet nn_legacy's bound only)",
    "VolumetricFractionalMaxPooling": "as SpatialFractionalMaxPooling: Torch7's size check is stricter",
}
NOT_RUN_ER = {"BiSequencer-torch-rnn": "torch/rnn's BiSequencer (whole sequences merged): save_lua writes it for "
                                      "rnn='torch/rnn' only"}
# Element-Research's bidirectional sequencers take a table of steps only: the entry's [T, batch, size] tensor is
# given to them (here and in Lua) as the table of its T steps
STEPS_ER = {"BiSequencer", "BiSequencerLM"}
# entries whose training forward changes the state it reads (IndexLinear's normalize keeps each key's running
# max |value|, raised as a batch goes): the file is saved after the first forward, so the output compared is a
# second forward's, from the state Lua reads
SETTLE_FIRST = {"IndexLinear-normalize"}
# entries run forward only: Torch7 refuses their backward
FORWARD_ONLY = {
    "SpatialDropout-evaluate": "Torch7: backprop only defined while training",
    "VolumetricDropout-evaluate": "Torch7: backprop only defined while training",
    "Sequential-empty": "Torch7's Sequential:backward indexes its last module (none)",
    "SpatialAutoCropMSECriterion": "Torch7's updateGradInput does not crop the target (it asserts the sizes equal)",
}
# entries run in a Lua process of their own: Torch7's kernel fails on them and leaves memory corrupted (a later
# case crashed): SpatialDepthWiseConvolution with kW != kH ("size mismatch" in THNN's kernel)
ISOLATE = {"SpatialDepthWiseConvolution"}
# entries whose values differ from this Torch7's by design, documented: they run in Lua, the difference is
# reported, not counted as a failure
DOCUMENTED = {
    "SpatialDropout-evaluate": "v1=False (the default) rescales while training, so evaluation is the identity; "
                               "Torch7 scaled by 1 - p at evaluation (save_lua warns; docs/guides/torch7-migration.md)",
    "VolumetricDropout-evaluate": "as SpatialDropout-evaluate",
    "LayerNormalization": "Torch7's construction subtracts the mean in memory order, which mixes a batch's rows; "
                          "nn_legacy normalizes each row (nn_legacy/LayerNormalization.py)",
    "LayerNormalization-plain": "as LayerNormalization",
}
INDEX_OUTPUT = {"ArgMax", "Kmeans"}      # classes whose output is indices (Lua's count from 1)
# deviations of nn_legacy from this Torch7, found here: the largest relative error allowed (output, gradInput)
DEVIATION_TOL = {
    "SpatialUpSamplingBilinear": (1e-6, 1e-6),   # Torch7 computes the coordinate ratios in float (3e-7 in double)
    "PairwiseDistance": (0.0, 1e-6),             # Torch7's gradient divides by the distance + 1e-6
    "WeightedEuclidean": (0.0, 1e-6),            # as Euclidean: + 1e-7 in the gradient's denominator
}


def _u(rng, *shape):
    return rng.uniform(-1, 1, shape)


def _plain_cases(rng):
    """name -> (model, input, lua_input or None, evaluate); float64, 0-based on the Python side."""
    x4 = _u(rng, 2, 3, 7, 6)
    cases = {}

    def add(name, model, x, lua_x=None, evaluate=False):
        cases[name] = (model, x, lua_x, evaluate)

    add("Linear", nn.Linear(5, 3), _u(rng, 4, 5))
    add("SpatialConvolution", nn.SpatialConvolution(3, 4, 3, 2, 2, 1, 1, 0), x4)
    add("SpatialConvolutionMM", nn.SpatialConvolutionMM(3, 4, 3, 3, 1, 1, 1, 1), x4)
    add("SpatialFullConvolution", nn.SpatialFullConvolution(3, 2, 3, 3, 2, 2, 1, 1, 1, 0), x4)
    add("SpatialDilatedConvolution", nn.SpatialDilatedConvolution(3, 2, 3, 3, 1, 1, 1, 1, 2, 2), x4)
    add("VolumetricConvolution", nn.VolumetricConvolution(2, 3, 2, 2, 2), _u(rng, 2, 2, 4, 5, 4))
    # (square input and kernel: Torch7's kernel swaps the input's height and width, see NOT_RUN)
    add("SpatialDepthWiseConvolution-square", nn.SpatialDepthWiseConvolution(3, 2, 3, 3, 1, 1, 1, 1),
        _u(rng, 2, 3, 6, 6))
    add("TemporalConvolution", nn.TemporalConvolution(4, 3, 2, 1), _u(rng, 2, 6, 4))
    add("SpatialMaxPooling", nn.SpatialMaxPooling(2, 2, 2, 2), x4)
    pool = nn.SpatialMaxPooling(2, 2, 2, 2)
    add("MaxPool+Unpool(indices)", nn.Sequential().add(pool).add(nn.SpatialMaxUnpooling(pool)), _u(rng, 2, 3, 6, 6))
    add("SpatialAveragePooling", nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1), x4)
    add("SpatialAdaptiveMaxPooling", nn.SpatialAdaptiveMaxPooling(2, 3), x4)
    add("VolumetricMaxPooling", nn.VolumetricMaxPooling(2, 2, 2), _u(rng, 2, 2, 4, 4, 4))
    add("TemporalMaxPooling", nn.TemporalMaxPooling(2), _u(rng, 2, 6, 3))
    bn = nn.BatchNormalization(5)
    bn.forward(_u(rng, 8, 5) * 3 + 1)
    add("BatchNormalization(eval)", bn, _u(rng, 4, 5), evaluate=True)
    add("BatchNormalization(train)", nn.BatchNormalization(5), _u(rng, 4, 5))
    sbn = nn.SpatialBatchNormalization(3)
    sbn.forward(x4 * 2 + 0.5)
    add("SpatialBatchNormalization(eval)", sbn, x4, evaluate=True)
    add("Sequential+activations", nn.Sequential().add(nn.Linear(5, 6)).add(nn.ReLU()).add(nn.Linear(6, 6))
        .add(nn.Tanh()).add(nn.Linear(6, 6)).add(nn.Sigmoid()).add(nn.Linear(6, 4)).add(nn.LogSoftMax()),
        _u(rng, 3, 5))
    add("ELU,PReLU,LeakyReLU,SoftPlus,HardTanh", nn.Sequential().add(nn.ELU(0.7)).add(nn.PReLU(4))
        .add(nn.LeakyReLU(0.2)).add(nn.SoftPlus()).add(nn.HardTanh(-0.5, 0.8)).add(nn.SoftMax()), _u(rng, 3, 4) * 2)
    add("Concat(dim 1)", nn.Concat(1).add(nn.SpatialConvolution(3, 2, 1, 1)).add(nn.SpatialConvolution(3, 3, 1, 1)),
        x4)
    add("ConcatTable+CAddTable", nn.Sequential().add(nn.ConcatTable().add(nn.Linear(5, 3)).add(nn.Linear(5, 3)))
        .add(nn.CAddTable()), _u(rng, 2, 5))
    add("ParallelTable+JoinTable(1)", nn.Sequential().add(nn.ParallelTable().add(nn.Linear(3, 2))
                                                          .add(nn.Linear(4, 5))).add(nn.JoinTable(1)),
        [_u(rng, 2, 3), _u(rng, 2, 4)])
    add("SplitTable(1)+SelectTable(2)", nn.Sequential().add(nn.SplitTable(1)).add(nn.SelectTable(2)),
        _u(rng, 2, 4, 3))
    add("Max(1),Min,Sum,Mean dims", nn.ConcatTable().add(nn.Max(1)).add(nn.Min(0)).add(nn.Sum(2)).add(nn.Mean(1)),
        _u(rng, 3, 4, 5))
    add("Narrow(1,1,2)+View+Transpose", nn.Sequential().add(nn.Narrow(1, 1, 2)).add(nn.Transpose((1, 2)))
        .add(nn.View(-1)), _u(rng, 3, 4, 5))
    lut = nn.LookupTable(7, 3)
    idx = np.array([[0, 3, 6], [2, 2, 1]])
    add("LookupTable(indices)", lut, idx, idx + 1)
    add("SpatialCrossMapLRN", nn.SpatialCrossMapLRN(3, 1e-2, 0.75, 1.5), np.abs(x4))
    add("SpatialUpSamplingNearest+ReflectionPadding", nn.Sequential().add(nn.SpatialUpSamplingNearest(2))
        .add(nn.SpatialReflectionPadding(1, 2, 0, 1)), x4)
    add("Dropout(eval)", nn.Sequential().add(nn.Dropout(0.3)).add(nn.Linear(4, 2)), _u(rng, 3, 4), evaluate=True)
    add("CMul,Add,Mul,Normalize", nn.Sequential().add(nn.CMul(4)).add(nn.Add(4)).add(nn.Mul()).add(nn.Normalize(2)),
        _u(rng, 3, 4))
    add("Bilinear", nn.Bilinear(3, 4, 2), [_u(rng, 5, 3), _u(rng, 5, 4)])
    add("Euclidean", nn.Euclidean(4, 3), _u(rng, 2, 4))
    add("SpatialDivisiveNormalization(1D kernel)", nn.SpatialDivisiveNormalization(3, np.array([1.0, 2, 1])), x4)
    add("SpatialContrastiveNormalization(1D kernel)", nn.SpatialContrastiveNormalization(3, np.array([1.0, 3, 1])),
        x4)
    add("gModule(char-rnn LSTM step)", _lstm_step_graph(3, 4), [_u(rng, 2, 3), _u(rng, 2, 4), _u(rng, 2, 4)])
    return cases


def _lstm_step_graph(n_in, n_h):
    """char-rnn's LSTM step as an nngraph graph: (x, prev_c, prev_h) -> (next_c, next_h)."""
    x, prev_c, prev_h = nn.Identity()(), nn.Identity()(), nn.Identity()()
    sums = nn.CAddTable()([nn.Linear(n_in, 4 * n_h)(x), nn.Linear(n_h, 4 * n_h)(prev_h)])
    gates = nn.SplitTable(1)(nn.Reshape(4, n_h)(sums))
    i, f, o, z = (nn.SelectTable(k)(gates) for k in range(4))
    i, f, o, z = nn.Sigmoid()(i), nn.Sigmoid()(f), nn.Sigmoid()(o), nn.Tanh()(z)
    next_c = nn.CAddTable()([nn.CMulTable()([f, prev_c]), nn.CMulTable()([i, z])])
    next_h = nn.CMulTable()([o, nn.Tanh()(next_c)])
    return nn.gModule([x, prev_c, prev_h], [next_c, next_h])


def _criterion_cases(rng):
    """name -> (criterion, input, target, lua_target)."""
    t = np.array([2, 0, 1])
    return {
        "MSECriterion": (nn.MSECriterion(), _u(rng, 3, 4), _u(rng, 3, 4), None),
        "ClassNLLCriterion(targets)": (nn.ClassNLLCriterion(), _u(rng, 3, 4), t, t + 1),
        "CrossEntropyCriterion(weights)": (nn.CrossEntropyCriterion(np.array([1.0, 2.0, 0.5, 1.5])), _u(rng, 3, 4),
                                           t, t + 1),
        "BCECriterion": (nn.BCECriterion(), rng.uniform(0.1, 0.9, (3, 4)), (rng.uniform(0, 1, (3, 4)) > 0.5) * 1.0,
                         None),
    }


def _rnn_cases(rng):
    """name -> (model, input, evaluate): rnn-package trees (T=3 steps, batch 2, 3 -> 4)."""
    seq = _u(rng, 3, 2, 3)
    steps = list(seq)
    return {
        "FastLSTM(step)": (nn.FastLSTM(3, 4), steps[0], False),
        "LSTM(step)": (nn.LSTM(3, 4), steps[0], False),
        "GRU(step)": (nn.GRU(3, 4), steps[0], False),
        "SeqLSTM": (nn.SeqLSTM(3, 4), seq, False),
        "Sequencer(FastLSTM)": (nn.Sequencer(nn.FastLSTM(3, 4)), steps, False),
        "Sequencer(GRU)": (nn.Sequencer(nn.GRU(3, 4)), steps, False),
        "Sequencer(Recursor(Sequential(LSTM,Linear)))": (
            nn.Sequencer(nn.Recursor(nn.Sequential().add(nn.LSTM(3, 4)).add(nn.Linear(4, 2)))), steps, False),
        "BiSequencer(FastLSTM)": (nn.BiSequencer(nn.FastLSTM(3, 4)), steps, False),
    }


def _cast(value, dtype):
    if isinstance(value, (list, tuple)):
        return [_cast(v, dtype) for v in value]
    if isinstance(value, dict):
        return {k: _cast(v, dtype) for k, v in value.items()}
    if not isinstance(value, np.ndarray):
        return value
    return value.astype(dtype) if value.dtype.kind == "f" else value


def _copy(value):
    return [_copy(v) for v in value] if isinstance(value, (list, tuple)) else np.array(value, copy=True)


def _like(value, fn):
    return [_like(v, fn) for v in value] if isinstance(value, (list, tuple)) else fn(np.asarray(value))


def _flat(value):
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [a for v in value for a in _flat(v)]
    if isinstance(value, dict):
        return [a for k in sorted(value) for a in _flat(value[k])]
    return [np.asarray(value, dtype=np.float64)]


def _compare(ours, lua, dtype, tol=0.0, shapes_only=False):
    if lua is None:
        return None, "Lua gave none"
    a, b = _flat(ours), _flat(lua)
    if len(a) != len(b) or any(x.shape != y.shape for x, y in zip(a, b)):
        return None, f"shapes {[x.shape for x in a]} != Lua {[y.shape for y in b]}"
    if shapes_only:
        return None, None
    err = max((float(np.max(np.abs(x - y))) if x.size else 0.0) for x, y in zip(a, b))
    scale = max((float(np.max(np.abs(x))) if x.size else 0.0) for x in a) or 1.0
    tol = max(TOL[dtype], tol)
    return err, None if err <= tol * max(scale, 1.0) else f"max error {err:.3g} > {tol:g} x {scale:.3g}"


def _lua_input(entry, value):
    """The entry's input as Lua reads it: index arrays (integer dtype) count from 1 (a bool mask stays a
    ByteTensor of 0/1); SparseLinear's feature column, indices held as floats, too."""
    if isinstance(value, (list, tuple)):
        return [_lua_input(entry, v) for v in value]
    if value is None or not isinstance(value, np.ndarray):
        return value
    if value.dtype.kind == "i":
        return value + 1
    value = value.copy()
    if entry.cls == "SparseLinear":
        value[..., 0] += 1
    return value


def _has_index_array(value):
    if isinstance(value, (list, tuple)):
        return any(_has_index_array(v) for v in value)
    return isinstance(value, np.ndarray) and value.dtype.kind in "iub"


def _table_cases():
    """(name, entry, model, input, lua_input, target, lua_target, evaluate, compare) for every entry of
    tests/module_table.py; compare: "values", or "shapes" for an entry whose forward draws random numbers."""
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
    from module_table import ENTRIES
    out = []
    for k, e in enumerate(ENTRIES):
        rng = np.random.default_rng(100 + k)
        nn.manualSeed(100 + k)
        try:
            model = e.build()
            x = e.input(rng)
            t = e.target(rng) if e.target is not None else None
        except Exception as err:     # noqa: BLE001
            out.append((e.id, e, err, None, None, None, None, False, None))
            continue
        evaluate = getattr(model, "train", True) is False
        out.append((e.id, e, model, x, _lua_input(e, x), t, _lua_input(e, t), evaluate,
                    "shapes" if e.stochastic else "values"))
    return out


def _class_summary(status, absent, refused, not_run, forward_only, documented):
    """Per class of the module table: ran in Lua and agreed (largest errors), or why not."""
    from module_table import ENTRIES
    classes = {}
    for e in ENTRIES:
        classes.setdefault(e.cls, []).append(e.id)
    agree, deviate, differ, other = {}, {}, {}, {}
    for cls, ids in sorted(classes.items()):
        runs = [(g, i, r) for (g, i), rs in status.items() if g.startswith("tab_") and i in ids for r in rs]
        problems = [f"{i} ({g[4:]}): {r[2]}" for g, i, r in runs if r[2]]
        reasons = sorted({f"{i}: {why}" for i in ids for why in
                          [f"not run: {not_run[i]}" if i in not_run else None] + [v for (g, n), v in refused.items() if n == i and g.startswith("tab_")]
                          + [f"{c} absent from the {g[4:]} tree" for g, names in absent.items()
                             if g.startswith("tab_") for n, c in names.items() if n == i] if why})
        if runs and not problems:
            def largest(k, dtype):
                v = max((r[k] for _, _, r in runs if r[k] is not None and r[4] is dtype), default=None)
                return "-" if v is None else f"{v:.0e}"
            shapes = all(r[3] == "shapes" for _, _, r in runs)
            reasons += [f"{i}: differs as documented: {DOCUMENTED[i]}" for i in ids if i in documented]
            (deviate if any(i in documented for i in ids) else agree)[cls] = ("shapes only (stochastic)" if shapes else
                          f"f64 {largest(0, np.float64)}/{largest(1, np.float64)}, "
                          f"f32 {largest(0, np.float32)}/{largest(1, np.float32)}") + (
                          f"; {'; '.join(reasons)}" if reasons else "")
        elif runs:
            differ[cls] = "; ".join(problems[:2])[:300]
        else:
            other[cls] = "; ".join(reasons)[:300] or "no run"
    print(f"\nmodule table: {len(classes)} classes; {len(agree) + len(deviate) + len(differ)} ran in Lua, "
          f"{len(agree)} agree in every run, {len(deviate)} differ as documented, {len(differ)} fail in some run, "
          f"{len(other)} not run")
    print("  (largest absolute error of the output / of gradInput, in float64 and float32)")
    for cls, why in agree.items():
        print(f"  AGREE   {cls}: {why}")
    for cls, why in deviate.items():
        print(f"  DEVIATE {cls}: {why}")
    for cls, why in differ.items():
        print(f"  DIFFER  {cls}: {why}")
    for cls, why in other.items():
        print(f"  NOT RUN {cls}: {why}")
    if forward_only:
        print("  (forward only, Torch7 refuses the backward: " + ", ".join(
            f"{n}: {FORWARD_ONLY[n]}" for n in sorted(forward_only)) + ")")


REAL = os.path.join(os.path.dirname(HERE), "tests", "data", "t7", "torch7_built")
# the rnn package each prefix of tests/data/t7/torch7_built was made with
REAL_PACKAGES = (("torch_rnn_", "torch_rnn", "torch/rnn"), ("er_rnn_", "er_rnn", "Element-Research/rnn"),
                 ("nn_", "nn", None))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--torch7", default="/work/lua")
    ap.add_argument("--keep", help="write the case files here (kept) instead of a temporary folder")
    ap.add_argument("--only", default="", help="run only cases whose name holds this")
    ap.add_argument("--quick", action="store_true",
                    help="the hand-written catalogue alone (not every entry of tests/module_table.py, nor the "
                         "real files of tests/data/t7/torch7_built)")
    args = ap.parse_args(argv)
    luajit = os.path.join(args.torch7, "install", "bin", "luajit")
    root = args.keep or tempfile.mkdtemp(prefix="torch7_check_")
    groups = {}     # folder -> (packages, rnn, {case: (name, expected, gradInput, dtype, how)})
    failures, report, absent, refused_table = [], [], {}, {}
    not_run, forward_only, documented = {}, set(), set()
    status = {}     # (group, name) -> list of (dtype tag, output error, gradInput error, problem or None)

    def write(group, packages, rnn, name, model, x, lua_x, evaluate, dtype, target=None, lua_target=None,
              criterion=False, how="values", recorded=None, refused_ok=False):
        folder = os.path.join(root, group)
        if group not in groups:      # (a kept folder's cases of an earlier run)
            shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, exist_ok=True)
        groups.setdefault(group, (packages, rnn, {}))
        key = name.replace(" ", "").replace("/", "_").replace("(", "_").replace(")", "").replace(",", "_")
        key += "_" + ("f32" if dtype is np.float32 else "f64")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if recorded is not None:       # a real file: Torch7's own input, gradOutput and results
                    expected, gradInput = recorded["output"], recorded.get("gradInput")
                    gradOutput = recorded.get("gradOutput")
                else:
                    model = model.type(dtype)
                    x = _cast(x, dtype)
                    lua_x = None if lua_x is None else _cast(lua_x, dtype)
                    if hasattr(model, "training"):
                        (model.evaluate if evaluate else model.training)()
                    pristine = _copy(x) if lua_x is None else lua_x     # (an in-place forward changes x)
                    if not criterion:
                        if name in SETTLE_FIRST:
                            model.forward(x)
                        expected = model.forward(x)
                    else:
                        expected = np.array(model.forward(x, _cast(target, dtype)))
                    expected = _copy(expected)
                    grng = np.random.default_rng(11)
                    if not criterion:
                        gradOutput = _like(expected, lambda a: grng.uniform(-1, 1, a.shape).astype(
                            a.dtype if a.dtype.kind == "f" else dtype))
                        gradInput = _copy(model.backward(x, _copy(gradOutput)))
                    else:
                        gradOutput, gradInput = None, _copy(model.backward(x, _cast(target, dtype)))
                    if lua_x is not None and _has_index_array(x):   # (no gradient for an index input)
                        gradInput = None
                    x, lua_x = pristine, None
            if name in forward_only:
                gradOutput, gradInput = None, None
            case = {"model": model, "input": x if lua_x is None else lua_x, "evaluate": evaluate,
                    "gradOutput": gradOutput, "criterion": criterion, "forward_only": name in forward_only}
            if target is not None:
                case["target"] = _cast(target if lua_target is None else lua_target, dtype)
            nn.save_lua(os.path.join(folder, key + ".in.t7"), case, **({} if rnn is None else {"rnn": rnn}))
        except Exception as e:     # noqa: BLE001 (a report of every failure, not the first)
            if ((group, name) in REFUSED or refused_ok) and isinstance(e, TypeError):
                report.append(f"{group:9s} {key:58s} refused, as documented")
                refused_table[(group, name)] = f"{type(e).__name__}: {str(e)[:150]}"
                return
            if group.startswith("tab_") and isinstance(e, TypeError) and "save_lua" in str(e):
                report.append(f"{group:9s} {key:58s} refused by save_lua")
                refused_table[(group, name)] = str(e)[:200]
                return
            failures.append(f"{group}/{name} {key[-3:]}: nn_legacy side: {type(e).__name__}: {str(e)[:300]}")
            return
        groups[group][2][key] = (name, expected, gradInput, dtype, how)

    for dtype in (np.float64, np.float32):
        rng = np.random.default_rng(7)
        nn.manualSeed(7)
        for name, (model, x, lua_x, evaluate) in _plain_cases(rng).items():
            if args.only in name:
                write("nn", ["nn"], None, name, model, x, lua_x, evaluate, dtype)
        for name, (crit, x, t, lua_t) in _criterion_cases(rng).items():
            if args.only in name:
                write("nn", ["nn"], None, name, crit, x, None, False, dtype, t, lua_t, criterion=True)
        for rnn, group in (("torch/rnn", "torch_rnn"), ("Element-Research/rnn", "er_rnn")):
            for name, (model, x, evaluate) in _rnn_cases(rng).items():
                if args.only in name:
                    write(group, ["nn", "rnn"], rnn, name, model, x, None, evaluate, dtype)
    if not args.quick:
        # every entry of the module table, in both rnn packages' trees (each loads nn, and dpnn with ER's rnn)
        for rnn, group in (("torch/rnn", "tab_torch_rnn"), ("Element-Research/rnn", "tab_er_rnn")):
            for dtype in (np.float64, np.float32):
                for (name, e, model, x, lua_x, t, lua_t, evaluate, how) in _table_cases():
                    if args.only not in name:
                        continue
                    why = NOT_RUN.get(e.cls) or NOT_RUN.get(name) or (
                        NOT_RUN_ER.get(e.cls) or NOT_RUN_ER.get(name) if rnn == "Element-Research/rnn" else None)
                    if why:
                        not_run.setdefault(name, why)
                        continue
                    if name in FORWARD_ONLY:
                        forward_only.add(name)
                    if rnn == "Element-Research/rnn" and e.cls in STEPS_ER:
                        x = [a.copy() for a in x]
                        lua_x = None if lua_x is None else [a.copy() for a in lua_x]
                    if isinstance(model, Exception):
                        failures.append(f"{group}/{name}: the entry does not build: {model}")
                        continue
                    write(group.replace("tab_", "tab_iso_") if e.cls in ISOLATE else group, ["nn", "rnn"], rnn,
                          name, model, x, lua_x, evaluate, dtype,
                          t, lua_t, criterion=e.target is not None, how=how)
        # the real files: Torch7's model read with load_lua, written again, run in Lua
        for f in sorted(os.listdir(REAL)):
            if not f.endswith(".t7") or args.only not in f:
                continue
            prefix, group, rnn = next(p for p in REAL_PACKAGES if f.startswith(p[0]))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                rec = load_lua(os.path.join(REAL, f))
            dtype = np.float32 if f.endswith("_float.t7") else np.float64
            write("real_" + group, ["nn", "nngraph"] + ([] if rnn is None else ["rnn"]), rnn, f[:-3].rsplit("_", 1)[0],
                  rec["model"], rec["input"], None, bool(rec.get("evaluate")), dtype, recorded=rec,
                  refused_ok="nngraph" in f)

    trees = {"torch_rnn": "tree_torch_rnn", "er_rnn": "tree_er_rnn"}
    for group, (packages, rnn, cases) in groups.items():
        env = dict(os.environ)
        tree = next((v for k, v in trees.items() if group.endswith(k)), None)
        if tree is not None:
            t = os.path.join(args.torch7, tree)
            env["LUA_PATH"] = f"{t}/share/lua/5.1/?.lua;{t}/share/lua/5.1/?/init.lua;;"
            env["LUA_CPATH"] = f"{t}/lib/lua/5.1/?.so;;"
        folder = os.path.join(root, group)
        for f in os.listdir(folder):     # (a kept folder's results of an earlier run)
            if f.endswith(".out.t7"):
                os.remove(os.path.join(folder, f))
        for _attempt in range(len(cases) + 1):   # (rerun after a crash, the crashed case recorded as failed)
            run = subprocess.run([luajit, os.path.join(HERE, "torch7_check.lua"), folder, *packages], env=env,
                                 capture_output=True, text=True)
            if not run.returncode:
                break
            started = [ln[6:] for ln in run.stdout.splitlines() if ln.startswith("START ")]
            crashed = started[-1] if started else None
            if crashed is None:
                failures.append(f"{group}: Lua exited {run.returncode}: {run.stderr[-2000:]}")
                break
            nn.save_lua(os.path.join(folder, crashed + ".out.t7"),
                        {"error": f"Lua crashed (exit {run.returncode}): {run.stderr[-300:]}"})
        for key, (name, expected, gradInput, dtype, how) in sorted(cases.items()):
            out = os.path.join(folder, key + ".out.t7")
            if not os.path.exists(out):
                failures.append(f"{group}/{key}: no output")
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = load_lua(out)
            except Exception as e:     # noqa: BLE001
                failures.append(f"{group}/{key}: Lua's result does not read: {e}")
                continue
            if "error" in result:
                message = str(result["error"])
                if "unknown Torch class" in message or "unknown object" in message:
                    absent.setdefault(group, {})[name] = message.split("<")[-1].split(">")[0]
                    continue
                failures.append(f"{group}/{key}: Lua: {message[:400]}")
                status.setdefault((group, name), []).append((None, None, "Lua: " + message[:200], how, dtype))
                continue
            lua_out = result.get("output")
            cls = name.split("-")[0]
            if cls in INDEX_OUTPUT and lua_out is not None:    # (indices: Lua's count from 1)
                lua_out = _like(lua_out, lambda a: a - 1)
            lua_grad = result.get("gradInput")
            if name == "SparseLinear-gradInput" and lua_grad is not None:    # (its key column: from 1)
                lua_grad = np.array(lua_grad, copy=True)
                lua_grad[..., 0] -= 1
            out_tol, grad_tol = DEVIATION_TOL.get(cls, (0.0, GRAD_TOL.get(cls, 0.0)))
            err, problem = _compare(expected, lua_out, dtype, out_tol, shapes_only=how == "shapes")
            line = f"{group:9s} {key:58s} {'-' if err is None else f'{err:.2e}'}"
            gerr = gproblem = None
            if gradInput is not None:
                gerr, gproblem = _compare(gradInput, lua_grad, dtype, grad_tol, shapes_only=how == "shapes")
                line += f" {'-' if gerr is None else f'{gerr:.2e}'}"
            if (problem or gproblem) and group.startswith("tab_") and name in DOCUMENTED:
                line += " documented deviation"
                documented.add(name)
                problem = gproblem = None
            if problem:
                failures.append(f"{group}/{key}: output: {problem}")
            if gproblem:
                failures.append(f"{group}/{key}: gradInput: {gproblem}")
            if how == "shapes":
                line += " (stochastic: shapes)"
            report.append(line)
            status.setdefault((group, name), []).append((err, gerr if gradInput is not None else None,
                                                         problem or (gproblem if gradInput is not None else None),
                                                         how, dtype))
    print("\n".join(report))
    for group, names in sorted(absent.items()):
        print(f"{group}: {len(names)} entries whose Lua class this Torch7 lacks: "
              + ", ".join(f"{n} ({c})" for n, c in sorted(names.items())))
    if not args.quick and not args.only:
        _class_summary(status, absent, refused_table, not_run, forward_only, documented)
    refused = sum("refused" in r for r in report)
    print(f"{len(report) - refused} compared, {refused} refused as documented; {len(failures)} failures"
          + ("" if args.keep else f" (files in {root})"))
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
