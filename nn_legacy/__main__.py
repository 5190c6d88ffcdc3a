"""The demo and end-to-end check: an MLP on the 8x8 handwritten digits.

    python -m nn_legacy [--epochs N] [--seed S] [--float32] [--activation tanh|relu]
                        [--optimizer sgd|adam] [--checkpoint PATH [--every N]] [--resume PATH]
    mpiexec -n 2 python -m nn_legacy --distributed
    python -m nn_legacy --layers        # the catalogue of classes (nn_legacy/demos/catalogue.py)

It loads the digits bundled with scikit-learn (no download), checks the
gradients of every layer, of the whole model and of the criterion against
central differences in float64, trains with minibatch SGD (or Adam) from
nn_legacy.optim on the flattened parameters, and reports the accuracy on
held-out digits; then it saves the model (nn_legacy.save), loads it back
and checks that the reloaded model's predictions are identical.  The exit
status is 1 if a gradient check fails, the held-out accuracy is below 90 %
(after the default 20 epochs or more: a shorter run says it skips that
check) or the reloaded model differs, so it doubles as a smoke test of the C
kernels and of the explicit-backprop plumbing.  With --distributed, under
mpiexec, the ranks train it data-parallel (nn_legacy/demos/distributed.py);
under mpiexec without --distributed it stops and says to add it (each
rank would train a copy of its own).
With --checkpoint PATH it writes a checkpoint (nn_legacy/serialization/checkpoint.py)
every --every steps and at the end; --resume PATH continues from one, and
ends with the parameters the uninterrupted run ends with, bit for bit.
"""
import argparse
import math
import os
import sys
import tempfile
import time

import numpy as np

import nn_legacy as nn
from nn_legacy import jacobian, optim
from nn_legacy._helpers.progress import ProgressBar
from nn_legacy.serialization import checkpoint
from nn_legacy.serialization.checkpoint import numpy_state, restore_parameters, set_numpy_state

GRADIENT_TOLERANCE = 1e-5
KIND = "digits-mlp"   # what the demo's checkpoints say wrote them
REQUIRED_ACCURACY = 0.90
DEFAULT_EPOCHS = 20   # the accuracy check holds from this many epochs on

#: (size, rank) environment variables a launcher sets for each process it starts, read without importing
#: mpi4py: Open MPI, MPICH and Intel MPI (Hydra's PMI, srun's too), MVAPICH, Hydra's local counts
MPI_ENVIRONMENT = (("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"), ("PMI_SIZE", "PMI_RANK"),
                   ("MV2_COMM_WORLD_SIZE", "MV2_COMM_WORLD_RANK"), ("MPI_LOCALNRANKS", "MPI_LOCALRANKID"))
CHECK_SAMPLES = 4


def load_data(seed):
    """Digits scaled to zero mean and unit variance per pixel (statistics of
    the training part only), split 80/20 stratified by class."""
    try:
        from sklearn.datasets import load_digits
        from sklearn.model_selection import train_test_split
    except ImportError:
        sys.exit("the demo needs scikit-learn for its bundled digits: pip install \".[demo]\"")
    digits = load_digits()
    x = digits.data.astype(np.float64) / 16.0  # pixel intensities are 0..16
    y = digits.target.astype(np.int64)         # 0-based classes 0..9
    x_train, x_test, y_train, y_test = train_test_split(
        x, y, test_size=0.2, random_state=seed, stratify=y)
    mean = x_train.mean(axis=0)
    std = x_train.std(axis=0)
    std[std < 1e-8] = 1.0  # a few border pixels are always 0
    return (x_train - mean) / std, y_train, (x_test - mean) / std, y_test


def build_model(activation, hidden=64):
    model = nn.Sequential()
    model.add(nn.Linear(64, hidden))
    model.add(nn.Tanh() if activation == "tanh" else nn.ReLU())
    model.add(nn.Linear(hidden, 10))
    return model


# ---- gradient checks ----

def _kinks(module):
    """Points where a layer has no derivative, for testJacobian to step around."""
    return (module.threshold,) if isinstance(module, nn.Threshold) else ()


def _one_line(module):
    text = repr(module)
    return "nn.Sequential (whole model)" if isinstance(module, nn.Sequential) else text


