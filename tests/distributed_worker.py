"""The rank side of tests/test_distributed.py, run under mpiexec:

    mpiexec -n N python tests/distributed_worker.py SCENARIO OUTDIR [key=value ...]

Each scenario writes what the test checks into OUTDIR (one file per rank),
so the test compares the ranks' results itself instead of trusting the
helpers it tests.  The single-process reference (`reference_training`) lives
here too, so both sides build the same model, data and batches.
"""
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

import nn_legacy as nn  # noqa: E402  (after the path fix on purpose)
import thnn  # noqa: E402
from nn_legacy import optim  # noqa: E402

N_SAMPLES = 97          # not a multiple of any batch below: a short last batch
BATCH = 25              # uneven shards on 2 ranks (13 + 12) and on 3 (9 + 8 + 8); every fifth batch 22
FEATURES, HIDDEN, CLASSES = 10, 16, 3
METHODS = {"sgd": (optim.sgd, {"learningRate": 0.1, "momentum": 0.9}),
           "adam": (optim.adam, {"learningRate": 0.01})}


def dataset(dtype):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((N_SAMPLES, FEATURES)).astype(dtype)
    labels = rng.integers(0, CLASSES, N_SAMPLES)
    targets = rng.standard_normal((N_SAMPLES, CLASSES)).astype(dtype)
    return x, labels, targets


def build(dtype, hidden=HIDDEN, seed=0):
    nn.manualSeed(seed)
    model = nn.Sequential(nn.Linear(FEATURES, hidden), nn.Tanh(), nn.Linear(hidden, CLASSES))
    return model.float() if dtype == np.float32 else model


def criterion_and_targets(name, dtype):
    x, labels, targets = dataset(dtype)
    if name == "crossentropy":
        criterion = nn.CrossEntropyCriterion()      # sizeAverage: the mean over the batch
    else:
        criterion = nn.MSECriterion()               # sizeAverage too
        labels = targets
    return (criterion.float() if dtype == np.float32 else criterion), x, labels


