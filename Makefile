# SPDX-License-Identifier: Apache-2.0
# The front door: docs/development.md says what each target runs and why. The C harnesses
# are meson tests (tests/c/meson.build); what needs a toolchain of its own is in tools/.
# A target that needs a system tool has the order-only prerequisite bootstrap-<target>
# (tools/bootstrap.sh: as root with apt it installs what is missing, else it says how).
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)
export PYTHON

# The extension's compiler: clang when installed (its carry chains come out ~20% faster),
# through ccache when installed. Every compiler in CCS runs the C harnesses and ctime.
CORE_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo cc)
CCACHE   = $(if $(shell command -v ccache 2>/dev/null),ccache )
EXT_CC   = $(CCACHE)$(CORE_CC)
CCS     ?= $(sort $(CORE_CC) $(shell for c in gcc clang; do command -v $$c >/dev/null 2>&1 && echo $$c; done))

# ---- the C harnesses: meson test in build/c/<target>/<compiler> (docs: C harnesses) ----
# meson and ninja from PyPI in .venv-check (its editable install needs them too). An
# assembly variant's random cases run in full with CORE_CC, at OTHER_CC_ASM_ITERS percent
# with another compiler.
CHECK_VENV  := .venv-check
CHECK_PY    := $(CHECK_VENV)/bin/python
MESON_STAMP := $(CHECK_VENV)/.p256-meson
NINJA_ENV   := MAKEFLAGS= NINJA=$(CURDIR)/$(CHECK_VENV)/bin/ninja
MESON       := $(NINJA_ENV) $(CHECK_VENV)/bin/meson
BUILD_REQ    = $(shell sed -n 's/^requires = \[\(.*\)\]/\1/p' pyproject.toml)
CBUILD := build/c
OTHER_CC_ASM_ITERS ?= 10
CSETUP := -Dtests=true -Doptimization=2 -Ddebug=false -Db_ndebug=false -Dwerror=true
MESON_TEST ?= --verbose

$(MESON_STAMP): pyproject.toml | bootstrap-venv
	test -x $(CHECK_PY) || { $(PYTHON) -m venv $(CHECK_VENV) && $(CHECK_PY) -m pip install -q --upgrade pip; }
	$(CHECK_PY) -m pip install -q $(BUILD_REQ) ninja
	touch $@

$(CBUILD)/%/build.ninja: | $(MESON_STAMP) bootstrap-ctest
	CC="$(CCACHE)$(notdir $*)" $(MESON) setup $(@D) $(CSETUP) \
	    -Dasm_random=$(if $(filter $(notdir $*),$(CORE_CC)),100,$(OTHER_CC_ASM_ITERS))

.PHONY: test ci test-parts test-lane check check-c check-py check-style bounded pytest pytest-portable venv \
    install clean ctest ctest-plants ctest-variants ctest-ifma-lanes ctest-precompute-random ctest-asan \
    ctest-ifma-asan ctime timing timing-long fuzz fuzz-smoke asan tsan bench bench-c bench-batch bench-docs \
    bench-plot mca mca-check test-arm64 test-arm64-python bench-arm64 docs typecheck pythons package

bootstrap-%:
	@tools/bootstrap.sh $*

$(VPY): | bootstrap-venv
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

venv: $(VPY) $(MESON_STAMP)

$(STAMP): $(VPY) $(SOURCES) Makefile
	CC="$(EXT_CC)" $(VPY) -m pip install -q '.[test,bench,typing]'
	touch $@

install: $(STAMP)

