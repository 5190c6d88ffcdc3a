"""nn_legacy.distributed: data-parallel training over MPI.

The MPI tests launch `mpiexec -n N python tests/distributed_worker.py ...` as
a subprocess with a timeout (in its own session, so a hung job is killed
whole), then compare what each rank wrote.  They need the mpi extra
(`pip install -e ".[mpi]"`: mpi4py and the mpich wheel, whose mpiexec lands
next to the Python executable) and are skipped, saying so, without it.
`shard` and the message without mpi4py are tested in this process.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from nn_legacy import distributed as dist

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKER = os.path.join(HERE, "distributed_worker.py")
TIMEOUT = 120   # seconds for one mpiexec job; a healthy one takes 1-3 s


def _mpiexec():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None, 'mpi4py is not installed: pip install -e ".[mpi]" to run the MPI tests'
    path = shutil.which("mpiexec", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if path is None:
        return None, 'no mpiexec next to this Python or on PATH: pip install -e ".[mpi]" (the mpich wheel)'
    return path, None


MPIEXEC, WHY_NOT = _mpiexec()
needs_mpi = pytest.mark.skipif(MPIEXEC is None, reason=WHY_NOT or "")


def launch(cmd, timeout=TIMEOUT):
    """Run cmd in its own session; (returncode, stdout + stderr, seconds).  A
    job still running after timeout seconds is killed whole and fails the test."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            cwd=ROOT, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)   # mpiexec, its proxies and every rank
        output, _ = proc.communicate()
        pytest.fail(f"{' '.join(cmd)} did not finish in {timeout} s (a hang):\n{output}")
    return proc.returncode, output, time.monotonic() - start


def mpirun(n, scenario, out, *options):
    """A worker scenario on n ranks: (returncode, output, seconds)."""
    return launch([MPIEXEC, "-n", str(n), sys.executable, WORKER, scenario, str(out), *options])


def run_ok(n, scenario, out, *options):
    code, output, _ = mpirun(n, scenario, out, *options)
    assert code == 0, f"mpiexec -n {n} {scenario} {' '.join(options)} exited {code}:\n{output}"
    return output


# ---------------------------------------------------------------- without MPI
@pytest.mark.parametrize("n, size", [(0, 1), (1, 3), (10, 3), (11, 4), (7, 7), (5, 8), (1000, 6), (12, 1)])
def test_shard_is_disjoint_covering_and_balanced(n, size):
    parts = [dist.shard(n, r, size) for r in range(size)]
    assert parts[0].start == 0 and parts[-1].stop == n
    for a, b in zip(parts, parts[1:]):
        assert a.stop == b.start                       # consecutive: disjoint and no gap
    lengths = [p.stop - p.start for p in parts]
    assert sum(lengths) == n and max(lengths) - min(lengths) <= 1
    assert lengths == sorted(lengths, reverse=True)    # the remainder goes to the first ranks
    assert np.array_equal(np.concatenate([np.arange(n)[p] for p in parts]), np.arange(n))


@pytest.mark.parametrize("args, text", [((10, 3, 3), "rank must be in [0, 3)"), ((10, -1, 2), "rank"),
                                        ((-1, 0, 2), "n_samples"), ((10, 0, 0), "size"),
                                        ((2.5, 0, 1), "n_samples"), ((True, 0, 1), "n_samples")])
def test_shard_rejects_bad_arguments(args, text):
    with pytest.raises(ValueError, match=text.replace("[", r"\[").replace(")", r"\)")):
        dist.shard(*args)


