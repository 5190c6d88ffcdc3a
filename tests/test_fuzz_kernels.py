"""Every kernel of THNN.h, fuzzed (tests/fuzz_kernels.py): each call of a
bounded, seeded run returns or raises a Python exception, and none kills,
hangs or (under `make asan`) corrupts the process.

The budget is THNN_FUZZ_CALLS calls (CALLS by default: about a minute; `make
asan` sets a smaller one), the seed THNN_FUZZ_SEED (random by default, and
printed: a failure names it, and the call to repeat alone).  A long run is
`THNN_FUZZ_CALLS=1000000 python tests/fuzz_kernels.py`.
"""
import os

import fuzz_kernels as fk

CALLS = 30_000


def _failures(report):
    return "\n\n".join(f"{desc}\n  {what}; repeat it alone with\n  python tests/fuzz_kernels.py --seed "
                       f"{report.seed} --start {i} --show\n  worker stderr (end):\n{err}"
                       for i, what, desc, err in report.failures)


def test_fuzz_every_kernel():
    seed = fk.default_seed()
    calls = max(int(os.environ.get("THNN_FUZZ_CALLS", CALLS)), 2 * len(fk.KERNELS))
    print(f"\nTHNN_FUZZ_SEED={seed} THNN_FUZZ_CALLS={calls}")
    report = fk.run(seed, calls)
    print(report.summary())
    for desc in report.slow:
        print("  given up (slow, not a failure):", desc)
    assert not report.failures, f"seed {seed}:\n{_failures(report)}"
    # every header function made at least one valid and one mutated call
    assert [k for k in fk.KERNELS if not report.valid[k]] == []
    assert [k for k in fk.KERNELS if not report.mutated[k]] == []
    assert sum(report.valid.values()) + sum(report.mutated.values()) == calls
    # (the mix the mutations aim at: some calls pass, many are refused)
    assert report.outcomes["returned"] > calls // 10 and report.outcomes["THNNError"] > calls // 10


def test_the_kernel_list_is_the_header():
    import thnn
    assert fk.KERNELS == [f.name for f in thnn.FUNCTIONS] and len(set(fk.KERNELS)) == len(fk.KERNELS)


def test_a_call_repeats_from_seed_and_index():
    for i in (0, len(fk.KERNELS) + 5, 12345):
        a, b = fk.build(99, i), fk.build(99, i)
        assert a[:4] == b[:4]
        for x, y in zip(a[4], b[4]):
            assert type(x) is type(y)
            if hasattr(x, "shape"):
                assert x.shape == y.shape and x.strides == y.strides and x.dtype == y.dtype


def test_a_dying_worker_is_reported_and_the_run_goes_on(monkeypatch):
    # the harness itself: a worker killed by a signal in call 200 (made to
    # crash on purpose) is a failure naming that call, and the calls after it
    # are still made
    monkeypatch.setenv("THNN_FUZZ_CRASH_AT", "200")
    report = fk.run(3, 260, max_failures=3)
    # (signal 11; under ASan, which reports the SEGV itself, status 1)
    assert [i for i, _, _, _ in report.failures] == [200]
    assert report.failures[0][1] in ("worker died with signal 11", "worker died with status 1")
    assert report.failures[0][2].startswith(f"call 200 (seed 3): {fk.KERNELS[200 % len(fk.KERNELS)]} [")
    assert sum(report.valid.values()) + sum(report.mutated.values()) == 260
