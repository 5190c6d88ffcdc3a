"""Data-parallel training over MPI (mpi4py): every rank holds the whole
model, trains on its own shard of each global batch, and one all-reduce of
the flat gradient per step keeps the ranks' parameters identical.

    mpiexec -n 4 python train.py

    from nn_legacy import distributed as dist, optim
    rank, size = dist.init()                        # every rank
    params, grads = model.flattenParameters()
    dist.broadcast_parameters(model, state=state)   # rank 0's weights (and optim state) everywhere
    step = dist.DistributedOptim(optim.sgd)         # optim.sgd with the all-reduce in between
    for batch in global_batches:                    # the same global batches on every rank
        mine = batch[dist.shard(len(batch), rank, size)]
        def feval(_):
            model.zeroGradParameters()
            output = model.forward(x[mine])
            loss = criterion.forward(output, y[mine])
            model.backward(x[mine], criterion.backward(output, y[mine]))
            return loss, grads
        step(feval, params, config, state, samples=len(mine))
    dist.save(model, "model.thnn")                  # rank 0 writes, the others wait
    dist.assert_identical(model)                    # checksum all-reduce

Each rank's gradient is that of its shard's mean loss (sizeAverage
criterions); the average over ranks, weighted by shard size when the shards
are uneven (``samples=``), is the gradient of the mean loss over the global
batch, so N ranks take the same steps as one process on the whole batch, up
to the rounding of the sums.  After the all-reduce every rank holds the same
bits (MPI's reduction gives every rank the same result), so the ranks' optim
methods take the same step and the parameters never drift apart.

Errors end the whole job, never a hang: ``init()`` installs a
``sys.excepthook`` that prints the exception of the rank that raised it,
with its rank, and calls ``MPI_Abort``, which ends every rank with a
non-zero status (while the others are blocked in an all-reduce waiting for
it).  Models that differ between ranks are found by
``broadcast_parameters``, which compares every rank's parameter shapes
before it sends a byte.  A rank that calls ``sys.exit`` on its own is not
caught (SystemExit does not reach the hook): raise an exception instead.

mpi4py is an optional dependency, with an MPI library: ``pip install
"thnn[mpi]"`` (from a clone: ``pip install -e ".[mpi]"``) installs mpi4py
and the ``mpich`` wheel, so no system MPI is needed; mpi4py built against a
system MPI works too.  Without it this module imports, ``shard`` works, and
everything that communicates raises ImportError saying what to install.

The gradient is all-reduced after the whole backward, in one blocking call:
starting it layer by layer during the backward (non-blocking, overlapped)
was measured slower on one machine; see benchmarks/README.md.

What is not synchronised: buffers that are not parameters, such as the
running mean and variance of BatchNormalization, stay each rank's own (each
rank sees different samples), so ranks may evaluate differently; broadcast
them yourself (``comm.Bcast(layer.running_mean)``) before evaluating.
Dropout and other random layers draw from each rank's own generator; seed
them differently per rank if the masks should differ.
"""
import hashlib
import numbers
import sys
import time
import traceback

import numpy as np

from ..Module import Module

__all__ = ["init", "communicator", "shard", "broadcast_parameters", "average_gradients", "average_value",
           "DistributedOptim", "parameter_checksum", "max_parameter_difference", "assert_identical", "save"]

INSTALL_HINT = ('pip install "thnn[mpi]" (from a clone of thnn: pip install -e ".[mpi]"), '
                'or pip install mpi4py mpich')

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
ABORT_GRACE_SECONDS = 1.0   # between printing a rank's exception and MPI_Abort

_state = {"comm": None, "hook": False}


