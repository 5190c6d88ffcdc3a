# Memory checking of the C kernels under AddressSanitizer, LeakSanitizer and
# UBSan:
#
#     make asan
#
# copies the sources to build/asan (the normal in-place build is left alone),
# builds the extension there with
#     THNN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g"
#     THNN_LDFLAGS=-fsanitize=address,undefined
# (both read by thnn/_build.py), and runs the test suite there with
#     LD_PRELOAD=$(gcc -print-file-name=libasan.so) PYTHONMALLOC=malloc
#     ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
#     LSAN_OPTIONS=leak_check_at_exit=0:suppressions=tests/lsan_cpython.supp
#     UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
#     python -m pytest -p lsan_check ...
# Any out-of-bounds access, use after free, double free, undefined behaviour
# (a misaligned load, an overflow), or memory a kernel allocated and nothing
# freed, stops the run with a report and a non-zero exit.
#
# - Left out: tests/test_memory.py (ASan's quarantine keeps freed memory on
#   purpose, so its RSS checks mean nothing here; it runs in the normal suite),
#   tests/test_onnx.py (onnxruntime throws C++ exceptions, and ASan preloaded
#   into an uninstrumented onnxruntime aborts on them in its __cxa_throw
#   interceptor; the export code is Python, run in the normal suite) and
#   tests marked slow.  Choose others with ASAN_TESTS=...
# - Leaks: tests/lsan_check.py runs one LeakSanitizer check when the test
#   session ends, while every live Python object still references its memory
#   (PYTHONMALLOC=malloc puts them all on the heap LSan scans); a storage a
#   kernel allocated and lost is reported then.  Not at exit, where CPython
#   drops references without freeing.  tests/lsan_cpython.supp hides Python
#   objects that a C extension lost (see there why it hides nothing of ours).
#   ASAN_LEAKS=0 turns the check off.
# - The kernel fuzzer runs with ASAN_FUZZ_CALLS calls (default 8000, about
#   two minutes), on the CPU kernels, again on their CUDA twins on the
#   emulator, and on the device tensor math: its worker processes inherit
#   the sanitizers, and a report from one fails the test naming the call.
# - allocator_may_return_null=1: a failed huge allocation must come back as
#   NULL (the kernels turn it into an "out of memory" error, which a test
#   checks) instead of ASan aborting.
# - The interpreter is run by its real path (sys.executable), not through a
#   wrapper script such as a pyenv shim, which would run under ASan too.
#
# `make test` runs the normal suite on the in-place build.
#
# `make cuda-check` compiles every .cu file of thcunn_cu/ with nvcc (sm_80,
# sm_90 and PTX, warnings as errors) and links the GPU library thnn._thcunn,
# as CI does.  It needs nvcc and cuBLAS; it installs cuBLAS from the
# `nvidia-cublas` wheel into the current Python when the toolkit has none.

PYTHON ?= python
PYTHON_BIN := $(shell $(PYTHON) -c 'import sys; print(sys.executable)')
ASAN_DIR ?= build/asan
ASAN_TESTS ?= tests --ignore=tests/test_memory.py --ignore=tests/test_onnx.py -m "not slow"
ASAN_LEAKS ?= 1
# pytest-xdist workers (the test extra): two halve the step on CI's two cores; 0 runs in one process
ASAN_JOBS ?= 2
# calls the kernel fuzzer (tests/test_fuzz_kernels.py) makes under the sanitizers
ASAN_FUZZ_CALLS ?= 8000
ASAN_CFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -g
ASAN_LDFLAGS = -fsanitize=address,undefined
ASAN_RUNTIME = LD_PRELOAD="$$(gcc -print-file-name=libasan.so)" PYTHONMALLOC=malloc \
	ASAN_OPTIONS=detect_leaks=$(ASAN_LEAKS):allocator_may_return_null=1 \
	LSAN_OPTIONS=leak_check_at_exit=0:suppressions=$(CURDIR)/tests/lsan_cpython.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 THNN_FUZZ_CALLS=$(ASAN_FUZZ_CALLS) \
	THNN_FUZZ_DEVICE_CALLS=$(ASAN_FUZZ_CALLS) THNN_FUZZ_MATH_CALLS=$(ASAN_FUZZ_CALLS)
ASAN_PLUGINS = $(if $(filter 1,$(ASAN_LEAKS)),-p lsan_check)

.PHONY: build test asan asan-build cuda-check

build:
	$(PYTHON) setup.py -q build_ext --inplace

test: build
	$(PYTHON) -m pytest tests -q

asan-build:
	rm -rf $(ASAN_DIR)
	mkdir -p $(ASAN_DIR)
	cp -r setup.py pyproject.toml README.md SECURITY.md CHANGELOG.md mkdocs.yml docs thnn nn_legacy thnn_c thcunn_cu tests tools benchmarks $(ASAN_DIR)/
	find $(ASAN_DIR) \( -name '*.so' -o -name '__pycache__' -o -name '_thnn.c' \) -prune -exec rm -rf {} +
	cd $(ASAN_DIR) && THNN_CUDA=0 THNN_CFLAGS="$(ASAN_CFLAGS)" THNN_LDFLAGS="$(ASAN_LDFLAGS)" \
		$(PYTHON) setup.py -q build_ext --inplace > build.log 2>&1 || { cat build.log; exit 1; }

asan: asan-build
	# the tests must import the sanitized copy, not the in-place build
	cd $(ASAN_DIR) && $(ASAN_RUNTIME) $(PYTHON_BIN) -c \
		"import os, thnn; assert thnn.__file__.startswith(os.getcwd()), thnn.__file__; print('asan build:', thnn.__file__)"
	# --capture=sys: pytest must not swallow fd 2, where the sanitizers write their report
	cd $(ASAN_DIR) && PYTHONPATH=tests $(ASAN_RUNTIME) $(PYTHON_BIN) -m pytest -q -p no:cacheprovider \
		--capture=sys -n $(ASAN_JOBS) --dist loadfile $(ASAN_PLUGINS) $(ASAN_TESTS)

cuda-check:
	$(PYTHON) -c 'import sys; sys.path.insert(0, "thnn"); import _build_cuda as b; t = b.nvcc_toolchain(); sys.exit(0 if not isinstance(t, str) or "cuBLAS" not in t else 1)' \
		|| $(PYTHON) -m pip install -q "nvidia-cublas>=13,<14"
	$(PYTHON) thnn/_build_cuda.py --gpu