# ---- make test, make ci (docs/development.md, make test) ------------------------------
# make -j2 runs the parts (tools/make_test.sh run PART): the first lane's in order, the
# queue's beside them, the first lane taking from the queue once its own are done; then
# the parts that compare times, alone; then the summary.
TEST_PARTS    ?= ctest pytest pytest-portable typecheck docs pythons package
TEST_PARTS_BG ?= test-arm64 asan ctime test-arm64-python mca-check
CI_PARTS      ?= fuzz-smoke
CI_PARTS_BG   ?= timing ctest-ifma-lanes ctest-precompute-random fuzz tsan
TEST_PARTS_AFTER ?= bounded
TEST_ARM64_PY_BACKENDS ?= asm
TEST_ARM64_PY_TESTS ?= $(addprefix tests/test_,selftest.py api.py backend.py batch.py batch_secret.py \
    p256verify.py wycheproof.py) $(addprefix --deselect=tests/test_batch.py::test_,a_generator_runs_in_bounded_memory \
    memory_bound_catches_a_copy_of_the_stream a_bad_item_of_a_list_is_raised_before_any_verification \
    chunk_edges_keep_input_order)
TEST_ENV = MAKE="$(MAKE)" ARM64_PY_BACKENDS="$(TEST_ARM64_PY_BACKENDS)" ARM64_PY_TESTS="$(TEST_ARM64_PY_TESTS)"

test ci:
	@$(MAKE) --no-print-directory FG="$(TEST_PARTS) $(if $(filter ci,$@),$(CI_PARTS))" \
	    BG="$(TEST_PARTS_BG) $(if $(filter ci,$@),$(CI_PARTS_BG))" test-parts

test-parts:
	@$(TEST_ENV) tools/make_test.sh start $(BG) $(FG) $(TEST_PARTS_AFTER)
	@$(MAKE) --no-print-directory -j2 test-lane $(addprefix test-part-,$(BG))
	@for p in $(BG); do [ ! -e build/test/$$p.log ] || { echo "==== make $$p (ran in the queue)"; cat build/test/$$p.log; }; done
	@for p in $(TEST_PARTS_AFTER); do $(TEST_ENV) tools/make_test.sh run $$p show; done
	@tools/make_test.sh summary $(FG) $(BG) $(TEST_PARTS_AFTER)

test-lane:
	@for p in $(FG); do $(TEST_ENV) tools/make_test.sh run $$p show; done

test-part-%:
	@$(TEST_ENV) tools/make_test.sh run $*

# ---- pytest ----------------------------------------------------------------------------
QUICK_TESTS := $(shell grep -v '^\#' tests/quick.txt)
PORTABLE_PYTESTS = $(filter-out tests/test_cli.py tests/test_fuzz_targets.py,$(QUICK_TESTS))

pytest: $(STAMP) | bootstrap-pytest
	$(VPY) -m pytest -q --ignore=tests/test_bounded_work.py --ignore=tests/test_typing.py

bounded: $(STAMP) | bootstrap-pytest
	$(VPY) -m pytest -q tests/test_bounded_work.py

pytest-portable: $(STAMP) | bootstrap-pytest
	@if [ "$$($(VPY) -c 'import p256; print(p256.backend())')" = portable ]; then echo "pytest-portable: SKIP: \
	the default run was portable already (this CPU lacks the instructions of every assembly backend)"; \
	else echo "pytest with P256_BACKEND=portable"; P256_BACKEND=portable $(VPY) -m pytest -q $(PORTABLE_PYTESTS); fi

# Every harness per compiler and variant, then (CORE_CC) the planted bugs and variants_pubkey.
ctest: $(foreach c,$(CCS),$(CBUILD)/ctest/$(c)/build.ninja) | bootstrap-ctest
	@set -e; for c in $(CCS); do s="--suite ctest"; [ $$c != $(CORE_CC) ] || s="$$s --suite plants --suite variants"; \
	    echo "ctest [$$c]: meson test $$s"; $(MESON) test -C $(CBUILD)/ctest/$$c $$s $(MESON_TEST); done

ctest-plants ctest-variants: $(CBUILD)/ctest/$(CORE_CC)/build.ninja | bootstrap-ctest
	$(MESON) test -C $(<D) --suite $(@:ctest-%=%) $(MESON_TEST)

ctest-ifma-lanes ctest-precompute-random: %: $(CBUILD)/%/$(CORE_CC)/build.ninja | bootstrap-ctest
	$(MESON) test -C $(<D) --suite long $(if $(findstring lanes,$@),test_batch_ifma-lanes,test_precompute-long) $(MESON_TEST)

