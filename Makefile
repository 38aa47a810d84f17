# SPDX-License-Identifier: Apache-2.0
# make test / make bench: set up what they need (tools/bootstrap.sh: system packages;
# .venv: p256 with its extras), then run. Every target that needs a system tool has the
# order-only prerequisite bootstrap-<target>: as root with apt it installs what is
# missing, otherwise it prints the command to run and the target fails.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)
export PYTHON

# The compiler for the extension: clang when installed. The core's add-with-carry chains
# come out ~20% faster from clang 14 than from gcc 12 (README, Performance); gcc builds
# are supported and tested too (CCS below). Override with `make CORE_CC=gcc ...`.
CORE_CC ?= $(shell command -v clang >/dev/null 2>&1 && echo clang || echo cc)
# The extension's builds go through ccache when it is installed (tools/bootstrap.sh
# installs it where it can): the core's objects have no Python in them, so the venvs, the
# other CPythons' nox sessions and the sdist/wheel builds compile them once between them.
# Recursive (=): evaluated when a recipe runs, after its bootstrap prerequisite.
EXT_CC = $(if $(shell command -v ccache 2>/dev/null),ccache )$(CORE_CC)
# Every C compiler present builds and runs the C harnesses and the constant-time check,
# so the properties hold for what users' pip builds with, not only for our choice.
CCS     ?= $(sort $(CORE_CC) $(shell for c in gcc clang; do command -v $$c >/dev/null 2>&1 && echo $$c; done))

.PHONY: test ci check check-c check-py bounded pytest pytest-portable venv ctest ctime fuzz bench bench-c install clean asan \
        bench-c-bins bench-docs bench-plot \
        ctest-plants ctest-ifma-asan ctest-ifma-lanes ctest-precompute-random ctest-asan bench-batch \
        ctest-variants

bootstrap-%:
	@tools/bootstrap.sh $*

$(VPY): | bootstrap-venv
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

venv: $(VPY)

$(STAMP): $(VPY) $(SOURCES) Makefile
	CC="$(EXT_CC)" $(VPY) -m pip install -q '.[test,bench,typing]'
	touch $@

install: $(STAMP)

# ---- make test ------------------------------------------------------------------------
# Every part below is a make target; tools/make_test.sh runs them all (those in
# TEST_PARTS_BG as a queue that the second core works through beside the rest, and the
# first joins when its own parts are done), after one
# tools/bootstrap.sh for all of them, and ends with a summary: each part passed, FAILED,
# or SKIPPED with the reason. Any failure fails make test. A part skipped for a missing
# tool (one that bootstrap could not install: not root, no apt) or for a missing target
# fails it only with P256_STRICT=1 (CI; it replaces P256_REQUIRE_ARM64); a part's run
# skipped because this CPU lacks an instruction set (its log says "SKIP ... this CPU
# lacks ...") is listed, never an error. A new part: its target name in TEST_PARTS, and
# its system tools, if any, in tools/bootstrap.sh's needs() with `| bootstrap-<target>`.
# A part's own make variables pass through: make ci FUZZ_SECONDS=5 FUZZ_C_SECONDS=10.
# In make test the pytest suite under qemu-aarch64 runs on the assembly backend only
# (TEST_ARM64_PY_BACKENDS): the portable C is the same code pytest runs
# natively here, and its aarch64 build runs the C harnesses under qemu (test-arm64).
# make test-arm64-python alone runs both.
# The background queue holds the single-core parts that share nothing with .venv or with
# each other (asan has its own venv; test-arm64-python only downloads with .venv's pip;
# ctime, timing, mca-check and test-arm64 build their own binaries), the longest first, so
# that the two lanes end about together (make ci adds fuzz-smoke, which reinstalls .venv,
# to the first lane, and its C campaigns to the queue).
# make test is every deterministic part; make ci (what .ci/run runs) adds the time-boxed
# fuzz campaigns (CI_PARTS, CI_PARTS_BG; their budgets are FUZZ_SECONDS, FUZZ_C_SECONDS,
# FUZZ_PLANT_SECONDS, so a faster machine can run longer ones) and the statistical timing
# test (a verdict from measured cycle counts; make ctime is the deterministic proof).
TEST_PARTS    ?= ctest pytest pytest-portable typecheck docs pythons package
TEST_PARTS_BG ?= test-arm64 asan ctime test-arm64-python mca-check
CI_PARTS      ?= fuzz-smoke
CI_PARTS_BG   ?= timing ctest-ifma-lanes ctest-precompute-random fuzz tsan
# Last, alone on the machine: the parts whose checks compare times (tests/test_bounded_work.py
# requires 10x the input to cost at most 15x the time; beside valgrind on the other core,
# a 1 MiB input's cache misses alone broke that).
TEST_PARTS_AFTER ?= bounded
TEST_ARM64_PY_BACKENDS ?= asm
# ... and on the files that reach the binding and the core through every entry point,
# with the secp256r1 Wycheproof vectors through every path (~500 tests: under the emulator
# a test costs ~0.15 s; make test-arm64-python alone runs every file). Left to the native
# runs: the Python layer's handling of long streams and lists, which verifies 10^4 to
# 2 x 10^5 items a test (the memory bound of a stream and its control, a bad last item
# found before any verification, the order kept at every chunk edge; the other stream
# tests still cross chunk edges under it).
TEST_ARM64_PY_TESTS ?= tests/test_selftest.py tests/test_api.py tests/test_backend.py \
    tests/test_batch.py tests/test_batch_secret.py tests/test_p256verify.py tests/test_wycheproof.py \
    --deselect=tests/test_batch.py::test_a_generator_runs_in_bounded_memory \
    --deselect=tests/test_batch.py::test_memory_bound_catches_a_copy_of_the_stream \
    --deselect=tests/test_batch.py::test_a_bad_item_of_a_list_is_raised_before_any_verification \
    --deselect=tests/test_batch.py::test_chunk_edges_keep_input_order

TEST_ENV = MAKE="$(MAKE)" ARM64_PY_BACKENDS="$(TEST_ARM64_PY_BACKENDS)" ARM64_PY_TESTS="$(TEST_ARM64_PY_TESTS)"

test:
	@$(TEST_ENV) tools/make_test.sh --bg "$(TEST_PARTS_BG)" --after "$(TEST_PARTS_AFTER)" $(TEST_PARTS)

ci:
	@$(TEST_ENV) tools/make_test.sh --bg "$(TEST_PARTS_BG) $(CI_PARTS_BG)" --after "$(TEST_PARTS_AFTER)" \
	    $(TEST_PARTS) $(CI_PARTS)

