"""`python tests/checkpoint_kill.py DEMO ARGS...`: run a demo (digits:
python -m nn_legacy; charlm: the char-LM demo) and SIGKILL it at the point
the environment names, for tests/test_checkpoint.py:

    CHECKPOINT_KILL=step:K        right after step K (after its checkpoint, if one is due)
    CHECKPOINT_KILL=write:K:N     while writing step K's checkpoint, after N bytes of it
                                  reached the disk (N larger than the file: before the rename)
"""
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from nn_legacy.serialization import checkpoint  # noqa: E402


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def install(kill):
    what, _, rest = kill.partition(":")
    after_step, write_all, current = checkpoint.Saver.after_step, checkpoint._write_all, {"step": None}
    if what == "step":
        def killing_step(self, step, payload, last=False):
            after_step(self, step, payload, last)
            if step == int(rest):
                die()
        checkpoint.Saver.after_step = killing_step
    elif what == "write":
        at, n = (int(v) for v in rest.split(":"))

        def noting_step(self, step, payload, last=False):
            current["step"] = step
            after_step(self, step, payload, last)

        def killing_write(fd, data):
            if current["step"] != at:
                return write_all(fd, data)
            write_all(fd, bytes(data[:n]))
            os.fsync(fd)
            die()
        checkpoint.Saver.after_step, checkpoint._write_all = noting_step, killing_write
    elif kill:
        raise SystemExit(f"CHECKPOINT_KILL={kill!r}: expected step:K or write:K:N")


if __name__ == "__main__":
    install(os.environ.get("CHECKPOINT_KILL", ""))
    if sys.argv[1] == "digits":
        from nn_legacy.__main__ import main
    else:
        from nn_legacy.demos.charlm import main
    sys.exit(main(sys.argv[2:]))
