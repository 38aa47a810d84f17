# make test / make bench: create .venv when missing, install p256 with its extras, run.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)

.PHONY: test ctest ctime bench install clean

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): $(VPY) $(SOURCES)
	$(VPY) -m pip install -q '.[test,bench]'
	touch $@

install: $(STAMP)

test: $(STAMP) ctest ctime
	$(VPY) -m pytest -q

# C harnesses: every tests/c/test_*.c is built against the core's sources and run.
CC          ?= cc
CTEST_FLAGS ?= -O2 -std=c99 -Wall -Wextra -Werror -Icsrc
CTESTS      := $(wildcard tests/c/test_*.c)

ctest:
	@mkdir -p tests/c/bin
	@set -e; for t in $(CTESTS); do \
	    b=tests/c/bin/$$(basename $$t .c); \
	    echo "ctest: $$b"; \
	    $(CC) $(CTEST_FLAGS) -o $$b $$t; \
	    $$b; \
	done

bench: $(STAMP)
	$(VPY) benchmarks/bench.py

# Constant-time check: every tests/c/ctime_*.c is built with P256_CTIME_TEST (secrets
# marked undefined) at the release optimization level and run under valgrind memcheck,
# which fails on any branch or memory index that depends on a secret.
CTIME_FLAGS ?= -O3 -g -std=c99 -Wall -Wextra -Werror -Icsrc -DP256_CTIME_TEST
CTIMES      := $(wildcard tests/c/ctime_*.c)

ctime:
	@command -v valgrind >/dev/null || { echo "ctime: valgrind is required (apt-get install valgrind)"; exit 1; }
	@mkdir -p tests/c/bin
	@set -e; for t in $(CTIMES); do \
	    b=tests/c/bin/$$(basename $$t .c); \
	    echo "ctime: $$b"; \
	    $(CC) $(CTIME_FLAGS) -o $$b $$t; \
	    valgrind -q --error-exitcode=1 --track-origins=yes $$b; \
	done
	@$(CC) $(CTIME_FLAGS) -o tests/c/bin/canary_ctime tests/c/canary_ctime.c
	@if valgrind -q --error-exitcode=1 tests/c/bin/canary_ctime >/dev/null 2>&1; then \
	    echo "ctime: the canary's secret-dependent branch went unreported: the check is broken"; \
	    exit 1; \
	else \
	    echo "ctime: canary caught (the check works)"; \
	fi

clean:
	rm -rf $(VENV) build dist tests/c/bin