# pytest runs the whole suite on the default field backend (the fastest this CPU runs)
# and, when that is an assembly backend, the quick set (tests/quick.txt: every entry point
# of the binding, the Wycheproof vectors through every path, the edge and differential
# tests) again with P256_BACKEND=portable, less its files that never depend on the
# backend (the command line, the fuzz targets' properties). What else the whole suite
# checks is the Python layer's, the same over either backend; the portable C itself is
# the C harnesses' (every one of them per compiler in make ctest).
# tests/test_bounded_work.py runs in neither: make bounded runs it alone, last; nor does
# tests/test_typing.py, make typecheck's (12 s of mypy and stubtest, run once).
# Exit status 5 (no tests collected) fails like any other.
pytest: $(STAMP) | bootstrap-pytest
	$(VPY) -m pytest -q --ignore=tests/test_bounded_work.py --ignore=tests/test_typing.py

# The bounds on work (time and memory against the input's size), run by make test alone.
bounded: $(STAMP) | bootstrap-pytest
	$(VPY) -m pytest -q tests/test_bounded_work.py

PORTABLE_PYTESTS = $(filter-out tests/test_cli.py tests/test_fuzz_targets.py,$(QUICK_TESTS))
pytest-portable: $(STAMP) | bootstrap-pytest
	@if [ "$$($(VPY) -c 'import p256; print(p256.backend())')" = portable ]; then \
	    echo "pytest-portable: SKIP: the default run was portable already (this CPU lacks the instructions of every assembly backend)"; \
	else \
	    echo "pytest with P256_BACKEND=portable"; \
	    P256_BACKEND=portable $(VPY) -m pytest -q $(PORTABLE_PYTESTS); \
	fi

# `p256 bench` through the venv's console script; options in BENCH_ARGS, e.g.
# make bench BENCH_ARGS="--quick --json bench.json" (see README, Performance).
BENCH_ARGS ?=

bench: $(STAMP) | bootstrap-bench
	$(VENV)/bin/p256 bench $(BENCH_ARGS)

# The core from C, per field backend this CPU runs, as Go benchmark lines, and
# `openssl speed ecdsap256 ecdhp256` in the same run with ratios (benchmarks/bench_c.py).
# Built like the extension (CORE_CC, -O3).
BENCH_C_VARIANTS = $(RUN_VARIANTS)

BENCH_C_BINS = $(foreach v,$(BENCH_C_VARIANTS),tests/c/bin/bench_core-$(v))

bench-c-bins:
	@mkdir -p tests/c/bin
	@set -e; $(foreach v,$(BENCH_C_VARIANTS),\
	    $(CORE_CC) -O3 -std=c99 -Icsrc -o tests/c/bin/bench_core-$(v) tests/c/bench_core.c $(VFLAGS_$(v));)

bench-c: bench-c-bins | bootstrap-bench-c
	$(PYTHON) benchmarks/bench_c.py $(BENCH_C_BINS)

# The performance page's figures, all anew (docs/performance.md, README.md; a few minutes):
# p256 bench, the C core beside openssl speed, verify_many by batch size and threads, the
# precomputed keys, each into benchmarks/results/*.json; then make bench-plot redraws
# docs/img/*.svg and the pages' generated tables from them (benchmarks/plot.py). Run it
# on an idle machine: every table says when, on what CPU and under what load it was taken.
BENCH_RESULTS ?= benchmarks/results
BENCH_DOCS_BATCH ?= --sizes 1,4,8,16,64,256,1000,10000,100000 --threads 1,2 --rounds 9 --budget 30000 --min-items 256
BENCH_DOCS_PRECOMPUTE ?= --rounds 15 --number 200 --tokens 0

bench-docs: $(STAMP) bench-c-bins | bootstrap-bench-c
	$(VENV)/bin/p256 bench --json $(BENCH_RESULTS)/ops.json
	$(VPY) benchmarks/bench_c.py --json $(BENCH_RESULTS)/c.json $(BENCH_C_BINS)
	$(VPY) benchmarks/bench_batch.py $(BENCH_DOCS_BATCH) --json $(BENCH_RESULTS)/batch.json
	$(VPY) benchmarks/bench_precompute.py $(BENCH_DOCS_PRECOMPUTE) --json $(BENCH_RESULTS)/precompute.json
	$(MAKE) --no-print-directory bench-plot

# Only the drawing: docs/img/*.svg and the generated tables from benchmarks/results/*.json.
bench-plot: $(STAMP)
	$(VPY) benchmarks/plot.py --results $(BENCH_RESULTS)

# llvm-mca's cycles per call of each kernel, assembly and portable C, on every CPU model
# of tools/mca.py; regenerates the table in docs/design.md. ~1 min here.
mca: | bootstrap-mca
	$(PYTHON) tools/mca.py --write

# make test's part: the table in docs/design.md is what this toolchain generates
# (a change to an assembly kernel or to a C twin must come with `make mca`). llvm-mca
# runs only when the digest the table records (of its streams, models, tools and text)
# does not match: then the table is regenerated and compared in full.
mca-check: | bootstrap-mca-check
	$(PYTHON) tools/mca.py --check

# Field backends, from csrc/variants.txt (meson.build reads it too): VFLAGS_<name> are a
# variant's compiler arguments (defines and sources), VCPU_<name> the CPU flags it needs,
# VRUNS_<name> is yes when this CPU has them. CVARIANTS: the variants of this host's
# architecture, which the C harnesses are built for; an assembly variant's binaries run
# only where the CPU has its flags (test_backend.c checks CPUID itself and prints a SKIP
# line elsewhere).
comma := ,
hash  := \#
VARIANT_ROWS := $(shell awk '$$1 !~ /^$(hash)/ && NF >= 6 {print $$1 "|" $$2 "|" $$4 "|" $$5 "|" $$6}' csrc/variants.txt)
VARIANTS     := $(foreach r,$(VARIANT_ROWS),$(firstword $(subst |, ,$(r))))
# $(call vcol,N,name): column N (2 arch, 3 cpu, 4 defines, 5 sources) of a variant, as words
vcol = $(subst $(comma), ,$(filter-out -,$(word $(1),$(subst |, ,$(filter $(2)|%,$(VARIANT_ROWS))))))
CPU_FLAGS := $(shell grep -m 1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null | cut -d: -f2)
$(foreach v,$(VARIANTS),$(eval VFLAGS_$(v) := $(call vcol,4,$(v)) $(call vcol,5,$(v))) \
    $(eval VCPU_$(v) := $(call vcol,3,$(v))) \
    $(eval VRUNS_$(v) := $(if $(filter-out $(CPU_FLAGS),$(VCPU_$(v))),,yes)))
