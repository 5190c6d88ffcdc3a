"""nn_legacy._helpers.progress.ProgressBar: live on a terminal, one line elsewhere."""
import io

from nn_legacy._helpers.progress import ProgressBar


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_off_a_terminal_only_the_summary_line():
    out = io.StringIO()
    bar = ProgressBar(4, "epoch 1/2", out)
    for done in range(1, 5):
        bar.update(done, "loss 0.5")
    bar.finish("mean loss 0.25")
    assert out.getvalue().startswith("epoch 1/2 mean loss 0.25 (")
    assert out.getvalue().endswith(" s)\n") and out.getvalue().count("\n") == 1


def test_on_a_terminal_the_bar_is_redrawn_then_replaced():
    out = Terminal()
    bar = ProgressBar(4, "epoch 1", out, width=8, interval=0)
    bar.update(1, "loss 1.0")
    bar.update(4, "loss 0.5")
    bar.finish("done")
    text = out.getvalue()
    assert text.startswith("\repoch 1 [##......] 1/4 loss 1.0\repoch 1 [########] 4/4 loss 0.5\r\033[Kepoch 1 done (")
    assert text.endswith(" s)\n")


def test_redraws_are_throttled_but_the_last_one_is_drawn():
    out = Terminal()
    bar = ProgressBar(1000, "e", out, width=10, interval=3600)
    for done in range(1, 1001):
        bar.update(done)
    assert out.getvalue().count("\r") == 2          # the first and the last
    assert out.getvalue().endswith("1000/1000 ")


def test_a_stream_without_isatty_is_not_a_terminal():
    class Sink:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    sink = Sink()
    bar = ProgressBar(2, "x", sink)
    bar.update(1)
    bar.finish("ok")
    assert sink.text.startswith("x ok (")