ctime: $(foreach c,$(CCS),$(CBUILD)/ctime/$(c)/build.ninja) | bootstrap-ctime
	@set -e; for c in $(CCS); do $(MESON) test -C $(CBUILD)/ctime/$$c --suite ctime $(MESON_TEST); done

# make timing: short, per backend, with the two planted leaks; make timing-long: TIMING_SECONDS in all.
TIMING_N       ?= 20000
TIMING_SECONDS ?= 600
TIMING_TARGETS ?=
export TIMING_N TIMING_SECONDS TIMING_TARGETS

timing timing-long: $(CBUILD)/timing/$(CORE_CC)/build.ninja | bootstrap-timing
	@echo "$@: CPU $$(tools/timing.sh cpu), $(CORE_CC)"
	$(MESON) test -C $(<D) --suite $@ $(MESON_TEST)

BENCH_DIR := $(CBUILD)/bench/$(CORE_CC)
bench-c: $(BENCH_DIR)/build.ninja | bootstrap-bench-c
	$(MESON) compile -C $(BENCH_DIR) bench
	$(PYTHON) benchmarks/bench_c.py $$(find $(BENCH_DIR)/tests/c -maxdepth 1 -type f -name 'bench_core-*' | sort)

bench-batch: $(BENCH_DIR)/build.ninja
	$(MESON) compile -C $(BENCH_DIR) bench
	$(BENCH_DIR)/tests/c/bench_batch

# ---- make asan: the sanitized extension in .venv-asan, then tools/asan.sh -------------
ASAN_VENV  := .venv-asan
ASAN_PY    := $(ASAN_VENV)/bin/python
ASAN_STAMP := $(ASAN_VENV)/.p256-installed
ASAN_CC    ?= clang
ASAN_FLAGS ?= -O1 -gline-tables-only -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_RT     = $(shell $(ASAN_CC) -print-file-name=$(if $(findstring clang,$(ASAN_CC)),libclang_rt.asan-$(shell uname -m).so,libasan.so))
ASAN_LOGS  := tests/c/bin/asan
ASAN_PYTEST_ARGS ?= $(filter-out tests/test_cli.py,$(QUICK_TESTS))
ASAN_EXT_FLAGS ?= $(ASAN_FLAGS) -DP256_NO_IFMA

$(ASAN_STAMP): $(SOURCES) Makefile | bootstrap-asan
	test -x $(ASAN_PY) || { $(PYTHON) -m venv $(ASAN_VENV) && $(ASAN_PY) -m pip install -q --upgrade pip; }
	CC=$(ASAN_CC) CFLAGS="$(ASAN_EXT_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" $(ASAN_PY) -m pip install -q '.[test]'
	touch $@

$(CBUILD)/asan/build.ninja $(CBUILD)/fuzz/build.ninja: | $(MESON_STAMP) bootstrap-asan
	CC=$(ASAN_CC) $(MESON) setup $(@D) -Dtests=asan -Doptimization=plain -Db_ndebug=false -Dwerror=true \
	    -Dc_args="$(ASAN_FLAGS)" -Dc_link_args="$(ASAN_FLAGS)" -Db_lundef=false

ctest-asan ctest-ifma-asan: $(CBUILD)/asan/build.ninja | bootstrap-asan
	$(MESON) test -C $(CBUILD)/asan --suite $(if $(findstring ifma,$@),ifma,run_core) $(MESON_TEST)

asan: $(ASAN_STAMP) $(CBUILD)/asan/build.ninja | bootstrap-asan
	@ASAN_RT="$(ASAN_RT)" ASAN_VENV=$(ASAN_VENV) ASAN_LOGS=$(ASAN_LOGS) $(NINJA_ENV) MESON=$(CHECK_VENV)/bin/meson \
	    ASAN_BUILD=$(CBUILD)/asan tools/asan.sh $(ASAN_PYTEST_ARGS)

TSAN_TESTS ?=
tsan: | bootstrap-tsan
	$(PYTHON) tools/tsan.py $(TSAN_TESTS)

