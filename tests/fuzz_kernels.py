"""Header-driven fuzzing of every kernel of THNN.h.

For every function the parsed header declares (thnn.FUNCTIONS, so a kernel
added to THNN.h is fuzzed as soon as tests/kernel_cases.py has its valid
call), calls are made from the valid call of kernel_cases with one to three
arguments mutated (or every integer scalar set to one value): another number of dimensions, a size off by one, zero or
one element, strided, reversed and overlapping views (zero strides), NaN
and infinities, out-of-range indices, sizes of 2**31 and more (stride-0 views:
nothing is allocated), None, another dtype or no array at all, scalars of
0, -1, huge or NaN.  Each call must return or raise a Python exception; the
process must never die, hang or corrupt memory.

Call i of a run with seed s is a pure function of (s, i): kernel
FUNCTIONS[i % K] (K kernels), valid on its first round (i < K), mutated
after.  So any call reproduces alone:

    python tests/fuzz_kernels.py --seed S --start I --stop I+1 --show

The calls run in a worker subprocess which prints the index of each call
before making it; if the worker dies (a signal, a sanitizer report) or
falls silent, run() reports the kernel and the mutations of that call, with
the worker's stderr, and carries on with a new worker from the next call.
A call still running after SLOW seconds (a valid call on 2**31 elements of a
stride-0 view can take that long) is given up and listed, not failed.
tests/test_fuzz_kernels.py runs a bounded budget in the test suite
(THNN_FUZZ_CALLS, THNN_FUZZ_SEED); a long run:

    THNN_FUZZ_CALLS=1000000 python tests/fuzz_kernels.py

Device mode (--device emulator, or THNN_FUZZ_DEVICE=emulator) makes the
same calls on the CUDA twins run by the emulator (every function of
thnn.cuda.emulator().functions; while every kernel has a twin, call i of
seed s is the same call in both modes):

    python tests/fuzz_kernels.py --device emulator --seed S --start I --show

Math mode (--device math) fuzzes the device tensor math of
thcunn_cu/generic/THCTensorMath.h on the emulator instead (every function
its parsed header declares, valid calls from tests/math_cases.py, in
float32, float64 and int64), with the same mutations and uploads.

On a real GPU (--device gpu and --device gpu-math: the same calls as
emulator and math mode) the worker synchronises the device after every
call: a kernel's fault (an illegal address, say) surfaces there, not as
the CudaError of a later call, and kills the worker (status DEVICE_FAULT)
naming the call that made it.

The worker uploads each numpy array argument before the call: the memory
its elements span, then a CudaTensor view of it with the array's strides
(CudaTensor._view), so reversed, gapped, transposed, overlapping and
stride-0 views stay such views on the device, and a stride-0 view of 2**31
or more elements costs a one-element upload.  An array passed twice is one
tensor; None and other values pass as they are; integer arrays go up as
int64 (to_device), float16, bool or complex ones are refused (TypeError).
An array spanning more than UPLOAD_CAP elements is not uploaded: the call
is counted as skipped.

The worker caps its address space (RLIMIT_AS, or ASan's
max_allocation_size_mb under the sanitizers) so that a kernel asking for
more than a few GB gets NULL, and must report "out of memory", instead of
the machine swapping.  Not on a GPU: the CUDA driver maps device memory
into the process's address space, so the cap would refuse valid device
allocations; there the device's own memory bounds what a call can take.
"""
import argparse
import ctypes
import functools
import json
import os
import random
import resource
import select
import subprocess
import sys
import threading
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _p in (HERE, ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import numpy as np  # noqa: E402

import thnn  # noqa: E402
import thnn.cuda  # noqa: E402
import math_cases  # noqa: E402
from kernel_cases import CASES, DTYPES  # noqa: E402

KERNELS = [f.name for f in thnn.FUNCTIONS]
CASES_OF = {name: [c for c in CASES if c.function == name] for name in KERNELS}
HEADROOM = 3 * 2 ** 30       # bytes of address space a worker may add to what it has after warm-up
_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")
# A call that reads every element of a stride-0 view of 2**31 elements or
# more, or makes an output of a billion, is slow but correct: after SLOW
# seconds the worker gives it up (reported, not a failure) and the run goes
# on.  A worker silent for HANG seconds, after SLOW, has failed.  A long run
# may raise both to see whether a slow call ever ends.
SLOW = float(os.environ.get("THNN_FUZZ_SLOW", "4" if _ASAN else "2"))
HANG = float(os.environ.get("THNN_FUZZ_HANG", "60"))
STARTUP = 600   # seconds a worker may take to import and warm up
SLOW_EXIT = 75  # the worker's status when it gave a call up
HUGE_INTS = (2 ** 31 - 1, -2 ** 31, 2 ** 31, 2 ** 62, -2 ** 63, 2 ** 63 - 1, 2 ** 64)
INDEX_VALUES = (-1, -2, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 1, 2 ** 62, -2 ** 63, 2 ** 63 - 1)
FLOAT_VALUES = (float("nan"), float("inf"), float("-inf"), 0.0, -1.0, 1e30, -1e30, 1e-30)
DEVICES = ("cpu", "emulator", "math", "gpu", "gpu-math")
MATH_MODES = ("math", "gpu-math")
DEVICE_FAULT = 76   # the worker's status when the GPU reported a fault after a call
MATH_CASES_OF = {f.name: [c for c in math_cases.CASES if c.function == f.name] for f in math_cases.DEVICE.math_functions}
UPLOAD_CAP = 2 ** 22   # (device mode) the most elements an array's memory may span to be uploaded


# ---- one call ----

@functools.lru_cache(maxsize=None)
def kernels(device="cpu"):
    """The functions fuzzed on this device, in the order calls go round them."""
    if device == "cpu":
        return KERNELS
    if device in MATH_MODES:
        return [f.name for f in math_cases.DEVICE.math_functions]
    twins = {f.name for f in twin_device(device).functions}
    return [name for name in KERNELS if name in twins]


def build(seed, i, device="cpu"):
    """Call i of a run with this seed: (kernel, case id, dtype, labels of
    the mutations ([] for the valid call), arguments in header order)."""
    names = kernels(device)
    kernel = names[i % len(names)]
    rng = random.Random(f"{seed}:{i}")
    math = device in MATH_MODES
    case = rng.choice((MATH_CASES_OF if math else CASES_OF)[kernel])
    dtype = np.dtype(rng.choice(math_cases.DTYPES if math else DTYPES))
    kw = case.kwargs(dtype, n=rng.choice((1, 2, 3)), seed=rng.randrange(2 ** 32))
    labels = []
    if i >= len(names):
        # one or two arguments, each mutated once (a second mutation of a
        # stride-0 view of 2**40 elements could copy it)
        ints = [a for a in case.params if a.ctype in ("int", "int64_t")]
        if ints and rng.random() < 0.05:
            # every integer scalar at once (sizes, strides, paddings...): one value
            v = rng.choice((0, -1, 1, 2 ** 31 - 1, -2 ** 31, 2 ** 30, 65536))
            kw.update({a.name: v for a in ints})
            return kernel, case.id, dtype, [f"every integer scalar {v}"], [kw[a.name] for a in case.params]
        count = rng.choices((1, 2, 3), weights=(70, 20, 10))[0]
        params = rng.sample(case.params, min(len(case.params), count))
        labels = [_mutate(rng, arg, dtype, kw) for arg in params]
    return kernel, case.id, dtype, labels, [kw[a.name] for a in case.params]


def _mutate(rng, arg, dtype, kw):
    """Change argument arg of kw in place; a label saying what was done."""
    value = kw[arg.name]
    if arg.is_tensor:
        name, new = _mutate_tensor(rng, arg, value, dtype, kw)
    else:
        name, new = _mutate_scalar(rng, arg, value)
    kw[arg.name] = new
    return f"{arg.name}: {name}"


def _mutate_tensor(rng, arg, a, dtype, kw):
    if not isinstance(a, np.ndarray):
        # None (an optional or an [OUT] argument): an array of some shape, or a wrong type
        shape = tuple(rng.choice((0, 1, 2, 3, 5)) for _ in range(rng.randint(1, 4)))
        kind = rng.choice(("array", "array", "not an array"))
        if kind == "not an array":
            return "a list instead of None", [1.0, 2.0]
        dt = np.int64 if arg.is_index else dtype
        return f"an array {shape} instead of None", np.ones(shape, dt)
    choices = [_none, _ndim_up, _ndim_down, _size_off, _zero_size, _one_element, _reversed, _gapped,
               _transposed, _zero_strides, _overlapping, _huge_dim, _huge_dims, _wrong_dtype, _not_an_array,
               _alias]
    if a.dtype.kind == "f":
        choices += [_nan, _inf, _extreme]
    if a.dtype.kind in "iu" or arg.is_index:
        choices += [_bad_index, _bad_index, _all_bad_index]
    return rng.choice(choices)(rng, a, arg, kw)


def _none(rng, a, arg, kw):
    return "None", None


def _ndim_up(rng, a, arg, kw):
    axis = rng.randint(0, a.ndim)
    return f"new axis {axis}", np.expand_dims(a, axis).copy()


def _ndim_down(rng, a, arg, kw):
    if a.ndim == 1:
        return "first element only, 0D", a.reshape(-1)[:1].reshape(()) if a.size else a.reshape(-1)
    axis = rng.randrange(a.ndim)
    return f"axis {axis} dropped", np.take(a, 0, axis=axis).copy() if a.shape[axis] else \
        a.reshape(a.shape[:axis] + a.shape[axis + 1:])


def _size_off(rng, a, arg, kw):
    axis = rng.randrange(a.ndim)
    shape = list(a.shape)
    shape[axis] = max(0, shape[axis] + rng.choice((-1, 1, 2, 7)))
    return f"size {shape[axis]} along axis {axis}", _resized(a, shape)


def _zero_size(rng, a, arg, kw):
    axis = rng.randrange(a.ndim)
    shape = list(a.shape)
    shape[axis] = 0
    return f"size 0 along axis {axis}", np.zeros(shape, a.dtype)


def _one_element(rng, a, arg, kw):
    return "one element", _resized(a, [1] * a.ndim)


def _reversed(rng, a, arg, kw):
    return "reversed view", np.flip(a)


def _gapped(rng, a, arg, kw):
    buf = np.zeros(tuple(2 * s + 1 for s in a.shape), a.dtype)
    view = buf[tuple(slice(1, None, 2) for _ in a.shape)]
    view[...] = a
    return "strided view with gaps", view


def _transposed(rng, a, arg, kw):
    return "transposed", a.T


def _zero_strides(rng, a, arg, kw):
    if a.size == 0:
        return "size 0 (no element to repeat)", a
    return "all strides 0", np.lib.stride_tricks.as_strided(a, a.shape, (0,) * a.ndim, writeable=True)


def _overlapping(rng, a, arg, kw):
    """Every stride one element: rows overlap, the view stays inside a's buffer."""
    if a.size == 0:
        return "size 0 (nothing to overlap)", a
    c = np.ascontiguousarray(a)
    return "overlapping strides", np.lib.stride_tricks.as_strided(c, c.shape, (c.itemsize,) * c.ndim,
                                                                  writeable=True)


def _huge_dim(rng, a, arg, kw):
    """One dim of 2**31 or more elements, a view of a single element."""
    axis = rng.randrange(a.ndim)
    shape = list(a.shape)
    shape[axis] = rng.choice((2 ** 31, 2 ** 31 + 1, 2 ** 32 + 3, 2 ** 40))
    return f"size {shape[axis]} along axis {axis} (stride 0)", _broadcast(a, shape)


def _huge_dims(rng, a, arg, kw):
    """Every dim large, the element count near 2**62: sizes whose products
    overflow once multiplied by anything else."""
    per = max(2, int(2 ** (58 / a.ndim)))
    shape = [per] * a.ndim
    return f"shape {shape} (stride 0)", _broadcast(a, shape)


def _broadcast(a, shape):
    """A stride-0 view of a's first element; numpy wants fewer than 2**63 bytes."""
    while np.prod(shape, dtype=float) * a.itemsize >= 2.0 ** 62:
        shape[shape.index(max(shape))] //= 2
    one = np.ascontiguousarray(a.reshape(-1)[:1] if a.size else np.zeros(1, a.dtype))
    return np.lib.stride_tricks.as_strided(one, tuple(shape), (0,) * len(shape), writeable=True)


def _wrong_dtype(rng, a, arg, kw):
    dt = rng.choice((np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_, np.complex64))
    return f"dtype {np.dtype(dt)}", a.astype(dt)


def _not_an_array(rng, a, arg, kw):
    return rng.choice((("a list", a.tolist()), ("a float", 1.5), ("a string", "x"), ("a tuple", (1, 2))))


def _alias(rng, a, arg, kw):
    others = [k for k, v in kw.items() if isinstance(v, np.ndarray) and v is not a]
    if not others:
        return "unchanged (no other array)", a
    name = rng.choice(sorted(others))
    return f"the array of {name}", kw[name]


def _nan(rng, a, arg, kw):
    return _filled(rng, a, float("nan"), "NaN")


def _inf(rng, a, arg, kw):
    return _filled(rng, a, rng.choice((float("inf"), float("-inf"))), "inf")


def _extreme(rng, a, arg, kw):
    return _filled(rng, a, rng.choice((3e38, -3e38, 1e-45, 1e300)), "extreme values")


def _filled(rng, a, value, name):
    b = a.copy()
    with np.errstate(over="ignore"):
        if rng.random() < 0.5 or b.size == 0:
            b[...] = value
            return f"all {name}", b
        b.reshape(-1)[rng.randrange(b.size)] = value
    return f"one {name}", b


def _bad_index(rng, a, arg, kw):
    if a.size == 0:
        return "size 0 (no index to spoil)", a
    b = a.astype(np.int64)
    value = rng.choice(INDEX_VALUES + (int(b.max()) + 1, int(b.max()) + 2, int(b.min()) - 1))
    pos = rng.randrange(b.size)
    b.reshape(-1)[pos] = value
    return f"index {value} at flat position {pos}", b


def _all_bad_index(rng, a, arg, kw):
    value = rng.choice(INDEX_VALUES)
    return f"every index {value}", np.full(a.shape, value, np.int64)


def _resized(a, shape):
    """An array of this shape with a's values repeated (zeros when a is empty)."""
    if a.size == 0:
        return np.zeros(shape, a.dtype)
    return np.resize(a, shape)


def _mutate_scalar(rng, arg, value):
    if arg.ctype == "bool":
        return rng.choice((("flipped", not value), ("2", 2), ("None", None), ("a string", "true")))
    if arg.ctype in ("int", "int64_t"):
        v = rng.choice((0, -1, 1, 2, 3, 7, 100, 10 ** 4, value + 1, value - 1, -value, 2 * value + 5,
                        *HUGE_INTS))
        if rng.random() < 0.05:
            return rng.choice((("a float", 1.5), ("None", None), ("NaN", float("nan"))))
        return str(v), v
    v = rng.choice(FLOAT_VALUES + (-value, 2 * value, value + 1))
    if rng.random() < 0.05:
        return rng.choice((("a string", "1"), ("None", None), ("a complex", 1j)))
    return repr(v), v


def describe(seed, i, device="cpu"):
    kernel, case_id, dtype, labels, _ = build(seed, i, device)
    what = "; ".join(labels) if labels else "the valid call"
    on = "" if device == "cpu" else f" on {device}"
    return f"call {i} (seed {seed}{on}): {kernel} [{dtype}, case {case_id}]: {what}"


# ---- device mode ----

class TooLarge(Exception):
    """An array whose memory is too large to upload: the call is skipped."""


def upload(dev, args):
    """The arguments of a call for a twin on device dev: every numpy array a
    CudaTensor with its shape and strides (one tensor for an array passed
    twice); anything else as it is."""
    done = {}
    out = []
    for a in args:
        if isinstance(a, np.ndarray):
            if id(a) not in done:
                done[id(a)] = _upload(dev, a)
            a = done[id(a)]
        out.append(a)
    return out


def _upload(dev, a):
    """a on the device: the memory its elements span, uploaded, then viewed
    with a's strides (in elements) from a's first element."""
    item = a.itemsize
    if a.ndim == 0:   # (to_device would make it 1D)
        return dev.to_device(a.reshape(1))._view((), (), 0)
    if a.size == 0 or any(s % item for s in a.strides):
        return dev.to_device(a)   # (no element to place; or strides no view can have: a contiguous copy)
    low = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(a.shape, a.strides) if s > 0)
    span = (high - low) // item + 1
    if span > UPLOAD_CAP:
        raise TooLarge(f"an array of shape {a.shape} spans {span} elements")
    # the element at the lowest address, and the memory from it on
    first = a[tuple(slice(n - 1, n) if s < 0 else slice(0, 1) for n, s in zip(a.shape, a.strides))]
    memory = np.lib.stride_tricks.as_strided(first, (span,), (item,), writeable=False)
    t = dev.to_device(memory)   # (integers become int64: the strides count elements, so they still fit)
    return t._view(a.shape, tuple(s // item for s in a.strides), -low // item)


def twin_device(device):
    """The thnn.cuda device a device mode runs on."""
    return thnn.cuda.gpu() if device in ("gpu", "gpu-math") else thnn.cuda.emulator()


def backend(device, dtype):
    """The kernels of this device for dtype."""
    if device == "cpu":
        return thnn.backend(dtype)
    if device in MATH_MODES:
        real = {"float32": "Float", "float64": "Double", "int64": "Long"}[np.dtype(dtype).name]
        return twin_device(device).math(real)
    return twin_device(device).backend(dtype)


def make(device, kernel, dtype, args):
    """Make one call on this device (arrays uploaded first in device mode)."""
    if device != "cpu":
        args = upload(twin_device(device), args)
    return getattr(backend(device, dtype), kernel)(*args)


def _check_the_gpu(i):
    """(GPU modes) Wait for call i's kernels; a fault kills the worker."""
    try:
        thnn.cuda.gpu().synchronize()
    except thnn.cuda.CudaError as e:
        sys.stderr.write(f"the GPU reported a fault after call {i}: {e}\n")
        sys.stderr.flush()
        os._exit(DEVICE_FAULT)


# ---- the worker ----

def _limit_address_space():
    """Cap the address space, so a kernel's huge allocation fails instead of
    swapping.  Under ASan (which reserves terabytes of shadow memory) the
    parent sets max_allocation_size_mb instead."""
    if _ASAN:
        return
    with open("/proc/self/statm") as f:
        vsize = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    resource.setrlimit(resource.RLIMIT_AS, (vsize + HEADROOM, resource.getrlimit(resource.RLIMIT_AS)[1]))


def work(seed, start, stop, out, device="cpu"):
    """Make calls start..stop-1, printing each index before its call; then
    one line of JSON with what happened."""
    on_gpu = device in ("gpu", "gpu-math")
    if not _ASAN:
        # warm up first: the OpenMP and BLAS thread pools start before the cap
        for i in range(min(len(kernels(device)), stop - start)):
            kernel, _, dtype, _, args = build(seed, i, device)
            try:
                make(device, kernel, dtype, args)
            except Exception:   # (math mode: an int64 matrix product is refused, validly)
                pass
            if on_gpu:
                _check_the_gpu(i)
        if not on_gpu:
            _limit_address_space()
    out.write("ready\n")
    out.flush()
    valid, mutated, outcomes = Counter(), Counter(), Counter()
    current = [None, 0.0]  # the call being made, and when it started

    def watch():
        # the kernels run without the GIL, so this thread runs during a call
        while True:
            time.sleep(SLOW / 10)
            i, started = current
            if i is not None and time.monotonic() - started > SLOW:
                out.write(json.dumps({"slow": i, "valid": valid, "mutated": mutated, "outcomes": outcomes}) + "\n")
                out.flush()
                os._exit(SLOW_EXIT)
    threading.Thread(target=watch, daemon=True).start()
    crash_at = int(os.environ.get("THNN_FUZZ_CRASH_AT", -1))  # (tests/test_fuzz_kernels.py: does run() notice?)
    for i in range(start, stop):
        out.write(f"{i}\n")
        out.flush()
        kernel, _, dtype, labels, args = build(seed, i, device)
        (mutated if labels else valid)[kernel] += 1
        current[:] = i, time.monotonic()
        if i == crash_at:
            ctypes.string_at(0)  # a read of address 0: SIGSEGV
        try:
            make(device, kernel, dtype, args)
            outcomes["returned"] += 1
        except TooLarge:
            outcomes["skipped"] += 1
        except Exception as e:  # any Python exception is a correct answer to a bad call
            outcomes[type(e).__name__] += 1
        if on_gpu:
            _check_the_gpu(i)
        current[0] = None
        del args
    out.write(json.dumps({"valid": valid, "mutated": mutated, "outcomes": outcomes}) + "\n")
    out.flush()


# ---- the parent ----

class Report:
    def __init__(self, seed, calls, device="cpu"):
        self.seed, self.calls, self.device = seed, calls, device
        self.valid, self.mutated, self.outcomes = Counter(), Counter(), Counter()
        self.failures = []        # (call index, what happened, description, worker stderr)
        self.slow = []            # descriptions of the calls given up after SLOW seconds
        self.seconds = 0.0

    @property
    def kernels(self):
        return len(set(self.valid) | set(self.mutated))

    def summary(self):
        made = sum(self.valid.values()) + sum(self.mutated.values())
        raised = {k: v for k, v in self.outcomes.items() if k not in ("returned", "skipped")}
        on = skipped = ""
        if self.device != "cpu":
            on, skipped = f" (twins on {self.device})", f"{self.outcomes['skipped']} skipped (too large to upload), "
        return (f"fuzz_kernels: seed {self.seed}: {made} calls ({sum(self.valid.values())} valid, "
                f"{sum(self.mutated.values())} mutated) over {self.kernels} of {len(kernels(self.device))} "
                f"kernels{on} in {self.seconds:.0f} s: {self.outcomes['returned']} returned, "
                f"{sum(raised.values())} raised {dict(sorted(raised.items()))}, {skipped}"
                f"{len(self.slow)} given up after {SLOW:g} s; {len(self.failures)} crashes or hangs")


def _worker_env():
    env = dict(os.environ)
    if _ASAN:
        opts = env.get("ASAN_OPTIONS", "")
        env["ASAN_OPTIONS"] = ":".join(filter(None, [opts, "allocator_may_return_null=1",
                                                    f"max_allocation_size_mb={HEADROOM // 2 ** 20}"]))
    return env


def run(seed, calls, start=0, max_failures=5, log=None, device="cpu"):
    """Fuzz calls start..calls-1 in worker subprocesses; a Report."""
    if device not in DEVICES:
        raise ValueError(f"device must be one of {DEVICES}, got {device!r}")
    report = Report(seed, calls, device)
    t0 = time.monotonic()
    i = start
    while i < calls and len(report.failures) < max_failures:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", "--seed", str(seed),
                                 "--start", str(i), "--stop", str(calls), "--device", device],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_worker_env(), text=True)
        current, result, hung, started = None, None, False, False
        while True:
            # (starting a worker under ASan on a busy machine can take minutes)
            ready, _, _ = select.select([proc.stdout], [], [], SLOW + HANG if started else STARTUP)
            if not ready:
                hung = True
                proc.kill()
                break
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("{"):
                result = json.loads(line)
            elif line == "ready\n":
                started = True
            else:
                current = int(line)
        _, err = proc.communicate()
        if result is not None:
            report.valid.update(result["valid"])
            report.mutated.update(result["mutated"])
            report.outcomes.update(result["outcomes"])
        if result is not None and proc.returncode == 0:
            break
        if result is not None and proc.returncode == SLOW_EXIT and "slow" in result:
            slow = result["slow"]  # (counted by the worker)
            report.slow.append(describe(seed, slow, device))
            if log:
                log(f"gave up after {SLOW:g} s: {describe(seed, slow, device)}")
            i = slow + 1
            continue
        failed = current if current is not None else i
        if not started:  # no call was made: a broken setup, not a kernel's fault
            problem = f"took over {STARTUP} s to start" if hung else f"died starting (status {proc.returncode})"
            raise RuntimeError(f"fuzz_kernels: a worker {problem}:\n{err[-6000:]}")
        if hung:
            what = f"no progress for {SLOW + HANG:.0f} s"
        elif proc.returncode < 0:
            what = f"worker died with signal {-proc.returncode}"
        elif proc.returncode == DEVICE_FAULT:
            what = "the GPU reported a fault after the call"
        else:
            what = f"worker died with status {proc.returncode}"
        report.failures.append((failed, what, describe(seed, failed, device), err[-6000:]))
        if log:
            log(f"FAILED {describe(seed, failed, device)}: {what}\n{err[-6000:]}")
        # count what the dead worker did before it died, then go on after the bad call
        for j in range(i, failed + 1):
            kernel, _, _, labels, _ = build(seed, j, device)
            (report.mutated if labels else report.valid)[kernel] += 1
        i = failed + 1
    report.seconds = time.monotonic() - t0
    return report


