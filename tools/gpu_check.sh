#!/usr/bin/env bash
# tools/gpu_check.sh: issue 19's device run, in one command on a machine with
# an NVIDIA GPU (an H100 or H200 lent to a session), from the repository root
# of a clean copy of the tree:
#
#     bash tools/gpu_check.sh          # results under $OUT (default ./gpu_check_out)
#
# That machine has nvcc, compute-sanitizer, python3 with torch (CUDA), numpy,
# pytest, pytest-xdist, cupy and nvidia-cublas, no network, and no cffi,
# pycparser or scipy-openblas32: those travel as wheels in .whl/, which
# tools/gpu_wheels.sh downloads on a machine with PyPI (the device call
# carries ".whl").  What it does, each step timed and bounded so that the
# whole run ends within GPU_CHECK_SECONDS (default 400):
#
#  1. installs the carried wheels into /tmp/site (PYTHONPATH);
#  2. builds the CPU extensions and the GPU library thnn._thcunn in place,
#     without the emulator (THNN_EMULATOR=0), extensions side by side
#     (build_ext -j) and nvcc's targets side by side (--threads 0);
#  3. runs every GPU variant of the tests (pytest -m gpu: tests/cuda_devices.py;
#     the twins against the CPU kernels, the device math, every module of the
#     module table, LeNet training, the recurrent modules, DLPack with torch and
#     CuPy, and the kernel fuzzer on the GPU with a bounded budget) with
#     pytest-xdist, and meanwhile compute-sanitizer's memcheck and racecheck
#     over a representative subset (below);
#  4. runs the GPU benchmark (benchmarks/bench_gpu.py --profile) alone on the GPU;
#  5. writes $OUT/summary.md: the device, a table of the steps, the failures,
#     the sanitizer verdicts and the benchmark table.
#
# Files under $OUT (at most 8 come back from a device call): summary.md,
# gpu_check.log (all of this script's output), build.log, tests.log,
# memcheck.log, racecheck.log, bench.log.  Every log is written as it goes
# (tee), so a run stopped by a time limit still brings back what it did.
# Exit status: 0 when every step passed, else 1 (the summary says which).
#
# Knobs (environment): GPU_CHECK_SECONDS (400), GPU_CHECK_BENCH_SECONDS (100:
# the time kept for the benchmark), GPU_CHECK_FUZZ_CALLS (20000 calls of the
# twins) and GPU_CHECK_MATH_CALLS (4000 calls of the device math) for the
# fuzzer, GPU_CHECK_JOBS (xdist workers: the cores less two, for the
# sanitizers), GPU_CHECK_SKIP="bench racecheck" (steps to leave out),
# GPU_CHECK_COMMIT (the commit tested, for the summary: the device's copy of
# the tree has no .git).
#
# GPU_CHECK_DRY_RUN=1, on a machine without a GPU: the same steps on the
# emulator (a normal build without nvcc, pytest -m emulator, the sanitizers'
# test subsets without the sanitizer, bench_gpu.py --emulator --quick), to
# check this script itself before device time is spent on it.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-$PWD/gpu_check_out}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
TOTAL=${GPU_CHECK_SECONDS:-400}
BENCH_SECONDS=${GPU_CHECK_BENCH_SECONDS:-100}
FUZZ_CALLS=${GPU_CHECK_FUZZ_CALLS:-20000}
MATH_CALLS=${GPU_CHECK_MATH_CALLS:-4000}
CORES=$(nproc)
JOBS=${GPU_CHECK_JOBS:-$(( CORES > 4 ? CORES - 2 : 2 ))}
SKIP=" ${GPU_CHECK_SKIP:-} "
DRY=${GPU_CHECK_DRY_RUN:-0}
if [ "$DRY" = 1 ]; then
    MARK=emulator; BUILD_ENV=(THNN_CUDA=0); DEVICE_CALL='c.emulator()'; BENCH_ARGS=(--emulator --quick)
else
    MARK=gpu; BUILD_ENV=(THNN_EMULATOR=0); DEVICE_CALL='c.gpu()'; BENCH_ARGS=(--profile)
