"""What the lowering of an nngraph graph costs: the time of forward (and of
forward + backward) of the lowered gModule against the time spent inside
the graph's own modules during the same calls (their updateOutput,
updateGradInput and accGradParameters, timed by wrapping them), on a
2-layer char-rnn LSTM step and on a 30-node U-Net.  The ratio is what the
plumbing (ConcatTable / SelectTable stages, gradient sums of values read
by several nodes) adds.  --floor adds what the same harness gives for the
same module calls made from one straight function (no container, no
selector: the graph's modules called in the same order on the same
arrays), the least a forward through any plumbing can measure here.

    python benchmarks/bench_graph.py [--reps 30] [--dtype float64] [--floor]
"""
import argparse
import statistics
import time

import numpy as np

import nn_legacy as nn


def char_rnn_lstm(vocab=65, rnn_size=128, layers=2):
    """char-rnn's LSTM.lua (one-hot input given as an array), dropout 0."""
    inputs = [nn.Identity()() for _ in range(2 * layers + 1)]
    x, outputs = inputs[0], []
    for L in range(layers):
        prev_c, prev_h = inputs[2 * L + 1], inputs[2 * L + 2]
        x_in = x if L == 0 else outputs[-1]
        sums = nn.CAddTable()([nn.Linear(vocab if L == 0 else rnn_size, 4 * rnn_size)(x_in),
                               nn.Linear(rnn_size, 4 * rnn_size)(prev_h)])
        n1, n2, n3, n4 = nn.SplitTable(1)(nn.Reshape(4, rnn_size)(sums)).split(4)
        in_gate, forget_gate, out_gate = nn.Sigmoid()(n1), nn.Sigmoid()(n2), nn.Sigmoid()(n3)
        next_c = nn.CAddTable()([nn.CMulTable()([forget_gate, prev_c]),
                                 nn.CMulTable()([in_gate, nn.Tanh()(n4)])])
        next_h = nn.CMulTable()([out_gate, nn.Tanh()(next_c)])
        outputs += [next_c, next_h]
    outputs.append(nn.LogSoftMax()(nn.Linear(rnn_size, vocab)(outputs[-1])))
    g = nn.gModule(inputs, outputs)
    B = 50
    rng = np.random.default_rng(0)
    x = [np.eye(vocab)[rng.integers(0, vocab, B)]] + [rng.standard_normal((B, rnn_size)) * 0.1
                                                       for _ in range(2 * layers)]
    return g, x


