"""Modules and Python threads (nn_legacy/_helpers/threads.py, README "Bad input and
untrusted files"): distinct modules in distinct threads work and give the
single-threaded results; one module (or a module inside a container) used by
two threads at once refuses the second with a RuntimeError naming it, and
stays correct; the kernels keep their error state per call."""
import threading

import numpy as np
import pytest

import nn_legacy as nn
import thnn

THREADS = 4


def make_net(seed):
    nn.manualSeed(seed)
    return nn.Sequential(
        nn.SpatialConvolutionMM(3, 8, 3, 3, 1, 1, 1, 1), nn.ReLU(), nn.SpatialMaxPooling(2, 2),
        nn.View(8 * 8 * 8), nn.Linear(8 * 8 * 8, 32), nn.Tanh(), nn.Linear(32, 5), nn.LogSoftMax())


def train(net, crit, seed, steps=15):
    """A few SGD steps on data of this seed: the losses and final parameters."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((6, 3, 16, 16))
    y = rng.integers(0, 5, 6)
    losses = []
    for _ in range(steps):
        net.zeroGradParameters()
        out = net.forward(x)
        losses.append(crit.forward(out, y))
        net.backward(x, crit.backward(out, y))
        net.updateParameters(0.05)
    return losses, [p.copy() for p in net.parameters()[0]]


def run_threads(target, n):
    """Run target(i) in n threads started together; the exceptions they raised."""
    errors, barrier = [None] * n, threading.Barrier(n)

    def body(i):
        barrier.wait()
        try:
            target(i)
        except BaseException as e:  # noqa: B036 (reported below)
            errors[i] = e
    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
        assert not t.is_alive()
    return errors


@pytest.mark.parametrize("kernel_threads", [1, 2])
def test_distinct_modules_in_threads_match_a_single_thread(kernel_threads):
    # each thread trains its own network (and criterion); every result must
    # equal the one the same network gets alone in the main thread.  With 2
    # OpenMP/BLAS threads inside the kernels, the parallel regions of several
    # Python threads run side by side.
    old = thnn.get_num_threads()
    thnn.set_num_threads(kernel_threads)
    try:
        expected = [train(make_net(s), nn.ClassNLLCriterion(), s) for s in range(THREADS)]
        nets = [make_net(s) for s in range(THREADS)]
        got = [None] * THREADS

        def work(i):
            got[i] = train(nets[i], nn.ClassNLLCriterion(), i)
        assert run_threads(work, THREADS) == [None] * THREADS
    finally:
        thnn.set_num_threads(old)
    for (loss_e, params_e), (loss_g, params_g) in zip(expected, got):
        assert loss_g == loss_e
        for a, b in zip(params_e, params_g):
            np.testing.assert_array_equal(a, b)


class Blocking(nn.Module):
    """Identity whose updateOutput waits in the kernel's place until released."""

    def __init__(self):
        super().__init__()
        self.entered, self.release = threading.Event(), threading.Event()

    def updateOutput(self, input):
        self.entered.set()
        assert self.release.wait(30)
        self.output = input
        return input


def while_running(module, call):
    """Run module.forward in a thread, held inside its updateOutput; meanwhile
    call() in this thread: what it raised (None if nothing)."""
    blocking = module if isinstance(module, Blocking) else module.get(1)
    blocking.entered.clear()
    blocking.release.clear()
    t = threading.Thread(target=module.forward, args=(np.ones(3),), name="holder")
    t.start()
    assert blocking.entered.wait(30)
    try:
        call()
    except RuntimeError as e:
        return e
    finally:
        blocking.release.set()
        t.join(30)
    return None


def test_a_module_in_use_by_another_thread_refuses():
    m = Blocking()
    e = while_running(m, lambda: m.forward(np.ones(3)))
    assert isinstance(e, RuntimeError)
    assert str(e).startswith("Blocking: forward called in thread 'MainThread' while forward runs in thread "
                             "'holder'"), str(e)
    assert "module.clone()" in str(e)
    # once the other thread is done, this one may use it
    np.testing.assert_array_equal(m.forward(np.full(3, 2.0)), np.full(3, 2.0))