# ---- fuzzing (docs/fuzzing.md) --------------------------------------------------------
# make fuzz: libFuzzer over the C parsers for FUZZ_C_SECONDS (FUZZ_RUNS: a cap on the inputs).
FUZZ_C_SECONDS ?= 120
FUZZ_RUNS      ?= -1

fuzz: $(CBUILD)/fuzz/build.ninja | bootstrap-fuzz
	@mkdir -p $(<D)/fuzz_work
	$(MESON) test -C $(<D) --suite fuzz --test-args "-max_total_time=$(FUZZ_C_SECONDS) -runs=$(FUZZ_RUNS)" \
	    --print-errorlogs && grep -h '^Done ' $(<D)/meson-logs/testlog.txt

# make fuzz-smoke (tools/fuzz_smoke.sh): atheris over the Python API, each target for
# FUZZ_SECONDS, then each negative control of FUZZ_PLANTS within FUZZ_PLANT_TRIES campaigns.
FUZZ_SECONDS       ?= 25
FUZZ_PLANT_SECONDS ?= 60
FUZZ_PLANT_TRIES   ?= 5
FUZZ_TARGETS       ?= pub_bytes pub_der pub_pem pub_jwk priv_der priv_pem priv_jwk verify_der verify_raw p256verify cose_key jws_verify x509_cert recover priv_encrypted point_bytes scalar_bytes oprf_element oprf_finalize
FUZZ_PLANTS        ?= offcurve:pub_bytes sig-trailing:verify_der eip-length:p256verify recover-digest-tail:recover pad-message:priv_encrypted slow-der:pub_der der-memory:pub_der oprf-trailing:oprf_element proof-unchecked:oprf_finalize
FUZZ_OPTIONS       ?= -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
FUZZ_PLANT_OPTIONS ?= -len_control=0 -mutate_depth=1
FUZZ_DIR           := tests/fuzz/bin
FUZZ_STAMP         := $(VENV)/.p256-fuzz-installed
export FUZZ_DIR FUZZ_TARGETS FUZZ_SECONDS FUZZ_OPTIONS FUZZ_PLANTS FUZZ_PLANT_TRIES FUZZ_PLANT_SECONDS \
    FUZZ_PLANT_OPTIONS

$(FUZZ_STAMP): $(VPY) $(SOURCES) Makefile
	CC="$(EXT_CC)" $(VPY) -m pip install -q '.[test,bench,fuzz]'
	touch $(STAMP) $@

fuzz-smoke: $(FUZZ_STAMP) | bootstrap-fuzz-smoke
	@VPY="$(VPY)" tools/fuzz_smoke.sh

# ---- AArch64 under qemu (tools/test_arm64.sh, tools/test_arm64_python.sh) ---------------
test-arm64: | bootstrap-test-arm64
	@tools/test_arm64.sh

bench-arm64: | bootstrap-test-arm64
	@tools/test_arm64.sh bench

test-arm64-python: $(VPY) | bootstrap-test-arm64-python
	PYTHON="$(VPY)" bash tools/test_arm64_python.sh

# ---- benchmarks, llvm-mca (docs/performance.md, docs/design.md) ------------------------
BENCH_ARGS ?=
BENCH_RESULTS ?= benchmarks/results
BENCH_DOCS_BATCH ?= --sizes 1,4,8,16,64,256,1000,10000,100000 --threads 1,2 --rounds 9 --budget 30000 --min-items 256
BENCH_DOCS_PRECOMPUTE ?= --rounds 15 --number 200 --tokens 0

bench: $(STAMP) | bootstrap-bench
	$(VENV)/bin/p256 bench $(BENCH_ARGS)

bench-docs: $(STAMP) $(BENCH_DIR)/build.ninja | bootstrap-bench-c
	$(MESON) compile -C $(BENCH_DIR) bench
	$(VENV)/bin/p256 bench --json $(BENCH_RESULTS)/ops.json
	$(VPY) benchmarks/bench_c.py --json $(BENCH_RESULTS)/c.json $$(find $(BENCH_DIR)/tests/c -maxdepth 1 -type f -name 'bench_core-*' | sort)
	$(VPY) benchmarks/bench_batch.py $(BENCH_DOCS_BATCH) --json $(BENCH_RESULTS)/batch.json
	$(VPY) benchmarks/bench_precompute.py $(BENCH_DOCS_PRECOMPUTE) --json $(BENCH_RESULTS)/precompute.json
	$(MAKE) --no-print-directory bench-plot

