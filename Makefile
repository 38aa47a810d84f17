# make test / make bench: create .venv when missing, install p256 with its extras, run.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)

# The compiler for the extension: clang when installed. The core's add-with-carry chains
# come out ~20% faster from clang 14 than from gcc 12 (README, Performance); gcc builds
# are supported and tested too (CCS below). Override with `make CORE_CC=gcc ...`.
CORE_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo cc)
# Every C compiler present builds and runs the C harnesses and the constant-time check,
# so the properties hold for what users' pip builds with, not only for our choice.
CCS     ?= $(sort $(CORE_CC) $(shell for c in gcc clang; do command -v $$c >/dev/null 2>&1 && echo $$c; done))

.PHONY: test ctest ctime fuzz bench bench-c install clean

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): $(VPY) $(SOURCES) Makefile
	CC=$(CORE_CC) $(VPY) -m pip install -q '.[test,bench]'
	touch $@

install: $(STAMP)

# pytest runs once per field backend: the default (the fastest this CPU runs) and, when
# that is an assembly backend, again with P256_BACKEND=portable; the second run leaves
# out the files that never touch the native core (the pure-Python reference, generators).
test: $(STAMP) ctest ctime fuzz
	$(VPY) -m pytest -q
	@if [ "$$($(VPY) -c 'import p256; print(p256.backend())')" != portable ]; then \
	    echo "pytest again with P256_BACKEND=portable"; \
	    P256_BACKEND=portable $(VPY) -m pytest -q --ignore=tests/test_reference.py \
	        --ignore=tests/test_reference_wycheproof.py --ignore=tests/test_generated.py; \
	fi

bench: $(STAMP)
	$(VPY) benchmarks/bench.py

# The core from C, per field backend this CPU runs, as Go benchmark lines, and
# `openssl speed ecdsap256 ecdhp256` in the same run with ratios (benchmarks/bench_c.py).
# Built like the extension (CORE_CC, -O3).
BENCH_C_VARIANTS = portable $(if $(and $(filter adx,$(CVARIANTS)),$(ADX_CPU)),adx)

bench-c:
	@mkdir -p tests/c/bin
	@set -e; for v in $(BENCH_C_VARIANTS); do $(VARIANT_FLAGS); \
	    $(CORE_CC) -O3 -std=c99 -Icsrc -o tests/c/bin/bench_core-$$v tests/c/bench_core.c $$vf; \
	done
	$(PYTHON) benchmarks/bench_c.py $(foreach v,$(BENCH_C_VARIANTS),tests/c/bin/bench_core-$(v))

# Field backends the C harnesses are built for: the portable C always, plus the
# assembly the host can run. `adx` (x86-64 BMI2/ADX, csrc/asm/p256_x86_64.S) is built
# on every x86-64 host; its binaries run only where the CPU has BMI2 and ADX
# (test_backend.c reads CPUID itself and prints a SKIP line elsewhere).
CVARIANTS := portable $(if $(filter x86_64,$(shell uname -m)),adx)
ADX_FLAGS := -DP256_ASM_X86_64_ADX csrc/asm/p256_x86_64.S
ADX_CPU   := $(shell grep -qw adx /proc/cpuinfo 2>/dev/null && grep -qw bmi2 /proc/cpuinfo 2>/dev/null && echo yes)
# Inside the shell loops below: vf = the extra compiler arguments of variant $v.
VARIANT_FLAGS = case $$v in adx) vf="$(ADX_FLAGS)";; *) vf="";; esac

# C harnesses: every tests/c/test_*.c is built against the core's sources and run,
# once per compiler and per field backend.
CTEST_FLAGS ?= -O2 -std=c99 -Wall -Wextra -Werror -Icsrc
CTESTS      := $(wildcard tests/c/test_*.c)

