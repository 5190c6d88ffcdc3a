"""A long training run keeps memory flat: 10,000 SGD steps (optim.sgd with
momentum) of Linear-Tanh-Linear-LogSoftMax with ClassNLLCriterion, on
mini-batches of changing size (so arrays are reallocated now and then).

Memory is measured as in tests/test_memory.py (the C heap in use from
glibc's mallinfo2, which shows a few bytes leaked a step, and the RSS):
after a 500-step warm-up, the growth over the second half of the run may
not exceed that over the first by more than HEAP_SLACK / RSS_SLACK, nor the
slack itself.  A leak of one 24-byte struct a step would add 120 KiB over a
half; the noise without a leak is a few KiB.  Not run under ASan (`make
asan` leaves out slow tests; its quarantine holds freed memory on purpose).
"""
import gc
import time

import numpy as np
import pytest

import nn_legacy as nn
from kernel_cases import heap_bytes, rss_bytes
from nn_legacy import optim

STEPS = 10_000
WARMUP = 500
HEAP_SLACK = 64 * 2 ** 10
RSS_SLACK = 2 * 2 ** 20


@pytest.mark.slow
def test_ten_thousand_training_steps_keep_memory_flat():
    nn.manualSeed(0)
    rng = np.random.default_rng(0)
    centers = rng.standard_normal((4, 10)) * 2
    net = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 4), nn.LogSoftMax())
    crit = nn.ClassNLLCriterion()
    params, grads = net.getParameters()
    config, state = {"learningRate": 0.05, "momentum": 0.9}, {}

    def step(i):
        batch = 8 + i % 5  # sizes 8..12 in turn: outputs and buffers are resized
        y = rng.integers(0, 4, batch)
        x = centers[y] + rng.standard_normal((batch, 10))

        def feval(_):
            grads[:] = 0
            out = net.forward(x)
            loss = crit.forward(out, y)
            net.backward(x, crit.backward(out, y))
            return loss, grads
        return optim.sgd(feval, params, config, state)[1][0]

    # (preallocated: a growing list of losses would itself add 8 bytes of heap a step)
    losses = np.zeros(WARMUP + STEPS)
    start = time.monotonic()
    for i in range(WARMUP):
        losses[i] = step(i)
    marks = []
    for half in range(2):
        gc.collect()
        marks.append((heap_bytes(), rss_bytes()))
        for i in range(WARMUP + half * STEPS // 2, WARMUP + (half + 1) * STEPS // 2):
            losses[i] = step(i)
    gc.collect()
    marks.append((heap_bytes(), rss_bytes()))
    (h0, r0), (h1, r1), (h2, r2) = marks
    print(f"\n{STEPS} steps in {time.monotonic() - start:.1f} s; C heap in use {h0 / 2**20:.2f} MiB, "
          f"{(h1 - h0) / 2**10:+.1f} KiB over the first half, {(h2 - h1) / 2**10:+.1f} KiB over the second; "
          f"RSS {r0 / 2**20:.1f} MiB, {(r1 - r0) / 2**10:+.0f} KiB then {(r2 - r1) / 2**10:+.0f} KiB; "
          f"loss {np.mean(losses[:100]):.3f} -> {np.mean(losses[-100:]):.3f}")
    assert h2 - h1 < HEAP_SLACK and h2 - h1 <= max(h1 - h0, 0) + HEAP_SLACK
    assert r2 - r1 < RSS_SLACK and r2 - r1 <= max(r1 - r0, 0) + RSS_SLACK
    # and it trained: the classes are separable
    assert np.mean(losses[-100:]) < 0.5 * np.mean(losses[:100])
