"""Time nn_legacy layers (what users call) side by side with PyTorch CPU.

    python benchmarks/bench.py [--quick] [--dtype float32|float64] [--threads N] [--only TEXT]

For every case it times forward, and forward followed by backward, of our
module and of the same work in PyTorch (when torch is installed), in the same
run, and prints the medians and the ratio ours/torch (below 1: we are faster).

How it measures:

- Both libraries get the same number of threads (2 by default).
- PyTorch runs in a child process (started with "spawn", so it never loads
  thnn), not in ours: two OpenMP runtimes and two BLAS thread pools in one
  process would steal the cores from each other and time that fight instead
  of either library.
- A measurement is a block of calls: warmup calls first (at least 3 and at
  least 50 ms, so the other side's idle threads have gone to sleep), then
  every call timed alone with time.perf_counter.  The blocks of the two
  sides alternate over 3 rounds so slow drift hits both; the table shows the
  median of all timed calls of a side.
- Both sides get the same inputs, the same weights and the same gradOutput;
  after timing, their outputs and gradients are compared ("max rel diff":
  the largest difference over the largest magnitude), so a fast wrong
  kernel shows up.  The gradient compared is gradInput, or for a case whose
  input is not differentiable (LookupTable's indices) the weight's gradient
  of one backward pass.
- Our modules reuse their output arrays from call to call, as in normal use;
  PyTorch allocates its results, as in normal use too.  PyTorch's forward
  runs under torch.no_grad() (its cheapest forward); its forward+backward
  uses autograd with torch.autograd.grad, so nothing accumulates in .grad.
  Our backward accumulates gradWeight/gradBias as nn_legacy's does.
- The machine should be otherwise idle: the run starts by measuring how much
  of the CPU other processes use, and warns when that is more than 10 %.
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
sys.path.insert(0, ROOT)  # this checkout's thnn and nn_legacy, not an installed copy

IMAGE = (32, 64, 32, 32)   # 2M values: an activation map of a small conv net
SCORES = (256, 1000)       # a batch of class scores
EMBEDDING = (10000, 128)   # a word embedding: rows, width
TOKENS = (256, 32)         # a batch of 256 sequences of 32 row indices
PASSES = ("fwd", "fwd+bwd")
STEP = ("step",)           # the one pass of a training step case
LEARNING_RATE = 0.01


def _data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


class Case:
    """One layer to time: a name, an input shape, how to build it on each
    side (ours(nn) with nn = nn_legacy; torch(torch, dtype)), and the target
    ratios for the two passes (None: informational).  flops: the forward
    pass's floating-point operations, when worth reporting as GFLOP/s (the
    backward pass counts twice as many).  dtype: run in this type whatever
    --dtype says (None: --dtype).

    inputs(shape, dtype, seed) makes the input (default: standard normal
    values of the benchmark's dtype).  grad says which gradient the two sides
    must agree on: "input" (gradInput), or "weight" for a layer whose input
    has no gradient (indices): then torch differentiates with respect to the
    parameters only, and the first parameter's gradient is compared."""

    passes = PASSES

    def __init__(self, name, shape, ours, torch, target_fwd=None, target_fb=None, flops=None, dtype=None,
                 inputs=_data, grad="input"):
        self.name, self.shape, self.ours, self.torch = name, shape, ours, torch
        self.target = dict(zip(PASSES, (target_fwd, target_fb)))
        self.flops = {"fwd": flops, "fwd+bwd": 3 * flops} if flops else None
        self.dtype = dtype
        self.inputs, self.grad = inputs, grad


class Step(Case):
    """A training step of a small model: on our side ``zeroGradParameters``,
    ``forward``, the criterion's ``forward`` and ``backward``, ``backward``
    and ``updateParameters(lr)``; on PyTorch's ``optimizer.zero_grad()``,
    the forward pass and loss, ``loss.backward()`` and ``SGD.step()``.
    ours(nn) and torch(torch, dtype) return (model, criterion); the batch
    has `shape` and targets in [0, classes).  skip_first: our model skips
    its first layer's gradInput (Module.skipGradInput), which PyTorch skips
    by itself for an input that does not require a gradient.  The two sides
    are compared on the output and the first parameter's gradient of one
    step from the same weights."""

    passes = STEP

    def __init__(self, name, shape, ours, torch, target=None, classes=10, skip_first=True):
        super().__init__(name, shape, ours, torch, flops=None)
        self.target = {"step": target}
        self.classes, self.skip_first = classes, skip_first


def _targets(case):
    return np.random.default_rng(4).integers(0, case.classes, case.shape[0])


def _lenet(nn):
    """LeNet-5 on 28x28 MNIST-sized images, as in PyTorch's examples (ReLU, max pooling)."""
    model = nn.Sequential(
        nn.SpatialConvolution(1, 6, 5, 5), nn.ReLU(), nn.SpatialMaxPooling(2, 2, 2, 2),
        nn.SpatialConvolution(6, 16, 5, 5), nn.ReLU(), nn.SpatialMaxPooling(2, 2, 2, 2),
        nn.View(16 * 4 * 4), nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10), nn.LogSoftMax())
    return model, nn.ClassNLLCriterion()


