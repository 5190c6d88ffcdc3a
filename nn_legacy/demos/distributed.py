"""The digits demo trained data-parallel: ``mpiexec -n N python -m nn_legacy --distributed``.

Every rank loads the same split and builds the same model; rank 0 checks the
gradients; broadcast_parameters makes sure every rank starts from rank 0's
weights.  Every rank draws the same shuffled order, so the global batches
(``--batch-size``, 32) are those of the single-process run; each rank trains
on its shard of each one, and DistributedOptim averages the gradients,
weighted by shard size, so the steps are the single-process steps up to the
rounding of the sums.  Afterwards it prints each rank's throughput and
all-reduce time, the held-out accuracy, and the largest difference between
the ranks' parameters (it must be 0: the job fails otherwise); rank 0 writes
the checkpoint, loads it back and compares predictions.  Only rank 0 writes
to standard output; every rank exits with the same status.

With --checkpoint PATH rank 0 writes one checkpoint for all ranks (with
every rank's generator state); with --resume PATH every rank reads it (PATH
must be on a file system every rank sees), and if it is missing, damaged or
different on any rank, every rank stops with the reason before training.
"""
import os
import sys
import tempfile
import time
import zlib

import numpy as np

import nn_legacy as nn
from nn_legacy.serialization import checkpoint


def main(args, demo):
    from .. import distributed as dist
    try:
        rank, size = dist.init()
    except ImportError as e:
        print(f"--distributed: {e}", file=sys.stderr)
        return 2
    comm = dist.communicator()
    if rank != 0:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (for the rest of the run: rank 0 speaks)
    if args.batch_size < size:
        print(f"--distributed: --batch-size {args.batch_size} is smaller than the number of ranks ({size}); "
              f"every rank needs a sample of each batch", file=sys.stderr)
        return 2
    from mpi4py import MPI
    started = time.perf_counter()
    x_train, y_train, x_test, y_test = demo.load_data(args.seed)
    library = MPI.Get_library_version().splitlines()[0].strip()
    print(f"Data-parallel over MPI: {size} ranks ({library}; mpi4py)")
    print(f"8x8 digits: {len(x_train)} training and {len(x_test)} held-out samples, "
          f"64 features, 10 classes (split seed {args.seed})")

    nn.manualSeed(args.seed)
    model = demo.build_model(args.activation)
    criterion = nn.CrossEntropyCriterion()
    print(model)
    print(criterion)
    print()

    grads_ok = True
    if rank == 0:
        rows, grads_ok = demo.gradient_check(model, criterion, x_train[:demo.CHECK_SAMPLES],
                                             y_train[:demo.CHECK_SAMPLES])
        demo.print_gradient_table(rows, demo.CHECK_SAMPLES)

    dtype = np.float32 if args.float32 else np.float64
    if args.float32:
        model.float()
        criterion.float()
    x_train, x_test = x_train.astype(dtype), x_test.astype(dtype)
    model.flattenParameters()
    dist.broadcast_parameters(model)

    local = dist.shard(args.batch_size, rank, size)
    print(f"Training: minibatch {demo.OPTIMIZERS[args.optimizer][1]}, global batch {args.batch_size} "
          f"({local.stop - local.start} on rank 0 of {size}), learning rate {args.lr:g}, {args.epochs} epochs, "
          f"{np.dtype(dtype).name}")
    resume, problem = read_everywhere(comm, args, demo.KIND, demo.checkpoint_settings(args, size), model)
    if problem:   # every rank stops; rank 0 says why for all
        if rank == 0:
            print(f"--resume: {problem}", file=sys.stderr)
        return 2
    saver = None if args.checkpoint is None else \
        checkpoint.Saver(args.checkpoint, args.every, demo.KIND, demo.checkpoint_settings(args, size),
                         writer=lambda obj, path: write_for_all(comm, obj, path))
    step = dist.DistributedOptim(demo.OPTIMIZERS[args.optimizer][0])
    seen = []

    def part(n):   # this rank's slice of a batch of n, remembered for the throughput count
        seen.append(dist.shard(n, rank, size))
        return seen[-1]

    comm.Barrier()
    t0 = time.perf_counter()
    demo.train(model, criterion, x_train, y_train, args.epochs, args.batch_size, args.lr,
               np.random.default_rng(args.seed), args.optimizer, step=step, part=part, saver=saver, resume=resume)
    seconds = time.perf_counter() - t0
    mine = (sum(s.stop - s.start for s in seen), len(seen), seconds, step.allreduce_seconds)
    print_throughput(comm.gather(mine, root=0), model)
    demo.print_checkpoints(saver)

    spread = dist.max_parameter_difference(model)
    try:
        dist.assert_identical(model)
        identical = True
    except AssertionError as e:
        print(e)
        identical = False
    train_acc = demo.accuracy(model, x_train, y_train)
    test_acc = demo.accuracy(model, x_test, y_test)
    print()
    print(f"training accuracy: {100 * train_acc:.2f} %")
    print(f"held-out accuracy: {100 * test_acc:.2f} % ({round(test_acc * len(y_test))}/{len(y_test)}; "
          f"required {100 * demo.REQUIRED_ACCURACY:.0f} %)")
    print(f"largest parameter difference between ranks: {spread:g} "
          f"({'checksums agree' if identical else 'checksums DIFFER'})")
    same = checkpoint_and_reload(dist, comm, model, x_test)
    print(f"total time: {time.perf_counter() - started:.2f} s")

    failures = demo.find_failures(same, grads_ok, test_acc, args.epochs)
    if not (identical and spread == 0):
        failures.append(f"the ranks' parameters differ (by up to {spread:g})")
    failures = comm.bcast(failures, root=0)   # every rank exits with rank 0's verdict
    if failures:
        print("FAILED: " + "; ".join(failures), file=sys.stderr if rank == 0 else sys.stdout)
        return 1
    print("OK")
    return 0