CVARIANTS := $(foreach v,$(VARIANTS),$(if $(filter any $(shell uname -m),$(call vcol,2,$(v))),$(v)))
RUN_VARIANTS := $(foreach v,$(CVARIANTS),$(if $(VRUNS_$(v)),$(v)))

# C harnesses: every tests/c/test_*.c is built against the core's sources and run,
# once per compiler and per field backend. The harnesses that tests/c/run_core.c
# includes run from that one binary (the core compiled once for all of them; the files
# still build alone: `cc $(CTEST_FLAGS) -o t tests/c/test_api.c`), the others each from
# their own. `tests/c/bin/run_core-gcc-portable -t api` runs one. First: every variant
# has its backend.c entry (without one it would be built and never chosen).
# The random iterations: P256_TEST_ITERS, a percentage of each harness's default (unset:
# 100; 0: the fixed cases only; tests/c/harness.h), from the environment or the command
# line (make ctest P256_TEST_ITERS=10); the negative controls set their own. Unset, an
# assembly variant's random cases run in full once, with CORE_CC: its arithmetic is the
# same assembled bytes under every compiler (the C around it is the portable variant's,
# which every compiler runs in full), so another compiler runs the fixed cases and
# OTHER_CC_ASM_ITERS percent of the random ones (the rule: tools/test_share.sh; make
# test-arm64 follows it too). Not test_batch_ifma: its subject, the IFMA engine, is C that
# each compiler compiles anew.
OTHER_CC_ASM_ITERS ?= 10
# The same for the IFMA engine's emulated runs on a CPU with IFMA (the ctest target).
EMULATED_IFMA_ITERS ?= 10
CTEST_FLAGS ?= -O2 -std=c99 -Wall -Wextra -Werror -Icsrc
CORE_HARNESSES := $(shell sed -n 's/^\#include "\(test_[a-z0-9_]*\.c\)"/tests\/c\/\1/p' tests/c/run_core.c)
CTESTS      := tests/c/run_core.c $(filter-out $(CORE_HARNESSES),$(wildcard tests/c/test_*.c))
# The harnesses that no variant's defines or sources reach (AES, the hashes, safegcd, the
# IFMA emulation's intrinsics: tests/test_structure_csrc.py checks that nothing they
# include mentions P256_ASM): built and run once per compiler, with the first variant.
VARIANT_FREE := tests/c/test_aes.c tests/c/test_hash.c tests/c/test_hash_portable.c \
    tests/c/test_ifma_emu.c tests/c/test_modinv.c
# The harnesses whose subject has no field code but that reach the core (test_random: the
# OS generator's failures, seen through p256_sign), and the IFMA engine's harness (its own
# field arithmetic in radix 2^52; the core only as the oracle it compares lanes with,
# which run_core tests per variant): built once per compiler, with the last variant this
# CPU runs (test_batch_ifma natively: its build is the longest of ctest's, a run 10^5
# random lanes per multiplication).
NATIVE_ONCE  := tests/c/test_random.c tests/c/test_batch_ifma.c
IFMA_VARIANT := $(lastword $(RUN_VARIANTS))
# $(call ctests_of,variant): the harnesses ctest builds for it
ctests_of = $(filter-out $(if $(filter $(1),$(IFMA_VARIANT)),,$(NATIVE_ONCE)),\
    $(if $(filter $(1),$(firstword $(CVARIANTS))),$(CTESTS),$(filter-out $(VARIANT_FREE),$(CTESTS))))
HAVE_IFMA := $(if $(filter avx512ifma,$(CPU_FLAGS)),yes)
# The IFMA engine is a large part of a core build's compile time on x86-64 (docs/
# development.md), and a harness build only needs it where it runs: ENGINE_FREE harnesses never
# reach it, and run_core reaches it only on a CPU with IFMA. The engine's own harness
# builds it natively everywhere (run only on such a CPU: its code compiles warning-free
# with every compiler on any x86-64), and on the emulation. $(call engine_flags,HARNESS):
ENGINE_FREE  := tests/c/test_ecmult.c tests/c/test_random.c
NO_IFMA_FLAGS := $(if $(HAVE_IFMA),,-DP256_NO_IFMA)
engine_flags = $(if $(filter $(1),$(ENGINE_FREE)),-DP256_NO_IFMA,$(if $(filter $(1),tests/c/run_core.c),$(NO_IFMA_FLAGS)))

CTEST_ENV = CORE_CC=$(CORE_CC) HAVE_IFMA=$(HAVE_IFMA) OTHER_CC_ASM_ITERS=$(OTHER_CC_ASM_ITERS) \
    EMULATED_IFMA_ITERS=$(EMULATED_IFMA_ITERS)

# tools/ctest.sh builds and runs one harness per call; then the IFMA engine once more per
# compiler on the portable emulation of its intrinsics (csrc/modules/batch/ifma_emu.h), so
# that it is tested on every CPU (test_ifma_emu.c checks the emulation against the
# instructions where the CPU has them; there the native runs had the engine's random
# cases in full with each compiler, and the emulated runs take EMULATED_IFMA_ITERS percent).
ctest: | bootstrap-ctest
	@tools/ctest.sh backends $(VARIANTS)
	@set -e; $(foreach v,$(CVARIANTS),for cc in $(CCS); do $(foreach t,$(call ctests_of,$(v)),\
	    $(CTEST_ENV) VARIANT=$(v) VARIANT_ASM="$(call vcol,5,$(v))" VARIANT_LACKS="$(if $(VRUNS_$(v)),,$(VCPU_$(v)))" \
	    tools/ctest.sh harness $$cc $(t) $(call engine_flags,$(t)) -- $(VFLAGS_$(v));) done;)
	@set -e; for cc in $(CCS); do $(CTEST_ENV) tools/ctest.sh emulated $$cc; done
	@$(MAKE) --no-print-directory ctest-plants ctest-variants

# The harnesses' negative controls (tools/plants.py; `tools/plants.py --list` names each
# plant and the harness that must catch it): a planted bug in the core that a harness run
# passes with means that harness is blind to it. The plants in C are compiled into one
# plant build per harness binary and armed one at a time at run time (P256_PLANT=kind:n,
# csrc/common.h); the assembly's are assembled in and linked with the same object. A
# negative control shows what the harness's source can see: one compiler (CORE_CC) and
# one variant (the last this CPU runs, with its assembly plants) do. The IFMA engine's
# plants run where its instructions are: natively on a CPU with IFMA, else on the
# emulation (IFMA_PLANT_MODES="native emulated" runs both; native is skipped without IFMA).
PLANT_VARIANT    ?= $(lastword $(RUN_VARIANTS))
IFMA_PLANT_MODES ?= $(if $(HAVE_IFMA),native,emulated)
export CTEST_FLAGS
ctest-plants: | bootstrap-ctest
	$(PYTHON) tools/plants.py core $(CORE_CC) $(PLANT_VARIANT) --cflags="$(call engine_flags,tests/c/run_core.c)"
	@set -e; for m in $(IFMA_PLANT_MODES); do $(PYTHON) tools/plants.py ifma $(CORE_CC) $$m; done
	$(PYTHON) tools/plants.py ifma_emu $(CORE_CC)