def test_a_child_of_a_container_in_use_refuses():
    seq = nn.Sequential(nn.Identity(), Blocking(), nn.Tanh())
    first = seq.get(0)
    e = while_running(seq, lambda: seq.get(1).updateOutput(np.ones(3)))
    assert isinstance(e, RuntimeError) and str(e).startswith("Blocking: updateOutput called"), str(e)
    e = while_running(seq, lambda: seq.backward(np.ones(3), np.ones(3)))
    assert isinstance(e, RuntimeError) and str(e).startswith("Sequential: backward called"), str(e)
    # the container's first child is not in use any more: free for this thread
    assert while_running(seq, lambda: first.forward(np.ones(3))) is None


def test_a_criterion_in_use_refuses():
    class SlowMSE(nn.MSECriterion):
        def updateOutput(self, input, target):
            self.entered.set()
            assert self.release.wait(30)
            return super().updateOutput(input, target)
    crit = SlowMSE()
    crit.entered, crit.release = threading.Event(), threading.Event()
    t = threading.Thread(target=crit.forward, args=(np.ones(3), np.zeros(3)), name="holder")
    t.start()
    assert crit.entered.wait(30)
    with pytest.raises(RuntimeError, match=r"^SlowMSE: backward called in thread 'MainThread' while forward "):
        crit.backward(np.ones(3), np.zeros(3))
    crit.release.set()
    t.join(30)
    assert crit.output == 1.0


def test_one_module_hammered_by_threads_stays_correct():
    # several threads call forward and backward on the same module as fast as
    # they can: each call either raises the RuntimeError or gives the right
    # answer, and afterwards the module works as before
    net = make_net(0)
    x = np.random.default_rng(0).standard_normal((6, 3, 16, 16))
    go = np.random.default_rng(1).standard_normal((6, 5))
    ref = make_net(0)
    out_e = ref.forward(x).copy()
    gin_e = ref.updateGradInput(x, go).copy()
    refused, right = [0] * THREADS, [0] * THREADS

    def hammer(i):
        for _ in range(60):
            try:
                if i % 2:
                    out = net.forward(x).copy()
                    np.testing.assert_array_equal(out, out_e)
                else:
                    net.forward(x)
                    gin = net.updateGradInput(x, go).copy()
                    np.testing.assert_array_equal(gin, gin_e)
                right[i] += 1
            except RuntimeError as e:
                assert " called in thread " in str(e) and "module.clone()" in str(e), str(e)
                refused[i] += 1
    assert run_threads(hammer, THREADS) == [None] * THREADS
    print(f"\n{sum(right)} calls went through, {sum(refused)} refused")
    assert sum(right) > 0
    np.testing.assert_array_equal(net.forward(x), out_e)
    np.testing.assert_array_equal(net.updateGradInput(x, go), gin_e)


def test_kernel_errors_stay_in_their_thread():
    # the error state (THNNState) is made per call: a thread whose calls all
    # fail never makes another thread's valid calls fail, and each error
    # message is that call's own
    x = np.ones((4, 5))
    w, b = np.ones((3, 5)), np.ones(3)
    bad = np.ones((4, 6))

    def work(i):
        for _ in range(300):
            if i % 2:
                with pytest.raises(thnn.THNNError, match=r"input must be 1D or 2D with 5 features, got 2D "
                                                         r"of size \[4, 6\]"):
                    thnn.Double.Linear_updateOutput(bad, None, w, b)
            else:
                np.testing.assert_array_equal(thnn.Double.Linear_updateOutput(x, None, w, b), np.full((4, 3), 6.0))
    assert run_threads(work, THREADS) == [None] * THREADS


def test_a_thread_count_above_the_cpus_is_clamped_and_reported():
    old = thnn.get_num_threads()
    try:
        limit = thnn.cpu_limit()
        with pytest.warns(RuntimeWarning, match=rf"set_num_threads\(1000000\): this process may run on {limit} "
                                                rf"CPUs?; using {limit} threads"):
            assert thnn.set_num_threads(10 ** 6) == limit
        assert thnn.get_num_threads() == limit
        assert thnn.set_num_threads(1) == 1 and thnn.get_num_threads() == 1
        assert thnn.set_num_threads(np.int64(limit)) == limit
        for bad, error, message in ((0, ValueError, "need at least 1 thread, got 0"),
                                    (-3, ValueError, "need at least 1 thread, got -3"),
                                    (2.5, TypeError, "need an integer number of threads, got 2.5"),
                                    ("2", TypeError, "need an integer number of threads, got '2'")):
            with pytest.raises(error, match=r"^set_num_threads: " + message.replace("(", r"\(")):
                thnn.set_num_threads(bad)
        assert thnn.get_num_threads() == limit
    finally:
        thnn.set_num_threads(old)