def read_everywhere(comm, args, kind, settings, model):
    """Every rank reads --resume's checkpoint: (this rank's view of it, with
    its own generator state, or None; the problem every rank reports, or
    None).  A rank that cannot read it, or reads other bytes, stops all."""
    if args.resume is None:
        return None, None
    rank = comm.Get_rank()
    saved, problem, digest = None, None, None
    try:
        saved = checkpoint.read(args.resume, kind, settings, model)
        with open(args.resume, "rb") as f:
            digest = zlib.crc32(f.read())
        states = saved["rng"]
        if not isinstance(states, list) or len(states) != comm.Get_size():
            raise checkpoint.CheckpointError(f"cannot resume from {args.resume}: it holds no generator state "
                                             f"for each of {comm.Get_size()} ranks")
        saved["rng"] = states[rank]
    except checkpoint.CheckpointError as e:
        problem = str(e)
    views = comm.allgather((problem, digest))
    failed = [(r, p) for r, (p, _) in enumerate(views) if p]
    if failed:
        return None, "; ".join(f"rank {r}: {p}" for r, p in failed)
    if len({d for _, d in views}) > 1:
        return None, (f"the ranks read different files at {args.resume} (CRC-32 "
                      f"{', '.join(f'{d:08x}' for _, d in views)} on ranks 0..{len(views) - 1})")
    return saved, None


def write_for_all(comm, obj, path):
    """Saver's writer under MPI: rank 0 writes the checkpoint with every
    rank's generator state in it; every rank returns its size, or raises
    rank 0's error."""
    states = comm.gather(obj["rng"], root=0)
    size, error = None, None
    if comm.Get_rank() == 0:
        try:
            size = checkpoint.write(dict(obj, rng=states), path)
        except (OSError, TypeError, ValueError) as e:
            error = f"{type(e).__name__}: {e}"
    size, error = comm.bcast((size, error), root=0)
    if error is not None:
        raise OSError(f"--checkpoint: rank 0 could not write {path}: {error}")
    return size


def print_throughput(rows, model):
    """Rank 0 prints what every rank measured: rows of (samples, steps,
    seconds, all-reduce seconds) in rank order."""
    if rows is None:
        return
    n_params = model.flattenParameters()[0].size
    itemsize = model.flattenParameters()[0].itemsize
    print(f"\nThroughput ({n_params} parameters: {n_params * itemsize} gradient bytes all-reduced per step)")
    print(f"  {'rank':>4}  {'samples':>8}  {'steps':>6}  {'seconds':>8}  {'samples/s':>10}  {'steps/s':>8}  "
          f"{'all-reduce ms/step':>18}")
    for r, (samples, steps, seconds, reduce_s) in enumerate(rows):
        print(f"  {r:>4}  {samples:>8}  {steps:>6}  {seconds:>8.2f}  {samples / seconds:>10.0f}  "
              f"{steps / seconds:>8.1f}  {1e3 * reduce_s / steps:>9.3f} ({100 * reduce_s / seconds:.0f} %)")
    total = sum(r[0] for r in rows)
    slowest = max(r[2] for r in rows)
    print(f"  all ranks: {total / slowest:.0f} samples/s (the all-reduce time includes waiting for the "
          f"slowest rank)")


def checkpoint_and_reload(dist, comm, model, x):
    """Rank 0 writes the checkpoint (distributed.save), loads it back and
    compares predictions; every rank gets the answer."""
    with tempfile.TemporaryDirectory() as folder:
        path = comm.bcast(os.path.join(folder, "digits-mlp.thnn"), root=0)
        dist.save(model, path)
        same = None
        if comm.Get_rank() == 0:
            size = os.path.getsize(path)
            loaded = nn.load(path)
            loaded.evaluate()
            model.evaluate()
            same = bool(np.array_equal(loaded.forward(x), model.forward(x)))
            print(f"checkpoint written by rank 0 ({size} bytes) and reloaded: predictions on the held-out "
                  f"set {'identical' if same else 'DIFFER'}")
    return comm.bcast(same, root=0)
