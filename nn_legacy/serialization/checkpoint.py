"""Checkpoints a training run resumes from bit for bit.

A checkpoint is one nn_legacy.save file holding a dict::

    {"checkpoint": "nn_legacy",       # what the file is
     "kind":       "digits-mlp",      # which training program wrote it
     "settings":   {...},             # the options a resumed run must share
     "step":       120,               # optimizer steps done
     "model":      model,             # the module, parameters and all
     "optim":      {"config": config, "state": state},   # Torch7's optimState
     "rng":        getRNGState(),     # the library's generator(s)
     ...}                             # the program's own position: its data
                                      # generator's state, epoch, batch...

``write`` puts it on disk atomically and durably: the bytes go to
``PATH.partial``, are flushed to the disk, and only then renamed over PATH,
so PATH is at every moment the previous whole checkpoint or the new whole
one, whatever kills the process (a crash, ``kill -9``, a full disk).
``read`` checks a file before anything is changed: a missing, truncated or
damaged file, a file that is not a checkpoint, one written by another
program or with other settings, or one of another model raises
CheckpointError saying which, so a resumed run stops before it trains or
overwrites anything.  docs/guides/checkpoints.md shows the pattern for a
training loop of your own.
"""
import io
import os
import time

from .._helpers.random import getRNGState, pack_state, setRNGState, unpack_state
from .native import FormatError, load, save

__all__ = ["CheckpointError", "Saver", "write", "read", "from_options", "layout", "restore_parameters", "numpy_state",
           "set_numpy_state", "getRNGState", "setRNGState"]

TAG = "nn_legacy"


class CheckpointError(ValueError):
    """A checkpoint that cannot be resumed from, and why."""


def _write_all(fd, data):
    """Write every byte of data to the file descriptor (one place the tests
    interrupt, to kill a run in the middle of a checkpoint)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write(obj, path):
    """Save obj (see nn_legacy.save) to path atomically: PATH.partial is
    written and fsynced, then renamed over path (and the folder fsynced), so
    the previous file stays whole until the new one is.  Returns the size in
    bytes."""
    buffer = io.BytesIO()
    save(obj, buffer)
    data = buffer.getbuffer()
    path = os.fspath(path)
    partial = path + ".partial"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(partial, path)
    folder = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(folder)   # the rename itself reaches the disk
    finally:
        os.close(folder)
    return len(data)


def layout(model):
    """The model's structure as plain data: the class names of
    listModules(), then (shape, dtype name) of each of its parameters."""
    return ([type(m).__name__ for m in model.listModules()],
            [(tuple(int(d) for d in p.shape), str(p.dtype)) for p in model.parameters()[0]])


def _describe(rows):
    names, params = rows
    return (f"{len(names)} modules ({', '.join(dict.fromkeys(names))}), parameters "
            + ", ".join(f"{'x'.join(map(str, s))} {d}" for s, d in params))


def read(path, kind, settings, model=None):
    """The checkpoint in path, checked: CheckpointError unless it is a whole
    checkpoint written by ``kind`` with these ``settings`` (a dict of option
    -> value) and, given ``model``, of a model with model's layout."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise CheckpointError(f"cannot resume from {path}: there is no such file")
    try:
        saved = load(path)
    except FormatError as e:
        raise CheckpointError(f"cannot resume from {path}: it is not a whole nn_legacy checkpoint "
                              f"(truncated or damaged?): {e}") from None
    except OSError as e:
        raise CheckpointError(f"cannot resume from {path}: {e}") from None
    if not isinstance(saved, dict) or saved.get("checkpoint") != TAG:
        raise CheckpointError(f"cannot resume from {path}: it is an nn_legacy file but not a checkpoint "
                              f"(no 'checkpoint' entry)")
    if saved.get("kind") != kind:
        raise CheckpointError(f"cannot resume from {path}: it is a checkpoint of {saved.get('kind')!r}, "
                              f"not of {kind!r}")
    theirs = saved.get("settings")
    if not isinstance(theirs, dict):
        raise CheckpointError(f"cannot resume from {path}: its settings are missing")
    differ = [k for k in sorted(set(settings) | set(theirs)) if theirs.get(k) != settings.get(k)]
    if differ:
        raise CheckpointError(f"cannot resume from {path}: it was written with other settings: "
                              + "; ".join(f"{k} {theirs.get(k)!r} in the checkpoint, {settings.get(k)!r} now"
                                          for k in differ))
    if not isinstance(saved.get("step"), int) or saved["step"] < 0:
        raise CheckpointError(f"cannot resume from {path}: its step count is missing")
    if model is not None:
        from ..Module import Module
        if not isinstance(saved.get("model"), Module):
            raise CheckpointError(f"cannot resume from {path}: it holds no model")
        mine, theirs = layout(model), layout(saved["model"])
        if mine != theirs:
            raise CheckpointError(f"cannot resume from {path}: it holds another model: {_describe(theirs)}; "
                                  f"this run builds {_describe(mine)}")
    return saved