fi
export PYTHONUNBUFFERED=1
exec > >(tee -a "$OUT/gpu_check.log") 2>&1

# The sanitizers' subsets (float32; each twin once, the self-tests of barriers,
# shared memory, block reductions and the error slot; LeNet trained on the
# device; the recurrent cells; the device math's gathers, scatters, scans and
# long reductions).  racecheck (shared-memory hazards, slower) gets the
# self-tests and the layers whose kernels share memory across threads
# (__shared__ or THCBlockReduce: grep thcunn_cu).
MEMCHECK_TESTS=(tests/test_cuda_emulation.py tests/test_cuda_twins.py::test_twin_matches_cpu
                tests/test_cuda_modules.py::test_lenet_trains_on_device_as_on_host tests/test_rnn_cuda.py
                tests/test_cuda_math.py::test_take_put_along_axis_and_add_at
                tests/test_cuda_math.py::test_mask_indexing_and_bad_indices
                tests/test_cuda_math.py::test_an_index_that_is_also_the_result_never_writes_out_of_bounds
                tests/test_cuda_math.py::test_long_reductions_use_many_threads tests/test_cuda_math.py::test_sorting
                tests/test_cuda_math.py::test_nonzero_argwhere)
MEMCHECK_K="not float64"
RACECHECK_TESTS=(tests/test_cuda_emulation.py tests/test_cuda_twins.py::test_twin_matches_cpu
                 tests/test_cuda_math.py::test_long_reductions_use_many_threads tests/test_cuda_math.py::test_sorting
                 tests/test_cuda_math.py::test_nonzero_argwhere)
RACECHECK_K="not float64 and (emulation or reductions or sorting or nonzero or SoftMax or BatchNormalization \
or Criterion or LookupTable or PReLU or IndexLinear or SparseLinear or ConvolutionMap or DepthWise or SubSampling \
or ConvolutionMM)"

ROWS=()          # "step|result|seconds" rows of the summary
FAILED=0
T0=$SECONDS

row() { ROWS+=("$1|$2|$3"); [ "${4:-ok}" = ok ] || FAILED=1; write_summary; }
left() { echo $(( TOTAL - (SECONDS - T0) )); }
note() { printf '\n==== %s (%ds) ====\n' "$1" "$(( SECONDS - T0 ))"; }

write_summary() {
    {
        echo "# GPU check (tools/gpu_check.sh), $(date -u '+%Y-%m-%d %H:%M UTC')$([ "$DRY" = 1 ] && echo ': DRY RUN on the emulator, no GPU')"
        echo
        echo "- device: ${DEVICE_LINE:-unknown}"
        echo "- software: ${SOFTWARE_LINE:-unknown}"
        echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo "${GPU_CHECK_COMMIT:-unknown (no .git here; set GPU_CHECK_COMMIT)}")"
        echo
        echo "| step | result | seconds |"
        echo "|---|---|---|"
        local r
        for r in "${ROWS[@]}"; do
            IFS='|' read -r a b c <<<"$r"
            echo "| $a | $b | $c |"
        done
        if [ -s "$OUT/tests.log" ] && grep -qE '^(FAILED|ERROR) ' "$OUT/tests.log"; then
            echo
            echo "## Failing tests (first 40; tests.log has the tracebacks)"
            echo '```'
            grep -E '^(FAILED|ERROR) ' "$OUT/tests.log" | head -40
            echo '```'
        fi
        local tool
        for tool in memcheck racecheck; do
            if [ -s "$OUT/$tool.log" ] && grep -q '^========= ' "$OUT/$tool.log"; then
                echo
                echo "## $tool: the sanitizer's first reports"
                echo '```'
                grep '^========= ' "$OUT/$tool.log" | head -30
                echo '```'
            fi
        done
        if [ -s "$OUT/bench.log" ]; then
            echo
            echo "## Benchmark (benchmarks/bench_gpu.py)"
            echo '```'
            cat "$OUT/bench.log"
            echo '```'
        fi
    } > "$OUT/summary.md.tmp" && mv "$OUT/summary.md.tmp" "$OUT/summary.md"
}

