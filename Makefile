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

.PHONY: test ctest ctime fuzz bench install clean

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): $(VPY) $(SOURCES) Makefile
	CC=$(CORE_CC) $(VPY) -m pip install -q '.[test,bench]'
	touch $@

install: $(STAMP)

test: $(STAMP) ctest ctime fuzz
	$(VPY) -m pytest -q

# `p256 bench` through the venv's console script; options in BENCH_ARGS, e.g.
# make bench BENCH_ARGS="--quick --json bench.json" (see README, Performance).
BENCH_ARGS ?=

bench: $(STAMP)
	$(VENV)/bin/p256 bench $(BENCH_ARGS)

# C harnesses: every tests/c/test_*.c is built against the core's sources and run,
# once per compiler.
CTEST_FLAGS ?= -O2 -std=c99 -Wall -Wextra -Werror -Icsrc
CTESTS      := $(wildcard tests/c/test_*.c)

ctest:
	@mkdir -p tests/c/bin
	@set -e; for cc in $(CCS); do for t in $(CTESTS); do \
	    b=tests/c/bin/$$(basename $$t .c)-$$cc; \
	    echo "ctest [$$cc]: $$b"; \
	    $$cc $(CTEST_FLAGS) -o $$b $$t; \
	    $$b; \
	done; done

# Constant-time check: every tests/c/ctime_*.c is built with P256_CTIME_TEST (secrets
# marked undefined) at the release optimization level and run under valgrind memcheck,
# which fails on any branch or memory index that depends on a secret. Then a canary
# that branches on a secret must be reported, or the check itself is broken.
CTIME_FLAGS ?= -O3 -gdwarf-4 -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST
CTIMES      := $(wildcard tests/c/ctime_*.c)

ctime:
	@command -v valgrind >/dev/null || { echo "ctime: valgrind is required (apt-get install valgrind)"; exit 1; }
	@mkdir -p tests/c/bin
	@set -e; for cc in $(CCS); do \
	    for t in $(CTIMES); do \
	        b=tests/c/bin/$$(basename $$t .c)-$$cc; \
	        echo "ctime [$$cc]: $$b"; \
	        $$cc $(CTIME_FLAGS) -o $$b $$t; \
	        valgrind -q --error-exitcode=1 --track-origins=yes $$b; \
	    done; \
	    $$cc $(CTIME_FLAGS) -o tests/c/bin/canary_ctime-$$cc tests/c/canary_ctime.c; \
	    if valgrind -q --error-exitcode=1 tests/c/bin/canary_ctime-$$cc >/dev/null 2>&1; then \
	        echo "ctime [$$cc]: the canary's secret-dependent branch went unreported: the check is broken"; \
	        exit 1; \
	    fi; \
	    echo "ctime [$$cc]: canary caught (the check works)"; \
	done

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