def _torch_lenet(torch, dtype):
    n = torch.nn
    model = n.Sequential(
        n.Conv2d(1, 6, 5, dtype=dtype), n.ReLU(), n.MaxPool2d(2), n.Conv2d(6, 16, 5, dtype=dtype), n.ReLU(),
        n.MaxPool2d(2), n.Flatten(), n.Linear(256, 120, dtype=dtype), n.ReLU(), n.Linear(120, 84, dtype=dtype),
        n.ReLU(), n.Linear(84, 10, dtype=dtype), n.LogSoftmax(1))
    return model, n.NLLLoss()


def _digits_mlp(nn):
    """The digits demo's model (python -m nn_legacy): 64 -> 64 tanh -> 10, cross-entropy."""
    return nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10)), nn.CrossEntropyCriterion()


def _torch_digits_mlp(torch, dtype):
    n = torch.nn
    return (n.Sequential(n.Linear(64, 64, dtype=dtype), n.Tanh(), n.Linear(64, 10, dtype=dtype)),
            n.CrossEntropyLoss())


LSTM = (32, 64, 128)   # batch, input size, hidden size


def _lstm_cell(nn):
    """One LSTM step as torch.nn.LSTMCell computes it: the gate pre-activations
    of x and of the state h by two Linear layers without bias, then the
    fused cell (LSTMCellFused, which holds both biases).  Input x; the state
    (h, c) is fixed; output the new h (gradOutput: dL/dh only)."""
    batch, n_in, hidden = LSTM
    rng = np.random.default_rng(5)
    h0, c0 = rng.standard_normal((batch, hidden)), rng.standard_normal((batch, hidden))

    class LSTMStep(nn.Module):
        def __init__(self):
            super().__init__()
            self.ih, self.hh = nn.Linear(n_in, 4 * hidden, bias=False), nn.Linear(hidden, 4 * hidden, bias=False)
            self.cell = nn.LSTMCellFused(hidden)
            self.h, self.c = h0, c0

        def _all_parameters(self):
            return self.ih._all_parameters() + self.hh._all_parameters() + self.cell._all_parameters()

        def updateOutput(self, x):
            self._table = [self.ih.forward(x), self.hh.forward(self.h), self.c]
            self.output = self.cell.forward(self._table)[0]
            return self.output

        def updateGradInput(self, x, gradOutput):
            gates = self.cell.updateGradInput(self._table, [gradOutput, None])[0]
            self.gradInput = self.ih.updateGradInput(x, gates)
            return self.gradInput

        def accGradParameters(self, x, gradOutput, scale=1):
            self.cell.accGradParameters(self._table, [gradOutput, None], scale)
            gates = self.cell.gradInput[0]
            self.ih.accGradParameters(x, gates, scale)
            self.hh.accGradParameters(self.h, gates, scale)

    return LSTMStep()


