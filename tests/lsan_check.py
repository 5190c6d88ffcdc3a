"""pytest plugin for `make asan` (loaded there with -p lsan_check): one
LeakSanitizer check when the session ends, while the interpreter is still
alive.

Checking then, rather than at process exit, is what makes the result
clean: every Python object, with the arrays that own adopted storages, is
still reachable, so what LSan reports is memory nothing points to any more,
such as a storage a kernel allocated and lost.  At exit CPython drops
references without freeing and would be reported instead (hence
leak_check_at_exit=0 in the Makefile).
"""
import ctypes
import gc

import pytest


def pytest_sessionfinish(session, exitstatus):
    check = getattr(ctypes.CDLL(None), "__lsan_do_recoverable_leak_check", None)
    if check is None:
        raise pytest.UsageError("lsan_check: LeakSanitizer is not loaded (run through `make asan`)")
    gc.collect()
    if check() != 0:  # the report is on stderr
        print("\nlsan_check: LeakSanitizer found leaked memory (report above)")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    else:
        print("\nlsan_check: no leaks")
