"""Training that survives kill -9: the demos' --checkpoint / --resume.

A run is killed with SIGKILL at many points (after a step, in the middle
of writing a checkpoint, at random times from outside) and resumed each
time; the checkpoint on disk must always be the last whole one, and the
last run must end with the parameters of a run never interrupted, bit for
bit.  Damaged checkpoints, and checkpoints of another model or run, must
be refused with the reason before anything is overwritten."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import nn_legacy as nn
from nn_legacy.serialization import checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KILLER = os.path.join(HERE, "checkpoint_kill.py")
EVERY = 10
DIGITS = ["--epochs", "3", "--every", str(EVERY)]   # 45 steps an epoch: checkpoints at 10, 20, ..., 130, 135
LAST = 135
TIMEOUT = 120


def _env(kill=""):
    return dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", CHECKPOINT_KILL=kill,
                PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _command(path, demo="digits", options=DIGITS):
    resume = ["--resume", path] if os.path.exists(path) else []
    return [sys.executable, KILLER, demo, *options, "--checkpoint", path, *resume]


def _run(path, kill="", demo="digits", options=DIGITS):
    proc = subprocess.run(_command(path, demo, options), env=_env(kill), cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT)
    return proc.returncode, proc.stdout + proc.stderr


def _params(path):
    return checkpoint.read(path, "digits-mlp", _settings(path))["model"].flattenParameters()[0]


def _settings(path):
    return nn.load(path)["settings"]


def _step_on_disk(path):
    """The step of the whole checkpoint at path (None: there is none yet);
    a torn file fails the test here."""
    if not os.path.exists(path):
        return None
    saved = checkpoint.read(path, "digits-mlp", _settings(path))   # CRC-checked: never a torn file
    return saved["step"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The parameters of a run never killed, and how long it took (the
    outside kills are timed as fractions of it, so they land mid-run on a
    fast machine and a slow one alike)."""
    path = str(tmp_path_factory.mktemp("reference") / "ref.ck")
    start = time.perf_counter()
    code, output = _run(path)
    seconds = time.perf_counter() - start
    assert code == 0, output
    assert _step_on_disk(path) == LAST
    return _params(path), seconds


def _expected(kill, before):
    """The step of the checkpoint a kill leaves on disk."""
    what, at = kill.split(":")[0], int(kill.split(":")[1])
    if what == "step":
        return at // EVERY * EVERY or before
    return (at - EVERY) or before   # the write of step `at` never finished: the previous one stays


def _kill_and_resume(tmp_path, kills, uninterrupted, external=()):
    """Run the kills named in `kills` one after the other, then kill a run
    from outside at each fraction in `external` of the uninterrupted run's
    time, then finish and compare with the uninterrupted parameters."""
    uninterrupted, seconds = uninterrupted
    path = str(tmp_path / "run.ck")
    on_disk = None
    for kill in kills:
        code, output = _run(path, kill)
        assert code == -signal.SIGKILL, f"{kill}: exited {code}:\n{output}"
        on_disk = _step_on_disk(path)
        assert on_disk == _expected(kill, on_disk), f"after {kill}: the checkpoint on disk is of step {on_disk}"
        assert not kill.startswith("write") or os.path.exists(path + ".partial")
    for fraction in external:   # real kill -9 from outside, at a time nothing inside chose
        proc = subprocess.Popen(_command(path), env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(fraction * seconds)
        finished = proc.poll() is not None   # a machine much faster than the reference run's
        proc.send_signal(signal.SIGKILL)
        proc.wait(TIMEOUT)
        step = _step_on_disk(path)
        if finished:
            assert proc.returncode == 0 and step == LAST, f"exited {proc.returncode}, checkpoint of step {step}"
        else:
            assert step is None or step in (LAST, *range(EVERY, LAST, EVERY)), f"checkpoint of step {step}"
            assert on_disk is None or (step or 0) >= on_disk, f"the checkpoint went back from step {on_disk} to {step}"
        on_disk = step
    code, output = _run(path)
    assert code == 0, output
    assert _step_on_disk(path) == LAST
    final = _params(path)
    assert final.dtype == uninterrupted.dtype and np.array_equal(final, uninterrupted)
    assert final.tobytes() == uninterrupted.tobytes(), "the resumed run's parameters differ in their bits"
    return output


def test_killed_runs_resume_to_the_uninterrupted_parameters(tmp_path, uninterrupted):
    """The fast variant: a kill in the middle of a checkpoint, one between
    two, and one from outside."""
    output = _kill_and_resume(tmp_path, ["write:20:5000", "step:33"], uninterrupted, external=[0.5])
    assert "resumed after step" in output


@pytest.mark.slow
def test_killed_at_many_points_resumes_to_the_uninterrupted_parameters(tmp_path, uninterrupted):
    """24 kills: after steps (on and between checkpoints), while writing a
    checkpoint (no byte, some, all but the last, all but the rename), and
    from outside at random times."""
    kills = ["step:1", "write:10:0", "step:10", "write:20:1", "step:21", "write:30:4096", "step:30",
             "write:40:45000", "step:44", "step:45", "write:50:89999", "step:51", "write:60:1000000000",
             "step:66", "write:70:64", "step:79", "step:80", "write:90:500", "step:89"]
    delays = np.random.default_rng(29).uniform(0.2, 0.95, 5)
    _kill_and_resume(tmp_path, kills, uninterrupted, external=list(delays))


@pytest.fixture(scope="module")
def one_epoch(tmp_path_factory):
    """The checkpoint of one epoch of the digits demo (its exit status is 1:
    one epoch does not reach the accuracy it requires)."""
    from nn_legacy.__main__ import main
    path = str(tmp_path_factory.mktemp("one-epoch") / "good.ck")
    main(["--epochs", "1", "--every", "40", "--checkpoint", path])
    assert nn.load(path)["step"] == 45
    return path


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "empty", "another model", "another run",
                                    "not a checkpoint", "missing"])