# ---- 0. the machine ----
note "the machine"
DEVICE_LINE=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)
DEVICE_LINE=${DEVICE_LINE:-"nvidia-smi found no GPU"}
SOFTWARE_LINE="$($PYTHON --version 2>&1); nvcc $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found'); $($PYTHON -c 'import torch, numpy; print(f"torch {torch.__version__} (CUDA available: {torch.cuda.is_available()}), numpy {numpy.__version__}")' 2>/dev/null || echo 'no torch'); compute-sanitizer $(compute-sanitizer --version 2>/dev/null | grep -io 'version [0-9.]*' | head -1 || echo 'not found'); $CORES cores"
echo "device: $DEVICE_LINE"
echo "software: $SOFTWARE_LINE"
write_summary

# ---- 1. the carried wheels ----
note "wheels"
t=$SECONDS
if $PYTHON -c 'import cffi, pycparser, scipy_openblas32' 2>/dev/null; then
    row "wheels" "not needed: cffi, pycparser and scipy-openblas32 are installed" $(( SECONDS - t ))
elif ls .whl/*.whl >/dev/null 2>&1; then
    if $PYTHON -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site \
            .whl/*.whl; then
        export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
        row "wheels" "installed: $(cd .whl && ls *.whl | sed 's/-py3-none.*\|-cp3.*//' | tr '\n' ' ')" $(( SECONDS - t ))
    else
        row "wheels" "FAILED: pip install of .whl/*.whl" $(( SECONDS - t )) fail
    fi
else
    row "wheels" "FAILED: no .whl/ (run tools/gpu_wheels.sh on a machine with PyPI; carry .whl)" 0 fail
fi

# ---- 2. the build ----
note "build (${BUILD_ENV[*]}, build_ext -j $CORES)"
t=$SECONDS
built=0
{
    echo "toolchain: $($PYTHON -c 'import sys; sys.path.insert(0, "thnn"); import _build_cuda as b; print(b.nvcc_toolchain())' 2>&1)"
    env "${BUILD_ENV[@]}" timeout --kill-after=10 300 $PYTHON setup.py -q build_ext --inplace -j "$CORES" 2>&1
    echo "build status: $?"
    $PYTHON -c "import thnn.cuda as c; print('device:', $DEVICE_CALL); print('emulator:', c.emulator_unavailable_reason())" 2>&1
} | tee "$OUT/build.log"
what="build: CPU extensions and $([ "$DRY" = 1 ] && echo 'the emulator' || echo 'thnn._thcunn (no emulator)')"
if grep -q '^device: <thnn CUDA device' "$OUT/build.log"; then
    built=1
    row "$what" "ok" $(( SECONDS - t ))
else
    row "$what" "FAILED: $(grep -v '^ *$' "$OUT/build.log" | tail -1 | tr '|' '/') (build.log)" $(( SECONDS - t )) fail
fi

