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

.PHONY: test ctest ctime fuzz bench install clean asan

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
# which fails on any branch or memory index that depends on a secret. It runs once per
# compiler (CCS) and per core variant: CTIME_VARIANTS lists them and CTIME_FLAGS_<variant>
# holds each one's extra compiler flags (an assembly backend adds itself with
# `CTIME_VARIANTS += name` and `CTIME_FLAGS_name := -D...`).
# Then the negative controls (tests/c/canary_ctime.c): a secret-dependent branch and a
# secret-indexed load must each be reported by valgrind, in their own function, or the
# check itself is broken; their reports are printed so the log shows them.
CTIME_FLAGS    ?= -O3 -gdwarf-4 -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST
CTIMES         := $(wildcard tests/c/ctime_*.c)
CTIME_VARIANTS ?= portable
CTIME_FLAGS_portable :=
CTIME_CANARY_branch  := Conditional jump or move depends on uninitialised value
CTIME_CANARY_index   := Use of uninitialised value of size

ctime:
	@command -v valgrind >/dev/null || { echo "ctime: valgrind is required (apt-get install valgrind)"; exit 1; }
	@mkdir -p tests/c/bin
	@set -e; $(foreach v,$(CTIME_VARIANTS),for cc in $(CCS); do \
	    for t in $(CTIMES); do \
	        b=tests/c/bin/$$(basename $$t .c)-$(v)-$$cc; \
	        echo "ctime [$(v), $$cc]: $$b"; \
	        $$cc $(CTIME_FLAGS) $(CTIME_FLAGS_$(v)) -o $$b $$t; \
	        valgrind -q --error-exitcode=1 --track-origins=yes $$b; \
	    done; \
	done;)
	@set -e; for cc in $(CCS); do \
	    b=tests/c/bin/canary_ctime-$$cc; \
	    $$cc $(CTIME_FLAGS) -o $$b tests/c/canary_ctime.c; \
	    $(foreach m,branch index,\
	    if valgrind --error-exitcode=1 $$b $(m) > $$b-$(m).log 2>&1; then \
	        cat $$b-$(m).log; \
	        echo "ctime [$$cc]: canary '$(m)' went unreported: the check is broken"; exit 1; \
	    fi; \
	    if ! grep -A1 "$(CTIME_CANARY_$(m))" $$b-$(m).log | grep -Eq "canary_$(m)[.a-z0-9]* .canary_ctime\.c:"; then \
	        cat $$b-$(m).log; \
	        echo "ctime [$$cc]: canary '$(m)' failed without the expected report: the check is broken"; exit 1; \
	    fi; \
	    echo "ctime [$$cc]: canary '$(m)' flagged (the check works):"; \
	    grep -A1 "$(CTIME_CANARY_$(m))" $$b-$(m).log | sed 's/^/    /'; \
	    ) \
	done

# make asan: the extension built with AddressSanitizer and UBSan in its own venv
# (.venv-asan), and the whole pytest suite run in an interpreter with the ASan runtime
# preloaded (the python binary itself is not instrumented). PYTHONMALLOC=malloc sends
# Python's objects through ASan's allocator too, so an overflow of a bytes buffer is
# seen; detect_leaks=0 silences the interpreter's own exit-time leaks. Every report goes
# to a log file under tests/c/bin/asan (subprocesses included); any file there fails the
# target. First the checks that it can fail: the extension must carry the ASan and UBSan
# hooks, and the negative controls of tests/c/asan_canary.c (a read one byte past a
# Python bytes object and an oversized shift, in a shared object loaded into the same
# sanitized interpreter) must each be reported; their reports are printed.
ASAN_VENV  := .venv-asan
ASAN_PY    := $(ASAN_VENV)/bin/python
ASAN_STAMP := $(ASAN_VENV)/.p256-installed
ASAN_CC    ?= clang
ASAN_FLAGS ?= -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_RT     = $(shell $(ASAN_CC) -print-file-name=$(if $(findstring clang,$(ASAN_CC)),libclang_rt.asan-$(shell uname -m).so,libasan.so))
ASAN_LOGS  := tests/c/bin/asan
ASAN_PYTEST_ARGS ?=   # e.g. tests/test_api.py for a quick run; CI runs the whole suite
ASAN_RUN    = LD_PRELOAD=$(ASAN_RT) PYTHONMALLOC=malloc \
    ASAN_OPTIONS=detect_leaks=0:log_path=$(CURDIR)/$(ASAN_LOGS)/asan \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(CURDIR)/$(ASAN_LOGS)/ubsan