def test_a_bad_checkpoint_is_refused_before_anything_is_overwritten(tmp_path, damage, one_epoch):
    from nn_legacy.__main__ import main
    path, good = str(tmp_path / "bad.ck"), one_epoch
    data = open(good, "rb").read()
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "flipped byte":
        data = data[:-100] + bytes([data[-100] ^ 1]) + data[-99:]
    elif damage == "empty":
        data = b""
    if damage == "another model":
        saved = nn.load(good)
        model = nn.Sequential().add(nn.Linear(64, 32)).add(nn.Tanh()).add(nn.Linear(32, 10))
        checkpoint.write(dict(saved, model=model), path)
    elif damage == "another run":
        checkpoint.write(dict(nn.load(good), kind="charlm"), path)
    elif damage == "not a checkpoint":
        nn.save(nn.Linear(2, 2), path)
    elif damage != "missing":
        with open(path, "wb") as f:
            f.write(data)
    before = open(path, "rb").read() if os.path.exists(path) else None
    reasons = {"truncated": "truncated or damaged", "flipped byte": "truncated or damaged",
               "empty": "truncated or damaged", "another model": "another model", "another run": "of 'charlm'",
               "not a checkpoint": "not a checkpoint", "missing": "no such file"}
    with pytest.raises(checkpoint.CheckpointError, match=reasons[damage]):
        checkpoint.read(path, "digits-mlp", nn.load(good)["settings"], nn.load(good)["model"])
    assert main(["--epochs", "1", "--checkpoint", path, "--resume", path]) == 2
    assert (open(path, "rb").read() if os.path.exists(path) else None) == before


def test_other_settings_are_refused_naming_the_option(one_epoch):
    from nn_legacy.__main__ import main
    path = one_epoch
    with pytest.raises(checkpoint.CheckpointError, match="activation 'tanh' in the checkpoint, 'relu' now"):
        checkpoint.read(path, "digits-mlp", dict(nn.load(path)["settings"], activation="relu"))
    assert main(["--epochs", "1", "--activation", "relu", "--resume", path]) == 2


def test_charlm_resumes_bit_for_bit(tmp_path):
    options = ["--rounds", "3", "--batches", "4", "--hidden", "16", "--embedding", "8", "--seq-length", "10",
               "--sample-length", "5"]
    whole, part = str(tmp_path / "whole.ck"), str(tmp_path / "part.ck")
    assert _run(whole, demo="charlm", options=options)[0] == 0
    code, output = _run(part, "step:2", demo="charlm", options=options)   # killed after round 2's checkpoint
    assert code == -signal.SIGKILL, output
    assert nn.load(part)["step"] == 2
    code, output = _run(part, demo="charlm", options=options)
    assert code == 0 and "resumed from" in output, output
    a, b = nn.load(whole), nn.load(part)
    assert a["step"] == b["step"] == 3 and a["losses"] == b["losses"]
    assert a["model"].flattenParameters()[0].tobytes() == b["model"].flattenParameters()[0].tobytes()


