"""Data-parallel training over MPI (mpi4py is needed only when used):
``nn_legacy.distributed.init``, ``shard``, ``broadcast_parameters``,
``average_gradients``, ``DistributedOptim``, ``save``... all defined in
``data_parallel.py``, re-exported here.  The demo that runs it is
``python -m nn_legacy --distributed`` (nn_legacy/demos/distributed.py).
See docs/contributing/architecture.md for where it sits.
"""
from . import data_parallel as _data_parallel
from .data_parallel import *  # noqa: F401,F403 (the names of data_parallel.__all__)
from .data_parallel import INSTALL_HINT  # noqa: F401

__all__ = list(_data_parallel.__all__)
