"""The skip guard: in CI, a test may skip only for

- hardware the machine lacks: a GPU (or the nvcc build of the GPU library), AVX-512;
- the CUDA emulator in a build that left it out on purpose (THNN_EMULATOR=0:
  the GPU machine's build of tools/gpu_check.sh; CI always builds it);
- an optional dependency the README documents: torch (the reference
  comparisons), onnx and onnxruntime, mpi4py;
- the real Torch7 files of shared/t7data, which live beside the checkout.

Any other skip (hypothesis missing from the [test] extra, a check that skips
itself by mistake) fails the CI run and is listed at its end: a test that
never runs cannot fail.  conftest.py wires it in; CI is told by the CI
environment variable, which .ci/run sets."""
import re

ACCEPTED = re.compile("|".join([
    r"thnn was built without the nvcc library", r"no CUDA device is present",      # thnn.cuda.gpu_unavailable_reason
    r"thnn was built without the CUDA emulator",                                   # ...emulator_unavailable_reason
    r"this CPU has no AVX-512",
    r"could not import '(torch|onnx|onnxruntime|mpi4py)\b",                      # pytest.importorskip
    r"mpi4py is not installed|no mpiexec next to this Python",                    # tests/test_distributed.py
    r"shared/t7data is not beside the checkout",
]))


def reason_of(report):
    """The skip message of a skipped test's report."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def accepted(reason):
    return ACCEPTED.search(reason) is not None


class SkipGuard:
    """Collects the skips CI does not accept (a pytest plugin object)."""

    def __init__(self, enforce):
        self.enforce = enforce
        self.unaccepted = []

    def pytest_runtest_logreport(self, report):
        if report.skipped and not hasattr(report, "wasxfail"):
            reason = reason_of(report)
            if not accepted(reason):
                self.unaccepted.append((report.nodeid, reason))

    def pytest_sessionfinish(self, session, exitstatus):
        if self.enforce and self.unaccepted and exitstatus == 0:
            session.exitstatus = 1

    def pytest_terminal_summary(self, terminalreporter):
        if not self.unaccepted:
            return
        verdict = "fail the run in CI" if self.enforce else "would fail a CI run"
        terminalreporter.section(f"{len(self.unaccepted)} skips {verdict} (see tests/skip_guard.py)")
        for nodeid, reason in self.unaccepted[:50]:
            terminalreporter.line(f"{nodeid}: {reason}")
        if len(self.unaccepted) > 50:
            terminalreporter.line(f"... and {len(self.unaccepted) - 50} more")
