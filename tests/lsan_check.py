"""pytest plugin for `make asan` (loaded there with -p lsan_check): one
LeakSanitizer check when the session ends, while the interpreter is still
alive.

Checking then, rather than at process exit, is what makes the result
clean: every Python object, with the arrays that own adopted storages, is
still reachable, so what LSan reports is memory nothing points to any more,
such as a storage a kernel allocated and lost.  At exit CPython drops
references without freeing and would be reported instead (hence
leak_check_at_exit=0 in the Makefile).

Under pytest-xdist (make asan runs ASAN_JOBS workers) each worker checks
its own process and the controller fails the run if any of them leaked.
"""
import ctypes
import gc

import pytest

_worker_leaks = []


def _check():
    """True when LeakSanitizer found leaked memory (its report is on stderr)."""
    check = getattr(ctypes.CDLL(None), "__lsan_do_recoverable_leak_check", None)
    if check is None:
        raise pytest.UsageError("lsan_check: LeakSanitizer is not loaded (run through `make asan`)")
    gc.collect()
    return check() != 0


def pytest_sessionfinish(session, exitstatus):
    leaked = _check()
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller decides
        workeroutput["lsan_leaked"] = leaked
        return
    leaked = leaked or any(_worker_leaks)
    if leaked:
        print("\nlsan_check: LeakSanitizer found leaked memory (report above)")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        print(f"\nlsan_check: no leaks ({len(_worker_leaks) + 1} processes checked)")


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: a worker finished; keep what its own check found (a
    worker that crashed sent nothing, and xdist fails the run for it)."""
    _worker_leaks.append(bool(getattr(node, "workeroutput", {}).get("lsan_leaked", False)))