# make ci's long part for the IFMA engine's constant-time lanes: 10^5 random lanes of k*G
# and of k*Q against the core's on the emulation (make ctest runs fewer there, 10^5
# natively); about 80 s on an Intel Xeon with IFMA.
IFMA_LANES ?= 100000
ctest-ifma-lanes: | bootstrap-ctest
	@mkdir -p tests/c/bin
	$(CORE_CC) $(CTEST_FLAGS) -DP256_IFMA_EMULATE -o tests/c/bin/test_batch_ifma-lanes tests/c/test_batch_ifma.c
	P256_TEST_ITERS=0 tests/c/bin/test_batch_ifma-lanes -l $(IFMA_LANES)

# make ci's long part for the per-key tables: test_precompute.c once (CORE_CC, the fastest
# backend) at PRECOMPUTE_ITERS percent of its random cases, 10^5 differential cases of the
# two-comb verification against the wNAF path (make ctest runs 2 x 10^4 per compiler and
# backend).
PRECOMPUTE_ITERS ?= 500
ctest-precompute-random: | bootstrap-ctest
	@mkdir -p tests/c/bin
	$(CORE_CC) $(CTEST_FLAGS) -DP256_NO_IFMA -o tests/c/bin/test_precompute-random tests/c/test_precompute.c $(VFLAGS_$(lastword $(RUN_VARIANTS)))
	P256_TEST_ITERS=$(PRECOMPUTE_ITERS) tests/c/bin/test_precompute-random

# p256_pubkey is one representation in every variant (p256.h): tests/c/variants_pubkey.c
# linked with an object of each variant this CPU runs (as the extension links them). A
# layout, not code generation: one compiler.
ctest-variants: | bootstrap-ctest
	@mkdir -p tests/c/bin
	@set -e; for cc in $(CORE_CC); do objs=""; srcs=""; defs=""; \
	$(foreach v,$(RUN_VARIANTS),o=tests/c/bin/p256-$(v)-$$cc.o; \
	    $$cc $(CTEST_FLAGS) -DP256_NO_IFMA -c -DP256_VARIANT=p256_api_$(v) $(call vcol,4,$(v)) -o $$o csrc/p256.c; \
	    objs="$$objs $$o"; srcs="$$srcs $(call vcol,5,$(v))"; \
	    defs="$$defs -DHAVE_$$(echo $(v) | tr a-z A-Z)";) \
	b=tests/c/bin/variants_pubkey-$$cc; \
	$$cc $(CTEST_FLAGS) $$defs -o $$b tests/c/variants_pubkey.c $$objs $$srcs; \
	echo "ctest-variants [$$cc]: $$($$b)"; done

# test_batch_ifma.c with ASan + UBSan (also run by make asan) on the emulation, at fewer
# rounds (50 s on AMD EPYC Zen 4; at -O0 it took 290 s, 250 of them in the engine's
# verification cases). Not natively: every 64-byte vector access takes ASan's slow
# region check, and the native build at -O0 ran past 200 s at P256_TEST_ITERS=0 on an
# Intel Xeon with IFMA (its frames also outgrew an 8 MB stack). The emulated build runs
# the same engine code, its vector loads and stores as 64-byte memory accesses that ASan
# checks the same way.
ctest-ifma-asan: | bootstrap-ctest
	@mkdir -p tests/c/bin
	$(ASAN_CC) $(ASAN_FLAGS) -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_IFMA_EMULATE -o tests/c/bin/test_batch_ifma-asan-emulated tests/c/test_batch_ifma.c
	P256_TEST_ITERS=5 tests/c/bin/test_batch_ifma-asan-emulated

# The core's harnesses (tests/c/run_core.c, every one) with ASan + UBSan, on the fastest
# backend this CPU runs, at a tenth of their iterations (also run by make asan: 9 s to
# build, 20 s to run on AMD EPYC Zen 4). Built as the sanitized extension is
# (ASAN_EXT_FLAGS: without the IFMA engine, which ctest-ifma-asan checks on its
# emulation; with it, clang 14 took 16 min for one core harness at -O1 on a Zen 3).
ctest-asan: | bootstrap-ctest
	@mkdir -p tests/c/bin
	$(ASAN_CC) $(ASAN_EXT_FLAGS) -std=c99 -Wall -Wextra -Werror -Icsrc -Itests/c -o tests/c/bin/run_core-asan tests/c/run_core.c $(VFLAGS_$(lastword $(RUN_VARIANTS)))
	P256_TEST_ITERS=10 tests/c/bin/run_core-asan

# The batch engine against the scalar loop, per signature (tests/c/bench_batch.c).
bench-batch:
	@mkdir -p tests/c/bin
	$(CORE_CC) -O3 -std=c99 -Icsrc -o tests/c/bin/bench_batch tests/c/bench_batch.c $(VFLAGS_$(lastword $(RUN_VARIANTS)))
	tests/c/bin/bench_batch

# Constant-time check (tools/ctime.sh): the checks are built with P256_CTIME_TEST (secrets
# marked undefined) at the release optimization level and run under valgrind memcheck,
# which fails on any branch or memory index that depends on a secret. Per compiler (CCS)
# and per field backend this CPU runs (CTIME_VARIANTS; the others are named in a SKIP
# line): tests/c/run_ctime.c, the core's checks in one binary (random keys, edge values,
# the arithmetic mod n and the table scans, both scan paths, the IFMA engine on the
# emulation of its intrinsics), then its negative controls, deliberate leaks that
# valgrind must report, or the check itself is broken (a branch, a secret index, both
# through the emulated IFMA intrinsics, and a branch after the backend's field product,
# after the product mod n and after the scan: valgrind tracks secrets through the
# assembly). Per compiler: AES, the hashes, modinv. Once: the batch dispatch.
# Debug information: line tables only (-g1), enough for a report's file, line and
# enclosing function; full -g also names the inlined functions on the way, and makes
# gcc's builds much slower (docs/development.md): CTIME_FLAGS="... -g ..." to dig into one.
CTIME_FLAGS    ?= -O3 -gdwarf-4 -g1 -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST
CTIME_VARIANTS ?= $(RUN_VARIANTS)
export CTIME_FLAGS