def restore_parameters(params, saved):
    """Copy the parameters of saved (a model read checks to have this
    layout) into params, a model's flat parameter array, bit for bit."""
    theirs = saved.flattenParameters()[0]
    if theirs.shape != params.shape or theirs.dtype != params.dtype:
        raise CheckpointError(f"restore_parameters: the checkpoint's parameters are {theirs.size} {theirs.dtype}, "
                              f"the model's {params.size} {params.dtype}")
    params[...] = theirs


def numpy_state(rng):
    """A numpy Generator's state (default_rng's) as a uint64 array
    nn_legacy.save can write, for set_numpy_state."""
    return pack_state(rng, "numpy_state")


def set_numpy_state(rng, state):
    """Put rng back in the state numpy_state returned."""
    unpack_state(rng, state, "set_numpy_state")


def from_options(args, kind, settings, model):
    """A demo's --resume / --checkpoint / --every: (the checkpoint to resume
    from, checked by read, or None; a Saver, or None).  Raises
    CheckpointError before anything is written."""
    resume = None if args.resume is None else read(args.resume, kind, settings, model)
    if args.checkpoint is not None:
        folder = os.path.dirname(os.path.abspath(args.checkpoint))
        if not os.path.isdir(folder) or os.path.isdir(args.checkpoint):
            raise CheckpointError(f"cannot write checkpoints to {args.checkpoint}: "
                                  + ("it is a folder" if os.path.isdir(args.checkpoint) else
                                     f"there is no folder {folder}"))
    saver = None if args.checkpoint is None else Saver(args.checkpoint, args.every, kind, settings)
    return resume, saver


class Saver:
    """The --checkpoint PATH / --every N of a training program: after_step
    writes a checkpoint every ``every`` steps and at the last one; without a
    path it does nothing (and costs nothing).  ``payload()`` builds what to
    save, only when a checkpoint is due; ``writer`` (e.g. rank 0 of an MPI
    job writing for every rank) replaces ``write``."""

    def __init__(self, path, every, kind, settings, writer=None):
        if every is not None and every < 1:
            raise ValueError(f"Saver: every must be at least 1, got {every}")
        self.path, self.every, self.kind, self.settings = path, every, kind, settings
        self.writer = writer or write
        self.sizes, self.seconds = [], []

    def summary(self):
        """A line on the checkpoints written (None if none was)."""
        if not self.sizes:
            return None
        return (f"checkpoints: {len(self.sizes)} written to {self.path} ({self.sizes[-1]} bytes, "
                f"{1e3 * sum(self.seconds) / len(self.seconds):.1f} ms each on average)")

    def after_step(self, step, payload, last=False):
        if self.path is None or not (last or (self.every and step % self.every == 0)):
            return
        started = time.perf_counter()
        obj = {"checkpoint": TAG, "kind": self.kind, "settings": dict(self.settings), "step": int(step)}
        obj.update(payload())
        size = self.writer(obj, self.path)
        self.seconds.append(time.perf_counter() - started)
        self.sizes.append(size)