bench-plot: $(STAMP)
	$(VPY) benchmarks/plot.py --results $(BENCH_RESULTS)

mca mca-check: | bootstrap-mca
	$(PYTHON) tools/mca.py $(if $(findstring check,$@),--check,--write)

# ---- docs, typecheck, other CPythons, packages ----------------------------------------
DOCS_STAMP := $(VENV)/.p256-docs-installed
DEV_STAMP  := $(VENV)/.p256-dev-installed
TYPING_REQ  = $(shell sed -n 's/^typing = \[\(.*\)\].*/\1/p' pyproject.toml)
PKG_DIST   := build/dist
NOX_ARGS   ?=

$(DOCS_STAMP): $(VPY) pyproject.toml
	$(VPY) -c 'import subprocess, sys, tomllib; reqs = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["docs"]; subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", *reqs])'
	touch $@

docs: $(DOCS_STAMP)
	$(VENV)/bin/mkdocs build --strict

typecheck: $(STAMP)
	@$(VPY) -c 'import mypy' 2>/dev/null || $(VPY) -m pip install -q $(TYPING_REQ)
	$(VPY) -m mypy
	$(VPY) -m pytest -q tests/test_typing.py

$(DEV_STAMP): $(VPY) pyproject.toml
	$(VPY) -m pip install -q --group dev
	touch $@

pythons: $(DEV_STAMP)
	@mkdir -p build && rm -f build/nox-report.json
	@rc=0; CC="$(EXT_CC)" $(VENV)/bin/nox -f noxfile.py --report build/nox-report.json $(NOX_ARGS) || rc=$$?; \
	test -f build/nox-report.json && $(VPY) noxfile.py build/nox-report.json; exit $$rc

package: $(DEV_STAMP)
	@rm -rf $(PKG_DIST) && mkdir -p $(PKG_DIST)
	@echo "package: python -m build --outdir $(PKG_DIST) (log: build/package-build.log)"
	@CC="$(EXT_CC)" $(VPY) -m build --outdir $(PKG_DIST) . > build/package-build.log 2>&1 \
	    || { tail -n 40 build/package-build.log; echo "package: python -m build FAILED"; exit 1; }
	@tail -n 1 build/package-build.log
	CC="$(EXT_CC)" $(VPY) tools/check_package.py $(PKG_DIST)

clean:
	rm -rf $(VENV) $(ASAN_VENV) .venv-tsan .nox build dist tests/c/bin

# ---- make check: the quick loop (CORE_CC's harnesses at CHECK_ITERS percent, .venv-check) -
CHECK_ITERS   ?= 1
CHECK_STAMP   := $(CHECK_VENV)/.p256-editable
CHECK_PYTESTS ?= $(QUICK_TESTS) tests/test_license.py

check:
	@$(MAKE) --no-print-directory -j2 check-style check-c check-py

check-style:
	@$(PYTHON) tools/check_c_style.py

$(CHECK_STAMP): $(MESON_STAMP) pyproject.toml meson.build | bootstrap-pytest
	CC="$(EXT_CC)" $(CHECK_PY) -m pip install -q --no-build-isolation -e '.[test,typing,lint]'
	touch $@

check-py: $(CHECK_STAMP)
	$(CHECK_VENV)/bin/ruff check --no-cache .
	$(CHECK_PY) -m mypy
	$(CHECK_PY) -m pytest -q -p no:cacheprovider $(CHECK_PYTESTS)

check-c: $(CBUILD)/check/$(CORE_CC)/build.ninja
	P256_TEST_ITERS=$(CHECK_ITERS) $(MESON) test -C $(<D) --suite quick --print-errorlogs