ctime: | bootstrap-ctime
	@$(foreach v,$(filter-out $(CTIME_VARIANTS),$(CVARIANTS)),echo "ctime [$(v)]: SKIP $(v): this CPU lacks $(VCPU_$(v))";)
	@set -e; $(foreach v,$(CTIME_VARIANTS),for cc in $(CCS); do tools/ctime.sh backend $$cc $(v) $(VFLAGS_$(v)); done;)
	@set -e; for cc in $(CCS); do tools/ctime.sh common $$cc; done
	@tools/ctime.sh engine $(CORE_CC) $(if $(HAVE_IFMA),yes,no)

# Timing test (tools/timing.sh over tests/c/timing_core.c, dudect-style: fixed-vs-random
# secrets, Welch's t on cropped cycle counts), built like the extension (CORE_CC, -O3)
# once per field backend this CPU runs (the IFMA engine only where the CPU runs it; the
# controls, on the product mod n, never reach it). make timing: TIMING_N measurements per test (short: it catches
# the plants and gross leaks), then the negative controls: the modn target with a planted
# branch on a secret bit (TIMING_PLANT=1) and with a planted load at a secret index (=2)
# must each be flagged for every class, or the harness is broken. A test over the alarm
# (|t| > 10) is rerun with new inputs and fails only if the rerun is over it too (a shared
# VM has bursts). make timing-long: TIMING_SECONDS for all backends and tests together
# (TIMING_TARGETS: a subset by name, e.g. "sign_det modn"); results in docs/security.md.
TIMING_FLAGS   ?= -O3 -std=c99 -Wall -Wextra -Werror -Icsrc
TIMING_N       ?= 20000
TIMING_SECONDS ?= 600
TIMING_TARGETS ?=
export TIMING_FLAGS TIMING_N TIMING_TARGETS
# The plants are the harness's, not a backend's: they run on one (the last this CPU runs).
TIMING_PLANT_VARIANT ?= $(lastword $(RUN_VARIANTS))
.PHONY: timing timing-long

timing: | bootstrap-timing
	@echo "timing: CPU $$(tools/timing.sh cpu), $(CORE_CC)"
	@$(foreach v,$(filter-out $(RUN_VARIANTS),$(CVARIANTS)),echo "timing [$(v)]: SKIP $(v): this CPU lacks $(VCPU_$(v))";)
	@set -e; $(foreach v,$(RUN_VARIANTS),tools/timing.sh backend $(CORE_CC) $(v) $(NO_IFMA_FLAGS) -- $(VFLAGS_$(v));)
	@tools/timing.sh plants $(CORE_CC) $(TIMING_PLANT_VARIANT) -- $(VFLAGS_$(TIMING_PLANT_VARIANT))

timing-long: | bootstrap-timing
	@echo "timing-long: CPU $$(tools/timing.sh cpu), $(CORE_CC), $(TIMING_SECONDS) s over $(words $(RUN_VARIANTS)) backends"
	@rc=0; $(foreach v,$(RUN_VARIANTS),tools/timing.sh long $(CORE_CC) $$(( $(TIMING_SECONDS) / $(words $(RUN_VARIANTS)) )) \
	    $(v) -- $(VFLAGS_$(v)) || rc=1;) exit $$rc

# make asan: the extension built with AddressSanitizer and UBSan in its own venv
# (.venv-asan), then tools/asan.sh: the checks that it can fail first (the extension
# carries the sanitizers' hooks; the negative controls of tests/c/asan_canary.c, loaded
# into the same sanitized interpreter, are each reported), the C harnesses under the
# sanitizers, and pytest in an interpreter with the ASan runtime preloaded (the python
# binary itself is not instrumented; Python's objects go through ASan's allocator). Every
# report goes to a log file under ASAN_LOGS (subprocesses included); any fails the target.
ASAN_VENV  := .venv-asan
ASAN_PY    := $(ASAN_VENV)/bin/python
ASAN_STAMP := $(ASAN_VENV)/.p256-installed
ASAN_CC    ?= clang
# -O1, as libFuzzer's and OSS-Fuzz's sanitizer builds: -O0 made the emulated engine's
# harness 5x and the sanitized pytest run 2x slower. Line tables for the reports' stacks.
ASAN_FLAGS ?= -O1 -gline-tables-only -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_RT     = $(shell $(ASAN_CC) -print-file-name=$(if $(findstring clang,$(ASAN_CC)),libclang_rt.asan-$(shell uname -m).so,libasan.so))
ASAN_LOGS  := tests/c/bin/asan
# The quick set (tests/quick.txt): it reaches every entry point of the binding, which is
# what the sanitizers watch; the rest of the suite runs the same C code on more vectors
# (the C harnesses run under ASan too, below). Less the command line's tests: Python over
# the same entry points, and their subprocesses would each start under the ASan preload.
# The whole suite:
# make asan ASAN_PYTEST_ARGS=--ignore=tests/test_scale_out.py (its worker processes would
# inherit the ASan preload).
QUICK_TESTS      := $(shell grep -v '^\#' tests/quick.txt)
ASAN_PYTEST_ARGS ?= $(filter-out tests/test_cli.py,$(QUICK_TESTS))

# The sanitized extension leaves the IFMA engine out (P256_NO_IFMA; its memory safety is
# ctest-ifma-asan's, on the emulation): at -O0 its 8-lane frames overflowed the main
# thread's 8 MB stack under ASan in verify_many, each 64-byte vector access takes ASan's
# slow check (minutes per batch test on an Intel Xeon with IFMA), and at -O1 clang 14
# compiles it for many minutes.
ASAN_EXT_FLAGS ?= $(ASAN_FLAGS) -DP256_NO_IFMA
$(ASAN_STAMP): $(SOURCES) Makefile | bootstrap-asan
	test -x $(ASAN_PY) || { $(PYTHON) -m venv $(ASAN_VENV) && $(ASAN_PY) -m pip install -q --upgrade pip; }
	CC=$(ASAN_CC) CFLAGS="$(ASAN_EXT_FLAGS)" LDFLAGS="$(ASAN_FLAGS)" $(ASAN_PY) -m pip install -q '.[test]'
	touch $@

asan: $(ASAN_STAMP) | bootstrap-asan
	@ASAN_CC="$(ASAN_CC)" ASAN_FLAGS="$(ASAN_FLAGS)" ASAN_RT="$(ASAN_RT)" ASAN_VENV=$(ASAN_VENV) \
	    ASAN_LOGS=$(ASAN_LOGS) MAKE="$(MAKE)" tools/asan.sh $(ASAN_PYTEST_ARGS)

