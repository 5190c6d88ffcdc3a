"""The text progress bar of the demo and of StochasticGradient."""
import sys
import time


class ProgressBar:
    """A one-line bar redrawn in place on a terminal; elsewhere (a pipe, a CI
    log) it stays silent until finish(), so each epoch is one plain line.

    On a terminal it redraws at most every ``interval`` seconds (and on the
    last step), so updating it once per example costs little.
    """

    def __init__(self, total, label, stream=None, width=30, interval=0.05):
        self.total, self.label, self.width, self.interval = total, label, width, interval
        self.stream = sys.stdout if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.live = bool(isatty()) if callable(isatty) else False
        self.start = time.perf_counter()
        self._drawn = None

    def update(self, done, note=""):
        if not self.live:
            return
        now = time.perf_counter()
        if done < self.total and self._drawn is not None and now - self._drawn < self.interval:
            return
        self._drawn = now
        filled = int(self.width * done / self.total) if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {note}")
        self.stream.flush()

    def finish(self, summary):
        elapsed = time.perf_counter() - self.start
        line = f"{self.label} {summary} ({elapsed:.2f} s)"
        if self.live:
            self.stream.write("\r\033[K" + line + "\n")  # clear the bar, then the summary
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
