#!/usr/bin/env bash
# tools/gpu_wheels.sh: download, HERE (a machine with PyPI), the wheels that
# tools/gpu_check.sh installs on a lent GPU machine, which has no network and
# lacks them: cffi, pycparser (cffi's parser) and scipy-openblas32 (the BLAS
# the CPU kernels link), for CPython 3.12 on x86-64 Linux, into .whl/ at the
# repository root.  (Everything else the check needs is on that machine:
# numpy, setuptools, pytest, pytest-xdist, hypothesis, scikit-learn, torch,
# cupy, nvidia-cublas, nvcc, compute-sanitizer.)
#
#     bash tools/gpu_wheels.sh            # then a device run with carry [".whl"]
#
# The wheels are never committed: .whl/ is added to .git/info/exclude here
# (that file is local to this clone).  The versions are those the
# project is tested with; override one with e.g. CFFI_VERSION=2.0.0.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON=${PYTHON:-python3}
CFFI_VERSION=${CFFI_VERSION:-2.1.1}
PYCPARSER_VERSION=${PYCPARSER_VERSION:-3.12}
OPENBLAS_VERSION=${OPENBLAS_VERSION:-0.3.34.481.3}

exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.whl/' "$exclude" 2>/dev/null || echo '/.whl/' >> "$exclude"

rm -rf .whl
mkdir -p .whl
# pip matches each manylinux tag exactly: name every glibc level a wheel may carry
"$PYTHON" -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux1_x86_64 \
    -d .whl "cffi==$CFFI_VERSION" "pycparser==$PYCPARSER_VERSION" "scipy-openblas32==$OPENBLAS_VERSION"
ls -l .whl
echo "$(du -sh .whl | cut -f1) in .whl/ (the device's working tree may carry 64 MiB in all)"