# make tsan (tools/tsan.py, whose header says how): the extension built with gcc's
# ThreadSanitizer in .venv-tsan, its planted race reported first, then TSAN_TESTS (pytest
# arguments; default the thread-hammer tests, tools/tsan.py's TESTS): any report fails.
TSAN_TESTS ?=
.PHONY: tsan
tsan: | bootstrap-tsan
	$(PYTHON) tools/tsan.py $(TSAN_TESTS)

# A short libFuzzer campaign (clang, with ASan and UBSan) over every parser of untrusted
# bytes, checking round-trip and strictness properties, not only the absence of crashes
# (tests/c/fuzz_parse.c). Seeds: tests/c/fuzz_corpus (tools/gen_fuzz_corpus.py); what the
# fuzzer finds along the way stays in tests/c/bin/fuzz_work. A time-boxed campaign:
# FUZZ_C_SECONDS (about 28,000 inputs a second on AMD EPYC Zen 4), FUZZ_RUNS a cap on the
# inputs (-1: none). Without the IFMA engine, which no parser reaches: with it, clang 14
# compiled this file for 17 minutes (ASan, UBSan and -O1 over its 8-lane functions),
# without it in 12 s.
FUZZ_C_SECONDS ?= 120
FUZZ_RUNS  ?= -1
FUZZ_FLAGS ?= -O1 -g -std=c99 -Icsrc -DP256_NO_IFMA -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
# Per-input limits: a slow or memory-hungry input is a finding. Each input is parsed in
# microseconds and the parsers allocate nothing, so 5 s (wall clock: margin for a loaded
# machine and the sanitizers) and 512 MiB of RSS (ASan's shadow included) mean a bug.
FUZZ_LIMITS ?= -timeout=5 -rss_limit_mb=512 -malloc_limit_mb=64

fuzz: | bootstrap-fuzz
	@mkdir -p tests/c/bin/fuzz_work
	clang $(FUZZ_FLAGS) -o tests/c/bin/fuzz_parse tests/c/fuzz_parse.c
	@echo "fuzz: tests/c/bin/fuzz_parse -max_total_time=$(FUZZ_C_SECONDS) -runs=$(FUZZ_RUNS)"
	@tests/c/bin/fuzz_parse -max_total_time=$(FUZZ_C_SECONDS) -runs=$(FUZZ_RUNS) -seed=1 $(FUZZ_LIMITS) \
	    tests/c/bin/fuzz_work tests/c/fuzz_corpus \
	    > tests/c/bin/fuzz.log 2>&1 || { tail -n 40 tests/c/bin/fuzz.log; echo "fuzz: FAILED"; exit 1; }
	@tail -n 1 tests/c/bin/fuzz.log

# make fuzz-smoke (tools/fuzz_smoke.sh): atheris (libFuzzer for Python) over the public
# Python API, one target per entry point (tests/fuzz/targets.py; `python tests/fuzz/run.py
# --list`), each with a
# differential oracle (pyca/cryptography, p256.reference) and round-trip checks, for
# FUZZ_SECONDS each. Installs the `fuzz` extra (atheris) into .venv. Seeds are generated
# from the Wycheproof vectors into tests/fuzz/bin/seeds (tools/gen_py_fuzz_corpus.py);
# what the fuzzer finds along the way accumulates in tests/fuzz/bin/work; a finding
# fails the target after all have run, its reproducer kept in tests/fuzz/bin/crashes
# (replay: .venv/bin/python tests/fuzz/run.py TARGET FILE). The DER, PEM, COSE, JWS and
# X.509 targets hold each input to a per-input limit of CPU time and peak Python memory
# (targets.bounded: 0.25 s, 64 x the input + 1 MiB), so a slow input is a finding too;
# -timeout and -rss_limit_mb below are the whole process's backstop (the key derivations
# of priv_encrypted legitimately take seconds). Then the negative controls:
# with P256_FUZZ_PLANT each planted bug must be found by its target, starting from one
# valid input (seeds/controls), within FUZZ_PLANT_SECONDS, or the harness is broken.
# The time to the planted bug varies widely between campaigns (libFuzzer's random
# mutations; measured here from a few seconds to over 60 s for one plant), so each
# control gets up to FUZZ_PLANT_TRIES independent campaigns from the same one input:
# a broken harness fails them all.
# Longer: make fuzz-smoke FUZZ_SECONDS=600.
FUZZ_SECONDS       ?= 25
FUZZ_PLANT_SECONDS ?= 60
FUZZ_PLANT_TRIES   ?= 5
FUZZ_TARGETS       ?= pub_bytes pub_der pub_pem pub_jwk priv_der priv_pem priv_jwk verify_der verify_raw p256verify cose_key jws_verify x509_cert recover priv_encrypted point_bytes scalar_bytes oprf_element oprf_finalize
FUZZ_PLANTS        ?= offcurve:pub_bytes sig-trailing:verify_der eip-length:p256verify recover-digest-tail:recover pad-message:priv_encrypted slow-der:pub_der der-memory:pub_der oprf-trailing:oprf_element proof-unchecked:oprf_finalize
FUZZ_OPTIONS       ?= -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
# A negative control's campaign: inputs longer than the valid one from the start
# (len_control 0: sig-trailing needs a longer input, and libFuzzer's default grows the
# limit only after long plateaus) and one mutation at a time (each bug is one mutation
# away from its valid input: sig-trailing a byte appended, found here after 2,500 to
# 28,000 inputs, which a loaded machine runs in 10 to 110 s; hence up to 5 campaigns).
FUZZ_PLANT_OPTIONS ?= -len_control=0 -mutate_depth=1
FUZZ_DIR           := tests/fuzz/bin
FUZZ_STAMP         := $(VENV)/.p256-fuzz-installed

export FUZZ_DIR FUZZ_TARGETS FUZZ_SECONDS FUZZ_OPTIONS FUZZ_PLANTS FUZZ_PLANT_TRIES FUZZ_PLANT_SECONDS \
    FUZZ_PLANT_OPTIONS
.PHONY: fuzz-smoke

$(FUZZ_STAMP): $(VPY) $(SOURCES) Makefile
	CC="$(EXT_CC)" $(VPY) -m pip install -q '.[test,bench,fuzz]'
	touch $(STAMP) $@

fuzz-smoke: $(FUZZ_STAMP) | bootstrap-fuzz-smoke
	@VPY="$(VPY)" tools/fuzz_smoke.sh

clean:
	rm -rf $(VENV) $(ASAN_VENV) .venv-tsan build dist tests/c/bin