ASAN_CANARY_heap  := ERROR: AddressSanitizer: heap-buffer-overflow
ASAN_CANARY_shift := runtime error: shift exponent

$(ASAN_STAMP): $(SOURCES) Makefile
	test -x $(ASAN_PY) || { $(PYTHON) -m venv $(ASAN_VENV) && $(ASAN_PY) -m pip install -q --upgrade pip; }
	CC=$(ASAN_CC) CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" $(ASAN_PY) -m pip install -q '.[test]'
	touch $@

asan: $(ASAN_STAMP)
	@test -f "$(ASAN_RT)" || { echo "asan: no ASan runtime for $(ASAN_CC) ($(ASAN_RT))"; exit 1; }
	@so=$$(find $(ASAN_VENV) -name '_core*.so' | head -n 1); \
	for sym in __asan_report_load __ubsan_handle_; do \
	    nm -D --undefined-only $$so | grep -q $$sym || { echo "asan: $$so has no $$sym hooks: not instrumented"; exit 1; }; \
	done; echo "asan: $$so is instrumented (ASan + UBSan)"
	@rm -rf $(ASAN_LOGS) && mkdir -p $(ASAN_LOGS)
	@$(ASAN_CC) $(ASAN_FLAGS) -shared -fPIC -o tests/c/bin/asan_canary.so tests/c/asan_canary.c
	@set -e; $(foreach m,heap shift,\
	if $(ASAN_RUN) $(ASAN_PY) -c 'import ctypes, sys, p256; assert p256.PrivateKey.generate(); \
	        lib = ctypes.CDLL(sys.argv[1]); b = bytes(range(32)); \
	        lib.p256_asan_canary_heap(b, 33) if sys.argv[2] == "heap" else lib.p256_asan_canary_shift(40)' \
	        tests/c/bin/asan_canary.so $(m) 2>/dev/null; then \
	    echo "asan: canary '$(m)' ran without failing: the sanitizer setup is broken"; exit 1; fi; \
	if ! cat $(ASAN_LOGS)/* 2>/dev/null | grep -q "$(ASAN_CANARY_$(m))"; then \
	    cat $(ASAN_LOGS)/* 2>/dev/null || true; \
	    echo "asan: canary '$(m)' failed without the expected report: the setup is broken"; exit 1; fi; \
	echo "asan: canary '$(m)' reported (the check works):"; \
	cat $(ASAN_LOGS)/* | grep -m 3 -E "ERROR: AddressSanitizer|runtime error|#0 " | sed 's/^/    /'; \
	rm -f $(ASAN_LOGS)/*;)
	@echo "asan: pytest with the sanitized extension"
	@$(ASAN_RUN) $(ASAN_PY) -m pytest -q -p no:cacheprovider $(ASAN_PYTEST_ARGS); rc=$$?; \
	if ls $(ASAN_LOGS)/* >/dev/null 2>&1; then \
	    cat $(ASAN_LOGS)/*; echo "asan: FAILED: sanitizer reports above"; exit 1; fi; \
	test $$rc = 0 || { echo "asan: FAILED: pytest exit status $$rc"; exit 1; }; \
	echo "asan: no sanitizer report"

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

# make fuzz-smoke: atheris (libFuzzer for Python) over the public Python API, one target
# per entry point (tests/fuzz/targets.py; `python tests/fuzz/run.py --list`), each with a
# differential oracle (pyca/cryptography, p256.reference) and round-trip checks, for
# FUZZ_SECONDS each. Installs the `fuzz` extra (atheris) into .venv. Seeds are generated
# from the Wycheproof vectors into tests/fuzz/bin/seeds (tools/gen_py_fuzz_corpus.py);
# what the fuzzer finds along the way accumulates in tests/fuzz/bin/work; a finding
# fails the target after all have run, its reproducer kept in tests/fuzz/bin/crashes
# (replay: .venv/bin/python tests/fuzz/run.py TARGET FILE). Then the negative controls:
# with P256_FUZZ_PLANT each planted bug must be found by its target, starting from one
# valid input (seeds/controls), within FUZZ_PLANT_SECONDS, or the harness is broken.
# Longer: make fuzz-smoke FUZZ_SECONDS=600.
FUZZ_SECONDS       ?= 25
FUZZ_PLANT_SECONDS ?= 60
FUZZ_TARGETS       ?= pub_bytes pub_der pub_pem pub_jwk priv_der priv_pem priv_jwk verify_der verify_raw p256verify
FUZZ_PLANTS        ?= offcurve:pub_bytes sig-trailing:verify_der eip-length:p256verify
FUZZ_OPTIONS       ?= -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_DIR           := tests/fuzz/bin
FUZZ_STAMP         := $(VENV)/.p256-fuzz-installed

.PHONY: fuzz-smoke

$(FUZZ_STAMP): $(VPY) $(SOURCES) Makefile
	CC=$(CORE_CC) $(VPY) -m pip install -q '.[test,bench,fuzz]'
	touch $(STAMP) $@

fuzz-smoke: $(FUZZ_STAMP)
	@rm -rf $(FUZZ_DIR)/seeds $(FUZZ_DIR)/logs $(FUZZ_DIR)/plants
	@mkdir -p $(FUZZ_DIR)/logs $(FUZZ_DIR)/crashes $(FUZZ_DIR)/plants
	@$(VPY) tools/gen_py_fuzz_corpus.py $(FUZZ_DIR)/seeds
	@failed=; for t in $(FUZZ_TARGETS); do \
	    log=$(FUZZ_DIR)/logs/$$t.log; mkdir -p $(FUZZ_DIR)/work/$$t; \
	    if $(VPY) tests/fuzz/run.py $$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_OPTIONS) \
	            -artifact_prefix=$(FUZZ_DIR)/crashes/$$t- $(FUZZ_DIR)/work/$$t $(FUZZ_DIR)/seeds/$$t \
	            > $$log 2>&1; then \
	        echo "fuzz-smoke: $$t: $$(grep -oE '^#[0-9]+' $$log | tail -n 1 | tr -d '#') inputs," \
	            "$$(grep -oE 'cov: [0-9]+' $$log | tail -n 1), corpus $$(ls $(FUZZ_DIR)/work/$$t | wc -l)" \
	            "+ $$(ls $(FUZZ_DIR)/seeds/$$t | wc -l) seeds, no finding"; \
	    else \
	        grep -v -E '^(#[0-9]+|INFO:|WARNING:)' $$log | head -n 60; \
	        echo "fuzz-smoke: $$t: FINDING; reproducer: $$(ls -t $(FUZZ_DIR)/crashes/$$t-* 2>/dev/null | head -n 1)"; \
	        failed="$$failed $$t"; \
	    fi; \
	done; \
	test -z "$$failed" || { echo "fuzz-smoke: FAILED:$$failed (logs in $(FUZZ_DIR)/logs)"; exit 1; }
	@set -e; for pt in $(FUZZ_PLANTS); do \
	    p=$${pt%%:*}; t=$${pt##*:}; log=$(FUZZ_DIR)/plants/$$p.log; mkdir -p $(FUZZ_DIR)/plants/$$p; \
	    if P256_FUZZ_PLANT=$$p $(VPY) tests/fuzz/run.py $$t -max_total_time=$(FUZZ_PLANT_SECONDS) \
	            $(FUZZ_OPTIONS) -artifact_prefix=$(FUZZ_DIR)/plants/$$p- $(FUZZ_DIR)/plants/$$p \
	            $(FUZZ_DIR)/seeds/controls/$$t > $$log 2>&1; then \
	        echo "fuzz-smoke: negative control '$$p' was not found by $$t in $(FUZZ_PLANT_SECONDS) s: the harness is broken"; exit 1; \
	    fi; \
	    if ! grep -q "negative control active: P256_FUZZ_PLANT=$$p" $$log; then \
	        grep -v -E '^(#[0-9]+|INFO:|WARNING:)' $$log | head -n 40; \
	        echo "fuzz-smoke: negative control '$$p' failed without the expected finding: the setup is broken"; exit 1; \
	    fi; \
	    n=$$(grep -oE '^#[0-9]+' $$log | tail -n 1 | tr -d '#'); \
	    echo "fuzz-smoke: negative control '$$p' found by $$t from one valid input (last status line before it: $${n:-none} inputs; the check works):"; \
	    grep -m 1 -E '^Finding: ' $$log | sed 's/^/    /'; \
	done

clean:
	rm -rf $(VENV) $(ASAN_VENV) build dist tests/c/bin
