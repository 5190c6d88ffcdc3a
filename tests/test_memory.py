"""Memory stays flat: long runs of failing calls and of shape-changing
successful calls leak nothing, and an adopted storage is returned to the
system when the last numpy view of it dies, not before.

Each loop runs 500 times to warm up (numpy's and glibc's caches, pytest's own
bookkeeping and cffi's type cache reach their steady size), then ROUNDS =
10,000 more times, and two numbers must stay flat:

- the resident set size (/proc/self/statm) may grow by at most RSS_SLACK =
  2 MiB.  Without a leak it moves by allocator fragmentation and free lists
  only: 0 to ~100 KiB in these loops (run with -s to see the numbers), so
  2 MiB is twenty times the noise; it is what 200 bytes leaked per round
  add up to.
- the bytes in use on the C heap (glibc's mallinfo2: in-use chunks plus
  mmapped blocks) may grow by at most HEAP_SLACK = 64 KiB.  Without a leak
  it moves by 0 to 7 KiB in these loops (interpreter and numpy caches
  settling); the slack is ten times that.  It is the sensitive check: one
  THStorage struct (24 bytes) or one 8-byte copy left behind in just one of
  the calls of a round adds >= 300 KiB over 10,000 rounds (tried: leaving
  out the release of a contiguous copy on one error path of
  Linear_updateGradInput gives +313 KiB of heap but only ~1.1 MiB of RSS).

These loops are not run under ASan (`make asan`): its quarantine holds freed
memory back on purpose, so memory would grow there without a leak.
"""
import gc

import numpy as np
import pytest

import nn_legacy as nn
import thnn
from kernel_cases import CASES, failing_calls, heap_bytes, rss_bytes

RSS_SLACK = 2 * 2 ** 20
HEAP_SLACK = 64 * 2 ** 10
ROUNDS = 10_000


def assert_flat(step, rounds=ROUNDS):
    """Run step(i) to warm up, then rounds times: RSS and heap must not grow."""
    for i in range(500):
        step(i)
    gc.collect()
    rss, heap = rss_bytes(), heap_bytes()
    for i in range(rounds):
        step(i)
    gc.collect()
    rss_growth, heap_growth = rss_bytes() - rss, heap_bytes() - heap
    print(f"\n{step.__name__}: over {rounds} rounds RSS {rss / 2**20:.1f} MiB {rss_growth / 2**10:+.0f} KiB, "
          f"C heap in use {heap / 2**20:.1f} MiB {heap_growth / 2**10:+.1f} KiB")
    assert rss_growth < RSS_SLACK, f"RSS grew by {rss_growth} bytes"
    assert heap_growth < HEAP_SLACK, f"C heap in use grew by {heap_growth} bytes"


# ---- failing calls ----

def test_failing_calls_leave_rss_flat():
    calls = [(call, error) for _, call, error, _ in failing_calls()]

    def failing_round(i):
        for call, error in calls:
            try:
                call()
            except error:
                pass
            else:
                raise AssertionError("a failing call succeeded")

    assert_flat(failing_round)


def test_module_errors_leave_rss_flat():
    m = nn.Sequential().add(nn.Linear(5, 4)).add(nn.Tanh()).add(nn.Linear(4, 3))
    c = nn.ClassNLLCriterion()
    good = np.ones((2, 5))
    m.forward(good)

    def failing_round(i):
        for bad in (np.ones((2, 6)), np.ones((2, 5), np.float32), [1.0] * 5, np.ones(())):
            try:
                m.forward(bad)
            except (ValueError, TypeError):
                pass
        try:
            m.backward(good, np.ones((2, 4)))
        except ValueError:
            pass
        try:
            c.forward(np.zeros((2, 3)), np.array([0, 5]))
        except ValueError:
            pass

    assert_flat(failing_round)


# ---- successful calls that change shape every time ----

SIZES = [1 + (7 * i) % 23 for i in range(23)]   # a cycle of 23 batch sizes, no two in a row equal


@pytest.mark.slow  # 190,000 calls; the training-step loop below covers the common kernels in the fast run
def test_shape_changing_kernel_calls_leave_rss_flat():
    # every kernel, its [OUT] arrays handed back each time (as modules do), so
    # every call allocates a new storage, adopts it, and frees the last one
    dtype_of = {n: np.float32 if n % 2 else np.float64 for n in SIZES}
    prepared = {n: [(c, c.kwargs(dtype_of[n], n=n, seed=n)) for c in CASES] for n in SIZES}
    last = {}

    def shape_changing_round(i):
        n = SIZES[i % len(SIZES)]
        dtype = dtype_of[n]
        for case, kw in prepared[n]:
            if not case.inplace(kw):
                kw.update(last.get(case.id, {}))
            outs = case.results(case.call(dtype, kw))
            if not case.inplace(kw):
                last[case.id] = outs

    assert_flat(shape_changing_round)


def test_shape_changing_training_steps_leave_rss_flat():
    m = nn.Sequential().add(nn.Linear(8, 16)).add(nn.ReLU()).add(nn.Linear(16, 4)).add(nn.LogSoftMax())
    crit = nn.ClassNLLCriterion()
    rng = np.random.default_rng(0)
    data = {n: (rng.normal(size=(n, 8)), rng.integers(0, 4, size=n)) for n in SIZES}

    def training_step(i):
        x, y = data[SIZES[i % len(SIZES)]]
        out = m.forward(x)
        crit.forward(out, y)
        m.zeroGradParameters()
        m.backward(x, crit.backward(out, y))
        m.updateParameters(0.01)

    assert_flat(training_step)


# ---- a storage is freed with its last view, and not before ----

BIG = 16 * 2 ** 20  # float32 elements: 64 MiB, above glibc's largest mmap threshold (32 MiB), so freeing it
# returns the pages to the system at once and the RSS shows it


def test_an_adopted_storage_is_freed_with_its_last_view():
    x = np.broadcast_to(np.float32(0.5), (BIG,))  # no memory of its own
    gc.collect()
    base = rss_bytes()
    out = thnn.Float.Sigmoid_updateOutput(x, None)
    assert out.shape == (BIG,)
    with_array = rss_bytes()
    assert with_array - base > 60 * 2 ** 20      # the result's 64 MiB are resident
    view = out[-10:]                             # a small view keeps all of it alive
    del out
    gc.collect()
    assert rss_bytes() - base > 60 * 2 ** 20
    np.testing.assert_array_equal(view, np.full(10, 1 / (1 + np.exp(-0.5)), np.float32))
    del view
    gc.collect()
    assert rss_bytes() - base < 4 * 2 ** 20     # gone with the last view


def test_module_buffers_are_freed_with_the_module():
    gc.collect()
    base = rss_bytes()
    m = nn.Sigmoid().float()
    m.forward(np.broadcast_to(np.float32(0.5), (BIG,)))
    assert rss_bytes() - base > 60 * 2 ** 20
    m.clearState()
    gc.collect()
    assert rss_bytes() - base < 4 * 2 ** 20
    m.forward(np.broadcast_to(np.float32(0.5), (BIG,)))
    del m
    gc.collect()
    assert rss_bytes() - base < 4 * 2 ** 20
