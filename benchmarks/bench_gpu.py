"""Time nn_legacy modules on a GPU side by side with PyTorch CUDA on the same GPU.

    python benchmarks/bench_gpu.py [--quick] [--only TEXT] [--profile] [--emulator]

The workloads of the CPU table (benchmarks/bench.py: elementwise layers,
softmax, pooling, batch norm, Linear, criterions, convolutions, the LeNet
training step), float32, each as our module moved to the device with
``module.cuda()`` against the same computation in PyTorch on the same GPU,
in the same process and run.  Printed: the medians, the ratio ours/torch
(below 1: we are faster), the target of issue 19 next to it, and the
largest difference between the two results.

How it measures:

- PyTorch does full float32 arithmetic: TF32 is turned off for its matrix
  products and cuDNN (``torch.backends.cuda.matmul.allow_tf32 = False``,
  ``torch.backends.cudnn.allow_tf32 = False``); our cuBLAS calls use the
  default math mode, which is float32 too.  ``cudnn.benchmark`` is on, so
  cuDNN uses its fastest algorithm for each shape (the warmup pays for the
  search).
- Kernels run asynchronously, so a measurement is a block of calls between
  two synchronisations of the device (``Device.synchronize()``, which waits
  for every kernel, PyTorch's included): warmup calls first (at least 3
  and 50 ms), then blocks of calls timed with time.perf_counter, each
  block's time divided by its calls.  The blocks of the two sides alternate
  over 3 rounds; the table shows the median per-call time of a side.  That
  is the time a user's loop takes per call, host overhead included (a
  criterion's forward returns the loss as a Python float: it waits for the
  device each call, as the nn_legacy API does).
- Both sides get the same inputs, weights and gradOutput; after timing,
  their outputs and gradients are compared ("max rel diff", as in bench.py).
- ``--profile`` (GPU only): for the passes that missed their target (the
  worst PROFILED of them), a few calls of each side under torch.profiler,
  which sees every kernel of the process (ours too): the kernel time per
  call against the wall time per call (the rest is host overhead or an
  idle device), and the kernels that take the most.

Without a GPU (and the nvcc build of thnn._thcunn) it says why and exits
with status 2.  ``--emulator`` runs the same code on the CUDA emulator,
with PyTorch on the CPU and tiny sizes: a check of this script (tests run
it), whose times mean nothing.
"""
import argparse
import datetime
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)  # this checkout's thnn and nn_legacy, not an installed copy
sys.path.insert(0, HERE)

from bench import _lenet, _torch_lenet  # noqa: E402

LEARNING_RATE = 0.01
PROFILED = 8   # --profile: the passes with the worst ratios among those that missed
# issue 19's targets: our time / PyTorch CUDA's
LAYER_TARGET, CONV_TARGET, STEP_TARGET = 1.3, 2.5, 1.5