def _guide_loop():
    """The training loop docs/guides/checkpoints.md shows, as code."""
    import re
    with open(os.path.join(ROOT, "docs", "guides", "checkpoints.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert len(blocks) == 2     # what the loop assumes (given here by the test), then the loop
    return compile(blocks[1], "docs/guides/checkpoints.md", "exec")


@pytest.mark.source_tree   # (reads the checkout: tests/source_tree_guard.py)
def test_the_guide_pattern_resumes_bit_for_bit(tmp_path):
    """The guide's loop (a model with Dropout, so the library generator
    matters, and a numpy shuffle) stopped after 2 of 4 epochs and resumed
    ends with the parameters of 4 uninterrupted epochs."""
    loop = _guide_loop()
    criterion = nn.MSECriterion()
    data = np.random.default_rng(1)
    x, y = data.random((50, 4)), data.random((50, 2))

    def run(path, resume, epochs):
        space = {"x": x, "y": y, "epochs": epochs, "checkpoint_path": path, "resume_path": resume,
                 "build_model": lambda: nn.Sequential().add(nn.Linear(4, 8)).add(nn.Dropout(0.3)).add(nn.Tanh())
                 .add(nn.Linear(8, 2))}

        def make_feval(xb, yb):
            def feval(_):
                model = space["model"]
                output = model.forward(xb)
                loss = criterion.forward(output, yb)
                model.zeroGradParameters()
                model.backward(xb, criterion.backward(output, yb))
                return loss, space["grads"]
            return feval
        space["make_feval"] = make_feval
        exec(loop, space)
        return space["params"]

    whole = run(str(tmp_path / "whole.ck"), None, 4)
    part = str(tmp_path / "part.ck")
    stopped = run(part, None, 2)
    assert nn.load(part)["step"] == 4 and not np.array_equal(stopped, whole)
    resumed = run(part, part, 4)
    assert nn.load(part)["step"] == 8
    assert resumed.tobytes() == whole.tobytes()


# ---- two MPI ranks: mpiexec -n 2 python -m nn_legacy --distributed ----

def _mpi(args, kill="", cwd=None, timeout=TIMEOUT):
    """mpiexec over the demo: with cwd a (folder of rank 0, folder of rank 1)
    pair, each rank runs in its own folder (mpiexec's MPMD form)."""
    from test_distributed import MPIEXEC
    command = [sys.executable, KILLER, "digits", "--distributed", *args]
    if cwd is None:
        line = [MPIEXEC, "-n", "2", *command]
    else:
        line = [MPIEXEC, "-n", "1", "-wdir", cwd[0], *command, ":", "-n", "1", "-wdir", cwd[1], *command]
    proc = subprocess.run(line, env=_env(kill), cwd=ROOT, capture_output=True, text=True, timeout=timeout,
                          start_new_session=True)
    return proc.returncode, proc.stdout + proc.stderr


def _needs_mpi(test):
    from test_distributed import needs_mpi
    return needs_mpi(test)


@pytest.mark.slow
@_needs_mpi
def test_two_ranks_killed_resume_bit_for_bit(tmp_path):
    whole, part = str(tmp_path / "whole.ck"), str(tmp_path / "part.ck")
    code, output = _mpi([*DIGITS, "--checkpoint", whole])
    assert code == 0, output
    code, output = _mpi([*DIGITS, "--checkpoint", part], kill="write:40:20000")   # every rank killed
    assert code != 0 and nn.load(part)["step"] == 30, output
    code, output = _mpi([*DIGITS, "--checkpoint", part, "--resume", part], kill="step:77")
    assert code != 0 and nn.load(part)["step"] == 70, output
    code, output = _mpi([*DIGITS, "--checkpoint", part, "--resume", part])
    assert code == 0, output
    a, b = nn.load(whole), nn.load(part)
    assert a["step"] == b["step"] == LAST and len(a["rng"]) == len(b["rng"]) == 2
    assert a["model"].flattenParameters()[0].tobytes() == b["model"].flattenParameters()[0].tobytes()
    assert all(x.tobytes() == y.tobytes() for x, y in zip(a["rng"], b["rng"]))   # each rank's own generator


@_needs_mpi
@pytest.mark.parametrize("rank_1_has", ["no checkpoint", pytest.param("another checkpoint", marks=pytest.mark.slow)])
def test_a_rank_without_the_same_checkpoint_stops_every_rank(tmp_path, rank_1_has):
    folders = [tmp_path / "rank0", tmp_path / "rank1"]
    for folder in folders:
        folder.mkdir()
    options = ["--epochs", "1", "--every", "20"]
    code, output = _mpi([*options, "--checkpoint", "run.ck"], cwd=[str(folders[0]), str(folders[1])])
    assert (folders[0] / "run.ck").exists() and not (folders[1] / "run.ck").exists(), output   # rank 0 writes
    if rank_1_has == "another checkpoint":
        saved = nn.load(str(folders[0] / "run.ck"))
        saved["step"] -= 1
        checkpoint.write(saved, str(folders[1] / "run.ck"))
    code, output = _mpi([*options, "--checkpoint", "run.ck", "--resume", "run.ck"],
                        cwd=[str(folders[0]), str(folders[1])])
    assert code == 2, output
    reason = "rank 1: cannot resume from run.ck: there is no such file" if rank_1_has == "no checkpoint" \
        else "the ranks read different files at run.ck"
    assert reason in output and output.count("--resume:") == 1, output


def test_a_checkpoint_path_that_cannot_be_written_is_refused_before_training(tmp_path, capsys):
    from nn_legacy.__main__ import main
    assert main(["--epochs", "1", "--checkpoint", str(tmp_path / "no" / "such" / "run.ck")]) == 2
    assert main(["--epochs", "1", "--checkpoint", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "there is no folder" in err and "it is a folder" in err
