"""Hides optional packages from every Python process started with this
folder on PYTHONPATH, so that CI can run the tests as on a machine where
they were never installed (.ci/run's "without the optional packages" step).

THNN_HIDE_MODULES names them, comma-separated (torch,onnx,onnxruntime,
mpi4py).  A None entry in sys.modules makes `import torch` raise
ImportError ("import of torch halted") and importlib.util.find_spec return
None, exactly what an absent package does to the code that asks; its
submodules fail with it.  Subprocesses (the CLIs and mpiexec jobs the tests
start) inherit PYTHONPATH and the variable, so they see the same machine."""
import os
import sys

for _name in filter(None, os.environ.get("THNN_HIDE_MODULES", "").split(",")):
    sys.modules[_name.strip()] = None
