"""Data-parallel training steps over MPI (nn_legacy.distributed): 1 and 2
processes, 1 thread each, on the digits MLP of the demo and on LeNet-5.

    python benchmarks/bench_mpi.py [--repeats 5] [--steps 400] [--only mlp|lenet]

Needs the mpi extra (mpi4py and an MPI with mpiexec).  For every model and
process count it launches ``mpiexec -n P python benchmarks/bench_mpi.py
--worker MODEL`` ``--repeats`` times, the runs of the different settings
interleaved so that slow drift of the machine's load hits them all, and
prints the medians over the runs with the load average (/proc/loadavg)
before each run.

What a run measures (after 30 warm-up steps and a barrier):

- steps/s: global training steps per second (each rank trains its shard of
  every global batch with ``DistributedOptim(optim.sgd)``, as the demo does;
  the global batch is the same for 1 and 2 processes);
- compute ms/step: forward + backward of a rank's shard (the slowest rank's
  median);
- all-reduce ms/step: the time inside DistributedOptim's all-reduces (loss
  and gradient), which includes waiting for the slower rank;
- all-reduce alone: ``Allreduce`` of the gradient's size right after a
  barrier (median of 200), and of one number (the latency), from which the
  on-paper scaling estimate takes its latency and bandwidth;
- with 2 processes, blocking against overlapped all-reduce
  (``backward_overlapped`` below, an experiment): blocks of steps of each
  kind alternate, the median step time of each kind is reported;
- with 1 process, DistributedOptim against plain ``optim.sgd``: the cost of
  the wrapper where there is nobody to talk to.

Every process runs 1 thread (thnn.set_num_threads(1), OPENBLAS_NUM_THREADS=1).
On a shared machine, ``chrt -r 1 python benchmarks/bench_mpi.py`` (root)
keeps other jobs from preempting the ranks (mpiexec and the ranks inherit
the policy); without it a rank that loses its core makes the other wait in
the all-reduce, and that wait is what gets measured.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# model: (global batch, dtype, data set size)
MODELS = {"mlp": (32, "float64", 1437), "lenet": (64, "float32", 1024)}
NAMES = {"mlp": "digits MLP 64-64-10 (float64, batch 32)", "lenet": "LeNet-5 32x32 (float32, batch 64)"}


def build(nn, model):
    if model == "mlp":
        return nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 10)), (64,)
    net = nn.Sequential(
        nn.SpatialConvolution(1, 6, 5, 5), nn.ReLU(), nn.SpatialMaxPooling(2, 2, 2, 2),
        nn.SpatialConvolution(6, 16, 5, 5), nn.ReLU(), nn.SpatialMaxPooling(2, 2, 2, 2),
        nn.View(16 * 5 * 5), nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
        nn.Linear(84, 10))
    return net, (1, 32, 32)


# ---------------------------------------------------------------- the overlap experiment
def backward_overlapped(net, comm, grads, input, gradOutput, samples, bucket_bytes=1 << 16):
    """net.backward (a Sequential) with the gradient all-reduce overlapped:
    when the last layers have their gradients (backward runs from the last
    layer to the first), a non-blocking all-reduce (MPI_Iallreduce) of their
    part of the flat gradient starts and goes on while the earlier layers
    compute theirs; consecutive layers are grouped until a group holds
    bucket_bytes.  Leaves what backward + distributed.average_gradients(grads,
    samples) leaves.  An experiment, not in the library: on this machine it
    is slower than the blocking all-reduce (benchmarks/README.md)."""
    from mpi4py import MPI
    total = np.array([float(samples)])
    comm.Allreduce(MPI.IN_PLACE, total)
    weight = samples / total[0]
    base = grads.__array_interface__["data"][0]
    inputs = [input] + [m.output for m in net.modules[:-1]]
    current, pending, requests = gradOutput, None, []
    for i in reversed(range(len(net.modules))):
        current = net.modules[i].backward(inputs[i], current)
        arrays = net.modules[i].parameters()[1]
        if arrays:   # flattened: each layer's gradients are one slice of grads, in layer order
            lo = (arrays[0].__array_interface__["data"][0] - base) // grads.itemsize
            pending = (lo, lo + sum(a.size for a in arrays) if pending is None else pending[1])
        if pending is not None and (i == 0 or (pending[1] - pending[0]) * grads.itemsize >= bucket_bytes):
            part = grads[pending[0]:pending[1]]
            part *= weight
            requests.append(comm.Iallreduce(MPI.IN_PLACE, part, op=MPI.SUM))
            pending = None
        elif requests:
            MPI.Request.Testall(requests)   # without a progress thread, MPI moves data only inside MPI calls
    MPI.Request.Waitall(requests)
    net.gradInput = current
    return current


# ---------------------------------------------------------------- one rank
def worker(model, steps):
    from mpi4py import MPI

    import nn_legacy as nn
    import thnn
    from nn_legacy import distributed as dist
    from nn_legacy import optim
    thnn.set_num_threads(1)
    rank, size = dist.init()
    comm = dist.communicator()
    batch, dtype, n_data = MODELS[model]
    nn.manualSeed(0)
    net, shape = build(nn, model)
    if dtype == "float32":
        net.float()
    criterion = nn.CrossEntropyCriterion().type(np.dtype(dtype))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n_data,) + shape).astype(dtype)
    y = rng.integers(0, 10, n_data)
    params, grads = net.flattenParameters()
    dist.broadcast_parameters(net)
    order = np.concatenate([rng.permutation(n_data) for _ in range(40 * steps * batch // n_data + 2)])
    cursor = [0]
    config = {"learningRate": 0.01}

    def next_shard():
        idx = order[cursor[0]:cursor[0] + batch]
        cursor[0] += batch
        return idx[dist.shard(batch, rank, size)]

    compute = []

    def feval_for(mine, overlapped=False):
        def feval(_):
            t = time.perf_counter()
            net.zeroGradParameters()
            out = net.forward(x[mine])
            loss = criterion.forward(out, y[mine])
            if overlapped:
                backward_overlapped(net, comm, grads, x[mine], criterion.backward(out, y[mine]), len(mine))
            else:
                net.backward(x[mine], criterion.backward(out, y[mine]))
            compute.append(time.perf_counter() - t)
            return loss, grads
        return feval

    step = dist.DistributedOptim(optim.sgd)
    for _ in range(30):
        mine = next_shard()
        step(feval_for(mine), params, config, {}, samples=len(mine))
    comm.Barrier()
    compute.clear()
    step.allreduce_seconds = 0.0
    t0 = time.perf_counter()
    for _ in range(steps):
        mine = next_shard()
        step(feval_for(mine), params, config, {}, samples=len(mine))
    wall = time.perf_counter() - t0
    result = {"steps_per_s": steps / wall, "compute_ms": 1e3 * statistics.median(compute),
              "allreduce_ms": 1e3 * step.allreduce_seconds / steps, "grad_bytes": grads.nbytes,
              "params": int(grads.size)}

    # the all-reduce alone, in lockstep: the gradient's size and one number
    for key, buffer in (("alone_ms", np.ones_like(grads)), ("latency_ms", np.ones(1))):
        times = []
        for i in range(230):
            comm.Barrier()
            t = time.perf_counter()
            comm.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM)
            if i >= 30:
                times.append(time.perf_counter() - t)
        result[key] = 1e3 * statistics.median(times)

    # alternating blocks of steps done two ways: with 1 process, plain optim.sgd against
    # DistributedOptim; with 2, backward then one blocking all-reduce of the gradient against
    # backward_overlapped (the same all-reduce overlapped with the backward; no loss all-reduce in either)
    def averaged_feval(mine):
        inner = feval_for(mine)

        def feval(p):
            loss, g = inner(p)
            dist.average_gradients(g, samples=len(mine))
            return loss, g
        return feval

    def block(kind, count=40):
        comm.Barrier()
        t = time.perf_counter()
        for _ in range(count):
            mine = next_shard()
            if kind == "wrapped":
                step(feval_for(mine), params, config, {}, samples=len(mine))
            else:
                feval = {"plain": feval_for, "blocking": averaged_feval,
                         "overlap": lambda m: feval_for(m, overlapped=True)}[kind](mine)
                optim.sgd(feval, params, config, {})
        return 1e3 * (time.perf_counter() - t) / count

    kinds = ("blocking", "overlap") if size > 1 else ("plain", "wrapped")
    samples = {k: [] for k in kinds}
    for r in range(8):
        for k in (kinds if r % 2 == 0 else kinds[::-1]):
            samples[k].append(block(k))
    for k in kinds:
        result[f"{k}_ms"] = statistics.median(samples[k])
    dist.assert_identical(net)

    compute_all = comm.gather(result["compute_ms"], root=0)
    if rank == 0:
        result["compute_ms"] = max(compute_all)
        print("RESULT " + json.dumps(result), flush=True)


# ---------------------------------------------------------------- the driver
def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return float("nan")


def launch(mpiexec, procs, model, steps):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    cmd = [mpiexec, "-n", str(procs), sys.executable, os.path.abspath(__file__), "--worker", model,
           "--steps", str(steps)]
    out = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, timeout=600)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")


LINKS = (("shared memory (measured)", None, None),
         ("10 Gb/s Ethernet (assumed: 25 us, 1.1 GB/s)", 0.025, 1.1e9),
         ("100 Gb/s InfiniBand (assumed: 2 us, 11 GB/s)", 0.002, 11e9))


def ring_ms(n, grad_bytes, latency_ms, bandwidth):
    """Ring all-reduce over n ranks: 2(n-1) steps, each a message's latency,
    and 2(n-1)/n of the gradient's bytes through each rank's link."""
    return 2 * (n - 1) * latency_ms + 2 * (n - 1) / n * grad_bytes / bandwidth * 1e3


def scaling_estimate(batch, one, two):
    """Rows (N, [(all-reduce ms, strong speedup, weak speedup) per link]) from
    the medians of the 1- and 2-process runs.

    A step is: other (the 1-process step time less its compute and
    all-reduce: the optim update, gathering the batch, Python, and the gap
    between the mean step and the median compute) + compute + all-reduce.  Compute of b samples is c0 + c1 b, a line through the
    1-process (b = batch) and 2-process (b = batch / 2) measurements.
    Strong scaling keeps the global batch (b = batch / N); weak scaling keeps
    the per-rank batch (b = batch, N times the samples per step)."""
    t1 = 1e3 / one["steps_per_s"]
    c1 = max((one["compute_ms"] - two["compute_ms"]) / (batch - batch // 2), 0.0)
    c0 = one["compute_ms"] - c1 * batch
    other = t1 - one["compute_ms"] - one["allreduce_ms"]
    latency = two["latency_ms"] / 2                                    # one number: 2 messages for 2 ranks
    bandwidth = two["grad_bytes"] / max(two["alone_ms"] - 2 * latency, 1e-6) * 1e3   # 2(N-1)/N = 1
    rows = []
    for n in (2, 4, 8, 16, 32, 64):
        cells = []
        for _, lat, bw in LINKS:
            reduce = ring_ms(n, two["grad_bytes"], latency if lat is None else lat, bandwidth if bw is None else bw)
            strong = t1 / (other + c0 + c1 * batch / n + reduce)
            weak = n * t1 / (other + one["compute_ms"] + reduce)
            cells.append((reduce, strong, weak))
        rows.append((n, cells))
    model = {"t1": t1, "c0": c0, "c1": c1, "other": other, "latency": latency, "bandwidth": bandwidth,
             "t2_predicted": other + c0 + c1 * batch / 2 + two["alone_ms"], "t2_measured": 1e3 / two["steps_per_s"]}
    return model, rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=5, help="runs of every setting (default 5)")
    p.add_argument("--steps", type=int, default=400, help="timed steps per run (default 400)")
    p.add_argument("--only", choices=sorted(MODELS), help="one model only")
    p.add_argument("--worker", choices=sorted(MODELS), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.worker, args.steps)
        return
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        sys.exit('bench_mpi.py needs mpi4py and an MPI: pip install -e ".[mpi]"')
    mpiexec = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    if mpiexec is None:
        sys.exit("bench_mpi.py: no mpiexec on PATH (pip install mpich)")
    models = [args.only] if args.only else list(MODELS)
    runs = {(m, n): [] for m in models for n in (1, 2)}
    loads = {key: [] for key in runs}
    print(f"{args.repeats} runs of {args.steps} steps per setting, 1 thread per process; "
          f"policy {'SCHED_RR (chrt)' if os.sched_getscheduler(0) == os.SCHED_RR else 'normal'}")
    if loadavg() > (os.cpu_count() or 1) and os.sched_getscheduler(0) != os.SCHED_RR:
        print(f"WARNING: load average {loadavg():.2f} on {os.cpu_count()} CPUs: a rank that loses its core makes "
              f"the other wait in the all-reduce, and these numbers measure that (chrt -r 1 helps)")
    for rep in range(args.repeats):
        for key, results in runs.items():
            load = loadavg()
            result = launch(mpiexec, key[1], key[0], args.steps)
            results.append(result)
            loads[key].append(load)
            print(f"  run {rep + 1}: {key[0]} -n {key[1]}: load {load:.2f}, "
                  f"{result['steps_per_s']:.0f} steps/s, all-reduce {result['allreduce_ms']:.3f} ms/step",
                  flush=True)

    def med(key, field):
        return statistics.median(r[field] for r in runs[key])

    print("\n| model | processes | steps/s | speedup | compute ms/step | all-reduce ms/step (in step) | "
          "all-reduce alone ms | gradient bytes | load average |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for m in models:
        one = med((m, 1), "steps_per_s")
        for n in (1, 2):
            key = (m, n)
            alone = f"{med(key, 'alone_ms'):.3f}" if n > 1 else "-"
            print(f"| {NAMES[m]} | {n} | {med(key, 'steps_per_s'):.0f} | {med(key, 'steps_per_s') / one:.2f} | "
                  f"{med(key, 'compute_ms'):.3f} | {med(key, 'allreduce_ms'):.3f} | {alone} | "
                  f"{runs[key][0]['grad_bytes']} | {min(loads[key]):.2f}-{max(loads[key]):.2f} |")
    print("\n| model | 1 process: plain optim.sgd ms/step | DistributedOptim ms/step | "
          "2 processes: backward + blocking all-reduce ms/step | backward_overlapped ms/step |")
    print("|---|---:|---:|---:|---:|")
    for m in models:
        print(f"| {NAMES[m]} | {med((m, 1), 'plain_ms'):.3f} | {med((m, 1), 'wrapped_ms'):.3f} | "
              f"{med((m, 2), 'blocking_ms'):.3f} | {med((m, 2), 'overlap_ms'):.3f} |")

    for m in models:
        one = {k: med((m, 1), k) for k in runs[(m, 1)][0]}
        two = {k: med((m, 2), k) for k in runs[(m, 2)][0]}
        fit, rows = scaling_estimate(MODELS[m][0], one, two)
        print(f"\n{NAMES[m]}: step {fit['t1']:.3f} ms on 1 process = the rest {fit['other']:.3f} + "
              f"compute ({fit['c0']:.3f} + {fit['c1'] * 1e3:.2f} us per sample); all-reduce: latency "
              f"{fit['latency'] * 1e3:.1f} us per message, {fit['bandwidth'] / 1e9:.2f} GB/s (shared memory, "
              f"2 ranks); the model predicts {fit['t2_predicted']:.3f} ms per step on 2 processes, "
              f"measured {fit['t2_measured']:.3f}")
        print("\n| N | " + " | ".join(f"all-reduce ms, {name}" for name, _, _ in LINKS) + " | "
              + " | ".join("strong / weak speedup, " + name.split(" (")[0] for name, _, _ in LINKS) + " |")
        print("|---:|" + "---:|" * (2 * len(LINKS)))
        for n, cells in rows:
            print(f"| {n} | " + " | ".join(f"{r:.3f}" for r, _, _ in cells) + " | "
                  + " | ".join(f"{st:.1f} / {wk:.1f}" for _, st, wk in cells) + " |")


if __name__ == "__main__":
    main()
