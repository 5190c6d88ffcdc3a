"""Ctrl-C (SIGINT -> KeyboardInterrupt) during a long forward or backward
leaves the modules usable: once the interrupt is caught, a fresh
zeroGradParameters, forward and backward give exactly what an uninterrupted
copy of the network gives, and the module is free for other threads.

The interrupt is raised in the main thread by a timer thread
(_thread.interrupt_main, what a SIGINT does); a kernel running at that moment
finishes (the C code is not interrupted) and the KeyboardInterrupt comes out
of the Python code right after it.  Several delays land it in different
layers, and in forward or backward.

Under `make asan` LeakSanitizer also checks that an interrupt landing
between a kernel's return and the binding wrapping its new [OUT] storages
in numpy arrays loses none of them (it did: thnn/_binding.py now frees
them on the way out)."""
import _thread
import copy
import threading
import time

import numpy as np
import pytest

import nn_legacy as nn


def make_net():
    nn.manualSeed(11)
    body = nn.Sequential()
    for _ in range(40):  # a long Sequential loop: many places between kernels to land in
        body.add(nn.Linear(64, 64)).add(nn.Tanh()).add(nn.CMul(64))
    return nn.Sequential(
        nn.SpatialConvolutionMM(3, 16, 5, 5, 1, 1, 2, 2),   # a big convolution: ms in one kernel
        nn.ReLU(),
        nn.SpatialMaxPooling(4, 4),
        nn.View(16 * 8 * 8),
        nn.Linear(16 * 8 * 8, 64),
        nn.ConcatTable().add(body).add(nn.Identity()),
        nn.CAddTable(),
        nn.Linear(64, 10),
        nn.LogSoftMax())


def data():
    rng = np.random.default_rng(3)
    return rng.standard_normal((16, 3, 32, 32)), rng.standard_normal((16, 10))


def fresh_step(net, x, go):
    net.zeroGradParameters()
    out = net.forward(x).copy()
    gin = net.backward(x, go).copy()
    return out, gin, [g.copy() for g in net.parameters()[1]]


def interrupt_after(delay, work):
    """Run work() until a KeyboardInterrupt raised after delay seconds stops it."""
    timer = threading.Timer(delay, _thread.interrupt_main)
    start = time.monotonic()
    try:
        timer.start()  # (inside the try: with no delay it may fire before start() returns)
        while time.monotonic() - start < 60:
            work()
    except KeyboardInterrupt:
        return
    finally:
        timer.cancel()
    pytest.fail("the KeyboardInterrupt never came")


@pytest.mark.parametrize("when", [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95])
def test_an_interrupted_network_still_computes_exactly(when):
    # when: where in one forward + backward step the interrupt lands (the
    # fraction of the step's time, measured on the uninterrupted copy)
    x, go = data()
    net = make_net()
    reference = copy.deepcopy(net)
    start = time.monotonic()
    expected = fresh_step(reference, x, go)
    step_time = time.monotonic() - start

    def step():
        net.forward(x)
        net.backward(x, go)
    interrupt_after(when * step_time, step)

    got = fresh_step(net, x, go)
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    for a, b in zip(got[2], expected[2]):
        np.testing.assert_array_equal(a, b)
    # the interrupted verbs left no module marked in use: another thread may use it
    errors = []
    t = threading.Thread(target=lambda: errors.append(np.array_equal(net.forward(x), expected[0])))
    t.start()
    t.join(60)
    assert errors == [True]


def test_an_interrupted_criterion_still_computes_exactly():
    rng = np.random.default_rng(0)
    x = np.log(rng.dirichlet(np.ones(50), 20000))
    y = rng.integers(0, 50, 20000)
    crit, reference = nn.ClassNLLCriterion(), nn.ClassNLLCriterion()

    def step():
        crit.forward(x, y)
        crit.backward(x, y)
    interrupt_after(0.005, step)
    assert crit.forward(x, y) == reference.forward(x, y)
    np.testing.assert_array_equal(crit.backward(x, y), reference.backward(x, y))