def _data(shape, seed, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _classes(n, classes, seed=4):
    return np.random.default_rng(seed).integers(0, classes, n)


class Case:
    """One workload.  kind: "module" (passes fwd and fwd+bwd), "criterion"
    (fwd: the loss; fwd+bwd: loss and gradInput), or "step" (one training
    step of a model and its criterion).  ours(nn) builds our module (a
    (model, criterion) pair for a step); torch(torch) PyTorch's (a callable
    for a module without parameters; (model, loss) for a step; loss(x, t) for
    a criterion).  shapes: (GPU shape, emulator shape) of the input.
    classes: the class count of a criterion's or step's targets (None: a
    regression criterion, whose target is a tensor like the input)."""

    def __init__(self, name, shapes, ours, torch, kind="module", target=LAYER_TARGET, classes=None,
                 targets=None):
        self.name, self.shapes, self.ours, self.torch, self.kind = name, shapes, ours, torch, kind
        self.passes = ("step",) if kind == "step" else ("fwd", "fwd+bwd")
        self.target = target if isinstance(target, dict) else {p: target for p in self.passes}
        self.classes = classes


def _image(n, c, s, tiny=(2, 3, 5, 5)):
    return ((n, c, s, s), tiny)


IMAGE = _image(32, 64, 32)               # the CPU table's activation map (2M values)
BIG_IMAGE = _image(128, 64, 64)          # 33M values: bandwidth rather than launch overhead
SCORES = ((256, 1000), (3, 7))
FEATURES = ((128, 1024), (3, 8))


def _linear(n_in, n_out):
    return lambda nn, tiny: nn.Linear(8 if tiny else n_in, 5 if tiny else n_out)


def _torch_linear(n_in, n_out):
    return lambda torch, tiny: torch.nn.Linear(8 if tiny else n_in, 5 if tiny else n_out)


def _conv(c_in, c_out, k, pad):
    def ours(nn, tiny):
        return nn.SpatialConvolution(3 if tiny else c_in, 4 if tiny else c_out, 3 if tiny else k, 3 if tiny else k,
                                     1, 1, 1 if tiny else pad, 1 if tiny else pad)

    def theirs(torch, tiny):
        return torch.nn.Conv2d(3 if tiny else c_in, 4 if tiny else c_out, 3 if tiny else k, padding=1 if tiny else pad)
    return ours, theirs


CASES = [
    # elementwise
    Case("Sigmoid 32x64x32x32", IMAGE, lambda nn, tiny: nn.Sigmoid(), lambda torch, tiny: torch.sigmoid),
    Case("Tanh 32x64x32x32", IMAGE, lambda nn, tiny: nn.Tanh(), lambda torch, tiny: torch.tanh),
    Case("ReLU 32x64x32x32", IMAGE, lambda nn, tiny: nn.ReLU(), lambda torch, tiny: torch.relu),
    Case("ReLU 128x64x64x64", BIG_IMAGE, lambda nn, tiny: nn.ReLU(), lambda torch, tiny: torch.relu),
    # softmax
    Case("SoftMax 256x1000", SCORES, lambda nn, tiny: nn.SoftMax(), lambda torch, tiny: lambda x: torch.softmax(x, 1)),
    Case("LogSoftMax 256x1000", SCORES, lambda nn, tiny: nn.LogSoftMax(),
         lambda torch, tiny: lambda x: torch.log_softmax(x, 1)),
    # pooling
    Case("SpatialMaxPooling 2x2/2 32x64x32x32", IMAGE, lambda nn, tiny: nn.SpatialMaxPooling(2, 2, 2, 2),
         lambda torch, tiny: torch.nn.MaxPool2d(2, 2)),
    Case("SpatialAveragePooling 2x2/2 32x64x32x32", IMAGE, lambda nn, tiny: nn.SpatialAveragePooling(2, 2, 2, 2),
         lambda torch, tiny: torch.nn.AvgPool2d(2, 2)),
    # batch norm (training: batch statistics)
    Case("SpatialBatchNormalization 32x64x32x32", IMAGE,
         lambda nn, tiny: nn.SpatialBatchNormalization(3 if tiny else 64),
         lambda torch, tiny: torch.nn.BatchNorm2d(3 if tiny else 64)),
    # Linear
    Case("Linear 1024->1024, batch 128", FEATURES, _linear(1024, 1024), _torch_linear(1024, 1024)),
    Case("Linear 1024->1024, batch 2048", ((2048, 1024), (5, 8)), _linear(1024, 1024), _torch_linear(1024, 1024)),
    # criterions
    Case("ClassNLLCriterion 256x1000", SCORES, lambda nn, tiny: nn.ClassNLLCriterion(),
         lambda torch, tiny: torch.nn.functional.nll_loss, kind="criterion", classes=(1000, 7)),
    Case("CrossEntropyCriterion 256x1000", SCORES, lambda nn, tiny: nn.CrossEntropyCriterion(),
         lambda torch, tiny: torch.nn.functional.cross_entropy, kind="criterion", classes=(1000, 7)),
    Case("MSECriterion 32x64x32x32", IMAGE, lambda nn, tiny: nn.MSECriterion(),
         lambda torch, tiny: torch.nn.functional.mse_loss, kind="criterion"),
    # convolution (im2col + cuBLAS against cuDNN)
    Case("SpatialConvolution 3x3 64->64, 32x64x32x32", IMAGE, *_conv(64, 64, 3, 1),
         target={"fwd": None, "fwd+bwd": CONV_TARGET}),
    Case("SpatialConvolution 5x5 3->16, 64x3x32x32", ((64, 3, 32, 32), (2, 3, 6, 6)), *_conv(3, 16, 5, 0),
         target={"fwd": None, "fwd+bwd": CONV_TARGET}),
    # a convnet training step
    Case("LeNet training step, batch 64", ((64, 1, 28, 28), (2, 1, 28, 28)), lambda nn, tiny: _lenet(nn),
         lambda torch, tiny: _torch_lenet(torch, torch.float32), kind="step", target=STEP_TARGET, classes=(10, 10)),
]


def _rel_diff(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if not a.size:
        return 0.0
    return float(np.max(np.abs(a - b))) / max(float(np.max(np.abs(b))), 1e-30)


class Ours:
    """Our side of a case: nn_legacy modules on a thnn.cuda device."""

    def __init__(self, dev):
        self.dev = dev

    def build(self, case, x, t, params_seed, tiny):
        import nn_legacy as nn
        self.case, self.t = case, None
        m = case.ours(nn, tiny)
        self.crit = None
        if case.kind == "step":
            m, self.crit = m
            m.skipGradInput()   # (PyTorch skips the input's gradient by itself)
        m = m.float()
        params = []
        if case.kind != "criterion":
            for p in m.parameters()[0]:   # the same weights on both sides
                p[...] = _data(p.shape, params_seed + len(params)) * 0.03
                params.append(p.copy())
        self.m = m.cuda(self.dev)
        if self.crit is not None:
            self.crit = self.crit.float().cuda(self.dev)
        self.x = self.dev.to_device(x)
        if t is not None:
            self.t = self.dev.to_device(t)
        if case.kind == "module":
            self.go = self.dev.to_device(_data(self.m.forward(self.x).shape, 2))
        return params

    def run(self, which):
        m, x = self.m, self.x
        if which == "step":
            return self._step()
        if self.case.kind == "criterion":
            loss = m.forward(x, self.t)
            if which == "fwd+bwd":
                m.backward(x, self.t)
            return loss
        m.forward(x)
        if which == "fwd+bwd":
            m.backward(x, self.go)

    def _step(self, update=True):
        m, crit = self.m, self.crit
        m.zeroGradParameters()
        out = m.forward(self.x)
        crit.forward(out, self.t)
        m.backward(self.x, crit.backward(out, self.t))
        if update:
            m.updateParameters(LEARNING_RATE)
        return out

    def result(self):
        """(output, gradient) of one pass from the weights as they are."""
        if self.case.kind == "step":
            out = self._step(update=False)
            return out.numpy(), self.m.parameters()[1][0].numpy()
        if self.case.kind == "criterion":
            loss = self.m.forward(self.x, self.t)
            return np.array([loss]), self.m.backward(self.x, self.t).numpy()
        self.m.forward(self.x)
        return self.m.output.numpy(), self.m.backward(self.x, self.go).numpy()


class Torch:
    """PyTorch's side of a case, on torch_device ("cuda", or "cpu" with --emulator)."""

    def __init__(self, torch, torch_device):
        self.torch, self.device = torch, torch_device

    def build(self, case, x, t, params, tiny):
        torch = self.torch
        self.case = case
        f = case.torch(torch, tiny)
        self.loss = None
        if case.kind == "step":
            f, self.loss = f
        if isinstance(f, torch.nn.Module):
            f = f.to(self.device)
            with torch.no_grad():
                for p, value in zip(f.parameters(), params):
                    p.copy_(torch.from_numpy(value))
            self.params = list(f.parameters())
        else:
            self.params = []
        self.f = f
        self.x = torch.from_numpy(x).to(self.device)
        self.xg = self.x.clone().requires_grad_()
        self.t = None if t is None else torch.from_numpy(t).to(self.device)
        if case.kind == "step":
            self.optimizer = torch.optim.SGD(self.params, lr=LEARNING_RATE)
        if case.kind == "module":
            with torch.no_grad():
                self.go = torch.from_numpy(_data(tuple(f(self.x).shape), 2)).to(self.device)

    def run(self, which):
        torch, f = self.torch, self.f
        if which == "step":
            return self._step()
        if which == "fwd":
            with torch.no_grad():
                return f(self.x, self.t) if self.case.kind == "criterion" else f(self.x)
        if self.case.kind == "criterion":
            y = f(self.xg, self.t)
            return y, torch.autograd.grad(y, [self.xg])
        y = f(self.xg)
        return y, torch.autograd.grad(y, [self.xg] + self.params, self.go)

    def _step(self, update=True):
        self.optimizer.zero_grad()
        out = self.f(self.x)
        self.loss(out, self.t).backward()
        if update:
            self.optimizer.step()
        return out

    def result(self):
        if self.case.kind == "step":
            out = self._step(update=False)
            return out.detach().cpu().numpy(), self.params[0].grad.cpu().numpy()
        y, grads = self.run("fwd+bwd")
        y = y.detach().cpu().numpy()
        return (y.reshape(1) if self.case.kind == "criterion" else y), grads[0].cpu().numpy()


def _timed_block(fn, sync, count):
    """Per-call seconds of count calls between two synchronisations."""
    sync()
    t0 = time.perf_counter()
    for _ in range(count):
        fn()
    sync()
    return (time.perf_counter() - t0) / count


def _calls_per_block(fn, sync, seconds, least=3, warmup_seconds=0.05):
    """Warm up (at least `least` calls and warmup_seconds); the calls that fill
    `seconds` (at least `least`)."""
    sync()
    start, done = time.perf_counter(), 0
    while done < least or time.perf_counter() - start < warmup_seconds:
        fn()
        done += 1
    sync()
    per_call = (time.perf_counter() - start) / done
    return max(least, min(2000, int(seconds / max(per_call, 1e-7))))


def _profile(torch, fn, sync, calls, top=6):
    """(kernel seconds per call, [(kernel name, seconds per call)]) of calls
    of fn under torch.profiler: every kernel of the process, ours too."""
    from torch.profiler import ProfilerActivity, profile
    sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        sync()
    kernels = {}
    for e in prof.events():
        if str(e.device_type).endswith("CUDA"):
            kernels[e.name] = kernels.get(e.name, 0.0) + e.time_range.elapsed_us() * 1e-6 / calls
    ranked = sorted(kernels.items(), key=lambda kv: -kv[1])
    return sum(kernels.values()), ranked[:top]


def _short(name, width=70):
    return name if len(name) <= width else name[:width - 3] + "..."


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="shorter blocks (noisier, about 3x faster)")
    p.add_argument("--only", default="", help="only the cases whose name contains this text")
    p.add_argument("--profile", action="store_true",
                   help="(GPU) per-kernel times of both sides for each case that missed its target")
    p.add_argument("--emulator", action="store_true",
                   help="run on the CUDA emulator with tiny sizes and PyTorch on the CPU (a check of this script)")
    args = p.parse_args(argv)

    import thnn.cuda
    if args.emulator:
        reason = thnn.cuda.emulator_unavailable_reason()
    else:
        reason = thnn.cuda.gpu_unavailable_reason()
    if reason:
        print(f"bench_gpu: cannot run on {'the emulator' if args.emulator else 'a GPU'}: {reason}.\n"
              f"It needs a CUDA GPU and thnn built with nvcc (README, CUDA: tools/gpu_check.sh runs it on a "
              f"lent GPU); --emulator runs the same code on the CPU emulation with tiny sizes.", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print("bench_gpu: PyTorch is not installed; it is the reference this benchmark compares with",
              file=sys.stderr)
        return 2
    tiny = args.emulator
    if tiny:
        dev, torch_device = thnn.cuda.emulator(), "cpu"
        where = "the CUDA emulator (CPU), tiny sizes; PyTorch on the CPU: a check of this script, not a timing"

        def sync():
            dev.synchronize()
    else:
        if not torch.cuda.is_available():
            print("bench_gpu: PyTorch sees no CUDA device (a CPU build of torch?); it is the reference",
                  file=sys.stderr)
            return 2
        dev, torch_device = thnn.cuda.gpu(), "cuda"
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cudnn.benchmark = True
        props = torch.cuda.get_device_properties(0)
        where = (f"{props.name}, {props.multi_processor_count} SMs, {props.total_memory / 2 ** 30:.0f} GiB; "
                 f"CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}")

        def sync():
            dev.synchronize()         # (the legacy default stream: this waits for PyTorch's kernels too)
            torch.cuda.synchronize()
    block_seconds, rounds, least, warmup_seconds = (0.02 if args.quick else 0.06), 3, 3, 0.05
    if tiny:
        torch.set_num_threads(1)   # (tiny tensors: thread pools would only add their wake-up time)
        if args.quick:             # (the code paths once each: tests/test_bench_gpu.py)
            block_seconds, rounds, least, warmup_seconds = 0.0, 1, 1, 0.0

    print(f"thnn GPU benchmark, {datetime.date.today()}: {where}")
    print(f"torch {torch.__version__}; float32, TF32 off on both sides; thnn from {os.path.dirname(thnn.__file__)}")
    print(f"per call: the median of {2 * rounds} blocks per side (alternating, each between two device "
          f"synchronisations, after warmup); ratio = ours / torch, lower is better; targets from issue 19")
    print()
    header = f"{'case':44s} {'pass':8s} {'ours ms':>9s} {'torch ms':>9s} {'ratio':>6s}  {'target':12s} max rel diff"
    print(header)
    print("-" * len(header))
    ours, theirs = Ours(dev), Torch(torch, torch_device)
    missed, start = [], time.perf_counter()
    for index, case in enumerate(CASES):
        if args.only.lower() not in case.name.lower():
            continue
        shape = case.shapes[1 if tiny else 0]
        x = _data(shape, 1)
        t = None
        if case.kind == "step" or case.classes:
            t = _classes(shape[0], case.classes[1 if tiny else 0])
        elif case.kind == "criterion":
            t = _data(shape, 3)
        params = ours.build(case, x, t, 1000 + index, tiny)
        theirs.build(case, x, t, params, tiny)
        (y0, g0), (y1, g1) = ours.result(), theirs.result()
        diff = f"{max(_rel_diff(y0, y1), _rel_diff(g0, g1)):.1e}"
        for which in case.passes:
            sides = [("ours", ours), ("torch", theirs)]
            counts = {name: _calls_per_block(lambda s=side: s.run(which), sync, block_seconds, least, warmup_seconds)
                      for name, side in sides}
            samples = {"ours": [], "torch": []}
            for r in range(2 * rounds):
                for name, side in (sides if r % 2 == 0 else sides[::-1]):
                    samples[name].append(_timed_block(lambda s=side: s.run(which), sync, counts[name]))
            a, b = statistics.median(samples["ours"]), statistics.median(samples["torch"])
            ratio, target = a / b, case.target[which]
            verdict = ""
            if target is not None:
                verdict = f"<= {target}" + (" ok" if ratio <= target else " MISSED")
                if ratio > target:
                    missed.append((ratio / target, case, which))
            print(f"{case.name if which == case.passes[0] else '':44s} {which:8s} {a * 1e3:9.3f} {b * 1e3:9.3f} "
                  f"{ratio:6.2f}  {verdict:12s} {diff if which == case.passes[0] else ''}", flush=True)
    print(f"\n{time.perf_counter() - start:.0f} s; {len(missed)} targets missed"
          + (" (times on the emulator mean nothing)" if tiny else ""))

    if args.profile and missed:
        if tiny:
            print("--profile needs a GPU: the emulator runs no CUDA kernels")
            return 0
        print("\nwhere the time goes (torch.profiler; kernel time per call against wall time per call):")
        for _, case, which in sorted(missed, key=lambda m: -m[0])[:PROFILED]:
            index = CASES.index(case)
            shape = case.shapes[0]
            x = _data(shape, 1)
            t = _classes(shape[0], case.classes[0]) if case.classes else (
                _data(shape, 3) if case.kind == "criterion" else None)
            params = ours.build(case, x, t, 1000 + index, tiny)
            theirs.build(case, x, t, params, tiny)
            print(f"\n{case.name}, {which}:")
            for name, side in (("ours", ours), ("torch", theirs)):
                def fn(s=side):
                    return s.run(which)
                calls = min(_calls_per_block(fn, sync, 0.05), 200)
                wall = _timed_block(fn, sync, calls)
                try:
                    busy, top = _profile(torch, fn, sync, calls)
                except Exception as e:   # (a profiler that cannot see the device must not lose the table)
                    print(f"  {name}: profiler failed: {type(e).__name__}: {e}")
                    continue
                print(f"  {name}: {wall * 1e6:.0f} us per call, kernels {busy * 1e6:.0f} us "
                      f"({busy / wall:.0%} of it)")
                for kname, seconds in top:
                    print(f"      {seconds * 1e6:8.1f} us  {_short(kname)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
