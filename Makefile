# make test / make bench: create .venv when missing, install p256 with its extras, run.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)

.PHONY: test ctest bench install clean

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): $(VPY) $(SOURCES)
	$(VPY) -m pip install -q '.[test,bench]'
	touch $@

install: $(STAMP)

test: $(STAMP) ctest
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

clean:
	rm -rf $(VENV) build dist tests/c/bin
