"""The fixed cost of a call: tiny inputs, one thread, thnn against PyTorch.

    python benchmarks/calls.py [--rounds 9] [--calls 20000] [--only TEXT]

What a small model pays on every layer before any arithmetic: the Python
and C glue of a kernel call (thnn.Float.X), of a module's forward (the
nn_legacy verbs, their thread guard and checks), and the same in PyTorch
(a torch function, a torch.nn module call under no_grad).  The inputs are
so small (16 values, a 4x16 batch) that the arithmetic is a few
nanoseconds.

How it measures: both libraries at one thread; PyTorch in a spawned child
process, as in bench.py.  A round times `--calls` calls of each row in a
loop (time.perf_counter around the loop, divided by the count), ours then
PyTorch's, alternating which side goes first; the table shows each side's
median over the rounds and the median of the per-round ratios.  Every
check of the error contract stays on: the rows call the public API the way
a user does.

Targets (issue 18): a module's forward at most 1.5x the torch.nn module's
call; a kernel call at most 2 us; Linear(16, 16) forward at most 1.0x.
"""
import argparse
import datetime
import importlib.util
import multiprocessing
import os
import platform
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this checkout's thnn and nn_legacy


def _data(shape, seed=0, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


_TARGETS = np.arange(4) % 10   # classes of the 4x10 rows


# (name, ours(nn, thnn) -> callable, torch(torch) -> callable, target ratio, target us)
def _rows():
    def ours_kernel(nn, thnn):
        x, out = _data(16), np.empty(16, np.float32)
        k = thnn.Float.Sigmoid_updateOutput
        return lambda: k(x, out)

    def module(make, shape, dtype=np.float32):
        def ours(nn, thnn):
            m = make(nn).type(dtype)
            x = _data(shape, dtype=dtype)
            m.forward(x)
            return lambda: m.forward(x)
        return ours

    def torch_module(make, shape):
        def theirs(torch):
            m = make(torch)
            x = torch.from_numpy(_data(shape))
            no_grad = torch.no_grad()
            no_grad.__enter__()   # (for the whole worker: the rows time forward passes only)
            return lambda: m(x)
        return theirs

    def ours_linear_backward(nn, thnn):
        m = nn.Linear(16, 16).float()
        x, g = _data((4, 16)), _data((4, 16), 1)
        m.forward(x)
        return lambda: m.backward(x, g)

    def torch_linear_backward(torch):
        m = torch.nn.Linear(16, 16)
        x = torch.from_numpy(_data((4, 16))).requires_grad_()
        g = torch.from_numpy(_data((4, 16), 1))
        params = [x] + list(m.parameters())

        def step():
            with torch.enable_grad():
                return torch.autograd.grad(m(x), params, g)
        return step

    def ours_nll(nn, thnn):
        c = nn.ClassNLLCriterion()
        x = _data((4, 10))
        return lambda: c.forward(x, _TARGETS)

    def torch_nll(torch):
        x = torch.from_numpy(_data((4, 10)))
        y = torch.from_numpy(_TARGETS)
        f = torch.nn.functional.nll_loss
        return lambda: f(x, y)

    def mlp(nn):
        return nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 4))

    def torch_mlp(torch):
        n = torch.nn
        return n.Sequential(n.Linear(16, 16), n.Tanh(), n.Linear(16, 4))

    return [
        ("thnn.Float.Sigmoid_updateOutput(x[16], out) / torch.sigmoid(x)", ours_kernel,
         lambda torch: (lambda x: lambda: torch.sigmoid(x))(torch.from_numpy(_data(16))), None, 2.0),
        ("nn.Sigmoid().forward(x[16])", module(lambda nn: nn.Sigmoid(), 16),
         torch_module(lambda torch: torch.nn.Sigmoid(), 16), 1.5, None),
        ("nn.Tanh().forward(x[16])", module(lambda nn: nn.Tanh(), 16),
         torch_module(lambda torch: torch.nn.Tanh(), 16), 1.5, None),
        ("nn.ReLU().forward(x[16])", module(lambda nn: nn.ReLU(), 16),
         torch_module(lambda torch: torch.nn.ReLU(), 16), 1.5, None),
        ("nn.Linear(16, 16).forward(x[4, 16])", module(lambda nn: nn.Linear(16, 16), (4, 16)),
         torch_module(lambda torch: torch.nn.Linear(16, 16), (4, 16)), 1.0, None),
        ("nn.LogSoftMax().forward(x[4, 10])", module(lambda nn: nn.LogSoftMax(), (4, 10)),
         torch_module(lambda torch: torch.nn.LogSoftmax(1), (4, 10)), 1.5, None),
        ("Sequential(Linear, Tanh, Linear).forward(x[4, 16])", module(mlp, (4, 16)),
         torch_module(torch_mlp, (4, 16)), 1.5, None),
        ("nn.Linear(16, 16).backward (gradInput + parameters) / autograd.grad", ours_linear_backward,
         torch_linear_backward, None, None),
        ("nn.ClassNLLCriterion().forward(x[4, 10], y) / F.nll_loss", ours_nll, torch_nll, None, None),
    ]