def test_without_mpi4py_the_library_imports_and_says_what_to_install():
    code = ("import sys; sys.modules['mpi4py'] = None\n"      # makes `import mpi4py` fail
            "import nn_legacy, nn_legacy.distributed as d\n"
            "assert d.shard(5, 0, 2) == slice(0, 3)\n"
            "try:\n    d.init()\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "needs mpi4py" in out.stdout and 'pip install -e ".[mpi]"' in out.stdout


def test_main_job_distributed_without_mpi4py_says_what_to_install():
    code = ("import sys; sys.modules['mpi4py'] = None\n"
            "from nn_legacy.__main__ import main\n"
            "sys.exit(main(['--distributed']))\n")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert out.returncode == 2, out.stdout + out.stderr
    assert out.stderr.startswith("--distributed: nn_legacy.distributed needs mpi4py"), out.stderr
    assert 'pip install -e ".[mpi]"' in out.stderr


# ---------------------------------------------------------------- under mpiexec
def _load_ranks(out, prefix, n):
    return [np.load(os.path.join(out, f"{prefix}-{r}.npy")) for r in range(n)]


@needs_mpi
@pytest.mark.parametrize("n, dtype, method", [(2, "float64", "sgd"), (3, "float32", "sgd"), (3, "float64", "adam")])
def test_ranks_hold_bit_identical_parameters_after_20_steps(tmp_path, n, dtype, method):
    run_ok(n, "train", tmp_path, f"dtype={dtype}", f"method={method}", "steps=20")
    params = _load_ranks(tmp_path, "params", n)
    assert params[0].dtype == np.dtype(dtype)
    start = np.load(os.path.join(tmp_path, "params-0.npy"))
    for r in range(1, n):
        assert params[r].tobytes() == params[0].tobytes(), f"rank {r}'s parameters differ from rank 0's"
    assert all(float(s) == 0.0 for s in _load_ranks(tmp_path, "spread", n))
    losses = _load_ranks(tmp_path, "losses", n)
    assert all(np.array_equal(losses[0], other) for other in losses)   # the averaged loss too
    assert np.isfinite(start).all() and losses[0][-1] < losses[0][0]    # and it trained


@needs_mpi
@pytest.mark.parametrize("n, criterion, method", [(2, "crossentropy", "sgd"), (2, "mse", "adam"),
                                                  (3, "crossentropy", "sgd")])
def test_float64_ranks_match_one_process_on_the_combined_batch(tmp_path, n, criterion, method):
    """The global batch split over n ranks (uneven shards, weighted by their
    sizes) takes the steps that one process takes on the whole batch, from
    rank 0's initial weights."""
    import distributed_worker as worker
    run_ok(n, "train", tmp_path, "dtype=float64", f"criterion={criterion}", f"method={method}", "steps=20")
    reference, ref_losses = worker.reference_training(np.float64, criterion, method, steps=20, batch=worker.BATCH)
    for r, params in enumerate(_load_ranks(tmp_path, "params", n)):
        err = np.max(np.abs(params - reference))
        assert err <= 1e-12, f"rank {r}: parameters differ from single-process training by {err:.3g}"
    err = np.max(np.abs(np.load(os.path.join(tmp_path, "losses-0.npy")) - ref_losses))
    assert err <= 1e-12, f"the averaged losses differ from the single-process losses by {err:.3g}"
    # and the reference is not the initialisation: training moved the weights
    assert np.max(np.abs(reference - worker.build(np.float64).flattenParameters()[0])) > 1e-2


@needs_mpi
@pytest.mark.parametrize("n, rank", [(2, 1), (3, 2), (3, 0)])
def test_a_rank_that_raises_ends_every_rank_with_its_message(tmp_path, n, rank):
    code, output, seconds = mpirun(n, "train", tmp_path, f"fail_rank={rank}", "fail_step=7", "steps=20")
    assert code != 0, f"mpiexec exited 0 although rank {rank} raised:\n{output}"
    assert f"rank {rank} fails on purpose at step 7" in output, output
    assert f"nn_legacy.distributed: rank {rank} of {n} raised RuntimeError" in output, output
    assert not any(name.startswith("params") for name in os.listdir(tmp_path)), "a rank went on training"
    assert seconds < TIMEOUT


@needs_mpi
def test_models_that_differ_are_found_at_broadcast(tmp_path):
    code, output, _ = mpirun(2, "mismatch", tmp_path)
    assert code != 0, output
    assert "broadcast_parameters: the model differs between ranks" in output, output
    assert "parameter 0 is [17, 10] float64 on rank 1 but [16, 10] float64 on rank 0" in output, output
    assert not os.listdir(tmp_path), "a rank went past broadcast_parameters"


@needs_mpi
@pytest.mark.parametrize("n", [2, 3])
def test_broadcast_average_checksum_and_checkpoint(tmp_path, n):
    run_ok(n, "api", tmp_path)
    results = [dict(np.load(os.path.join(tmp_path, f"api-{r}.npz"))) for r in range(n)]
    k = np.arange(6)
    ranks = np.arange(1, n + 1)                               # rank r contributes (r + 1) * k
    for r, res in enumerate(results):
        # broadcast from root 1: rank 1's state and weights everywhere, the dict kept
        assert res["state_same_dict"] and res["state_counter"] == 1
        assert np.array_equal(res["state_dfdx"], np.full(5, 1.0))
        assert res["params_after_bcast"].tobytes() == results[1]["params_after_bcast"].tobytes()
        for dtype in ("float32", "float64"):
            assert res[f"avg_{dtype}"].dtype == np.dtype(dtype)
            np.testing.assert_allclose(res[f"avg_{dtype}"], k * ranks.mean(), rtol=1e-6)
            # weighted by samples = r + 1: sum (r+1)^2 k / sum (r+1)
            np.testing.assert_allclose(res[f"wavg_{dtype}"], k * (ranks ** 2).sum() / ranks.sum(), rtol=1e-6)
        assert np.all(res["model_grad"] == (n - 1) / 2)
        assert res["avg_value"] == (n - 1) / 2
        assert res["wavg_value"] == pytest.approx(sum(r * r for r in range(n)) / sum(range(n)), rel=1e-15)
        # checksums: equal, then rank 1 off by 1e-3 in one element
        assert res["spread_same"] == 0.0
        message = str(res["differ_message"])
        assert message.startswith("assert_identical: the parameters of ranks [1] differ from rank 0's"), message
        assert abs(res["spread_differ"] - 1e-3) < 1e-12
        # checkpoints: written by rank 0 alone, complete on every rank when save returns
        assert res["save_calls"] == (1 if r == 0 else 0)
        assert res["checkpoint_epoch"] == 3
        assert "distributed.save: rank 0 could not write" in str(res["bad_save_message"])
        assert "No such file or directory" in str(res["bad_save_message"])


@needs_mpi
def test_main_job_distributed(tmp_path):
    """`mpiexec -n 2 python -m nn_legacy --distributed` (3 epochs): it trains, reports each rank's
    throughput, and the ranks end with identical parameters."""
    code, text, _ = launch([MPIEXEC, "-n", "2", sys.executable, "-m", "nn_legacy", "--distributed",
                            "--epochs", "3"])
    assert code == 0, text
    assert "Data-parallel over MPI: 2 ranks" in text
    assert "global batch 32 (16 on rank 0 of 2)" in text
    assert "largest parameter difference between ranks: 0 (checksums agree)" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:1].isdigit() and "%" in line]
    assert [row[0] for row in rows] == ["0", "1"], text          # one throughput row per rank
    assert int(rows[0][1]) + int(rows[1][1]) == 3 * 1437         # the shards cover the epochs
    assert text.rstrip().endswith("OK")