def _torch_lstm_cell(torch, dtype):
    batch, n_in, hidden = LSTM
    rng = np.random.default_rng(5)
    h0, c0 = (torch.from_numpy(rng.standard_normal((batch, hidden)).astype(dtype_np(dtype))) for _ in range(2))
    cell = torch.nn.LSTMCell(n_in, hidden, dtype=dtype)

    class Step(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = cell

        def forward(self, x):
            return self.cell(x, (h0, c0))[0]

    return Step()


def dtype_np(torch_dtype):
    return np.float32 if str(torch_dtype) == "torch.float32" else np.float64


def _seq_linear_tanh(nn):
    return nn.Sequential().add(nn.Linear(1024, 1024)).add(nn.Tanh())


def _torch_seq_linear_tanh(torch, dtype):
    return torch.nn.Sequential(torch.nn.Linear(1024, 1024, dtype=dtype), torch.nn.Tanh())


_TARGETS = np.random.default_rng(3).integers(0, SCORES[1], SCORES[0])  # the class of each score row


def _log_softmax_nll(nn):
    """LogSoftMax then ClassNLLCriterion as one module: the loss as a
    1-element output, its gradient (times gradOutput) as gradInput."""

    class LogSoftMaxNLL(nn.Module):
        def __init__(self):
            super().__init__()
            self.lsm, self.nll = nn.LogSoftMax(), nn.ClassNLLCriterion()

        def updateOutput(self, x):
            self.output = np.array([self.nll.forward(self.lsm.forward(x), _TARGETS)], dtype=x.dtype)
            return self.output

        def updateGradInput(self, x, gradOutput):
            g = self.nll.backward(self.lsm.output, _TARGETS)
            g *= gradOutput[0]
            self.gradInput = self.lsm.backward(x, g)
            return self.gradInput

    return LogSoftMaxNLL()


def _indices(shape, dtype, seed):
    """Row indices of the LookupTable cases (int64, whatever the dtype)."""
    return np.random.default_rng(seed).integers(0, EMBEDDING[0], shape)


def _torch_log_softmax_nll(torch, dtype):
    target = torch.from_numpy(_TARGETS)
    return lambda x: torch.nn.functional.nll_loss(torch.log_softmax(x, 1), target).reshape(1)


def _conv(n, c_in, c_out, k, pad, size, dtype=None, target_fwd=None, target_fb=None):
    """SpatialConvolution(c_in, c_out, k, k, 1, 1, pad, pad) on n x c_in x size x size
    against torch's Conv2d; 2*N*Cout*Cin*k*k*outH*outW flops forward."""
    out = size + 2 * pad - k + 1
    name = f"SpatialConvolution {k}x{k} {c_in}->{c_out}" + (f" {dtype}" if dtype else "")
    return Case(name, (n, c_in, size, size),
                lambda nn: nn.SpatialConvolution(c_in, c_out, k, k, 1, 1, pad, pad),
                lambda torch, dt: torch.nn.Conv2d(c_in, c_out, k, padding=pad, dtype=dt),
                target_fwd, target_fb, flops=2 * n * c_out * c_in * k * k * out * out, dtype=dtype)


CASES = [
    Case("Linear 1024->1024, batch 128", (128, 1024),
         lambda nn: nn.Linear(1024, 1024), lambda torch, dt: torch.nn.Linear(1024, 1024, dtype=dt),
         target_fb=1.1),
    Case("Sigmoid 32x64x32x32", IMAGE, lambda nn: nn.Sigmoid(), lambda torch, dt: torch.sigmoid,
         target_fwd=1.2),
    Case("Tanh 32x64x32x32", IMAGE, lambda nn: nn.Tanh(), lambda torch, dt: torch.tanh, target_fwd=1.2),
    Case("ReLU 32x64x32x32", IMAGE, lambda nn: nn.ReLU(), lambda torch, dt: torch.relu, target_fwd=1.2),
    Case("SoftMax 256x1000", SCORES, lambda nn: nn.SoftMax(), lambda torch, dt: lambda x: torch.softmax(x, 1)),
    Case("LogSoftMax 256x1000", SCORES, lambda nn: nn.LogSoftMax(),
         lambda torch, dt: lambda x: torch.log_softmax(x, 1)),
    Case("LogSoftMax+ClassNLL 256x1000", SCORES, _log_softmax_nll, _torch_log_softmax_nll, target_fb=1.2),
    # the matrix product and an elementwise loop taking turns on the threads
    Case("Linear+Tanh (Sequential), batch 128", (128, 1024), _seq_linear_tanh, _torch_seq_linear_tanh),
    Case("Linear+Tanh (Sequential), batch 2048", (2048, 1024), _seq_linear_tanh, _torch_seq_linear_tanh),
    # backward: gradWeight accumulates (ours, in place) / torch's weight gradient
    Case("LookupTable 10000x128, 256x32 indices", TOKENS, lambda nn: nn.LookupTable(*EMBEDDING),
         lambda torch, dt: torch.nn.Embedding(*EMBEDDING, dtype=dt), inputs=_indices, grad="weight"),
    _conv(32, 64, 64, 3, 1, 32, target_fwd=1.1, target_fb=1.3),          # 32x64x32x32
    _conv(64, 3, 16, 5, 0, 32, target_fwd=2.0),                          # 64x3x32x32
    _conv(32, 64, 64, 3, 1, 32, dtype="float64", target_fb=1.0),
    Case("SpatialMaxPooling 2x2/2 32x64x32x32", IMAGE, lambda nn: nn.SpatialMaxPooling(2, 2, 2, 2),
         lambda torch, dt: torch.nn.MaxPool2d(2, 2), target_fb=0.7),
    Case("SpatialAveragePooling 2x2/2 32x64x32x32", IMAGE, lambda nn: nn.SpatialAveragePooling(2, 2, 2, 2),
         lambda torch, dt: torch.nn.AvgPool2d(2, 2), target_fb=1.2),
    Case("SpatialBatchNormalization 32x64x32x32", IMAGE, lambda nn: nn.SpatialBatchNormalization(64),
         lambda torch, dt: torch.nn.BatchNorm2d(64, dtype=dt), target_fb=1.2),  # training: batch statistics
    # small models (issue 18): whole training steps, and an LSTM cell
    Step("LeNet training step, batch 64", (64, 1, 28, 28), _lenet, _torch_lenet, target=0.8),
    Step("LeNet step, every gradInput (Torch7 backward)", (64, 1, 28, 28), _lenet, _torch_lenet,
         skip_first=False),
    Step("digits MLP 64-64-10 step, batch 32", (32, 64), _digits_mlp, _torch_digits_mlp, target=0.8),
    Case(f"LSTM cell {LSTM[1]}->{LSTM[2]}, batch {LSTM[0]} (LSTMCellFused)", LSTM[:2], _lstm_cell,
         _torch_lstm_cell, target_fb=0.8),
]


def _time_block(fn, count, warmup_calls=3, warmup_seconds=0.05):
    start = time.perf_counter()
    done = 0
    while done < warmup_calls or time.perf_counter() - start < warmup_seconds:
        fn()
        done += 1
    samples = []
    for _ in range(count):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return samples


class Ours:
    """Our side: the nn_legacy module of a case, in this process."""

    def build(self, case_index, dtype, seed_params):
        import nn_legacy as nn

        case = CASES[case_index]
        self.step = isinstance(case, Step)
        m = case.ours(nn)
        if self.step:
            m, self.crit = m
            self.y = _targets(case)
            if case.skip_first:
                m.skipGradInput()
        m = m.float() if np.dtype(dtype) == np.float32 else m.double()
        params = []
        for p in m.parameters()[0]:  # same weights on both sides
            p[...] = _data(p.shape, dtype, seed_params + len(params)) * 0.03
            params.append(p.copy())
        self.m, self.x, self.grad = m, case.inputs(case.shape, dtype, 1), case.grad
        self.go = _data(m.forward(self.x).shape, dtype, 2)
        return params

    def run(self, which):
        if which == "step":
            return self.train_step()
        self.m.forward(self.x)
        if which == "fwd+bwd":
            self.m.backward(self.x, self.go)

    def train_step(self, update=True):
        m, crit = self.m, self.crit
        m.zeroGradParameters()
        out = m.forward(self.x)
        crit.forward(out, self.y)
        m.backward(self.x, crit.backward(out, self.y))
        if update:
            m.updateParameters(LEARNING_RATE)
        return out

    def time(self, which, count):
        return _time_block(lambda: self.run(which), count)

    def result(self):
        if self.step:   # one step's output and first parameter gradient, before any update
            return self.train_step(update=False).copy(), self.m.parameters()[1][0].copy()
        if self.grad == "weight":
            self.m.zeroGradParameters()  # the gradient of this one pass, not of all timed passes
        self.run("fwd+bwd")
        grad = self.m.gradInput if self.grad == "input" else self.m.parameters()[1][0]
        return self.m.output.copy(), grad.copy()


class Torch:
    """PyTorch's side of a case (lives in the worker process)."""

    def __init__(self, threads):
        import torch
        torch.set_num_threads(threads)
        self.torch = torch

    def build(self, case_index, dtype, params):
        torch = self.torch
        tdtype = torch.float32 if np.dtype(dtype) == np.float32 else torch.float64
        case = CASES[case_index]
        self.step = isinstance(case, Step)
        f = case.torch(torch, tdtype)
        if self.step:
            f, self.crit = f
            self.y = torch.from_numpy(_targets(case))
        self.params = list(f.parameters()) if isinstance(f, torch.nn.Module) else []
        with torch.no_grad():
            for p, value in zip(self.params, params):
                p.copy_(torch.from_numpy(value))
        self.f = f
        if self.step:
            self.optimizer = torch.optim.SGD(self.params, lr=LEARNING_RATE)
        self.x = torch.from_numpy(case.inputs(case.shape, dtype, 1))
        # the tensors to differentiate with respect to: the input (if it has a gradient), the parameters
        self.xg = self.x.clone().requires_grad_() if case.grad == "input" else self.x
        self.wrt = ([self.xg] if case.grad == "input" else []) + self.params
        with torch.no_grad():
            self.go = torch.from_numpy(_data(tuple(f(self.x).shape), dtype, 2))

    def run(self, which):
        if which == "step":
            return self.train_step()
        if which == "fwd":
            with self.torch.no_grad():
                return self.f(self.x)
        y = self.f(self.xg)
        return y, self.torch.autograd.grad(y, self.wrt, self.go)

    def train_step(self, update=True):
        self.optimizer.zero_grad()
        out = self.f(self.x)
        self.crit(out, self.y).backward()
        if update:
            self.optimizer.step()
        return out

    def time(self, which, count):
        return _time_block(lambda: self.run(which), count)

    def result(self):
        if self.step:
            out = self.train_step(update=False)
            return out.detach().numpy().copy(), self.params[0].grad.numpy().copy()
        y, grads = self.run("fwd+bwd")  # grads[0]: the input's gradient, or the first parameter's
        return y.detach().numpy().copy(), grads[0].numpy().copy()


def _torch_worker(conn, threads, side_class=None):
    side = (side_class or Torch)(threads)
    conn.send(side.torch.__version__)
    while True:
        verb, *args = conn.recv()
        if verb == "quit":
            return
        conn.send(getattr(side, verb)(*args))


class Remote:
    """The Torch side, driven over a pipe in a spawned process: every
    attribute is a method of side_class(threads) (default Torch) called
    there.  side_class must be importable by name in the child (a
    module-level class; benchmarks/inference.py passes its own)."""

    def __init__(self, threads, side_class=None):
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_torch_worker, args=(child, threads, side_class), daemon=True)
        self.process.start()
        self.version = self.conn.recv()

    def __getattr__(self, verb):
        def call(*args):
            self.conn.send((verb, *args))
            return self.conn.recv()
        return call

    def close(self):
        self.conn.send(("quit",))
        self.process.join(timeout=10)


