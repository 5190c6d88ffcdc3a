"""The two ways the sample tests run `python -m nn_legacy.sample`: as a
subprocess (exit status, stdout bytes, stderr text), and in this process
through main(argv) (the `run_cli` fixture, same triple; conftest.py
imports the fixture, which is how it reaches the tests)."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sample_subprocess(*args):
    run = subprocess.run([sys.executable, "-m", "nn_legacy.sample", *args], cwd=ROOT, capture_output=True,
                         timeout=120)
    return run.returncode, run.stdout, run.stderr.decode()


@pytest.fixture
def run_cli(capsysbinary):
    from nn_legacy.sample.__main__ import main

    def run(*args):
        try:
            rc = main(list(args))
        except SystemExit as e:      # argparse's exit for bad arguments
            rc = e.code
        out, err = capsysbinary.readouterr()
        return rc, out, err.decode()
    return run