ctest:
	@mkdir -p tests/c/bin
	@set -e; for cc in $(CCS); do for v in $(CVARIANTS); do $(VARIANT_FLAGS); for t in $(CTESTS); do \
	    b=tests/c/bin/$$(basename $$t .c)-$$cc-$$v; \
	    echo "ctest [$$cc, $$v]: $$b"; \
	    $$cc $(CTEST_FLAGS) -o $$b $$t $$vf; \
	    if [ $$v = portable ] || [ "$(ADX_CPU)" = yes ] || [ $$t = tests/c/test_backend.c ]; then \
	        $$b; \
	    else \
	        echo "ctest [$$cc, $$v]: SKIP run: this CPU lacks BMI2/ADX"; \
	    fi; \
	done; done; done

# Constant-time check: every tests/c/ctime_*.c is built with P256_CTIME_TEST (secrets
# marked undefined) at the release optimization level and run under valgrind memcheck,
# which fails on any branch or memory index that depends on a secret; once per compiler
# and field backend. Then canaries that branch on a secret (directly, and after the
# field backend's multiplication) must be reported, or the check itself is broken.
CTIME_FLAGS ?= -O3 -gdwarf-4 -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST
CTIMES      := $(wildcard tests/c/ctime_*.c)

ctime:
	@command -v valgrind >/dev/null || { echo "ctime: valgrind is required (apt-get install valgrind)"; exit 1; }
	@mkdir -p tests/c/bin
	@set -e; for cc in $(CCS); do for v in $(CVARIANTS); do $(VARIANT_FLAGS); \
	    if [ $$v != portable ] && [ "$(ADX_CPU)" != yes ]; then \
	        echo "ctime [$$cc, $$v]: SKIP: this CPU lacks BMI2/ADX"; continue; \
	    fi; \
	    for t in $(CTIMES); do \
	        b=tests/c/bin/$$(basename $$t .c)-$$cc-$$v; \
	        echo "ctime [$$cc, $$v]: $$b"; \
	        $$cc $(CTIME_FLAGS) -o $$b $$t $$vf; \
	        valgrind -q --error-exitcode=1 --track-origins=yes $$b; \
	    done; \
	    for c in canary_ctime canary_ctime_field; do \
	        $$cc $(CTIME_FLAGS) -o tests/c/bin/$$c-$$cc-$$v tests/c/$$c.c $$vf; \
	        if valgrind -q --error-exitcode=1 tests/c/bin/$$c-$$cc-$$v >/dev/null 2>&1; then \
	            echo "ctime [$$cc, $$v]: $$c's secret-dependent branch went unreported: the check is broken"; \
	            exit 1; \
	        fi; \
	        echo "ctime [$$cc, $$v]: $$c caught (the check works)"; \
	    done; \
	done; done

# A short libFuzzer campaign (clang, with ASan and UBSan) over every parser of untrusted
# bytes, checking round-trip and strictness properties, not only the absence of crashes
# (tests/c/fuzz_parse.c). Seeds: tests/c/fuzz_corpus (tools/gen_fuzz_corpus.py); what the
# fuzzer finds along the way stays in tests/c/bin/fuzz_work.
FUZZ_RUNS  ?= 500000
FUZZ_FLAGS ?= -O1 -g -std=c99 -Icsrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

fuzz:
	@command -v clang >/dev/null || { echo "fuzz: clang (with libFuzzer) is required (apt-get install clang)"; exit 1; }
	@mkdir -p tests/c/bin/fuzz_work
	clang $(FUZZ_FLAGS) -o tests/c/bin/fuzz_parse tests/c/fuzz_parse.c
	@echo "fuzz: tests/c/bin/fuzz_parse -runs=$(FUZZ_RUNS)"
	@tests/c/bin/fuzz_parse -runs=$(FUZZ_RUNS) -seed=1 tests/c/bin/fuzz_work tests/c/fuzz_corpus \
	    > tests/c/bin/fuzz.log 2>&1 || { tail -n 40 tests/c/bin/fuzz.log; echo "fuzz: FAILED"; exit 1; }
	@tail -n 1 tests/c/bin/fuzz.log

clean:
	rm -rf $(VENV) build dist tests/c/bin