# ---- AArch64 (arm64) -----------------------------------------------------------------
# make test-arm64 (tools/test_arm64.sh, whose header says what runs and why): the arm64
# assembly and PSTATE.DIT cross-compiled, checked instruction by instruction, and run
# under qemu-aarch64 user-mode emulation, with every compiler that can target aarch64
# here; then the assembly's planted bugs. The tools (Debian: gcc-aarch64-linux-gnu
# libc6-dev-arm64-cross qemu-user) come from tools/bootstrap.sh. The assembly variant's
# arguments are csrc/variants.txt's aarch64_asm.
ARM64_CC      ?= aarch64-linux-gnu-gcc
ARM64_CLANG   ?= clang --target=aarch64-linux-gnu
ARM64_OBJDUMP ?= aarch64-linux-gnu-objdump
ARM64_READELF ?= aarch64-linux-gnu-readelf
ARM64_QEMU    ?= qemu-aarch64
ARM64_SYSROOT ?= /usr/aarch64-linux-gnu
ARM64_RUN     := $(ARM64_QEMU) -L $(ARM64_SYSROOT)
ARM64_FLAGS   ?= -O2 -std=c99 -Wall -Wextra -Werror -Icsrc
ARM64_ASM     := $(call vcol,5,aarch64_asm)
ARM64_VFLAGS  := $(VFLAGS_aarch64_asm)
ARM64_BIN     := tests/c/bin/arm64
# run_core's harnesses on the assembly backend under qemu (the portable one: test_core.c)
ARM64_CORE_HARNESSES ?= core api point_asm scalar_asm
ARM64_IFMA_SECTIONS  ?= field points ecmult gen const
# The instructions the .S may contain (all on the Arm ARM's DIT list, or loads/stores
# at fixed offsets from the argument pointers or sp, or the bti landing pad, alignment
# nops, ret; movk builds constants; the AdvSIMD add, bit, cmeq, dup of the table scan).
# group_aarch64.S adds the masks and selections (and, orr, cmp, csetm), the halving
# and shifts (sbfx, extr), its frame (str) and the signing of the spilled link register
# (paciasp, autiasp). Every function symbol must start with bti c.
ARM64_ASM_OK  := adc adcs add adds and autiasp bit bti cmeq cmp csel cset csetm dup extr ldp ldr \
                 lsl lsr mov movk mul nop orr paciasp ret sbc sbcs sbfx stp str sub subs umulh
# The exported functions, each of which must be present (and so start with bti c).
ARM64_ASM_FNS := p256_fe_mul_aarch64 p256_fe_sqr_aarch64 p256_jac_double_aarch64 \
                 p256_jac_add_aarch64 p256_jac_add_aff_aarch64 p256_jac_add_aff_partial_aarch64 \
                 p256_scalar_mont_mul_aarch64 p256_scalar_mont_sqr_aarch64 \
                 p256_aff_lookup_16_aarch64 p256_aff_lookup_64_aarch64

export ARM64_CC ARM64_CLANG ARM64_OBJDUMP ARM64_READELF ARM64_RUN ARM64_FLAGS ARM64_ASM ARM64_VFLAGS \
    ARM64_ASM_OK ARM64_ASM_FNS ARM64_CORE_HARNESSES ARM64_IFMA_SECTIONS ARM64_BIN

.PHONY: test-arm64 bench-arm64

test-arm64: | bootstrap-test-arm64
	@ARM64_OTHER_CC_ITERS=$(OTHER_CC_ASM_ITERS) tools/test_arm64.sh

# The pytest suite on aarch64 under qemu, with the assembly and with the portable backend
# (tools/test_arm64_python.sh: Debian's arm64 python3.11 unpacked into a private sysroot,
# aarch64 wheels of the test dependencies fetched by the venv's pip, the extension
# cross-compiled; the tests of the pure-Python reference and of the generators, which
# cannot depend on the architecture, run natively only). It fetches ~30 MB
# once (cached in build/arm64-python). ARM64_PY_BACKENDS: asm, portable (default both;
# make test: asm only, TEST_ARM64_PY_BACKENDS above).
.PHONY: test-arm64-python
test-arm64-python: $(VPY) | bootstrap-test-arm64-python
	ARM64_CC="$(ARM64_CC)" ARM64_QEMU="$(ARM64_QEMU)" PYTHON="$(VPY)" bash tools/test_arm64_python.sh

# The C benchmarks under qemu for the assembly and the portable backends (gcc -O2): the
# times are the emulator's, only a proxy for hardware, plus exact instruction counts
# from qemu's single-step trace. BENCH_ARM64_ROUNDS alternating runs, medians.
BENCH_ARM64_ROUNDS ?= 3

bench-arm64: | bootstrap-test-arm64
	@mkdir -p $(ARM64_BIN)
	$(ARM64_CC) -O2 -std=c99 -Icsrc -o $(ARM64_BIN)/bench_core-asm tests/c/bench_core.c $(ARM64_VFLAGS)
	$(ARM64_CC) -O2 -std=c99 -Icsrc -o $(ARM64_BIN)/bench_core-portable tests/c/bench_core.c
	$(ARM64_CC) -O2 -std=c99 -Icsrc -o $(ARM64_BIN)/bench_field-asm tests/c/bench_field.c $(ARM64_VFLAGS)
	$(ARM64_CC) -O2 -std=c99 -Icsrc -o $(ARM64_BIN)/bench_field-portable tests/c/bench_field.c
	$(PYTHON) tools/bench_arm64.py --run "$(ARM64_RUN)" --rounds $(BENCH_ARM64_ROUNDS) --bin $(ARM64_BIN)

# ---- docs ----
# make docs: the documentation site (mkdocs.yml: docs/*.md and a reference generated from
# the docstrings) into build/site with `mkdocs build --strict`, so any warning (a broken
# link or anchor, a docstring that does not parse) fails. It installs the packages of the
# `docs` extra into .venv, read from pyproject.toml so that the extra stays their only
# list (tomllib: Python >= 3.11); p256 itself is not rebuilt, since mkdocstrings reads
# src/ without importing it. The code blocks of the docs run in tests/test_docs.py.
DOCS_STAMP := $(VENV)/.p256-docs-installed

$(DOCS_STAMP): $(VPY) pyproject.toml
	$(VPY) -c 'import subprocess, sys, tomllib; reqs = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["docs"]; subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", *reqs])'
	touch $@

.PHONY: docs
docs: $(DOCS_STAMP)
	$(VENV)/bin/mkdocs build --strict

