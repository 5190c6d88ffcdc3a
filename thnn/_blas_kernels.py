"""Which OpenBLAS kernels to load: thnn/__init__.py imports scipy_openblas32
inside ``chosen_for_this_cpu()``.

OpenBLAS picks its kernels once, when the library loads, from the CPU's
vendor, family and model.  Recent AMD CPUs it does not list (scipy-openblas32
0.3.34 on a Zen 5, family 0x1a) get its AVX2 kernels ("Haswell") although
they run AVX-512 at full width; on such a machine Linear's matrix products
took about 1.7x as long as with the AVX-512 kernels ("SkylakeX").  So on an
AMD CPU that has the AVX-512 subsets those kernels use, we ask for them with
OPENBLAS_CORETYPE, set only while the library loads and never over a value
the user set.  On Zen 4, which OpenBLAS does list, this is the same choice
for float and double products as its own.  Intel CPUs are left to OpenBLAS.
"""
import contextlib
import os

_AVX512_KERNEL_NEEDS = {"avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl"}


def _first_cpu():
    """vendor_id and flags of the first CPU in /proc/cpuinfo ({} elsewhere)."""
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                info[key.strip()] = value.strip()
    except OSError:
        pass
    return info


def preferred_coretype():
    """The OPENBLAS_CORETYPE to ask for, or None to let OpenBLAS choose."""
    cpu = _first_cpu()
    if cpu.get("vendor_id") == "AuthenticAMD" and _AVX512_KERNEL_NEEDS <= set(cpu.get("flags", "").split()):
        return "SkylakeX"
    return None


@contextlib.contextmanager
def chosen_for_this_cpu():
    """Set OPENBLAS_CORETYPE for the duration (if the user has not)."""
    coretype = None if "OPENBLAS_CORETYPE" in os.environ else preferred_coretype()
    if coretype:
        os.environ["OPENBLAS_CORETYPE"] = coretype
    try:
        yield coretype
    finally:
        if coretype:
            del os.environ["OPENBLAS_CORETYPE"]
