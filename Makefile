# make test / make bench: create .venv when missing, install p256 with its extras, run.
PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.p256-installed
SOURCES := pyproject.toml meson.build $(shell find src csrc tools -type f -not -name '*.pyc' 2>/dev/null)

.PHONY: test bench install clean

$(VPY):
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install -q --upgrade pip

$(STAMP): $(VPY) $(SOURCES)
	$(VPY) -m pip install -q '.[test,bench]'
	touch $@

install: $(STAMP)

test: $(STAMP)
	$(VPY) -m pytest -q

bench: $(STAMP)
	$(VPY) benchmarks/bench.py

clean:
	rm -rf $(VENV) build dist tests/c/bin
