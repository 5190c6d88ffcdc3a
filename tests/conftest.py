"""pytest setup shared by every test file.

The checkout's own packages come first on sys.path, so `pytest` run from the
repository root tests this tree's `thnn` and `nn_legacy` (build the extension
in place first: `python setup.py build_ext --inplace`), not an installed copy.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if sys.path[0] != ROOT:
    sys.path.insert(0, ROOT)

import nn_legacy  # noqa: E402  (after the path fix on purpose)
from cuda_devices import DEVICES, device_named  # noqa: E402
from sample_cli import run_cli  # noqa: E402, F401  (a fixture of the sample CLI's tests)
from skip_guard import SkipGuard  # noqa: E402
from source_tree_guard import _source_tree_guard, ignore_collect, install as _install_source_tree_guard  # noqa: E402, F401, I001

_install_source_tree_guard()   # tests that read the checkout outside tests/ are marked source_tree


def pytest_ignore_collect(collection_path, config):
    """Without the checkout (the wheel check), -m "not source_tree" skips collecting the files that read it."""
    return ignore_collect(collection_path, config)


def pytest_configure(config):
    """The skip guard (tests/skip_guard.py), enforced when CI is set."""
    config.pluginmanager.register(SkipGuard(enforce=bool(os.environ.get("CI"))), "thnn-skip-guard")


@pytest.fixture(autouse=True)
def _seeded_modules():
    """Every test starts from the same module generator, so a layer's
    initial weights (and so every failure) repeat from run to run."""
    nn_legacy.manualSeed(1234)
    yield


@pytest.fixture
def registry():
    """Tests that register classes (nn_legacy.register_class) leave the
    registry as they found it."""
    from nn_legacy.serialization.registry import _REGISTERED
    saved = dict(_REGISTERED)
    yield
    _REGISTERED.clear()
    _REGISTERED.update(saved)


@pytest.fixture(params=DEVICES)
def dev(request):
    """The device of a CUDA test: the emulator, and the GPU where there is one
    (tests/cuda_devices.py)."""
    return device_named(request.param)
