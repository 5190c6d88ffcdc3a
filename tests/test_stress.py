"""A long training run keeps memory flat: 10,000 SGD steps (optim.sgd with
momentum) of Linear-Tanh-Linear-LogSoftMax with ClassNLLCriterion, on
mini-batches of changing size (so arrays are reallocated now and then).

After a 500-step warm-up the run is cut into ten segments of 1,000 steps and
three counters are read after each (after gc.collect()):

- the C heap in use (glibc's mallinfo2, as in tests/test_memory.py): every
  malloc the kernels, cffi and numpy's array data make.  Exact: over the
  second half (5,000 steps) it may grow by HEAP_SLACK = 64 KiB at most, so a
  leak of 13 bytes a step fails.
- the blocks of Python's small-object allocator (sys.getallocatedblocks()):
  Python objects, which live in obmalloc's mmapped arenas, out of mallinfo's
  sight.  Exact: over the second half at most BLOCK_SLACK = 500 more, so one
  object leaked every ten steps fails.
- the resident set size, for memory that neither allocator sees (mmap,
  other allocators, thread stacks); a leak through malloc or obmalloc may
  not reach it at all while it fills memory already resident.  The RSS also moves once in a while for
  reasons that are not leaks, most in the full suite (RSS 550 MiB, 280 MiB
  of glibc arenas with 50-100 MiB free in them): the first touch of free
  pages when an arena's top is extended for a transient allocation (seen:
  one 5,000-step segment of eight grew 1.1 MiB, the heap in use +7 KiB, and
  the next 35,000 steps nothing), or khugepaged collapsing 4 KiB pages into
  a 2 MiB huge page in ranges numpy madvised MADV_HUGEPAGE (arrays of 4 MiB
  and more).  CI once saw +3.7 MiB in the second half with the heap flat,
  which failed a bound on the total.  Such an event lands in one segment; a
  leak grows every segment.  So the assertion is on the median growth per
  segment: at most RSS_SLOPE_SLACK = 24 KiB per 1,000 steps, so a steady
  leak of 25 bytes a step fails, and up to four one-off jumps do not.

test_a_deliberate_leak_fails shows that each check fires on a leak of its
own kind (64 bytes of malloc a step, a 100-byte bytes object a step, a 4 KiB
page of mmap every 64 steps).  Not run under ASan (`make asan` leaves out
slow tests; its quarantine holds freed memory on purpose).
"""
import ctypes
import gc
import sys
import time

import numpy as np
import pytest

import nn_legacy as nn
from kernel_cases import heap_bytes, rss_bytes
from nn_legacy import optim

STEPS = 10_000
WARMUP = 500
SEGMENTS = 10
HEAP_SLACK = 64 * 2 ** 10
BLOCK_SLACK = 500
RSS_SLOPE_SLACK = 24 * 2 ** 10
COUNTERS = ("C heap bytes", "Python blocks", "RSS bytes")


def _leaker(kind):
    """A function called once a step that leaks memory of one kind, or None."""
    if kind is None:
        return None
    libc = ctypes.CDLL(None)
    if kind == "malloc":
        libc.malloc.restype = ctypes.c_void_p
        return lambda i: libc.malloc(64)
    if kind == "python":
        hoard = [None] * (WARMUP + STEPS)  # preallocated: only the bytes objects grow
        return lambda i: hoard.__setitem__(i, bytes(100))
    if kind == "mmap":
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        prot, flags = 3, 0x22  # PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS

        def leak(i):
            if i % 64 == 0:
                ctypes.memset(libc.mmap(None, 4096, prot, flags, -1, 0), 1, 4096)
        return leak
    raise ValueError(kind)


