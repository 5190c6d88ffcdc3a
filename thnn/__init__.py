"""thnn: Torch7-style THNN kernels in C, called on numpy arrays.

    import thnn
    out = thnn.Float.Sigmoid_updateOutput(x, None)       # float32 kernels
    out = thnn.backend(x.dtype).Sigmoid_updateOutput(x, out)

Every kernel of ``thnn_c/generic/THNN.h`` is an attribute of ``thnn.Float``
and ``thnn.Double`` (see ``thnn._binding`` for the calling convention).
"""
import operator
import os
import warnings


def _load_openblas():
    """Loads libscipy_openblas (the scipy-openblas32 package) before the
    extension, which needs it.  The extension's RPATH names it too
    ($ORIGIN/../scipy_openblas32/lib: both packages in one site-packages),
    but a library already loaded under its soname satisfies the extension
    wherever the two were installed (a wheel in a --user site, numpy and
    scipy-openblas32 in the system's).  The package is found, not imported:
    its __init__ reads its version through importlib.metadata, a tenth of a
    second of this import."""
    import ctypes
    import glob
    import importlib.util
    spec = importlib.util.find_spec("scipy_openblas32")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for path in sorted(glob.glob(os.path.join(folder, "lib", "libscipy_openblas*.so"))):
            try:
                return ctypes.CDLL(path)
            except OSError:     # left to the RPATH: the extension's import says what is missing
                pass
    return None


_OPENBLAS = _load_openblas()

from ._binding import FUNCTIONS, MAX_DIM, Backend, Double, Float, Kernel, THNNError, backend
from ._version import __version__
from ._thnn import lib as _lib

__all__ = ["Float", "Double", "backend", "THNNError", "FUNCTIONS", "MAX_DIM", "Backend", "Kernel",
           "set_num_threads", "get_num_threads", "cpu_limit", "allow_avx512", "__version__"]


def set_num_threads(n):
    """Set the threads of the library's one pool (its parallel loops and matrix
    products) and return the number set.  n must be a positive integer; more
    threads than the CPUs this process may run on (``os.sched_getaffinity``,
    else ``os.cpu_count()``) would only take turns on them, so such a count is
    clamped to that limit, with a RuntimeWarning that says so."""
    try:
        count = operator.index(n)
    except TypeError:
        raise TypeError(f"set_num_threads: need an integer number of threads, got {n!r}") from None
    if count < 1:
        raise ValueError(f"set_num_threads: need at least 1 thread, got {count}")
    limit = cpu_limit()
    if count > limit:
        warnings.warn(f"set_num_threads({count}): this process may run on {limit} CPU"
                      f"{'s' if limit > 1 else ''}; using {limit} threads", RuntimeWarning, stacklevel=2)
        count = limit
    _lib.THSetNumThreads(count)
    return count


def cpu_limit():
    """The CPUs this process may run on: the most threads set_num_threads gives."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):   # (no sched_getaffinity: macOS, Windows)
        return max(os.cpu_count() or 1, 1)


def get_num_threads():
    return _lib.THGetNumThreads()


def allow_avx512(allow):
    """Whether the hand-written AVX-512 loops (direct convolution, the
    exponentials of the softmax layers) may run; they do by default where the
    CPU has AVX-512.  ``False`` makes every kernel take its portable loops;
    the loops the compiler vectorizes still use the widest instructions the
    CPU has, so a sum may still differ from another CPU's in the last bits.
    Returns the setting before the call.  Change it between kernel calls, not during one."""
    return bool(_lib.THAllowAVX512(1 if allow else 0))