# ---- typecheck ----
# mypy --strict ([tool.mypy] in pyproject.toml: python_version 3.9) over the package
# (reference.py and the _core/_allocstat stubs included) and the typed usage sample
# tests/typing/usage.py; then tests/test_typing.py: the negative twin usage_bad.py (every
# tagged wrong call reported, nothing else), the installed package's py.typed and stubs,
# stubtest of the stubs against the built extension, and the sample run as a program.
# mypy comes from the `typing` extra (its requirement is read from pyproject.toml).
TYPING_REQ = $(shell sed -n 's/^typing = \[\(.*\)\].*/\1/p' pyproject.toml)

.PHONY: typecheck
typecheck: $(STAMP)
	@$(VPY) -c 'import mypy' 2>/dev/null || $(VPY) -m pip install -q $(TYPING_REQ)
	$(VPY) -m mypy
	$(VPY) -m pytest -q tests/test_typing.py

# ---- package ----
# make pythons: the quick subset of the suite (import, self-test, API, vectors, CLI) on
# every other CPython 3.9-3.15, one nox session per interpreter, each building p256 into
# its own venv, 3.14 and 3.15 with the type check and the package checks too (noxfile.py;
# interpreters from pyenv, PATH, or a kept chroot of Debian's testing suite for 3.13-3.15,
# tools/debian_pythons.py; a missing one is reported, and fails with P256_STRICT=1; the
# default python is skipped there: make test runs the full suite on it; no interpreter
# run fails). NOX_ARGS e.g. "-s py3.12" or "-- tests/test_cli.py".
# make package: `python -m build` makes the sdist and, from it, the wheel in build/dist;
# tools/check_package.py checks the wheel's files, its manylinux tag (auditwheel), the
# sdist's files, and installs the sdist into a fresh venv to import and self-test it.
# Both use the `dev` dependency group of pyproject.toml (nox, uv, build, auditwheel) in .venv.
DEV_STAMP := $(VENV)/.p256-dev-installed
PKG_DIST  := build/dist
NOX_ARGS  ?=

.PHONY: pythons package

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

.PHONY: clean-package
clean: clean-package
clean-package:
	rm -rf .nox

# ---- make check: the quick loop ------------------------------------------------------
# After an edit, minutes: one compiler (CORE_CC), the native backend and the portable one,
# every C harness at a small iteration count (P256_TEST_ITERS=$(CHECK_ITERS), a percentage of
# the default, harness.h; rebuilt only when its file or the core
# changed: each binary is a file target), ruff, mypy, and the quick pytest set
# (tests/quick.txt) against an editable install in .venv-check (meson-python rebuilds only
# what changed, at import; a Python edit needs no rebuild at all). make test is the whole
# check. One harness: make check-c CHECK_HARNESSES=test_hash; one test file:
# .venv-check/bin/python -m pytest tests/test_formats.py.
CHECK_VENV   := .venv-check
CHECK_PY     := $(CHECK_VENV)/bin/python
CHECK_STAMP  := $(CHECK_VENV)/.p256-editable
CHECK_BIN    := tests/c/bin/check
CHECK_VARIANTS := $(sort portable $(lastword $(RUN_VARIANTS)))
CHECK_HARNESSES ?= $(basename $(notdir $(CTESTS)))
CHECK_ITERS  ?= 1
CORE_DEPS    := $(wildcard csrc/*.h csrc/*.c csrc/modules/*/*.h csrc/asm/*.S tests/c/*.h)
BUILD_REQ     = $(shell sed -n 's/^requires = \[\(.*\)\]/\1/p' pyproject.toml)
# Per variant what make ctest builds for it (ctests_of: the variant-free and native-once
# harnesses once), the native IFMA harness only where it runs.
CHECK_BINS   := $(foreach v,$(CHECK_VARIANTS),$(foreach t,$(filter-out $(if $(HAVE_IFMA),,tests/c/test_batch_ifma.c),\
    $(call ctests_of,$(v))),$(if $(filter $(basename $(notdir $(t))),$(CHECK_HARNESSES)),$(CHECK_BIN)/$(basename $(notdir $(t)))-$(v))))

# The C and the Python halves in parallel (two jobs). The hygiene tests (a second or so:
# every source file's SPDX line) ride along, so a new file without one fails here first.
HYGIENE_TESTS := tests/test_license.py
CHECK_PYTESTS ?= $(QUICK_TESTS) $(HYGIENE_TESTS)
check:
	@$(MAKE) --no-print-directory -j2 check-style check-c check-py

# The house style of the C sources (tools/check_c_style.py: line length, SPDX line, tabs,
# trailing spaces, include guards named after their header; generated files skipped).
.PHONY: check-style
check-style:
	@$(PYTHON) tools/check_c_style.py

$(CHECK_STAMP): pyproject.toml meson.build | bootstrap-pytest
	test -x $(CHECK_PY) || { $(PYTHON) -m venv $(CHECK_VENV) && $(CHECK_PY) -m pip install -q --upgrade pip; }
	$(CHECK_PY) -m pip install -q $(BUILD_REQ) ninja
	CC="$(EXT_CC)" $(CHECK_PY) -m pip install -q --no-build-isolation -e '.[test,typing,lint]'
	touch $@

check-py: $(CHECK_STAMP)
	$(CHECK_VENV)/bin/ruff check --no-cache .
	$(CHECK_PY) -m mypy
	$(CHECK_PY) -m pytest -q -p no:cacheprovider $(CHECK_PYTESTS)

# $(CHECK_BIN)/HARNESS-VARIANT from tests/c/HARNESS.c
define CHECK_RULE
$(CHECK_BIN)/%-$(1): tests/c/%.c $(CORE_DEPS) | bootstrap-ctest
	@mkdir -p $(CHECK_BIN)
	$(CORE_CC) $(CTEST_FLAGS) $$(call engine_flags,$$<) -Itests/c -o $$@ $$< $(VFLAGS_$(1))
endef
$(foreach v,$(CHECK_VARIANTS),$(eval $(call CHECK_RULE,$(v))))

# and the IFMA engine on the emulation of its intrinsics, which runs on every CPU
CHECK_BINS += $(CHECK_BIN)/test_batch_ifma-emulated
$(CHECK_BIN)/test_batch_ifma-emulated: tests/c/test_batch_ifma.c $(CORE_DEPS) | bootstrap-ctest
	@mkdir -p $(CHECK_BIN)
	$(CORE_CC) $(CTEST_FLAGS) -DP256_IFMA_EMULATE -o $@ $<

check-c: $(CHECK_BINS)
	@set -e; for b in $(CHECK_BINS); do P256_TEST_ITERS=$(CHECK_ITERS) $$b > $$b.log 2>&1 || { cat $$b.log; \
	    echo "check-c: FAILED: $$b"; exit 1; }; echo "check-c: $$(tail -n 1 $$b.log)"; done