def gradient_check(model, criterion, x, y):
    """Check every layer at the input it sees inside the model, then the
    model as a whole and the criterion at the model's output.  Returns
    (rows, all passed); a row is (what, input error, parameter error)."""
    rows = []
    current = x
    for layer in list(model.modules) + [model]:
        layer_input = x if layer is model else current
        err_in = jacobian.testJacobian(layer, layer_input, kinks=_kinks(layer))
        err_par = jacobian.testAllParameters(layer, layer_input) if layer.parameters()[0] else None
        rows.append((_one_line(layer), err_in, err_par))
        if layer is not model:
            current = np.array(layer.forward(layer_input), copy=True)
    err_crit = jacobian.testCriterion(criterion, current, y)
    rows.append((repr(criterion), err_crit, None))
    passed = all(e < GRADIENT_TOLERANCE for _, e_in, e_par in rows
                 for e in (e_in, e_par) if e is not None)
    return rows, passed


def print_gradient_table(rows, n_samples):
    width = max(len(r[0]) for r in rows)
    print(f"Gradient check: central differences in float64 on {n_samples} training samples, "
          f"pass if max abs error < {GRADIENT_TOLERANCE:g}")
    print(f"  {'layer':<{width}}  {'d/d input':>10}  {'d/d params':>10}  result")
    for name, err_in, err_par in rows:
        ok = err_in < GRADIENT_TOLERANCE and (err_par is None or err_par < GRADIENT_TOLERANCE)
        par = "-" if err_par is None else f"{float(err_par):.2e}"
        print(f"  {name:<{width}}  {float(err_in):>10.2e}  {par:>10}  {'pass' if ok else 'FAIL'}")
        for report in (err_in, err_par):
            if report is not None and not report < GRADIENT_TOLERANCE:
                print(f"      {report!r}")
    print()


# ---- training ----

# --optimizer: the optim method and its name in the output
OPTIMIZERS = {"sgd": (optim.sgd, "SGD"), "adam": (optim.adam, "Adam")}


def train(model, criterion, x, y, epochs, batch_size, learning_rate, rng, optimizer="sgd",
          step=None, part=None, saver=None, resume=None):
    """Minibatch training.  With ``step`` (a distributed.DistributedOptim) and
    ``part`` (a batch's length -> this rank's slice of it), this rank trains on
    its part of every global batch (--distributed).  ``saver`` (a
    checkpoint.Saver) writes checkpoints; ``resume`` (a checkpoint read by
    checkpoint.read) is where to continue from."""
    n = len(x)
    n_batches = math.ceil(n / batch_size)
    digits = len(str(epochs))
    model.training()
    # the optim methods step the flat parameter array, which the layers view
    params, grads = model.flattenParameters()
    method, config, state = OPTIMIZERS[optimizer][0], {"learningRate": learning_rate}, {}
    method, samples = method if step is None else step, {}
    done, first_epoch, first_batch, order, total_loss = 0, 1, 0, None, 0.0
    if resume is not None:
        done, first_epoch, first_batch, order, total_loss, config, state = _resume(resume, params, rng)
    for epoch in range(first_epoch, epochs + 1):
        bar = ProgressBar(n_batches, f"epoch {epoch:>{digits}}/{epochs}")
        if order is None:
            order = rng.permutation(n)
            total_loss = 0.0
        for b in range(first_batch, n_batches):
            idx = order[b * batch_size:(b + 1) * batch_size]
            n_batch = len(idx)
            if part is not None:
                idx = idx[part(n_batch)]
                samples = {"samples": len(idx)}
            inputs, targets = x[idx], y[idx]

            def feval(_):
                output = model.forward(inputs)
                loss = criterion.forward(output, targets)
                model.zeroGradParameters()
                model.backward(inputs, criterion.backward(output, targets))
                return loss, grads

            _, (loss,) = method(feval, params, config, state, **samples)
            total_loss += loss * n_batch
            done += 1
            if saver is not None:
                saver.after_step(done, lambda: {
                    "model": model, "optim": {"config": config, "state": state}, "rng": nn.getRNGState(),
                    "order_rng": numpy_state(rng), "epoch": epoch, "batch": b + 1, "order": order,
                    "loss": total_loss}, last=epoch == epochs and b == n_batches - 1)
            bar.update(b + 1, f"loss {loss:.4f}")
        bar.finish(f"mean training loss {total_loss / n:.4f}")
        order, first_batch = None, 0