# ---------------------------------------------------------------- setup
def _mpi():
    """mpi4py's MPI module, or ImportError saying what to install."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        raise ImportError("nn_legacy.distributed needs mpi4py and an MPI library, which are not installed: "
                          + INSTALL_HINT) from None
    try:
        from mpi4py import MPI
    except (ImportError, RuntimeError) as e:
        raise ImportError(f"nn_legacy.distributed: mpi4py is installed but found no MPI library to load "
                          f"({e}); pip install mpich (or install a system MPI)") from e
    return MPI


def init(comm=None, abort_on_error=True):
    """Start MPI (if mpi4py has not yet) and return ``(rank, size)``.

    ``comm`` is the communicator the other functions use by default
    (``MPI.COMM_WORLD`` when None).  With ``abort_on_error`` and more than
    one rank, an uncaught exception on any rank prints
    ``nn_legacy.distributed: rank R of N raised ...`` and its traceback to
    standard error and calls ``MPI_Abort`` on COMM_WORLD: every rank ends,
    mpiexec exits non-zero, instead of the other ranks waiting forever in
    their next all-reduce.  (Exceptions in other threads, and ``sys.exit``
    on one rank, do not reach the hook.)  Calling init again changes the
    default communicator only."""
    MPI = _mpi()
    if comm is None:
        comm = MPI.COMM_WORLD
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"init: comm must be an mpi4py communicator, got {type(comm).__name__}")
    _state["comm"] = comm
    if abort_on_error and comm.Get_size() > 1 and not _state["hook"]:
        sys.excepthook = _abort_hook(sys.excepthook, MPI.COMM_WORLD)
        _state["hook"] = True
    return comm.Get_rank(), comm.Get_size()


def _abort_hook(previous, world):
    """sys.excepthook for ranks: print the exception with this rank's number,
    then end the whole job (MPI_Abort on COMM_WORLD, exit status 1)."""
    def hook(exc_type, exc, tb):
        try:
            text = "".join(traceback.format_exception(exc_type, exc, tb))
            sys.stdout.flush()
            sys.stderr.write(f"nn_legacy.distributed: rank {world.Get_rank()} of {world.Get_size()} raised "
                             f"{exc_type.__name__}; aborting every rank\n{text}")
            sys.stderr.flush()
            # mpiexec reads a rank's output and its abort request on separate
            # channels, and tears the job down on the abort: give it time to
            # forward the message first (it was lost once under heavy load).
            time.sleep(ABORT_GRACE_SECONDS)
        except BaseException:  # noqa: BLE001  (whatever happens, abort)
            previous(exc_type, exc, tb)
        finally:
            world.Abort(1)
    return hook


def communicator(comm=None):
    """The communicator to use: ``comm`` itself, else the one ``init`` set
    (calling ``init()`` first if it has not been called)."""
    if comm is not None:
        return comm
    if _state["comm"] is None:
        init()
    return _state["comm"]


def shard(n_samples, rank, size):
    """This rank's part of ``n_samples`` samples: a ``slice``.  The parts of
    ranks ``0..size-1`` are disjoint, consecutive and cover ``range(n)``; the
    first ``n % size`` ranks take one sample more (a rank may get none when
    n < size).  Needs no MPI."""
    for value, what, low in ((n_samples, "n_samples", 0), (size, "size", 1), (rank, "rank", 0)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < low:
            raise ValueError(f"shard: {what} must be an integer >= {low}, got {value!r}")
    if rank >= size:
        raise ValueError(f"shard: rank must be in [0, {size}), got {rank}")
    base, extra = divmod(int(n_samples), int(size))
    start = rank * base + min(rank, extra)
    return slice(start, start + base + (rank < extra))


# ---------------------------------------------------------------- parameters
def _parameters(model, name):
    if not isinstance(model, Module):
        raise TypeError(f"{name}: model must be an nn_legacy Module, got {type(model).__name__}")
    params = model.parameters()[0]
    for i, p in enumerate(params):
        if not isinstance(p, np.ndarray):
            raise TypeError(f"{name}: parameter {i} is a {type(p).__name__}; only host (numpy) models "
                            f"are supported, call model.float() or model.double() first")
    return params


def _describe(layout):
    values = sum(int(np.prod(shape)) for shape, _ in layout)
    dtypes = sorted({dtype for _, dtype in layout})
    return f"{len(layout)} parameter arrays, {values} values ({', '.join(dtypes) or 'no dtype'})"


def broadcast_parameters(model, root=0, state=None, comm=None):
    """Copy rank ``root``'s parameters into every rank's model, in place (the
    arrays stay the same objects, so flat views stay valid), and, with
    ``state``, rank root's optim state dict into every rank's ``state`` (the
    dict keeps its identity, its contents are replaced).

    Before sending, the ranks compare their models: a different number of
    parameter arrays, a different shape or dtype on any rank raises
    ValueError on every rank, naming the ranks and the first difference."""
    comm = communicator(comm)
    params = _parameters(model, "broadcast_parameters")
    size = comm.Get_size()
    if isinstance(root, (bool, np.bool_)) or not isinstance(root, numbers.Integral) or not 0 <= root < size:
        raise ValueError(f"broadcast_parameters: root must be a rank in [0, {size}), got {root!r}")
    if state is not None and not isinstance(state, dict):
        raise TypeError(f"broadcast_parameters: state must be a dict (the optim state) or None, "
                        f"got {type(state).__name__}")
    layout = [(tuple(p.shape), p.dtype.name) for p in params]
    layouts = comm.allgather((layout, state is not None))
    differ = [r for r, (other, _) in enumerate(layouts) if other != layouts[root][0]]
    if differ:
        raise ValueError(_mismatch(layouts, root, differ))
    with_state = [r for r, (_, has) in enumerate(layouts) if has]
    if with_state and len(with_state) != size:
        raise ValueError(f"broadcast_parameters: state given on ranks {with_state} only; pass the optim "
                         f"state dict on every rank or on none")
    for p in params:
        if p.flags.c_contiguous and p.flags.writeable:
            comm.Bcast(p, root=root)
        else:
            buffer = np.ascontiguousarray(p)
            comm.Bcast(buffer, root=root)
            p[...] = buffer
    if state is not None:
        received = comm.bcast(state if comm.Get_rank() == root else None, root=root)
        if comm.Get_rank() != root:
            state.clear()
            state.update(received)


def _mismatch(layouts, root, differ):
    ref = layouts[root][0]
    lines = [f"broadcast_parameters: the model differs between ranks: rank {root} (root) has {_describe(ref)}"]
    for r in differ:
        other = layouts[r][0]
        first = next((i for i, (a, b) in enumerate(zip(ref, other)) if a != b), min(len(ref), len(other)))
        if first < min(len(ref), len(other)):
            where = (f"first difference: parameter {first} is {list(other[first][0])} {other[first][1]} "
                     f"on rank {r} but {list(ref[first][0])} {ref[first][1]} on rank {root}")
        else:
            where = f"first difference: rank {r} has {len(other)} arrays, rank {root} {len(ref)}"
        lines.append(f"rank {r} has {_describe(other)}; {where}")
    return "\n  ".join(lines) + "\nbuild the same model on every rank"


# ---------------------------------------------------------------- gradients
def _flat_gradient(model_or_grad, name):
    if isinstance(model_or_grad, Module):
        _parameters(model_or_grad, name)
        grad = model_or_grad.flattenParameters()[1]
    else:
        grad = model_or_grad
    if not isinstance(grad, np.ndarray):
        raise TypeError(f"{name}: expected a model or its flat gradient array, got {type(grad).__name__}")
    if grad.dtype not in _FLOATS:
        raise TypeError(f"{name}: the gradient must be float32 or float64, got {grad.dtype}")
    if not grad.flags.c_contiguous or not grad.flags.writeable:
        raise ValueError(f"{name}: the gradient must be a contiguous writeable array (it is reduced in "
                         f"place), got strides {grad.strides} for shape {list(grad.shape)}")
    return grad


def _samples(samples, name):
    if samples is not None and (isinstance(samples, (bool, np.bool_))
                                or not isinstance(samples, numbers.Integral) or samples < 0):
        raise ValueError(f"{name}: samples must be None or this rank's sample count (an integer >= 0), "
                         f"got {samples!r}")


def average_gradients(model, samples=None, comm=None):
    """Average the gradient over the ranks, in place, with one all-reduce of
    the flat gradient; returns that array.

    ``model`` is an nn_legacy Module (its ``flattenParameters()`` gradient
    is used, flattening the model on the first call) or a flat gradient
    array itself (float32 or float64, contiguous).  Without ``samples`` each
    rank counts equally (the sum is divided by the number of ranks).  With
    ``samples`` (this rank's number of samples in the global batch) rank r's
    gradient is weighted by ``samples_r / sum(samples)``: with sizeAverage
    criterions that is the gradient of the mean loss over the global batch
    even when the shards are uneven; a rank with 0 samples contributes
    nothing (its gradient is not read).  That costs one more all-reduce of
    one number."""
    name = "average_gradients"
    grad = _flat_gradient(model, name)
    _samples(samples, name)
    _average(communicator(comm), grad, samples, name)
    return grad


def _average(comm, grad, samples, name, value=None):
    """Average grad over the ranks in place (and value, when given: returns
    its average).  Weighted by samples when samples is not None."""
    size = comm.Get_size()
    if samples is None:
        weight = None
        if value is not None and size > 1:
            value = _sums(comm, value)[0] / size
    else:
        weighted, total = _sums(comm, value * samples if samples and value is not None else 0.0, samples)
        if total == 0:
            raise ValueError(f"{name}: every rank has 0 samples; there is nothing to average")
        weight = samples / total
        value = None if value is None else float(weighted / total)
    if grad is not None:
        _reduce(comm, grad, weight)
    return value


def _sums(comm, *values):
    """The sums over the ranks of a few numbers, as float64 (one small all-reduce)."""
    from mpi4py import MPI
    buffer = np.array(values, dtype=np.float64)
    comm.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM)
    return buffer


def _reduce(comm, grad, weight):
    """Sum grad over the ranks in place: of grad / size, or of weight * grad."""
    from mpi4py import MPI
    if weight is not None:
        if weight == 0:
            grad.fill(0)
        elif weight != 1:
            grad *= weight
    if comm.Get_size() > 1:
        comm.Allreduce(MPI.IN_PLACE, grad, op=MPI.SUM)
        if weight is None:
            grad /= comm.Get_size()


def average_value(value, samples=None, comm=None):
    """The mean of a number over the ranks (weighted by ``samples`` as in
    average_gradients): e.g. the loss of the global batch from each rank's
    shard mean.  Every rank gets the same float."""
    name = "average_value"
    _samples(samples, name)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: value must be a number, got {type(value).__name__}")
    return float(_average(communicator(comm), None, samples, name, float(value)))


class DistributedOptim:
    """An ``nn_legacy.optim`` method with the all-reduce in between: called
    as the method is, ``step(feval, params, config, state, samples=None)``,
    it runs ``feval`` (this rank's loss and gradient on its shard), averages
    loss and gradient over the ranks (weighted by ``samples`` as in
    average_gradients), and lets the method step ``params`` with the
    average.  Every rank gets the same average, so every rank takes the same
    step; methods that evaluate several times per step (cg, lbfgs) stay in
    step too, since each of their decisions reads averaged values.  Returns
    what the method returns, its losses being global averages.

    ``allreduce_seconds`` and ``evaluations`` add up the time spent in the
    all-reduces (waiting for the slowest rank included) and the number of
    feval calls, for throughput reports."""

    def __init__(self, method, comm=None):
        if not callable(method):
            raise TypeError(f"DistributedOptim: method must be an nn_legacy.optim function, "
                            f"got {type(method).__name__}")
        self.method = method
        self.comm = comm
        self.allreduce_seconds = 0.0
        self.evaluations = 0

    def __call__(self, opfunc, x, config=None, state=None, samples=None):
        name = f"DistributedOptim({getattr(self.method, '__name__', 'method')})"
        if not callable(opfunc):
            raise TypeError(f"{name}: opfunc must be a function x -> (loss, gradient), "
                            f"got {type(opfunc).__name__}")
        _samples(samples, name)
        comm = communicator(self.comm)
        from ..optim import _common

        def averaged(at):
            loss, grad = _common.loss_and_gradient(name, opfunc(at), x, "opfunc")
            started = time.perf_counter()
            loss = _average(comm, grad, samples, name, loss)
            self.allreduce_seconds += time.perf_counter() - started
            self.evaluations += 1
            return loss, grad

        return self.method(averaged, x, config, state)


# ---------------------------------------------------------------- checks and checkpoints
def parameter_checksum(model):
    """A 64-bit checksum (blake2b) of the model's parameter bytes, in order."""
    h = hashlib.blake2b(digest_size=8)
    for p in _parameters(model, "parameter_checksum"):
        h.update(np.ascontiguousarray(p).tobytes())
    return int.from_bytes(h.digest(), "little", signed=True)


def max_parameter_difference(model, comm=None):
    """The largest difference between any two ranks' values of any
    parameter element (0.0 when all ranks hold the same values; NaN when a
    rank has NaN).  Two all-reduces (max and min) of a copy of the
    parameters; every rank gets the same number."""
    from mpi4py import MPI
    comm = communicator(comm)
    params = _parameters(model, "max_parameter_difference")
    if not params:
        return 0.0
    flat = np.concatenate([p.astype(np.float64).ravel() for p in params])
    if comm.allreduce(bool(np.isnan(flat).any()), op=MPI.LOR):   # the same answer on every rank
        return float("nan")
    high, low = flat.copy(), flat
    comm.Allreduce(MPI.IN_PLACE, high, op=MPI.MAX)
    comm.Allreduce(MPI.IN_PLACE, low, op=MPI.MIN)
    with np.errstate(invalid="ignore"):   # inf - inf where a value is inf on every rank
        spread = high - low
    spread[high == low] = 0.0
    return float(np.max(spread))


def assert_identical(model, comm=None):
    """Raise AssertionError on every rank unless all ranks hold
    bit-identical parameters: one all-gather of each rank's 64-bit
    checksum.  The message names the ranks that differ from rank 0 and the
    largest difference between ranks."""
    comm = communicator(comm)
    sums = comm.allgather(parameter_checksum(model))
    differ = [r for r, s in enumerate(sums) if s != sums[0]]
    if differ:
        largest = max_parameter_difference(model, comm)
        raise AssertionError(f"assert_identical: the parameters of ranks {differ} differ from rank 0's "
                             f"(checksums {[f'{s & 0xFFFFFFFFFFFFFFFF:016x}' for s in sums]}); largest "
                             f"difference between ranks {largest:g}")


def save(obj, path, root=0, comm=None):
    """A checkpoint written once: rank ``root`` runs ``nn_legacy.save(obj,
    path)`` (obj: a model, or a dict such as ``{"model": model, "state":
    state, "epoch": 3}``); the others wait for it, so when save returns on
    any rank the file is complete.  If rank root fails (a full disk, a
    missing folder), every rank raises the same OSError/TypeError message,
    so no rank waits forever."""
    from .. import save as save_one
    comm = communicator(comm)
    error = None
    if comm.Get_rank() == root:
        try:
            save_one(obj, path)
        except (OSError, TypeError, ValueError) as e:
            builtin = type(e) if type(e).__module__ == "builtins" else \
                next(k for k in (OSError, TypeError, ValueError) if isinstance(e, k))
            error = (builtin, str(e))
    error = comm.bcast(error, root=root)
    if error is not None:
        raise error[0](f"distributed.save: rank {root} could not write {path}: {error[1]}")