def unet(planes=16, size=64, depth=4):
    """A pix2pix-style U-Net: strided convolutions down, in-place LeakyReLUs
    ahead of them, full convolutions up, skips joined along the planes."""
    x = nn.Identity()()
    downs, h, c = [], nn.SpatialConvolution(3, planes, 3, 3, 1, 1, 1, 1)(x), planes
    for _ in range(depth):
        downs.append(h)
        h = nn.SpatialConvolution(c, 2 * c, 4, 4, 2, 2, 1, 1)(nn.LeakyReLU(0.2, True)(h))
        c *= 2
    for skip in reversed(downs):
        h = nn.SpatialFullConvolution(c, c // 2, 4, 4, 2, 2, 1, 1)(nn.ReLU(True)(h))
        h = nn.JoinTable(0, 3)([h, skip])
        c = c // 2
        h = nn.SpatialConvolution(2 * c, c, 3, 3, 1, 1, 1, 1)(h)
    y = nn.Tanh()(nn.SpatialConvolution(c, 3, 3, 3, 1, 1, 1, 1)(nn.ReLU(True)(h)))
    g = nn.gModule([x], [y])
    return g, np.random.default_rng(1).standard_normal((2, 3, size, size))


def _leaf_timer(model):
    spent = [0.0]
    for m in model.graph_modules:
        for name in ("updateOutput", "updateGradInput", "accGradParameters"):
            method = getattr(m, name)

            def timed(*args, _method=method):
                t = time.perf_counter()
                try:
                    return _method(*args)
                finally:
                    spent[0] += time.perf_counter() - t
            setattr(m, name, timed)
    return spent


def straight(model, x):
    """A function making the module calls one forward of model makes (the
    same modules, in the same order, on the same arrays), with nothing
    between them but reading the arrays the earlier calls returned."""
    calls = []
    for m in model.graph_modules:
        def record(input, _m=m, _method=m.updateOutput):
            calls.append((_m, input))
            return _method(input)
        m.updateOutput = record
    xs = _copy(x)
    try:
        want = model.forward(xs)
    finally:
        for m in model.graph_modules:
            del m.updateOutput
    where = {id(v): f"x[{j}]" for j, v in enumerate(xs)} if isinstance(xs, list) else {id(xs): "x"}
    lines = ["def run(x):"]
    for k, (m, input) in enumerate(calls):
        arg = "[" + ", ".join(where[id(v)] for v in input) + "]" if isinstance(input, list) else where[id(input)]
        lines.append(f"    o{k} = M[{k}].updateOutput({arg})")
        where[id(m.output)] = f"o{k}"
        for p, v in enumerate(m.output if isinstance(m.output, list) else []):
            where.setdefault(id(v), f"o{k}[{p}]")
    outs = want if isinstance(want, list) else [want]
    lines.append(f"    return [{', '.join(where[id(v)] for v in outs)}]")
    namespace = {"M": [m for m, _ in calls]}
    exec("\n".join(lines), namespace)
    return namespace["run"]


def _copy(v):
    return [_copy(a) for a in v] if isinstance(v, list) else v.copy()


def measure(model, x, reps, floor=False):
    run = straight(model, x) if floor else None
    spent = _leaf_timer(model)
    out = model.forward(_copy(x))
    grad = [np.ones_like(o) * 0.01 for o in out] if isinstance(out, list) else np.ones_like(out) * 0.01
    rows = {}
    for what in ("forward", "forward+backward"):
        ratios, totals = [], []
        for _ in range(reps):
            xs = _copy(x)
            spent[0] = 0.0
            t = time.perf_counter()
            model.forward(xs)
            if what != "forward":
                model.backward(xs, grad)
            total = time.perf_counter() - t
            totals.append(total)
            ratios.append(total / spent[0])
        rows[what] = (statistics.median(totals), statistics.median(ratios))
    if run is not None:
        got, want = run(_copy(x)), model.forward(_copy(x))
        assert all(np.array_equal(a, b) for a, b in zip(got, want if isinstance(want, list) else [want]))
        ratios, totals = [], []
        for _ in range(reps):
            xs = _copy(x)
            spent[0] = 0.0
            t = time.perf_counter()
            run(xs)
            total = time.perf_counter() - t
            totals.append(total)
            ratios.append(total / spent[0])
        rows["forward, the same module calls made straight (floor)"] = (statistics.median(totals),
                                                                        statistics.median(ratios))
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=30)
    p.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    p.add_argument("--floor", action="store_true", help="also time the module calls made straight")
    a = p.parse_args(argv)
    for name, build in (("char-rnn LSTM, 2 layers, batch 50, rnn_size 128", char_rnn_lstm),
                        ("U-Net, 2x3x64x64, 4 levels", unet)):
        model, x = build()
        model.type(np.dtype(a.dtype))
        x = [v.astype(a.dtype) for v in x] if isinstance(x, list) else x.astype(a.dtype)
        nodes, stages = model.nNodes, len(model.modules)
        for what, (total, ratio) in measure(model, x, a.reps, a.floor).items():
            print(f"{name} ({nodes} nodes, {stages} top-level stages): {what}: {total * 1e3:.2f} ms, "
                  f"{ratio:.3f}x the time inside the graph's modules")


if __name__ == "__main__":
    main()