def _resume(saved, params, rng):
    """Put the run back where the checkpoint ``saved`` left it: the
    parameters, the optimizer's state, both generators; returns (steps done,
    epoch, batch, that epoch's order, its loss so far, config, state)."""
    restore_parameters(params, saved["model"])
    nn.setRNGState(saved["rng"])
    set_numpy_state(rng, saved["order_rng"])
    return (saved["step"], saved["epoch"], saved["batch"], saved["order"], saved["loss"],
            saved["optim"]["config"], saved["optim"]["state"])


def checkpoint_settings(args, ranks=1):
    """The options a resumed run must share with the run that wrote the
    checkpoint (--epochs may grow)."""
    return {"seed": args.seed, "float32": args.float32, "activation": args.activation,
            "batch_size": args.batch_size, "optimizer": args.optimizer, "lr": args.lr, "ranks": ranks}


def print_checkpoints(saver):
    if saver is not None and saver.summary():
        print(saver.summary())


def accuracy(model, x, y, batch_size=256):
    model.evaluate()
    correct = 0
    for start in range(0, len(x), batch_size):
        scores = model.forward(x[start:start + batch_size])
        correct += int((scores.argmax(axis=1) == y[start:start + batch_size]).sum())
    return correct / len(x)


def save_and_reload(model, x):
    """Save the trained model with nn_legacy.save, load it back, and compare
    the two models' scores on x (they must be identical)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "digits-mlp.thnn")
        nn.save(model, path)
        size = os.path.getsize(path)
        loaded = nn.load(path)
    loaded.evaluate()
    model.evaluate()
    same = np.array_equal(loaded.forward(x), model.forward(x))
    print(f"saved and reloaded ({size} bytes): predictions on the held-out set "
          f"{'identical' if same else 'DIFFER'}")
    return same


def mpi_world(environ=os.environ):
    """(rank, size) when a launcher such as mpiexec started this process as one of several, else None."""
    for size_name, rank_name in MPI_ENVIRONMENT:
        try:
            size, rank = int(environ[size_name]), int(environ.get(rank_name, 0))
        except (KeyError, ValueError):
            continue
        return (rank, size) if size > 1 else None
    return None


def short_run(epochs):
    """The note for a run shorter than the default, whose accuracy the check does not hold to; None otherwise."""
    if epochs >= DEFAULT_EPOCHS:
        return None
    return (f"a short run ({epochs} epoch{'s' if epochs > 1 else ''}, fewer than the default {DEFAULT_EPOCHS}): the "
            f"{100 * REQUIRED_ACCURACY:.0f} % accuracy check is skipped")


def find_failures(same, grads_ok, test_acc, epochs=DEFAULT_EPOCHS):
    """What makes the demo exit 1, in words."""
    failures = []
    if not same:
        failures.append("the reloaded model predicts differently")
    if not grads_ok:
        failures.append(f"a gradient check exceeded {GRADIENT_TOLERANCE:g}")
    if test_acc < REQUIRED_ACCURACY and short_run(epochs) is None:
        failures.append(f"held-out accuracy {100 * test_acc:.2f} % is below {100 * REQUIRED_ACCURACY:.0f} %")
    return failures


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m nn_legacy", description=__doc__.split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=20, help="passes over the training set (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, the initialisation and the "
                                                       "minibatch order (default 0)")
    p.add_argument("--float32", action="store_true", help="train in float32 (gradient checks stay float64)")
    p.add_argument("--activation", choices=("tanh", "relu"), default="tanh",
                   help="hidden nonlinearity (default tanh)")
    p.add_argument("--batch-size", type=int, default=32, help="minibatch size (default 32)")
    p.add_argument("--optimizer", choices=sorted(OPTIMIZERS), default="sgd",
                   help="nn_legacy.optim method (default sgd)")
    p.add_argument("--lr", type=float, default=None,
                   help="learning rate (default 0.05 for sgd, 0.001 for adam)")
    p.add_argument("--distributed", action="store_true",
                   help="train data-parallel over MPI: mpiexec -n N python -m nn_legacy --distributed "
                        "(needs the mpi extra)")
    p.add_argument("--checkpoint", metavar="PATH", help="write a checkpoint there every --every steps and at "
                                                        "the end (atomically: the previous one stays whole "
                                                        "until the new one is)")
    p.add_argument("--every", type=int, default=100, metavar="N",
                   help="optimizer steps between checkpoints (default 100)")
    p.add_argument("--resume", metavar="PATH", help="continue from this checkpoint (written with the same "
                                                    "options); the result is the uninterrupted run's")
    p.add_argument("--layers", action="store_true",
                   help="print the catalogue of module and criterion classes (kind, THNN kernel, CUDA, ONNX "
                        "form, summary) and exit")
    args = p.parse_args(argv)
    if args.lr is None:
        args.lr = 0.05 if args.optimizer == "sgd" else 0.001
    if args.epochs < 1 or args.batch_size < 1 or not args.lr > 0 or args.every < 1:
        p.error("--epochs, --batch-size and --every must be at least 1 and --lr positive")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.layers:
        from .demos.catalogue import text
        try:
            print(text(), flush=True)
        except BrokenPipeError:   # `--layers | head`: the reader has all it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        return 0
    world = mpi_world()
    if args.distributed and world is None:
        print("note: --distributed without mpiexec runs one rank alone; launch several with "
              "mpiexec -n 2 python -m nn_legacy --distributed")
    if world is not None and not args.distributed:   # N copies of the same job, each on all the data
        if world[0] == 0:
            print(f"error: started as {world[1]} processes (by mpiexec or srun), but without --distributed each "
                  f"would train a copy of its own: add --distributed (mpiexec -n {world[1]} python -m nn_legacy "
                  f"--distributed)", file=sys.stderr)
        return 2
    if args.distributed:
        from .demos.distributed import main as distributed_main
        return distributed_main(args, sys.modules[__name__])
    started = time.perf_counter()
    x_train, y_train, x_test, y_test = load_data(args.seed)
    print(f"8x8 digits: {len(x_train)} training and {len(x_test)} held-out samples, "
          f"64 features, 10 classes (split seed {args.seed})")

    nn.manualSeed(args.seed)
    model = build_model(args.activation)
    criterion = nn.CrossEntropyCriterion()
    print(model)
    print(criterion)
    print()

    rows, grads_ok = gradient_check(model, criterion, x_train[:CHECK_SAMPLES], y_train[:CHECK_SAMPLES])
    print_gradient_table(rows, CHECK_SAMPLES)

    dtype = np.float32 if args.float32 else np.float64
    if args.float32:
        model.float()
        criterion.float()
    x_train, x_test = x_train.astype(dtype), x_test.astype(dtype)
    try:
        resume, saver = checkpoint.from_options(args, KIND, checkpoint_settings(args), model)
    except checkpoint.CheckpointError as e:
        print(f"--resume/--checkpoint: {e}", file=sys.stderr)
        return 2
    print(f"Training: minibatch {OPTIMIZERS[args.optimizer][1]}, batch {args.batch_size}, "
          f"learning rate {args.lr:g}, {args.epochs} epochs, {np.dtype(dtype).name}"
          + ("" if resume is None else f"; resumed after step {resume['step']} from {args.resume}"))
    train(model, criterion, x_train, y_train, args.epochs, args.batch_size, args.lr,
          np.random.default_rng(args.seed), args.optimizer, saver=saver, resume=resume)
    print_checkpoints(saver)

    train_acc = accuracy(model, x_train, y_train)
    test_acc = accuracy(model, x_test, y_test)
    print()
    print(f"training accuracy: {100 * train_acc:.2f} %")
    short = short_run(args.epochs)
    print(f"held-out accuracy: {100 * test_acc:.2f} % ({round(test_acc * len(y_test))}/{len(y_test)}; "
          + (f"{short})" if short else f"required {100 * REQUIRED_ACCURACY:.0f} %)"))
    same = save_and_reload(model, x_test)
    print(f"total time: {time.perf_counter() - started:.2f} s")

    failures = find_failures(same, grads_ok, test_acc, args.epochs)
    if failures:
        print("FAILED: " + "; ".join(failures), file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