def _train(leak=None):
    """Train for WARMUP + STEPS steps; return the losses and the counters
    (C heap, Python blocks, RSS) read at the start of each of the SEGMENTS
    segments and at the end, as an int64 array [SEGMENTS + 1, 3]."""
    nn.manualSeed(0)
    rng = np.random.default_rng(0)
    centers = rng.standard_normal((4, 10)) * 2
    net = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 4), nn.LogSoftMax())
    crit = nn.ClassNLLCriterion()
    params, grads = net.getParameters()
    config, state = {"learningRate": 0.05, "momentum": 0.9}, {}
    leak = _leaker(leak)

    def step(i):
        batch = 8 + i % 5  # sizes 8..12 in turn: outputs and buffers are resized
        y = rng.integers(0, 4, batch)
        x = centers[y] + rng.standard_normal((batch, 10))
        if leak:
            leak(i)

        def feval(_):
            grads[:] = 0
            out = net.forward(x)
            loss = crit.forward(out, y)
            net.backward(x, crit.backward(out, y))
            return loss, grads
        return optim.sgd(feval, params, config, state)[1][0]

    # Preallocated: a growing list would itself add to the counters.
    losses = np.zeros(WARMUP + STEPS)
    marks = np.zeros((SEGMENTS + 1, len(COUNTERS)), dtype=np.int64)
    for i in range(WARMUP):
        losses[i] = step(i)
    per_segment = STEPS // SEGMENTS
    # gc.freeze(): the collections at the marks skip the objects that were
    # there before (millions when the whole suite runs in this process).
    gc.collect()
    gc.freeze()
    try:
        for s in range(SEGMENTS + 1):
            gc.collect()
            marks[s] = heap_bytes(), sys.getallocatedblocks(), rss_bytes()
            if s < SEGMENTS:
                for i in range(WARMUP + s * per_segment, WARMUP + (s + 1) * per_segment):
                    losses[i] = step(i)
    finally:
        gc.unfreeze()
    return losses, marks


def _memory_failures(marks):
    """The counters that grew: a list of (counter, message), empty when flat."""
    half, per_segment = SEGMENTS // 2, STEPS // SEGMENTS
    heap, blocks, rss = (marks[:, k] for k in range(len(COUNTERS)))
    heap_growth, block_growth = heap[-1] - heap[half], blocks[-1] - blocks[half]
    rss_slope = np.median(np.diff(rss))
    failures = []
    if heap_growth > HEAP_SLACK:
        message = f"C heap grew {heap_growth / 2**10:+.1f} KiB over the last {STEPS // 2} steps"
        failures.append(("heap", f"{message} (at most {HEAP_SLACK / 2**10:.0f} KiB)"))
    if block_growth > BLOCK_SLACK:
        message = f"Python allocator grew {block_growth:+d} blocks over the last {STEPS // 2} steps"
        failures.append(("blocks", f"{message} (at most {BLOCK_SLACK})"))
    if rss_slope > RSS_SLOPE_SLACK:
        message = f"RSS grew a median {rss_slope / 2**10:+.0f} KiB per {per_segment} steps"
        failures.append(("rss", f"{message} (at most {RSS_SLOPE_SLACK / 2**10:.0f} KiB)"))
    return failures


def _report(marks):
    heap, blocks, rss = (np.diff(marks[:, k]).tolist() for k in range(len(COUNTERS)))
    return (f"growth per {STEPS // SEGMENTS} steps: C heap ({marks[0, 0] / 2**20:.2f} MiB) "
            f"{[round(d / 2**10, 1) for d in heap]} KiB; Python blocks ({marks[0, 1]}) {blocks}; "
            f"RSS ({marks[0, 2] / 2**20:.1f} MiB) {[d // 2**10 for d in rss]} KiB")


@pytest.mark.slow
def test_ten_thousand_training_steps_keep_memory_flat():
    start = time.monotonic()
    losses, marks = _train()
    print(f"\n{STEPS} steps in {time.monotonic() - start:.1f} s; {_report(marks)}; "
          f"loss {np.mean(losses[:100]):.3f} -> {np.mean(losses[-100:]):.3f}")
    assert _memory_failures(marks) == []
    # and it trained: the classes are separable
    assert np.mean(losses[-100:]) < 0.5 * np.mean(losses[:100])


@pytest.mark.slow
@pytest.mark.parametrize("kind, counter", [("malloc", "heap"), ("python", "blocks"), ("mmap", "rss")])
def test_a_deliberate_leak_fails(kind, counter):
    """Each check catches a small steady leak of the memory it watches."""
    _, marks = _train(leak=kind)
    failures = _memory_failures(marks)
    print(f"\n{kind} leak: {_report(marks)}; {failures}")
    assert counter in [name for name, _ in failures], failures
