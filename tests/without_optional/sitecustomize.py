"""Hides optional packages from every Python process started with this
folder on PYTHONPATH, so that CI can run the tests as on a machine where
they were never installed (.ci/run's "without the optional packages" step).

THNN_HIDE_MODULES names them, comma-separated (torch,onnx,onnxruntime,
mpi4py).  The path finder on sys.meta_path is wrapped so that it does not
find them: `import torch` raises "No module named 'torch'",
importlib.util.find_spec returns None, importlib.metadata lists every
distribution but torch's, and "torch" never enters sys.modules, exactly as
where the package is absent.  (A None entry in
sys.modules would not do: libraries such as scipy's array-api-compat look
a module up in sys.modules to learn whether it is in use, and find None.)
Subprocesses (the CLIs and mpiexec jobs the tests start) inherit PYTHONPATH
and the variable, so they see the same machine."""
import importlib.machinery
import os
import sys

_HIDDEN = frozenset(filter(None, (n.strip() for n in os.environ.get("THNN_HIDE_MODULES", "").split(","))))


class _PathFinderWithout:
    """importlib.machinery.PathFinder, blind to the hidden top-level names."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] in _HIDDEN:
            return None
        return importlib.machinery.PathFinder.find_spec(name, path, target)

    @staticmethod
    def find_distributions(*args, **kwargs):
        """importlib.metadata asks the finders for installed distributions
        (setuptools' commands, entry points): all but the hidden ones."""
        for dist in importlib.machinery.PathFinder.find_distributions(*args, **kwargs):
            if (dist.metadata["Name"] or "").lower() not in _HIDDEN:
                yield dist

    @staticmethod
    def invalidate_caches():
        importlib.machinery.PathFinder.invalidate_caches()


if _HIDDEN:
    for _name in [n for n in sys.modules if n.partition(".")[0] in _HIDDEN]:
        del sys.modules[_name]
    sys.meta_path[:] = [_PathFinderWithout if f is importlib.machinery.PathFinder else f for f in sys.meta_path]