def default_seed():
    seed = os.environ.get("THNN_FUZZ_SEED")
    return int(seed) if seed else random.SystemRandom().randrange(2 ** 31)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=None, help="default: $THNN_FUZZ_SEED, else random (printed)")
    p.add_argument("--calls", type=int, default=int(os.environ.get("THNN_FUZZ_CALLS", "100000")))
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--stop", type=int, default=None, help="(--worker, --show) the last call + 1")
    p.add_argument("--show", action="store_true", help="print calls start..stop-1, then make each in this process")
    p.add_argument("--device", choices=DEVICES, default=os.environ.get("THNN_FUZZ_DEVICE", "cpu"),
                   help="cpu: the kernels of THNN.h; emulator: their CUDA twins on the emulator; math: the "
                        "device tensor math on the emulator; gpu, gpu-math: the same on a real GPU "
                        "(default: $THNN_FUZZ_DEVICE, else cpu)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    opts = p.parse_args(argv)
    seed = default_seed() if opts.seed is None else opts.seed
    if opts.worker:
        work(seed, opts.start, opts.stop, sys.stdout, opts.device)
        return 0
    if opts.show:
        for i in range(opts.start, opts.stop if opts.stop is not None else opts.start + 1):
            print(describe(seed, i, opts.device), flush=True)
            kernel, _, dtype, _, args = build(seed, i, opts.device)
            try:
                make(opts.device, kernel, dtype, args)
                print("  returned")
            except Exception as e:
                print(f"  raised {type(e).__name__}: {e}")
        return 0
    print(f"fuzz_kernels: seed {seed} (THNN_FUZZ_SEED={seed} repeats this run), {opts.calls} calls on "
          f"{opts.device}", flush=True)
    report = run(seed, opts.calls, opts.start, max_failures=50, log=lambda s: print(s, flush=True),
                 device=opts.device)
    print(report.summary())
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