ROWS = _rows()


def _time(fn, calls):
    for _ in range(min(calls, 1000)):   # warm up
        fn()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls


def _torch_worker(conn):
    import torch
    torch.set_num_threads(1)
    conn.send(torch.__version__)
    made = {}
    while True:
        msg = conn.recv()
        if msg[0] == "quit":
            return
        _, index, calls = msg
        if index not in made:
            made[index] = ROWS[index][2](torch)
        conn.send(_time(made[index], calls))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=9, help="alternating rounds per row (default 9)")
    p.add_argument("--calls", type=int, default=20000, help="calls timed per round and side (default 20000)")
    p.add_argument("--only", default="", help="only the rows whose name contains this text")
    p.add_argument("--no-torch", action="store_true", help="time our side only")
    args = p.parse_args(argv)

    import nn_legacy as nn
    import thnn
    thnn.set_num_threads(1)
    has_torch = importlib.util.find_spec("torch") is not None and not args.no_torch
    conn = process = version = None
    if has_torch:
        ctx = multiprocessing.get_context("spawn")
        conn, child = ctx.Pipe()
        process = ctx.Process(target=_torch_worker, args=(child,), daemon=True)
        process.start()
        version = conn.recv()
    print(f"thnn per-call costs, {datetime.date.today()}, {platform.machine()}, 1 thread, float32; "
          f"torch {version or 'not used'}")
    print(f"{args.rounds} rounds of {args.calls} calls per side; us per call (median of rounds); "
          f"ratio: median of the rounds' ours / torch")
    header = f"{'call':70s} {'ours us':>8s} {'torch us':>9s} {'ratio':>6s}  target"
    print(header)
    print("-" * len(header))
    for index, (name, ours, _, target_ratio, target_us) in enumerate(ROWS):
        if args.only.lower() not in name.lower():
            continue
        fn = ours(nn, thnn)
        mine, theirs, ratios = [], [], []
        for r in range(args.rounds):
            sides = ["ours", "torch"] if r % 2 == 0 else ["torch", "ours"]
            got = {}
            for side in sides:
                if side == "ours":
                    got[side] = _time(fn, args.calls)
                elif has_torch:
                    conn.send(("time", index, args.calls))
                    got[side] = conn.recv()
            mine.append(got["ours"])
            if has_torch:
                theirs.append(got["torch"])
                ratios.append(got["ours"] / got["torch"])
        a = statistics.median(mine) * 1e6
        b = statistics.median(theirs) * 1e6 if theirs else None
        ratio = statistics.median(ratios) if ratios else None
        verdict = ""
        if target_us is not None:
            verdict = f"<= {target_us} us " + ("ok" if a <= target_us else "MISSED")
        elif target_ratio is not None and ratio is not None:
            verdict = f"<= {target_ratio} " + ("ok" if ratio <= target_ratio else "MISSED")
        print(f"{name:70s} {a:8.2f} {'-' if b is None else f'{b:.2f}':>9s} "
              f"{'-' if ratio is None else f'{ratio:.2f}':>6s}  {verdict}", flush=True)
    if has_torch:
        conn.send(("quit",))
        process.join(timeout=10)


if __name__ == "__main__":
    main()