def global_batches(steps, batch):
    """The same list of global batches (index arrays) on every rank."""
    rng = np.random.default_rng(7)
    order = np.concatenate([rng.permutation(N_SAMPLES) for _ in range(steps * batch // N_SAMPLES + 1)])
    batches, start = [], 0
    for step in range(steps):
        size = batch if step % 5 != 4 else batch - 3     # every fifth batch shorter
        batches.append(order[start:start + size])
        start += size
    return batches


def feval_for(model, criterion, grads, inputs, targets):
    def feval(_):
        model.zeroGradParameters()
        output = model.forward(inputs)
        loss = criterion.forward(output, targets)
        model.backward(inputs, criterion.backward(output, targets))
        return loss, grads
    return feval


def reference_training(dtype, criterion_name, method, steps, batch):
    """One process, each step on the whole global batch: what N ranks must match."""
    model = build(dtype)
    criterion, x, y = criterion_and_targets(criterion_name, dtype)
    params, grads = model.flattenParameters()
    fn, config = METHODS[method]
    state, losses = {}, []
    for idx in global_batches(steps, batch):
        _, (loss,) = fn(feval_for(model, criterion, grads, x[idx], y[idx]), params, dict(config), state)
        losses.append(loss)
    return params.copy(), np.array(losses)


# ---------------------------------------------------------------- scenarios
def train(out, dtype="float64", criterion="crossentropy", method="sgd", steps="20", batch=str(BATCH),
          fail_rank="-1", fail_step="-1"):
    """Data-parallel training; every rank starts from another initialisation
    (seed = rank) until broadcast_parameters gives them rank 0's."""
    from nn_legacy import distributed as dist
    rank, size = dist.init()
    dtype = np.dtype(dtype).type
    steps, batch, fail_rank, fail_step = int(steps), int(batch), int(fail_rank), int(fail_step)
    model = build(dtype, seed=rank)
    crit, x, y = criterion_and_targets(criterion, dtype)
    params, grads = model.flattenParameters()
    fn, config = METHODS[method]
    state = {}
    dist.broadcast_parameters(model, state=state)
    step_fn = dist.DistributedOptim(fn)
    losses = []
    for step, idx in enumerate(global_batches(steps, batch)):
        if rank == fail_rank and step == fail_step:
            raise RuntimeError(f"rank {rank} fails on purpose at step {step}")
        mine = idx[dist.shard(len(idx), rank, size)]
        _, (loss,) = step_fn(feval_for(model, crit, grads, x[mine], y[mine]), params, dict(config), state,
                             samples=len(mine))
        losses.append(loss)
    dist.assert_identical(model)
    np.save(os.path.join(out, f"params-{rank}.npy"), params)
    np.save(os.path.join(out, f"losses-{rank}.npy"), np.array(losses))
    np.save(os.path.join(out, f"spread-{rank}.npy"), np.array(dist.max_parameter_difference(model)))


def mismatch(out, hidden_on_last="17"):
    """The last rank builds a wider hidden layer: broadcast_parameters must say so."""
    from nn_legacy import distributed as dist
    rank, size = dist.init()
    model = build(np.float64, hidden=int(hidden_on_last) if rank == size - 1 else HIDDEN)
    dist.broadcast_parameters(model)
    open(os.path.join(out, f"passed-{rank}"), "w").close()   # must not be reached


def api(out):
    """broadcast with optim state and another root, average_gradients on an
    array and a model, average_value, the checksum helpers on ranks that
    differ, and rank-0 checkpoints (a good one and one that cannot be written)."""
    from nn_legacy import distributed as dist
    rank, _ = dist.init()
    results = {}

    # broadcast_parameters from root 1 with an optim state
    model = build(np.float64, seed=10 + rank)
    state = {"evalCounter": rank, "dfdx": np.full(5, float(rank))}
    kept = state
    dist.broadcast_parameters(model, root=1, state=state)
    results["state_same_dict"] = state is kept
    results["state_counter"] = state["evalCounter"]
    results["state_dfdx"] = state["dfdx"]
    results["params_after_bcast"] = np.concatenate([p.ravel() for p in model.parameters()[0]])

    # average_gradients on float32 and float64 arrays, equal and weighted
    for dtype in (np.float32, np.float64):
        g = np.arange(6, dtype=dtype) * (rank + 1)
        results[f"avg_{np.dtype(dtype).name}"] = dist.average_gradients(g).copy()
        g = np.arange(6, dtype=dtype) * (rank + 1)
        results[f"wavg_{np.dtype(dtype).name}"] = dist.average_gradients(g, samples=rank + 1).copy()
    # on a model: its flat gradient
    _, grads = model.flattenParameters()
    grads[:] = rank
    dist.average_gradients(model)
    results["model_grad"] = grads.copy()
    results["avg_value"] = dist.average_value(float(rank))
    results["wavg_value"] = dist.average_value(float(rank), samples=rank)

    # checksum helpers: identical, then rank 1 off by 1e-3 in one element
    dist.assert_identical(model)
    results["spread_same"] = dist.max_parameter_difference(model)
    if rank == 1:
        model.modules[0].weight[2, 3] += 1e-3
    try:
        dist.assert_identical(model)
        results["differ_message"] = ""
    except AssertionError as e:
        results["differ_message"] = str(e)
    results["spread_differ"] = dist.max_parameter_difference(model)

    # checkpoints: only the root writes; the file is complete on return everywhere
    calls = []
    real_save = nn.save   # what dist.save calls: nn_legacy.save
    nn.save = lambda obj, path: (calls.append(path), real_save(obj, path))
    try:
        path = os.path.join(out, "checkpoint.thnn")
        dist.save({"model": model, "epoch": 3}, path)
        results["save_calls"] = len(calls)
        results["checkpoint_epoch"] = nn.load(path)["epoch"]
        try:
            dist.save(model, os.path.join(out, "no such folder", "checkpoint.thnn"))
            results["bad_save_message"] = ""
        except OSError as e:
            results["bad_save_message"] = str(e)
    finally:
        nn.save = real_save
    np.savez(os.path.join(out, f"api-{rank}.npz"), **results)


def main():
    thnn.set_num_threads(1)
    scenario, out, *pairs = sys.argv[1:]
    kwargs = dict(pair.split("=", 1) for pair in pairs)
    {"train": train, "mismatch": mismatch, "api": api}[scenario](out, **kwargs)


if __name__ == "__main__":
    main()