# ---- 3. the GPU tests, and the sanitizers beside them ----
if [ $built = 1 ]; then
    budget=$(( $(left) - BENCH_SECONDS - 15 ))
    [ $budget -lt 60 ] && budget=60
    note "tests (-m $MARK, $JOBS workers) and sanitizers, at most ${budget}s"
    t=$SECONDS
    xdist=(-n "$JOBS")
    $PYTHON -c 'import xdist' 2>/dev/null || xdist=()
    # the fuzzer's budget on the GPU (tests/test_fuzz_kernels.py)
    THNN_FUZZ_DEVICE_CALLS=$FUZZ_CALLS THNN_FUZZ_MATH_CALLS=$MATH_CALLS \
        timeout --kill-after=10 "$budget" $PYTHON -m pytest -m $MARK "${xdist[@]}" -p no:cacheprovider -q -rfEs \
        --durations=15 tests > "$OUT/tests.log" 2>&1 &
    tests_pid=$!
    sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
    pids=()
    for tool in memcheck racecheck; do
        case "$SKIP" in *" $tool "*) continue ;; esac
        if [ "$DRY" = 1 ]; then
            sanitize=()
        elif [ -n "$sanitizer" ]; then
            sanitize=("$sanitizer" --tool $tool --error-exitcode 99 --print-limit 100)
        else
            echo "compute-sanitizer not found" > "$OUT/$tool.log"
            row "$tool" "NOT RUN: compute-sanitizer not found" 0 fail
            continue
        fi
        if [ $tool = memcheck ]; then
            sel=("${MEMCHECK_TESTS[@]}"); k=$MEMCHECK_K
        else
            sel=("${RACECHECK_TESTS[@]}"); k=$RACECHECK_K
        fi
        # -v: one line a test, so a run cut by the time limit still says how far it got
        timeout --kill-after=10 "$budget" "${sanitize[@]}" \
            $PYTHON -m pytest -m $MARK -k "$k" -p no:xdist -p no:cacheprovider -v "${sel[@]}" \
            > "$OUT/$tool.log" 2>&1 &
        pids+=("$tool:$!")
    done
    wait $tests_pid
    rc=$?
    line=$(grep -E '(passed|failed|error).* in [0-9.]+s' "$OUT/tests.log" | tail -1 | sed 's/=//g; s/^ *//; s/ *$//')
    if [ $rc = 0 ]; then
        row "tests: pytest -m $MARK (fuzzer: $FUZZ_CALLS twin calls, $MATH_CALLS math calls)" "$line" $(( SECONDS - t ))
    elif [ $rc = 124 ] || [ $rc = 137 ]; then
        row "tests: pytest -m $MARK" "STOPPED at the ${budget}s limit, at $(grep -oE '\[ *[0-9]+%\]' "$OUT/tests.log" | tail -1 | tr -d '[] ') of the tests" $(( SECONDS - t )) fail
    else
        row "tests: pytest -m $MARK" "FAILED (status $rc): ${line:-see tests.log}" $(( SECONDS - t )) fail
    fi
    for entry in "${pids[@]}"; do
        tool=${entry%%:*}
        wait "${entry#*:}"
        rc=$?
        n=$(grep -cE ' (PASSED|FAILED|SKIPPED|ERROR)' "$OUT/$tool.log" || true)
        verdict=$(grep -E '^========= ERROR SUMMARY' "$OUT/$tool.log" | tail -1 | sed 's/^========= //')
        if [ $rc = 0 ]; then
            row "$tool (a subset, float32)" "${verdict:-ok}; $n tests" $(( SECONDS - t ))
        elif [ $rc = 124 ] || [ $rc = 137 ]; then
            row "$tool" "STOPPED at the ${budget}s limit after $n tests; $(grep -c '^========= .*\(Invalid\|Race\|Hazard\|rror\)' "$OUT/$tool.log" || true) reports so far" $(( SECONDS - t )) fail
        else
            row "$tool" "FAILED (status $rc): ${verdict:-see $tool.log}; $n tests" $(( SECONDS - t )) fail
        fi
    done
fi

# ---- 4. the benchmark, alone on the GPU ----
case "$SKIP" in *" bench "*) built=0 ;; esac
if [ $built = 1 ]; then
    limit=$(( $(left) - 10 ))
    [ $limit -lt 30 ] && limit=30
    note "benchmark, at most ${limit}s"
    t=$SECONDS
    timeout --kill-after=10 "$limit" $PYTHON benchmarks/bench_gpu.py "${BENCH_ARGS[@]}" 2>&1 | tee "$OUT/bench.log"
    rc=$?
    missed=$(grep -o '[0-9]* targets missed' "$OUT/bench.log" | tail -1)
    if [ $rc = 0 ]; then
        row "benchmark: benchmarks/bench_gpu.py ${BENCH_ARGS[*]}" "${missed:-done}" $(( SECONDS - t ))
    else
        row "benchmark" "FAILED or stopped (status $rc)" $(( SECONDS - t )) fail
    fi
fi

note "done"
write_summary
cat "$OUT/summary.md"
exit $FAILED