def _cpu_busy_elsewhere(seconds=0.5):
    """Fraction of all CPUs used by other processes while we sleep (Linux)."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    try:
        t0, i0 = sample()
        time.sleep(seconds)
        t1, i1 = sample()
    except OSError:
        return None
    return 1 - (i1 - i0) / max(t1 - t0, 1)


def _openblas_core():
    """The kernel set the loaded scipy-openblas32 picked ("Haswell", "SkylakeX", ...)."""
    try:
        import ctypes
        import scipy_openblas32
        lib = ctypes.CDLL(os.path.join(scipy_openblas32.get_lib_dir(), scipy_openblas32.get_library(True)))
        lib.scipy_openblas_get_corename.restype = ctypes.c_char_p
        return lib.scipy_openblas_get_corename().decode()
    except (OSError, AttributeError):
        return "unknown"


def _rel_diff(a, b):
    scale = max(float(np.max(np.abs(b))), 1e-30) if b.size else 1.0
    return float(np.max(np.abs(a.astype(np.float64) - b.astype(np.float64)))) / scale if a.size else 0.0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer timed calls (noisier, about 3x faster)")
    p.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    p.add_argument("--threads", type=int, default=2, help="threads for both libraries (default 2)")
    p.add_argument("--only", default="", help="only the cases whose name contains this text")
    p.add_argument("--no-torch", action="store_true", help="time our side only")
    args = p.parse_args(argv)

    dtype = args.dtype
    rounds, per_round = (3, 10) if args.quick else (3, 30)
    busy = _cpu_busy_elsewhere()
    has_torch = importlib.util.find_spec("torch") is not None and not args.no_torch
    theirs = Remote(args.threads) if has_torch else None
    ours = Ours()
    import thnn
    thnn.set_num_threads(args.threads)
    settings = " ".join(f"{k}={os.environ[k]}" for k in sorted(os.environ)
                        if k.startswith(("OPENBLAS_", "OMP_", "GOMP_", "MKL_")))

    print(f"thnn benchmark, {datetime.date.today()}, {platform.machine()}, {os.cpu_count()} CPUs, "
          f"{args.threads} threads, {dtype}; torch {theirs.version if theirs else ('not used' if args.no_torch else 'not installed') + ': our times only'}")
    print(f"thnn from {os.path.dirname(os.path.dirname(thnn.__file__))}; OpenBLAS kernels: {_openblas_core()}; "
          f"environment: {settings or '-'}")
    print(f"median of {rounds * per_round} timed calls per side ({rounds} alternating blocks of {per_round}, "
          f"each after warmup); ratio = ours / torch, lower is better")
    if busy is not None and busy > 0.10:
        print(f"WARNING: other processes used {busy:.0%} of the CPUs just before the run; "
              f"the times below are not reliable")
    print()
    header = (f"{'case':40s} {'pass':8s} {'ours ms':>9s} {'torch ms':>9s} {'ratio':>6s}  {'target':12s} "
              f"max rel diff  GFLOP/s")
    print(header)
    print("-" * len(header))
    start = time.perf_counter()
    for index, case in enumerate(CASES):
        if args.only.lower() not in case.name.lower():
            continue
        case_dtype = case.dtype or dtype
        params = ours.build(index, case_dtype, 1000)
        if theirs:
            theirs.build(index, case_dtype, params)
        diff = ""
        if theirs:
            (y0, g0), (y1, g1) = ours.result(), theirs.result()
            diff = f"{max(_rel_diff(y0, y1), _rel_diff(g0, g1)):.1e}"
        for which in case.passes:
            samples = {"ours": [], "torch": []}
            sides = [("ours", ours), ("torch", theirs)] if theirs else [("ours", ours)]
            for r in range(rounds):
                for name, side in (sides if r % 2 == 0 else sides[::-1]):
                    samples[name] += side.time(which, per_round)
            a = statistics.median(samples["ours"])
            b = statistics.median(samples["torch"]) if theirs else None
            ratio = a / b if b else None
            target = case.target[which]
            verdict = ""
            if target is not None:
                verdict = f"<= {target}" + ("" if ratio is None else (" ok" if ratio <= target else " MISSED"))
            rate = ""
            if case.flops:
                gflops = [f"{case.flops[which] / t / 1e9:.0f}" for t in (a, b) if t]
                rate = "  " + " vs ".join(gflops)
            print(f"{case.name if which == case.passes[0] else '':40s} {which:8s} {a * 1e3:9.3f} "
                  f"{'-' if b is None else f'{b * 1e3:.3f}':>9s} {'-' if ratio is None else f'{ratio:.2f}':>6s}  "
                  f"{verdict:12s} {diff if which == case.passes[0] else '':12s}{rate}", flush=True)
    if theirs:
        theirs.close()
    busy_after = _cpu_busy_elsewhere(0.3)
    print(f"\n{time.perf_counter() - start:.0f} s; targets: float32 (rows named float64: float64), 2 threads; "
          f"GFLOP/s: ours vs torch")
    if busy_after is not None and busy_after > 0.10:
        print(f"WARNING: other processes used {busy_after:.0%} of the CPUs right after the run")


if __name__ == "__main__":
    main()
